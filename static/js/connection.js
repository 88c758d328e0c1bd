// The live connection to one room: a snapshot, then JSON patches applied to a private copy,
// actions sent and answered, and reconnection with backoff. It touches no DOM; the socket
// and the page's address are injected, so it runs (and is tested) outside a browser too.

import { ApiError } from "./api.js";
import { t } from "./i18n.js";
import { applyPatch, deepEqual } from "./patch.js";

// Reconnecting: a quick first try (a blip), then a probe about every second while a restart is
// likely under way (BACKOFF_PROBES tries: 15 to 30 s), then doubling up to a cap for a server that
// stays down. Each wait is drawn between half and all of its step, so a page reconnects within about
// a second of a restarted server listening again, and the pages of a whole table spread their
// returns over that second rather than all arriving in the same instant.
const BACKOFF_FIRST_MS = 250;
const BACKOFF_PROBE_MS = 1000;
const BACKOFF_PROBES = 30;
const BACKOFF_MAX_MS = 8000;
const OPEN = 1; // WebSocket.OPEN
const POLICY_VIOLATION = 1008;
const RESYNC = 4000;

/** The wait before reconnect attempt `attempt` (0-based): 125-250 ms, then 0.5-1 s for
 * BACKOFF_PROBES attempts, then doubling from 2 s to the cap, each drawn in [half, all] of its step
 * (jitter that never makes a wait longer than its step). The socket gives a page no status or
 * Retry-After of a refused upgrade (a 503 from a full server closes it like any drop), so the
 * schedule itself stays gentle: a try every 0.5-1 s after the first, fewer and fewer later. */
export function backoff(attempt, random = Math.random) {
  let step;
  if (attempt <= 0) step = BACKOFF_FIRST_MS;
  else if (attempt <= BACKOFF_PROBES) step = BACKOFF_PROBE_MS;
  else step = Math.min(BACKOFF_MAX_MS, BACKOFF_PROBE_MS * 2 ** (attempt - BACKOFF_PROBES));
  return step * (0.5 + random() * 0.5);
}

/**
 * Keeps the latest state body of a room up to date over the WebSocket.
 * Events (subscribe with `on(name, fn)`):
 *   "state"  (state, previous)   after a snapshot or patch
 *   "room"   (room)              when seats, status or the score pad change
 *   "chat"   (message)           a table chat message
 *   "status" (status, detail)    "connecting" | "open" | "reconnecting" | "rejected"
 *
 * A seat's token never goes in the URL (addresses end up in logs): the socket opens as a
 * spectator and sends `{"type": "auth", token}`; the server answers with the seat's snapshot.
 */
export class RoomConnection {
  constructor(roomId, token, { openSocket = (url) => new WebSocket(url), origin = globalThis.location } = {}) {
    this.roomId = roomId;
    this.token = token || null;
    this.openSocket = openSocket;
    this.origin = origin;
    this.state = null;
    this.version = null;
    this.status = "connecting";
    this.socket = null;
    this.authed = false;
    this.pending = new Map();
    this.listeners = new Map();
    this.attempts = 0;
    this.retryTimer = null;
    this.closedByUs = false;
    this.resyncing = false;
    this.nextId = 1;
  }

  on(name, fn) {
    if (!this.listeners.has(name)) this.listeners.set(name, []);
    this.listeners.get(name).push(fn);
    return this;
  }

  emit(name, ...args) {
    for (const fn of this.listeners.get(name) || []) {
      try {
        fn(...args);
      } catch (error) {
        console.error(error);
      }
    }
  }

  setStatus(status, detail) {
    this.status = status;
    this.emit("status", status, detail);
  }

  url() {
    const scheme = this.origin.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${this.origin.host}/ws/rooms/${encodeURIComponent(this.roomId)}`;
  }

  connect() {
    this.closedByUs = false;
    this.authed = !this.token;
    clearTimeout(this.retryTimer);
    const socket = this.openSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (this.token) socket.send(JSON.stringify({ type: "auth", token: this.token }));
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => this.dropped(socket, event));
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.retryTimer);
    if (this.socket) this.socket.close();
  }

  /** Drop the socket and start over from a fresh snapshot. */
  resync() {
    this.resyncing = true;
    if (this.socket) this.socket.close(RESYNC, "resync");
  }

  receive(raw) {
    let message;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    switch (message.type) {
      case "snapshot":
        // With a token, the spectator's snapshot (and its patches) until the seat's own
        // snapshot arrives are not this player's table: showing them would flash the wrong view.
        if (!this.authed && (message.state?.seat === null || message.state?.seat === undefined)) return;
        this.authed = true;
        this.show(message.state, message.version);
        this.attempts = 0;
        this.setStatus("open");
        break;
      case "patch": {
        if (this.state === null || !this.authed) return;
        let next;
        try {
          // Patch a copy: every state handed out stays as it was, so renderers may keep references.
          next = applyPatch(structuredClone(this.state), message.ops);
        } catch (error) {
          // A patch that does not fit means we missed something: start over.
          console.warn("patch did not apply, resyncing", error);
          this.resync();
          return;
        }
        this.show(next, message.version);
        break;
      }
      case "room":
        this.emit("room", message.room);
        break;
      case "chat":
        this.emit("chat", message.message);
        break;
      case "ack":
      case "error": {
        const waiting = this.pending.get(message.id);
        if (!waiting) return;
        this.pending.delete(message.id);
        if (message.type === "ack") waiting.resolve();
        else waiting.reject(new ApiError(409, message.error.code, message.error.message));
        break;
      }
      default:
        break;
    }
  }

  show(state, version) {
    const previous = this.state;
    this.state = state;
    this.version = version;
    this.emit("state", state, previous);
  }

  dropped(socket, event) {
    if (socket !== this.socket) return;
    for (const waiting of this.pending.values()) {
      waiting.reject(new ApiError(0, "offline", t("The connection dropped before the server answered.")));
    }
    this.pending.clear();
    if (this.closedByUs) return;
    if (event.code === POLICY_VIOLATION) {
      this.setStatus("rejected", event.reason);
      return;
    }
    if (this.resyncing) {
      // Our own resync: come straight back for a fresh snapshot, no banner.
      this.resyncing = false;
      this.connect();
      return;
    }
    const wait = backoff(this.attempts);
    this.attempts += 1;
    this.setStatus("reconnecting", { attempt: this.attempts, wait });
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  /** Send an action exactly as listed in legal_actions. Resolves on ack.
   * When someone else moved first (stale_version) and the newer state still offers the same
   * action — everyone choosing at once, say — it is sent once more at the new version. */
  async act(action) {
    const sentAt = this.version;
    try {
      return await this.send(action);
    } catch (error) {
      const offered = (this.state?.legal_actions || []).some((legal) => deepEqual(legal, action));
      if (error.code !== "stale_version" || this.version === sentAt || !offered) throw error;
      return this.send(action);
    }
  }

  send(action) {
    if (!this.socket || this.socket.readyState !== OPEN || !this.authed) {
      return Promise.reject(new ApiError(0, "offline", t("Not connected; your move was not sent.")));
    }
    const id = `a${Date.now().toString(36)}-${this.nextId++}`;
    const message = { type: "action", id, action, version: this.version };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify(message));
    });
  }
}
