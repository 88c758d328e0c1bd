// Client core shared by every page and game: HTTP calls, saved seats, JSON Patch,
// and the live room connection (snapshot, patches, actions, reconnection).

/** An error body from the API, `{"error": {"code", "message"}}`, as an exception. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "offline", "The server cannot be reached right now.");
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code || "http_error", error.message || response.statusText);
  }
  return data;
}

// ---------------------------------------------------------------------------
// Seats this browser holds. The token is the only proof of a seat, so it lives
// in localStorage keyed by room id: reopening the link returns to the same seat.

const SEATS_KEY = "motable.seats";
const NAME_KEY = "motable.name";

function readSeats() {
  try {
    const seats = JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
    return seats && typeof seats === "object" ? seats : {};
  } catch {
    return {};
  }
}

export const seats = {
  all() {
    return readSeats();
  },
  get(roomId) {
    return readSeats()[roomId] || null;
  },
  save(roomId, entry) {
    const all = readSeats();
    all[roomId] = { ...all[roomId], ...entry, room_id: roomId, saved_at: Date.now() };
    localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  },
  forget(roomId) {
    const all = readSeats();
    delete all[roomId];
    localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  },
};

export const playerName = {
  get() {
    return localStorage.getItem(NAME_KEY) || "";
  },
  set(name) {
    localStorage.setItem(NAME_KEY, name);
  },
};

// ---------------------------------------------------------------------------
// RFC 6902 JSON Patch, applied to a private copy of the last state body.

function unescapePointer(token) {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

function parsePointer(pointer) {
  if (pointer === "") return [];
  if (pointer[0] !== "/") throw new Error(`bad JSON pointer ${pointer}`);
  return pointer.slice(1).split("/").map(unescapePointer);
}

function arrayIndex(array, token, allowEnd) {
  if (token === "-" && allowEnd) return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`bad array index ${token}`);
  const index = Number(token);
  if (index > array.length || (!allowEnd && index === array.length)) throw new Error(`index ${token} out of range`);
  return index;
}

function parentOf(doc, path) {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return { parent: null, key: null };
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(node)) node = node[arrayIndex(node, token, false)];
    else if (node !== null && typeof node === "object" && Object.hasOwn(node, token)) node = node[token];
    else throw new Error(`path ${path} does not exist`);
  }
  if (node === null || typeof node !== "object") throw new Error(`path ${path} has no container`);
  return { parent: node, key: tokens[tokens.length - 1] };
}

function getAt(doc, path) {
  let node = doc;
  for (const token of parsePointer(path)) {
    if (Array.isArray(node)) node = node[arrayIndex(node, token, false)];
    else if (node !== null && typeof node === "object" && Object.hasOwn(node, token)) node = node[token];
    else throw new Error(`path ${path} does not exist`);
  }
  return node;
}

function clone(value) {
  return value === undefined ? undefined : structuredClone(value);
}

function addAt(doc, path, value) {
  const { parent, key } = parentOf(doc, path);
  if (parent === null) return value;
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, value);
  else parent[key] = value;
  return doc;
}

function removeAt(doc, path) {
  const { parent, key } = parentOf(doc, path);
  if (parent === null) throw new Error("cannot remove the whole document");
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false), 1);
  else if (Object.hasOwn(parent, key)) delete parent[key];
  else throw new Error(`path ${path} does not exist`);
  return doc;
}

function deepEqual(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Apply `ops` to `doc` (which is changed in place) and return the result.
 * Throws on any operation that does not apply, so the caller can resync. */
export function applyPatch(doc, ops) {
  let result = doc;
  for (const op of ops) {
    switch (op.op) {
      case "add":
        result = addAt(result, op.path, clone(op.value));
        break;
      case "remove":
        result = removeAt(result, op.path);
        break;
      case "replace":
        if (op.path === "") result = clone(op.value);
        else {
          getAt(result, op.path);
          const { parent, key } = parentOf(result, op.path);
          if (Array.isArray(parent)) parent[arrayIndex(parent, key, false)] = clone(op.value);
          else parent[key] = clone(op.value);
        }
        break;
      case "move": {
        const value = getAt(result, op.from);
        result = removeAt(result, op.from);
        result = addAt(result, op.path, value);
        break;
      }
      case "copy":
        result = addAt(result, op.path, clone(getAt(result, op.from)));
        break;
      case "test":
        if (!deepEqual(getAt(result, op.path), op.value)) throw new Error(`test failed at ${op.path}`);
        break;
      default:
        throw new Error(`unknown patch op ${op.op}`);
    }
  }
  return result;
}

