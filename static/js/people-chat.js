// The table chat: its messages (from the socket and `GET …/chat`), muting spectators by their
// shown name, the form (players, and spectators when the host allows), where the chat sits
// (the waiting room before the deal, the table's side after), and the chat note: while the chat
// is out of sight, a new message floats in the request layer for a moment, then stays as an
// unread badge until the chat is in view. The table's own lines (`kind: "seat"`) have no author
// and cannot be muted.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { addMessage, chatNews, chatNoteWords, isSeatLine, muteKey, toggleMuted, visibleMessages, writerName } from "./people-kit.js";
import { $, say } from "./room-page.js";

/** ctx: { roomId, prefs (people-prefs.js), mySeat(), token(), post(path, body), refreshRoom(),
 *         chatShown() (the table redraws its log) } */
export function createChat(ctx) {
  const { roomId, prefs } = ctx;
  let messages = [];
  // The names this page wrote under as a spectator (its own messages get no mute button).
  const myNames = new Set();
  // The chat note: messages come while the chat is out of sight, the newest shown for a moment.
  const NOTE_SHOWN_MS = 8000;
  let unread = 0;
  let latest = null;
  let noteOpen = false;
  let noteTimer = null;
  let chatInView = false;
  let spectatorsAsked = null; // the host's own change of "spectators may write", until the room says it

  function drawNote() {
    const node = $("chat-note");
    const words = chatNoteWords(unread, latest, { open: noteOpen });
    node.hidden = !words;
    if (!words) {
      node.replaceChildren();
      return;
    }
    node.dataset.kind = words.kind;
    const open = h("button", { class: "button button-small button-primary chat-note-open", type: "button", onclick: openChat }, t("Open the chat"));
    // Translators: a chat message's author, as "Ann:" before the message.
    const author = t("{name}:", { name: words.name });
    fill(
      node,
      words.kind === "message"
        ? h("p", { class: "chat-note-text" }, h("b", {}, author), " ", words.text)
        : h("p", { class: "chat-note-text" }, h("span", { class: "chat-note-badge", "aria-hidden": "true" }, String(unread)), " ", words.text),
      open,
      // Put away: the message folds into the unread badge at once.
      words.kind === "message" ? h("button", { class: "icon-button chat-note-fold", type: "button", "aria-label": t("Later"), onclick: foldNote }, "✕") : null,
    );
  }

  function foldNote() {
    noteOpen = false;
    clearTimeout(noteTimer);
    drawNote();
  }

  function markRead() {
    if (!unread) return;
    unread = 0;
    latest = null;
    clearTimeout(noteTimer);
    drawNote();
    delete $("chat-log").dataset.unread;
  }

  function openChat() {
    const panel = $("chat-panel");
    panel.scrollIntoView({ block: "center", behavior: window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
    const input = $("chat-input");
    if (!$("chat-form").hidden) input.focus({ preventScroll: true });
    markRead();
  }

  function noteNews(message) {
    if (chatInView) return;
    unread += 1;
    latest = message;
    noteOpen = true;
    clearTimeout(noteTimer);
    noteTimer = setTimeout(foldNote, NOTE_SHOWN_MS);
    drawNote();
  }

  function updateForm(room) {
    const me = ctx.mySeat();
    const canWrite = me !== null || room.chat_spectators;
    $("chat-form").hidden = !canWrite;
    $("chat-readonly").hidden = canWrite;
    $("chat-spectator-name").hidden = me !== null;
    const isHost = me !== null && me === room.host_seat;
    $("chat-spectators-field").hidden = !isHost;
    // While the host's own change is on its way, a redraw from an update that left before it keeps
    // the box as the host set it; the room's word takes over once it says the same, or on an error.
    if (spectatorsAsked === Boolean(room.chat_spectators)) spectatorsAsked = null;
    $("chat-spectators").checked = spectatorsAsked ?? Boolean(room.chat_spectators);
  }

  function place(room) {
    const panel = $("chat-panel");
    const home = room.status === "waiting" ? $("waiting-panel") : document.querySelector("#game-panel .side");
    if (home && panel.parentElement !== home) home.append(panel);
    panel.hidden = false;
  }

  function muteSpectator(name) {
    prefs.setMuted(toggleMuted(prefs.muted(), name));
    draw();
  }

  function line(m) {
    if (isSeatLine(m)) {
      // The table's own line: no author, nothing to mute.
      return h("li", { class: "chat-message is-table" }, h("span", { class: "chat-text" }, m.text));
    }
    const mine = m.seat !== null && m.seat !== undefined ? m.seat === ctx.mySeat() : myNames.has(m.name);
    const key = muteKey(m);
    const spectator = typeof key === "string";
    const writer = writerName(m.name, m.seat);
    return h(
      "li",
      { class: `chat-message${mine ? " is-mine" : ""}${spectator ? " is-spectator" : ""}` },
      h("b", { class: "chat-name" }, writer),
      " ",
      h("span", { class: "chat-text" }, m.text),
      spectator && !mine
        ? h("button", { class: "link-button mute-button chat-mute", type: "button", "aria-label": t("Mute {name}", { name: writer }), onclick: () => muteSpectator(key) }, t("Mute"))
        : null,
    );
  }

  function draw() {
    const log = $("chat-log");
    const muted = prefs.muted();
    const shown = visibleMessages(messages, muted);
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    fill(log, shown.map(line));
    $("chat-empty").hidden = shown.length > 0;
    $("chat-empty").textContent = messages.length ? t("Only muted people wrote so far.") : t("No messages yet. Say hello!");
    // Spectators muted here, each with a way to hear them again (players unmute from their row).
    const silenced = muted.filter((key) => typeof key === "string");
    const list = $("chat-muted");
    list.hidden = silenced.length === 0;
    fill(
      list,
      silenced.length ? [h("span", { class: "muted" }, t("Muted:")), " "] : null,
      silenced.map((name) => {
        const writer = writerName(name);
        return h("span", { class: "chat-muted-name" }, writer, " ", h("button", { class: "link-button", type: "button", "aria-label": t("Unmute {name}", { name: writer }), onclick: () => muteSpectator(name) }, t("Unmute")));
      }),
    );
    if (atBottom) log.scrollTop = log.scrollHeight;
    ctx.chatShown();
  }

  /** The messages this reader sees (muted players left out), oldest first: the table's log
   * shows them too. */
  function shownMessages() {
    return visibleMessages(messages, prefs.muted());
  }

  function chat(message) {
    const fresh = !messages.some((m) => m.id === message.id);
    messages = addMessage(messages, message);
    draw();
    if (fresh && chatNews(message, ctx.mySeat(), prefs.muted())) {
      $("chat-log").dataset.unread = "yes";
      noteNews(message);
    }
  }

  async function load() {
    try {
      const body = await api("GET", `/api/rooms/${roomId}/chat`);
      for (const message of body.messages) messages = addMessage(messages, message);
      draw();
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
    if (ctx.mySeat() === null && spectatorName) body.name = spectatorName;
    $("chat-send").disabled = true;
    try {
      const message = await api("POST", `/api/rooms/${roomId}/chat`, { body, token: ctx.token() });
      if (ctx.mySeat() === null && message.name) myNames.add(message.name);
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
    spectatorsAsked = event.currentTarget.checked;
    try {
      await ctx.post("chat/settings", { spectators: spectatorsAsked });
      ctx.refreshRoom();
    } catch (error) {
      spectatorsAsked = null;
      ctx.refreshRoom();
      say($("chat-error"), error);
    }
  }

  function start() {
    $("chat-form").addEventListener("submit", send);
    $("chat-spectators").addEventListener("change", spectatorsChanged);
    $("chat-input").addEventListener("focus", markRead);
    // The chat in view (a quarter of it on screen) reads what came: the note goes.
    if (typeof IntersectionObserver === "function") {
      new IntersectionObserver(
        (entries) => {
          chatInView = entries.some((entry) => entry.isIntersecting);
          if (chatInView) markRead();
        },
        { threshold: 0.25 },
      ).observe($("chat-panel"));
    }
    load();
  }

  return { start, chat, load, draw, shownMessages, updateForm, place };
}
