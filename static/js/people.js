// The people parts of the room page: your seat on another device (seat link, QR code), the way
// back to a seat (pick your name, a dead seat link said in words, the holder asked first),
// presence and clocks at the table, letting a bot play for an absent player, leaving, the table
// chat and your-turn notifications. The room page calls `createPeople` once and tells it of
// every room body, state and chat message.

import { api, ApiError } from "./api.js";
import { heldSeats } from "./device.js";
import { fill, h } from "./dom.js";
import {
  addMessage,
  askerWords,
  CLOCKS,
  countdownWords,
  deadLinkWords,
  holderNotice,
  initial,
  isSeatLine,
  mayAnswer,
  mayRemove,
  mayStandIn,
  muteKey,
  openRequests,
  pickableSeats,
  presenceWords,
  requestWords,
  seatFromHash,
  shouldNotify,
  toggleMuted,
  visibleMessages,
} from "./people-kit.js";
import { seats, store } from "./storage.js";

const $ = (id) => document.getElementById(id);
const MUTED_KEY = "motable.muted";
const NOTIFY_KEY = "motable.notify";
const ASKED_KEY = "motable.asked";
const WATCHING_KEY = "motable.watching";

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
 *        announce(text), refreshRoom(), redraw(), chatShown() }
 */
export function createPeople(ctx) {
  const roomId = ctx.roomId;
  let messages = [];
  let linkFor = null; // the token whose seat link is drawn
  let asking = readJson(store, ASKED_KEY, {})[roomId] || null;
  let pollTimer = null;
  // The way back: why this page's seat link died ({ kind, text }), how the last request ended
  // ({ text }), whether the visitor opened the list of names, and an error from asking.
  let deadLink = null;
  let outcome = null;
  let picking = false;
  let askError = null;
  // This page approved a request for its own seat: the seat leaving it is no surprise.
  let handedOver = false;
  // The names this page wrote under as a spectator (its own messages get no mute button).
  const myNames = new Set();

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
    const named = new URLSearchParams(location.hash.replace(/^#/, "")).has("seat");
    if (!found && !named) return false;
    // Out of the address bar (and so out of history and bookmarks) before anything else.
    history.replaceState(null, "", location.pathname + location.search);
    if (!found) {
      // "#seat=" with something no token looks like: cut short when copied, most likely.
      deadLink = deadLinkWords({ status: "unknown" });
      ctx.announce(deadLink.text);
      drawWayBack();
      return false;
    }
    try {
      const state = await api("GET", `/api/rooms/${roomId}/state`, { token: found });
      const room = await api("GET", `/api/rooms/${roomId}`);
      const name = room.seats.find((s) => s.seat === state.seat)?.name || "";
      seats.save(roomId, { seat: state.seat, token: found, name, game: room.game, status: room.status });
      ctx.announce(`You are playing as ${name} on this device.`);
      return true;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        // Refused: say why on the page, not only to a screen reader.
        await seatRefused(found);
      } else {
        ctx.announce("That seat link could not be checked; reload the page to try again.");
      }
      return false;
    }
  }

  /**
   * The server refused `deadToken` (a seat link, or the seat this browser kept): ask it why and
   * show the banner with the way back. Returns the check's status ("valid" when the token works
   * after all, so the caller may keep it). The caller forgets the stored seat.
   */
  async function seatRefused(deadToken, { quiet = false, stored = false } = {}) {
    let check = null;
    try {
      check = await api("GET", `/api/rooms/${roomId}/seat-check`, { token: deadToken });
    } catch {
      // No reason to be had (an older server, or offline): the banner says the link is dead.
    }
    if (check?.status === "valid") return "valid";
    if (check?.status === "asking" && check.request?.request_id) {
      // A request's link: this page goes on waiting for it.
      const request = check.request;
      const seat = request.seat ?? check.seat;
      remember({
        request_id: request.request_id,
        seat,
        token: deadToken,
        name: seatNameOf(seat),
        status: request.status,
        effective_at: request.effective_at ?? null,
      });
      poll();
    } else {
      deadLink = deadLinkWords(check, { handedOver, stored });
      if (!quiet) ctx.announce(deadLink.text);
    }
    handedOver = false;
    drawWayBack();
    return check?.status || "gone";
  }

  /** A seat's name as the room body has it ("Seat 3" if it is not listed, "" for no seat). */
  function seatNameOf(seat) {
    if (seat === null || seat === undefined) return "";
    return ctx.room()?.seats?.find((s) => s.seat === seat)?.name || `Seat ${seat + 1}`;
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

  // Right after joining: a one-line chip ("Your seat link") that opens the link and its QR code
  // in place, so the table is not pushed below the first screen on a phone.
  function showSeatKeep() {
    $("seat-keep").hidden = false;
    openSeatKeep(false);
  }

  function openSeatKeep(open) {
    const chip = $("seat-keep-chip");
    chip.setAttribute("aria-expanded", String(open));
    $("seat-keep-body").hidden = !open;
    if (open) drawSeatLink($("seat-keep"));
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
    // Let go on purpose: "Playing here? Pick your name" is not pressed on this page again.
    setJustWatching(true);
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
      setJustWatching(true);
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

  async function askForSeat(seat, button) {
    if (button) button.disabled = true;
    try {
      const asked = await api("POST", `/api/rooms/${roomId}/seat-requests`, { body: { seat: seat.seat } });
      remember({ ...asked, name: seat.name });
      deadLink = null;
      outcome = null;
      picking = false;
      askError = null;
      ctx.announce(askerWords("pending", asking).text);
      poll();
      update();
      ctx.redraw();
    } catch (error) {
      askError = error.message || String(error);
      if (button) button.disabled = false;
      drawWayBack(true);
    }
  }

  /** The request's status changed (from polling or from the room body). */
  function asked(status, extra = {}) {
    if (!asking) return;
    if (status === "approved") {
      const room = ctx.room();
      seats.save(roomId, { seat: asking.seat, token: asking.token, name: asking.name, game: room?.game });
      const name = asking.name;
      remember(null);
      deadLink = null;
      outcome = null;
      ctx.seatTaken(seats.get(roomId));
      ctx.announce(`Approved: you play as ${seats.get(roomId)?.name || name} now.`);
      drawWayBack();
      return;
    }
    if (status === "refused" || status === "expired") {
      outcome = askerWords(status, asking, { nameOf: seatNameOf });
      remember(null);
      ctx.announce(outcome.text);
      update();
      ctx.redraw();
      return;
    }
    const changed = asking.status !== status || (extra.effective_at && extra.effective_at !== asking.effective_at);
    if (changed) {
      remember({ ...asking, status, effective_at: extra.effective_at ?? asking.effective_at ?? null });
      if (status === "waiting") ctx.announce(askerWords("waiting", asking, { listed: listedRequest(), nameOf: seatNameOf }).text);
      drawWayBack();
    }
  }

  function listedRequest() {
    return asking ? (ctx.room()?.seat_requests || []).find((r) => r.id === asking.request_id) || null : null;
  }

  async function poll() {
    clearTimeout(pollTimer);
    if (!asking) return;
    try {
      const status = await api("GET", `/api/rooms/${roomId}/seat-requests/${asking.request_id}`);
      asked(status.status, status);
      if (!asking) return;
    } catch {
      // Try again at the next poll.
    }
    pollTimer = setTimeout(poll, 3000);
  }

  // `as`: the held seat that answers (its token), the active one unless named.
  async function answer(request, approve, errorNode, as = null) {
    try {
      const path = `/api/rooms/${roomId}/seat-requests/${request.id}/${approve ? "approve" : "refuse"}`;
      await api("POST", path, { body: {}, token: as?.token || token() });
      // Approving a request for one's own seat hands it to the other device: this page is
      // about to lose the seat, and says so calmly.
      if (approve && request.seat === mySeat()) handedOver = true;
      if (errorNode) say(errorNode, null);
      ctx.refreshRoom();
    } catch (error) {
      say(errorNode || $("people-error"), error);
      // The request may have been answered elsewhere or lapsed: show the room as it is now.
      ctx.refreshRoom();
    }
  }

  // -------------------------------------------------------------------------
  // The way back, above the table: a dead seat link said in words, "Playing here? Pick your
  // name" for a browser without a seat, and the state of its request.

  function justWatching() {
    return Boolean(readJson(store, WATCHING_KEY, {})[roomId]);
  }

  function setJustWatching(on) {
    const all = readJson(store, WATCHING_KEY, {});
    if (on) all[roomId] = true;
    else delete all[roomId];
    store.setItem(WATCHING_KEY, JSON.stringify(all));
  }

  function dismissPick() {
    setJustWatching(true);
    picking = false;
    drawWayBack();
    drawPickAgain();
  }

  function drawWayBack(force = false) {
    const box = $("way-back");
    const room = ctx.room();
    const me = mySeat();
    if (me !== null) {
      deadLink = null;
      outcome = null;
      picking = false;
    }
    const names = pickableSeats(room, me);
    const listed = listedRequest();
    const status = asking ? askerWords(asking.status, asking, { listed, nameOf: seatNameOf }) : null;
    // The names are offered at once to a plain visitor, and after "Ask again" when a link died or
    // a request ended.
    const offer = !asking && names.length > 0 && (picking || (!deadLink && !outcome && !justWatching()));
    const shown = me === null && room && (deadLink || outcome || status || offer);
    const key = JSON.stringify([shown, deadLink, outcome, status, offer && names.map((s) => [s.seat, s.name]), askError]);
    if (!force && box.dataset.key === key) return;
    box.dataset.key = key;
    box.hidden = !shown;
    box.dataset.kind = deadLink ? (deadLink.calm ? "handed" : "dead") : outcome ? "ended" : status ? "asking" : "pick";
    if (!shown) {
      box.replaceChildren();
      return;
    }
    const parts = [];
    if (deadLink) parts.push(h("p", { class: "way-back-why" }, deadLink.text));
    if (outcome) parts.push(h("p", { class: "way-back-why" }, outcome.text));
    if ((deadLink || outcome) && !offer && !asking && names.length) {
      parts.push(
        h(
          "p",
          { class: "way-back-again" },
          h(
            "button",
            {
              // A seat this page handed over itself is no emergency: the button stays plain.
              class: `button button-small${deadLink?.calm ? "" : " button-primary"}`,
              type: "button",
              onclick: () => {
                picking = true;
                drawWayBack();
                box.querySelector(".pick-name")?.focus();
              },
            },
            deadLink ? "Ask for a seat again" : "Ask again",
          ),
        ),
      );
    }
    if (status) {
      parts.push(h("p", { class: `way-back-status is-${asking.status || "pending"}` }, h("span", { class: "way-back-dot", "aria-hidden": "true" }), status.text));
    }
    if (offer) {
      parts.push(
        h(
          "div",
          { class: "pick-row" },
          h("span", { class: "pick-title", id: "pick-title" }, "Playing here? Pick your name"),
          h(
            "span",
            { class: "pick-names", role: "group", "aria-labelledby": "pick-title" },
            names.map((seat) =>
              h("button", { class: "button button-small pick-name", type: "button", "data-seat": seat.seat, onclick: (event) => askForSeat(seat, event.currentTarget) }, seat.name),
            ),
          ),
          deadLink || outcome ? null : h("button", { class: "link-button pick-dismiss", type: "button", onclick: dismissPick }, "I'm just watching"),
        ),
      );
    }
    if (askError) parts.push(h("p", { class: "form-error", role: "alert" }, askError));
    fill(box, parts);
  }

  // Put away with "I'm just watching", the names stay one tap away under the seat list.
  function drawPickAgain() {
    const names = pickableSeats(ctx.room(), mySeat());
    $("pick-again").hidden = !(names.length && !asking && $("way-back").hidden);
  }

  function pickAgain() {
    setJustWatching(false);
    picking = true;
    drawWayBack();
    drawPickAgain();
    $("way-back").scrollIntoView({ block: "nearest" });
    $("way-back").querySelector(".pick-name")?.focus();
  }

  /** The seats this page holds: its own, and around one device the other local players'. */
  function heldHere() {
    const active = ctx.seat();
    if (!active) return [];
    const held = heldSeats(seats.get(roomId) || active);
    if (!held.some((s) => s.seat === active.seat)) held.unshift({ seat: active.seat, token: active.token, name: active.name });
    return held;
  }

  /** Requests on other seats this page may still answer (asked at the top, not in the list). */
  function toAnswer(room, held) {
    const me = mySeat();
    return openRequests(room).filter(
      (r) => !held.some((s) => s.seat === r.seat) && mayAnswer(r, me) && (r.status === "waiting" || !(r.approvals || []).includes(me)),
    );
  }

  // At the top of the page: the holder of a seat asked for (or approved by others) is told first,
  // and a player who may answer for someone else's seat sees it there too.
  function drawSeatAlert(room) {
    const box = $("seat-alert");
    const held = heldHere();
    const several = held.length > 1;
    const mine = openRequests(room).filter((r) => held.some((s) => s.seat === r.seat));
    const others = toAnswer(room, held);
    const fields = (r) => [r.id, r.seat, r.status, r.effective_at, r.approvals, r.answerable_by];
    const key = JSON.stringify([held.map((s) => s.seat), mine.map(fields), others.map(fields), room.seats.map((s) => s.name)]);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.hidden = mine.length + others.length === 0;
    const item = (request, kind, who, text, buttons, error) =>
      h(
        "div",
        { class: `seat-alert-item is-${kind}`, "data-request": request.id },
        who ? h("p", { class: "seat-alert-who small" }, who) : null,
        h("p", { class: "seat-alert-text" }, text),
        buttons.length ? h("p", { class: "seat-alert-buttons" }, buttons) : null,
        error,
      );
    fill(
      box,
      mine.map((request) => {
        const as = held.find((s) => s.seat === request.seat);
        const notice = holderNotice(request, seatNameOf);
        const error = h("p", { class: "form-error", role: "alert", hidden: true });
        const buttons = [];
        if (notice.kind === "ask" && mayAnswer(request, as.seat)) {
          buttons.push(h("button", { class: "button button-small button-primary", type: "button", onclick: () => answer(request, true, error, as) }, "Yes, it's me (approve)"));
        }
        if (notice.kind === "waiting" || mayAnswer(request, as.seat)) {
          buttons.push(h("button", { class: "button button-small button-danger", type: "button", onclick: () => answer(request, false, error, as) }, "No, refuse"));
        }
        const text = buttons.length ? notice.text : [notice.text, h("span", { class: "small" }, " If it is not you, ask the others to refuse.")];
        // Around one device, say whose seat it is: "your" would not tell who.
        return item(request, notice.kind, several ? `For ${as.name}:` : null, text, buttons, error);
      }),
      others.map((request) => {
        const error = h("p", { class: "form-error", role: "alert", hidden: true });
        const buttons = [];
        if (request.status !== "waiting") {
          buttons.push(h("button", { class: "button button-small button-primary", type: "button", onclick: () => answer(request, true, error) }, "Approve"));
        }
        buttons.push(h("button", { class: "button button-small", type: "button", onclick: () => answer(request, false, error) }, "Refuse"));
        const hint = request.status === "waiting" ? "" : ` Approve only if you know it is ${seatNameOf(request.seat)}.`;
        return item(request, "other", null, `${requestWords(request, seatNameOf, mySeat())}${hint}`, buttons, error);
      }),
    );
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
    if (seat.seat !== me && !seat.bot) {
      buttons.push(
        h(
          "button",
          {
            class: "link-button mute-button",
            type: "button",
            "aria-pressed": String(isMuted),
            onclick: () => {
              setMuted(toggleMuted(muted(), seat.seat));
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

  // A request for another player's seat, as the table sees it (one this page may answer is
  // asked at the top of the page instead).
  function requestRow(request) {
    return h("li", { class: `seat-request is-${request.status || "pending"}`, "data-request": request.id }, requestWords(request, seatNameOf, mySeat()));
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
    ]);
    if (list.dataset.key !== key) {
      list.dataset.key = key;
      fill(list, room.seats.map((s) => seatRow(s, room, state)));
    }
    // A request nobody answered lapses at `expires` (the room body is not sent again for that).
    // The holder's own seat is asked about at the top of the page; the asker's own request is
    // followed in the way-back banner.
    const open = openRequests(room, now);
    const heldList = heldHere();
    const held = heldList.map((s) => s.seat);
    const atTop = new Set(toAnswer(room, heldList).map((r) => r.id));
    const others = open.filter((r) => !held.includes(r.seat) && !atTop.has(r.id) && r.id !== asking?.request_id);
    const listKey = JSON.stringify([me, held, others]);
    if ($("seat-requests").dataset.key !== listKey) {
      $("seat-requests").dataset.key = listKey;
      $("seat-requests").hidden = others.length === 0;
      fill($("seat-requests"), others.map((r) => requestRow(r)));
    }
    drawSeatAlert(room);
    if (asking) {
      const listed = listedRequest();
      if (listed) asked(listed.status || "pending", listed);
      else if (room.seat_requests && asking.seen) {
        // It left the room's list: answered or lapsed; ask now rather than at the next poll.
        remember({ ...asking, seen: false });
        poll();
      }
      if (listed && asking && !asking.seen) remember({ ...asking, seen: true });
    }
    drawWayBack();
    drawPickAgain();
    $("people-clock").textContent = room.clock ? `Clock: ${clockWords(room.clock)} a move` : "";
    $("seat-menu-button").hidden = !ctx.seat();
    // The seat-link chip belongs to a seat held here; a page that lost its seat drops it.
    if (!ctx.seat()) $("seat-keep").hidden = true;
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
  let lastTick = Date.now();
  function tick() {
    const now = Date.now();
    // "gone 3 min" and what the others may do change with time alone.
    ticks += 1;
    if (ticks % 5 === 0) update();
    // Who may answer a request changes once its seat's player has been gone long enough (the
    // room's "gone" time, or a day in a room of two): the server is asked again at that moment.
    const room = ctx.room();
    if (room && mySeat() !== null) {
      const crossings = openRequests(room, now).flatMap((request) => {
        const seat = room.seats.find((s) => s.seat === request.seat);
        if (!seat?.away_since || seat.connected) return [];
        const since = Date.parse(seat.away_since);
        return [since + (room.gone_after ?? 120) * 1000, since + 86_400_000];
      });
      if (crossings.some((at) => at + 500 > lastTick && at + 500 <= now)) ctx.refreshRoom();
    }
    lastTick = now;
    for (const node of document.querySelectorAll(".countdown[data-deadline]")) {
      const left = Date.parse(node.dataset.deadline) - now;
      node.textContent = left > 0 ? countdownWords(left) : "time's up";
      node.classList.toggle("is-late", left <= 0);
      node.classList.toggle("is-short", left > 0 && left < 15000);
    }
  }

  // -------------------------------------------------------------------------
  // Chat

  // Seat requests and errors live with whichever seat list is on
  // screen: the waiting room's before the start, the table's people panel after it.
  function placeRequests(room) {
    const list = room.status === "waiting" ? $("seat-list") : $("people-list");
    const nodes = ["seat-requests", "people-error", "pick-again"].map($);
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

  function muteSpectator(name) {
    setMuted(toggleMuted(muted(), name));
    drawChat();
  }

  function chatLine(m) {
    if (isSeatLine(m)) {
      // The table's own line: no author, nothing to mute.
      return h("li", { class: "chat-message is-table" }, h("span", { class: "chat-text" }, m.text));
    }
    const mine = m.seat !== null && m.seat !== undefined ? m.seat === mySeat() : myNames.has(m.name);
    const key = muteKey(m);
    const spectator = typeof key === "string";
    return h(
      "li",
      { class: `chat-message${mine ? " is-mine" : ""}${spectator ? " is-spectator" : ""}` },
      h("b", { class: "chat-name" }, m.name),
      " ",
      h("span", { class: "chat-text" }, m.text),
      spectator && !mine
        ? h("button", { class: "link-button mute-button chat-mute", type: "button", "aria-label": `Mute ${m.name}`, onclick: () => muteSpectator(key) }, "Mute")
        : null,
    );
  }

  function drawChat() {
    const log = $("chat-log");
    const shown = visibleMessages(messages, muted());
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    fill(log, shown.map(chatLine));
    $("chat-empty").hidden = shown.length > 0;
    $("chat-empty").textContent = messages.length ? "Only muted people wrote so far." : "No messages yet. Say hello!";
    // Spectators muted here, each with a way to hear them again (players unmute from their row).
    const silenced = muted().filter((key) => typeof key === "string");
    const list = $("chat-muted");
    list.hidden = silenced.length === 0;
    fill(
      list,
      silenced.length ? h("span", { class: "muted" }, "Muted: ") : null,
      silenced.map((name) =>
        h("span", { class: "chat-muted-name" }, name, " ", h("button", { class: "link-button", type: "button", "aria-label": `Unmute ${name}`, onclick: () => muteSpectator(name) }, "Unmute")),
      ),
    );
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
    if (fresh && !isSeatLine(message) && message.seat !== mySeat() && !muted().includes(muteKey(message))) {
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
      if (mySeat() === null && message.name) myNames.add(message.name);
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
    $("seat-keep-chip").addEventListener("click", () => openSeatKeep($("seat-keep-body").hidden));
    $("pick-again-button").addEventListener("click", pickAgain);
    $("clock-choice").addEventListener("change", clockChosen);
    $("chat-form").addEventListener("submit", send);
    $("chat-spectators").addEventListener("change", spectatorsChanged);
    $("chat-input").addEventListener("focus", () => delete $("chat-log").dataset.unread);
    setInterval(tick, 1000);
    loadChat();
    if (asking) poll();
  }

  return { start, adoptSeatLink, seatRefused, showSeatKeep, update, chat, turn, loadChat, shownMessages };
}