// ---------------------------------------------------------------------------
// The live connection to one room.

const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 8000;

/**
 * Keeps the latest state body of a room up to date over the WebSocket.
 * Events (subscribe with `on(name, fn)`):
 *   "state"  (state, previous)   after a snapshot or patch
 *   "room"   (room)              when seats or status change
 *   "status" (status, detail)    "connecting" | "open" | "reconnecting" | "rejected"
 */
export class RoomConnection {
  constructor(roomId, token) {
    this.roomId = roomId;
    this.token = token || null;
    this.state = null;
    this.version = null;
    this.status = "connecting";
    this.socket = null;
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
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${scheme}://${location.host}/ws/rooms/${encodeURIComponent(this.roomId)}${query}`;
  }

  connect() {
    this.closedByUs = false;
    clearTimeout(this.retryTimer);
    const socket = new WebSocket(this.url());
    this.socket = socket;
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
    if (this.socket) this.socket.close(4000, "resync");
  }

  receive(raw) {
    let message;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    switch (message.type) {
      case "snapshot": {
        const previous = this.state;
        this.state = message.state;
        this.version = message.version;
        this.attempts = 0;
        this.setStatus("open");
        this.emit("state", this.state, previous);
        break;
      }
      case "patch": {
        if (this.state === null) return;
        const previous = this.state;
        let next;
        try {
          // Patch a copy: every state handed out stays as it was, so renderers may keep references.
          next = applyPatch(structuredClone(previous), message.ops);
        } catch (error) {
          // A patch that does not fit means we missed something: start over.
          console.warn("patch did not apply, resyncing", error);
          this.resync();
          return;
        }
        this.state = next;
        this.version = message.version;
        this.emit("state", next, previous);
        break;
      }
      case "room":
        this.emit("room", message.room);
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

  dropped(socket, event) {
    if (socket !== this.socket) return;
    for (const waiting of this.pending.values()) {
      waiting.reject(new ApiError(0, "offline", "The connection dropped before the server answered."));
    }
    this.pending.clear();
    if (this.closedByUs) return;
    if (event.code === 1008) {
      this.setStatus("rejected", event.reason);
      return;
    }
    if (this.resyncing) {
      // Our own resync: come straight back for a fresh snapshot, no banner.
      this.resyncing = false;
      this.connect();
      return;
    }
    // Exponential backoff with jitter so a restarted server is not stampeded.
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this.attempts);
    this.attempts += 1;
    const wait = delay * (0.75 + Math.random() * 0.5);
    this.setStatus("reconnecting", { attempt: this.attempts, wait });
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  /** Send an action exactly as listed in legal_actions. Resolves on ack. */
  act(action) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new ApiError(0, "offline", "Not connected; your move was not sent."));
    }
    const id = `a${Date.now().toString(36)}-${this.nextId++}`;
    const message = { type: "action", id, action, version: this.version };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify(message));
    });
  }
}

// ---------------------------------------------------------------------------
// Game renderers. Each game has `static/js/games/<game-id>.js` exporting
// `mount(root, ctx)` that returns `{ update(state, room), destroy() }`; the room
// page loads it by id, so a new game needs no change here.

export async function loadRenderer(gameId) {
  if (!/^[a-z][a-z0-9-]*$/.test(gameId)) throw new Error(`bad game id ${gameId}`);
  try {
    return await import(`/static/js/games/${gameId}.js`);
  } catch (error) {
    console.warn(`no renderer for ${gameId}, using the generic one`, error);
    return import("/static/js/games/generic.js");
  }
}

/** Small helper for building DOM without innerHTML on untrusted text. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace a node's children, skipping null/false so optional parts can be written inline. */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/** How many events at the end of `events` are new since `before` (both newest last). */
export function countFresh(before, events) {
  const key = (e) => JSON.stringify(e);
  const old = before.map(key);
  const now = events.map(key);
  // The list is a sliding window: the longest tail of `old` that starts `now` is what we had.
  for (let start = 0; start < old.length; start += 1) {
    const tail = old.slice(start);
    if (tail.length <= now.length && tail.every((k, i) => k === now[i])) return now.length - tail.length;
  }
  return now.length;
}

/** "Ann", "Ann and Bo", "Ann, Bo and Cy". */
export function listWords(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
