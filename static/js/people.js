// The people parts of the room page: your seat on another device (seat link, QR code, asking
// for a seat back), presence and clocks at the table, letting a bot play for an absent player,
// leaving, the table chat and your-turn notifications. The room page calls `createPeople` once
// and tells it of every room body, state and chat message.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import {
  addMessage,
  CLOCKS,
  countdownWords,
  initial,
  mayRemove,
  mayStandIn,
  presenceWords,
  seatFromHash,
  shouldNotify,
  visibleMessages,
} from "./people-kit.js";
import { seats, store } from "./storage.js";

const $ = (id) => document.getElementById(id);
const MUTED_KEY = "motable.muted";
const NOTIFY_KEY = "motable.notify";
const ASKED_KEY = "motable.asked";

function readJson(storage, key, fallback) {
  try {
    return JSON.parse(storage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

/**
 * ctx: { roomId, seat() (this browser's seat entry or null), room(), state(), title(),
 *        seatTaken(entry) (a seat came to this browser), forgotten() (this browser let go),
 *        announce(text), refreshRoom() }
 */
export function createPeople(ctx) {
  const roomId = ctx.roomId;
  let messages = [];
  let linkFor = null; // the token whose seat link is drawn
  let asking = readJson(store, ASKED_KEY, {})[roomId] || null;
  let pollTimer = null;

  const muted = () => readJson(store, MUTED_KEY, {})[roomId] || [];
  function setMuted(list) {
    const all = readJson(store, MUTED_KEY, {});
    all[roomId] = list;
    store.setItem(MUTED_KEY, JSON.stringify(all));
  }
  const mySeat = () => ctx.seat()?.seat ?? null;
  const token = () => ctx.seat()?.token ?? null;

  async function post(path, body, method = "POST") {
    return api(method, `/api/rooms/${roomId}/${path}`, { body, token: token() });
  }

  function say(node, error) {
    node.textContent = error ? error.message || String(error) : "";
    node.hidden = !error;
  }

  // -------------------------------------------------------------------------
  // Your seat on another device

  /** A `#seat=<token>` link opened here: check it, keep the seat, clean the address bar. */
  async function adoptSeatLink() {
    const found = seatFromHash(location.hash);
    if (!found) return false;
    // Out of the address bar (and so out of history and bookmarks) before anything else.
    history.replaceState(null, "", location.pathname + location.search);
    try {
      const state = await api("GET", `/api/rooms/${roomId}/state`, { token: found });
      const room = await api("GET", `/api/rooms/${roomId}`);
      const name = room.seats.find((s) => s.seat === state.seat)?.name || "";
      seats.save(roomId, { seat: state.seat, token: found, name, game: room.game, status: room.status });
      ctx.announce(`You are playing as ${name} on this device.`);
      return true;
    } catch {
      ctx.announce("That seat link no longer works; ask the others for your seat back.");
      return false;
    }
  }

  async function drawSeatLink(box) {
    const entry = ctx.seat();
    if (!entry || !box) return;
    if (box.dataset.token === entry.token) return;
    box.dataset.token = entry.token;
    try {
      const link = await api("GET", `/api/rooms/${roomId}/seat-link`, { token: entry.token });
      const url = box.querySelector(".seat-link-url");
      url.value = link.url;
      // The SVG is the server's own QR rendering of this URL; shown as an image (a data: URL, which
      // the Content-Security-Policy allows), never parsed as markup into the page.
      const img = box.querySelector("img.seat-qr");
      img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(link.qr_svg)}`;
      img.alt = `QR code of ${entry.name}'s private seat link`;
      linkFor = entry.token;
    } catch (error) {
      box.dataset.token = "";
      console.warn("seat link failed", error);
    }
  }

  function showSeatKeep() {
    const panel = $("seat-keep");
    panel.hidden = false;
    drawSeatLink(panel);
  }

  function openSeatDialog() {
    const dialog = $("seat-dialog");
    const entry = ctx.seat();
    if (!entry) return;
    $("seat-dialog-who").textContent = `You play as ${entry.name}.`;
    $("forget-confirm").hidden = true;
    $("forget-button").hidden = false;
    const room = ctx.room();
    $("leave-button").hidden = room?.status !== "playing";
    $("notify-toggle").checked = store.getItem(NOTIFY_KEY) === "on" && notificationPermission() === "granted";
    drawSeatLink(dialog);
    dialog.showModal();
  }

  function forgetAsked() {
    const entry = ctx.seat();
    const words = $("forget-words");
    words.textContent =
      `This browser stops holding ${entry?.name || "your"} seat. ` +
      "Unless you kept your seat link, only the other players can give it back to you, " +
      (ctx.room()?.status === "playing" ? "and the game waits for you meanwhile." : "when you ask.");
    $("forget-confirm").hidden = false;
    $("forget-button").hidden = true;
    $("forget-yes").focus();
  }

  function forgetConfirmed() {
    seats.forget(roomId);
    $("seat-dialog").close();
    ctx.forgotten();
  }

  async function leaveGame(event) {
    const button = event.currentTarget;
    if (button.dataset.sure !== "yes") {
      button.dataset.sure = "yes";
      button.textContent = "Leave for good: a bot takes your seat";
      return;
    }
    try {
      await post("leave", {});
      seats.forget(roomId);
      $("seat-dialog").close();
      ctx.forgotten();
    } catch (error) {
      say($("seat-dialog-error"), error);
    }
  }

  // -------------------------------------------------------------------------
  // Asking for a seat back

  function remember(request) {
    const all = readJson(store, ASKED_KEY, {});
    if (request) all[roomId] = request;
    else delete all[roomId];
    store.setItem(ASKED_KEY, JSON.stringify(all));
    asking = request;
  }

  async function askForSeat(seat) {
    try {
      const asked = await api("POST", `/api/rooms/${roomId}/seat-requests`, { body: { seat: seat.seat } });
      remember({ ...asked, name: seat.name });
      ctx.announce(`Asked for ${seat.name}'s seat. A player must approve it.`);
      poll();
      update();
      ctx.redraw();
    } catch (error) {
      say($("people-error"), error);
    }
  }

  // "This is my seat" beside a player's name, for a visitor without a seat here (in the
  // waiting room's list and at the table alike), or null.
  function claimButton(seat, room = ctx.room()) {
    if (mySeat() !== null || seat.bot || asking || !room || room.status === "finished") return null;
    return h("button", { class: "link-button claim-button", type: "button", onclick: () => askForSeat(seat) }, "This is my seat");
  }

  async function poll() {
    clearTimeout(pollTimer);
    if (!asking) return;
    try {
      const status = await api("GET", `/api/rooms/${roomId}/seat-requests/${asking.request_id}`);
      if (status.status === "approved") {
        const room = ctx.room();
        seats.save(roomId, { seat: asking.seat, token: asking.token, name: asking.name, game: room?.game });
        remember(null);
        ctx.seatTaken(seats.get(roomId));
        ctx.announce(`Approved: you play as ${seats.get(roomId).name} again.`);
        return;
      }
      if (status.status === "refused" || status.status === "expired") {
        remember(null);
        const why = status.status === "refused"
          ? "Your request for that seat was refused."
          : "Nobody answered your request for that seat in time. You can ask again.";
        say($("people-error"), new Error(why));
        update();
        ctx.redraw();
        return;
      }
    } catch {
      // Try again at the next poll.
    }
    pollTimer = setTimeout(poll, 3000);
  }

  async function answer(request, approve) {
    try {
      await post(`seat-requests/${request.id}/${approve ? "approve" : "refuse"}`, {});
      ctx.refreshRoom();
    } catch (error) {
      say($("people-error"), error);
      // The request may have been answered elsewhere or lapsed: show the room as it is now.
      ctx.refreshRoom();
    }
  }

  // -------------------------------------------------------------------------
  // At the table: presence, clocks, bots standing in

  async function seatAction(path, method = "POST") {
    try {
      await post(path, undefined, method);
      say($("people-error"), null);
      ctx.refreshRoom();
    } catch (error) {
      say($("people-error"), error);
    }
  }

  function seatRow(seat, room, state) {
    const me = mySeat();
    const now = Date.now();
    const presence = presenceWords(seat, now);
    const acting = room.status === "playing" && (state?.to_act || []).includes(seat.seat);
    const clock = acting && room.deadline ? h("span", { class: "countdown", "data-deadline": room.deadline }, countdownWords(Date.parse(room.deadline) - now)) : null;
    const isMuted = muted().includes(seat.seat);
    const buttons = [];
    if (mayStandIn(room, state, seat, me, now)) {
      buttons.push(h("button", { class: "button button-small", type: "button", onclick: () => seatAction(`seats/${seat.seat}/bot`) }, "Let a bot play"));
    }
    if (seat.stand_in && seat.seat === me) {
      buttons.push(h("button", { class: "button button-small button-primary", type: "button", onclick: () => seatAction(`seats/${seat.seat}/bot`, "DELETE") }, "I'm back: play myself"));
    }
    if (mayRemove(room, seat, me, now)) {
      buttons.push(h("button", { class: "button button-small", type: "button", onclick: () => seatAction(`seats/${seat.seat}/remove`) }, "Remove"));
    }
    const claim = claimButton(seat, room);
    if (claim) buttons.push(claim);
    if (seat.seat !== me && !seat.bot) {
      buttons.push(
        h(
          "button",
          {
            class: "link-button mute-button",
            type: "button",
            "aria-pressed": String(isMuted),
            onclick: () => {
              setMuted(isMuted ? muted().filter((s) => s !== seat.seat) : [...muted(), seat.seat]);
              update();
              drawChat();
            },
          },
          isMuted ? "Unmute" : "Mute",
        ),
      );
    }
    return h(
      "li",
      { class: `people-row${acting ? " is-acting" : ""}${seat.seat === me ? " is-you" : ""}`, "data-seat": seat.seat },
      h("span", { class: "avatar", "aria-hidden": "true" }, initial(seat.name)),
      h(
        "span",
        { class: "people-name" },
        seat.name,
        seat.seat === me ? h("span", { class: "tag" }, "you") : null,
        seat.seat === room.host_seat ? h("span", { class: "tag" }, "host") : null,
      ),
      h("span", { class: `presence is-${presence.kind}` }, presence.words),
      clock,
      buttons.length ? h("span", { class: "people-buttons" }, buttons) : null,
    );
  }

  function requestRow(request, room) {
    const name = room.seats.find((s) => s.seat === request.seat)?.name || `Seat ${request.seat + 1}`;
    const me = mySeat();
    const canAnswer = me !== null && me !== request.seat;
    return h(
      "li",
      { class: "seat-request" },
      h("span", {}, `Someone asks for ${name}'s seat.`),
      canAnswer
        ? h(
            "span",
            { class: "people-buttons" },
            h("button", { class: "button button-small button-primary", type: "button", onclick: () => answer(request, true) }, "Approve"),
            h("button", { class: "button button-small", type: "button", onclick: () => answer(request, false) }, "Refuse"),
          )
        : me === request.seat
          ? h("span", { class: "muted small" }, " If it is not you on another device, ask the others to refuse.")
          : null,
    );
  }

  function update() {
    const room = ctx.room();
    if (!room) return;
    const state = ctx.state();
    const list = $("people-list");
    // Redrawn only when something shown changed (a redraw would take the focus off a button).
    const now = Date.now();
    const me = mySeat();
    const key = JSON.stringify([
      room.seats.map((s) => [s.name, presenceWords(s, now).words, mayStandIn(room, state, s, me, now), mayRemove(room, s, me, now)]),
      room.host_seat,
      room.status,
      room.deadline,
      state?.to_act,
      me,
      muted(),
      Boolean(asking),
    ]);
    if (list.dataset.key !== key) {
      list.dataset.key = key;
      fill(list, room.seats.map((s) => seatRow(s, room, state)));
    }
    // A request nobody answered lapses at `expires` (the room body is not sent again for that).
    const requests = (room.seat_requests || []).filter((r) => !r.expires || Date.parse(r.expires) > Date.now());
    $("seat-requests").hidden = requests.length === 0;
    fill($("seat-requests"), requests.map((r) => requestRow(r, room)));
    $("asking-note").hidden = !asking;
    if (asking) $("asking-note").textContent = `You asked for ${asking.name}'s seat; waiting for a player to approve…`;
    $("people-clock").textContent = room.clock ? `Clock: ${clockWords(room.clock)} a move` : "";
    $("seat-menu-button").hidden = !ctx.seat();
    updateClockChoice(room);
    updateChatForm(room);
    placeChat(room);
    placeRequests(room);
    const entry = ctx.seat();
    if (entry && linkFor && linkFor !== entry.token) {
      $("seat-keep").dataset.token = "";
      $("seat-dialog").dataset.token = "";
    }
  }

  function clockWords(seconds) {
    const named = CLOCKS.find(([value]) => value === seconds);
    if (named) return named[1].replace(" a move", "");
    return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
  }

  function updateClockChoice(room) {
    const field = $("clock-field");
    const isHost = mySeat() !== null && mySeat() === room.host_seat;
    field.hidden = !isHost || room.status !== "waiting";
    if (field.hidden) return;
    const select = $("clock-choice");
    if (!select.options.length) {
      fill(select, CLOCKS.map(([value, words]) => h("option", { value: value === null ? "" : String(value) }, words)));
    }
    const value = room.clock === null || room.clock === undefined ? "" : String(room.clock);
    if (![...select.options].some((o) => o.value === value)) {
      select.append(h("option", { value }, `${clockWords(room.clock)} a move`));
    }
    if (document.activeElement !== select) select.value = value;
  }

  async function clockChosen(event) {
    const value = event.currentTarget.value;
    try {
      await post("clock", { seconds: value === "" ? null : Number(value) });
      ctx.refreshRoom();
    } catch (error) {
      say($("people-error"), error);
    }
  }

  let ticks = 0;
  function tick() {
    const now = Date.now();
    // "gone 3 min" and what the others may do change with time alone.
    ticks += 1;
    if (ticks % 5 === 0) update();
    for (const node of document.querySelectorAll(".countdown[data-deadline]")) {
      const left = Date.parse(node.dataset.deadline) - now;
      node.textContent = left > 0 ? countdownWords(left) : "time's up";
      node.classList.toggle("is-late", left <= 0);
      node.classList.toggle("is-short", left > 0 && left < 15000);
    }
  }

  // -------------------------------------------------------------------------
  // Chat

  // Seat requests, the "you asked" note and errors live with whichever seat list is on
  // screen: the waiting room's before the start, the table's people panel after it.
  function placeRequests(room) {
    const list = room.status === "waiting" ? $("seat-list") : $("people-list");
    const nodes = ["seat-requests", "asking-note", "people-error"].map($);
    if (nodes[0].previousElementSibling !== list) list.after(...nodes);
  }

  function placeChat(room) {
    const panel = $("chat-panel");
    const home = room.status === "waiting" ? $("waiting-panel") : document.querySelector("#game-panel .side");
    if (home && panel.parentElement !== home) home.append(panel);
    panel.hidden = false;
  }

  function updateChatForm(room) {
    const me = mySeat();
    const canWrite = me !== null || room.chat_spectators;
    $("chat-form").hidden = !canWrite;
    $("chat-readonly").hidden = canWrite;
    $("chat-spectator-name").hidden = me !== null;
    const isHost = me !== null && me === room.host_seat;
    $("chat-spectators-field").hidden = !isHost;
    $("chat-spectators").checked = Boolean(room.chat_spectators);
  }

  function drawChat() {
    const log = $("chat-log");
    const shown = visibleMessages(messages, muted());
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    fill(
      log,
      shown.map((m) =>
        h(
          "li",
          { class: `chat-message${m.seat !== null && m.seat === mySeat() ? " is-mine" : ""}` },
          h("b", { class: "chat-name" }, m.name),
          " ",
          h("span", { class: "chat-text" }, m.text),
        ),
      ),
    );
    $("chat-empty").hidden = shown.length > 0;
    if (atBottom) log.scrollTop = log.scrollHeight;
    ctx.chatShown();
  }

  /** The messages this reader sees (muted players left out), oldest first: the table's log
   * shows them too. */
  function shownMessages() {
    return visibleMessages(messages, muted());
  }

  function chat(message) {
    const fresh = !messages.some((m) => m.id === message.id);
    messages = addMessage(messages, message);
    drawChat();
    if (fresh && message.seat !== mySeat() && !muted().includes(message.seat)) {
      const chatLog = $("chat-log");
      chatLog.dataset.unread = "yes";
    }
  }

  async function loadChat() {
    try {
      const body = await api("GET", `/api/rooms/${roomId}/chat`);
      for (const message of body.messages) messages = addMessage(messages, message);
      drawChat();
    } catch (error) {
      console.warn("chat failed to load", error);
    }
  }

  async function send(event) {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    const body = { text };
    const spectatorName = $("chat-spectator-name").value.trim();
    if (mySeat() === null && spectatorName) body.name = spectatorName;
    $("chat-send").disabled = true;
    try {
      const message = await api("POST", `/api/rooms/${roomId}/chat`, { body, token: token() });
      chat(message);
      input.value = "";
      say($("chat-error"), null);
    } catch (error) {
      say($("chat-error"), error);
    } finally {
      $("chat-send").disabled = false;
      input.focus();
    }
  }

  async function spectatorsChanged(event) {
    try {
      await post("chat/settings", { spectators: event.currentTarget.checked });
      ctx.refreshRoom();
    } catch (error) {
      say($("chat-error"), error);
    }
  }

  // -------------------------------------------------------------------------
  // Your-turn notifications

  function notificationPermission() {
    return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
  }

  async function notifyToggled(event) {
    const box = event.currentTarget;
    if (!box.checked) {
      store.setItem(NOTIFY_KEY, "off");
      return;
    }
    if (notificationPermission() === "unsupported") {
      box.checked = false;
      say($("seat-dialog-error"), new Error("This browser cannot show notifications."));
      return;
    }
    const permission = notificationPermission() === "granted" ? "granted" : await Notification.requestPermission();
    box.checked = permission === "granted";
    store.setItem(NOTIFY_KEY, box.checked ? "on" : "off");
    if (!box.checked) say($("seat-dialog-error"), new Error("Notifications are blocked for this site in the browser's settings."));
  }

  function turn(myTurn, wasMyTurn) {
    const wanted = shouldNotify({
      myTurn,
      wasMyTurn,
      hidden: document.visibilityState === "hidden",
      permission: notificationPermission(),
      optedIn: store.getItem(NOTIFY_KEY) === "on",
    });
    if (!wanted) return false;
    try {
      const note = new Notification(`Your turn · ${ctx.title()}`, { body: "The table is waiting for you.", tag: `motable-${roomId}` });
      note.onclick = () => {
        window.focus();
        note.close();
      };
      return true;
    } catch {
      return false;
    }
  }

  // -------------------------------------------------------------------------

  function start() {
    $("seat-menu-button").addEventListener("click", openSeatDialog);
    $("seat-dialog-close").addEventListener("click", () => $("seat-dialog").close());
    $("forget-button").addEventListener("click", forgetAsked);
    $("forget-yes").addEventListener("click", forgetConfirmed);
    $("forget-no").addEventListener("click", () => {
      $("forget-confirm").hidden = true;
      $("forget-button").hidden = false;
    });
    $("leave-button").addEventListener("click", leaveGame);
    $("notify-toggle").addEventListener("change", notifyToggled);
    $("seat-keep-close").addEventListener("click", () => {
      $("seat-keep").hidden = true;
    });
    $("clock-choice").addEventListener("change", clockChosen);
    $("chat-form").addEventListener("submit", send);
    $("chat-spectators").addEventListener("change", spectatorsChanged);
    $("chat-input").addEventListener("focus", () => delete $("chat-log").dataset.unread);
    setInterval(tick, 1000);
    loadChat();
    if (asking) poll();
  }

  return { start, adoptSeatLink, showSeatKeep, update, chat, turn, loadChat, claimButton, shownMessages };
}
