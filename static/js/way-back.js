// The way back to a seat, for a page that holds none (`#way-back`): "Playing here? Pick your
// name", the request it then sends and follows (room body and polling), a dead seat link or a
// refused stored seat said in words (the server's seat check), and `#seat=<token>` links opened
// here. The words are people-kit.js's.

import { api, ApiError } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { askerWords, deadLinkWords, pickableSeats, seatFromHash } from "./people-kit.js";
import { $ } from "./room-page.js";
import { seats } from "./storage.js";

/** ctx: { roomId, prefs (people-prefs.js), room(), mySeat(), joining() (the join panel is open),
 *         seatNameOf(seat), announce(text),
 *         seatTaken(entry), update() (redraw the people parts), redraw() (the room page) } */
export function createWayBack(ctx) {
  const { roomId, prefs } = ctx;
  let asking = prefs.asked();
  let pollTimer = null;
  // Why this page's seat link died ({ kind, text }), how the last request ended ({ text }),
  // whether the visitor opened the list of names, and an error from asking.
  let deadLink = null;
  let outcome = null;
  let picking = false;
  let askError = null;
  // This page approved a request for its own seat: the seat leaving it is no surprise.
  let handedOver = false;

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
      draw();
      return false;
    }
    try {
      const state = await api("GET", `/api/rooms/${roomId}/state`, { token: found });
      const room = await api("GET", `/api/rooms/${roomId}`);
      const name = room.seats.find((s) => s.seat === state.seat)?.name || "";
      seats.save(roomId, { seat: state.seat, token: found, name, game: room.game, status: room.status });
      ctx.announce(t("You are playing as {name} on this device.", { name }));
      return true;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        // Refused: say why on the page, not only to a screen reader.
        await seatRefused(found);
      } else {
        ctx.announce(t("That seat link could not be checked; reload the page to try again."));
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
        name: ctx.seatNameOf(seat),
        status: request.status,
        effective_at: request.effective_at ?? null,
      });
      poll();
    } else {
      deadLink = deadLinkWords(check, { handedOver, stored });
      if (!quiet) ctx.announce(deadLink.text);
    }
    handedOver = false;
    draw();
    return check?.status || "gone";
  }

  function remember(request) {
    prefs.setAsked(request);
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
      ctx.update();
      ctx.redraw();
    } catch (error) {
      askError = error.message || String(error);
      if (button) button.disabled = false;
      draw(true);
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
      ctx.announce(t("Approved: you play as {name} now.", { name: seats.get(roomId)?.name || name }));
      draw();
      return;
    }
    if (status === "refused" || status === "expired") {
      outcome = askerWords(status, asking, { nameOf: ctx.seatNameOf });
      remember(null);
      ctx.announce(outcome.text);
      ctx.update();
      ctx.redraw();
      return;
    }
    const changed = asking.status !== status || (extra.effective_at && extra.effective_at !== asking.effective_at);
    if (changed) {
      remember({ ...asking, status, effective_at: extra.effective_at ?? asking.effective_at ?? null });
      if (status === "waiting") ctx.announce(askerWords("waiting", asking, { listed: listedRequest(), nameOf: ctx.seatNameOf }).text);
      draw();
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

  /** A new room body: follow this page's request in it. */
  function sync(room) {
    if (!asking) return;
    const listed = listedRequest();
    if (listed) asked(listed.status || "pending", listed);
    else if (room.seat_requests && asking.seen) {
      // It left the room's list: answered or lapsed; ask now rather than at the next poll.
      remember({ ...asking, seen: false });
      poll();
    }
    if (listed && asking && !asking.seen) remember({ ...asking, seen: true });
  }

  function dismissPick() {
    prefs.setJustWatching(true);
    picking = false;
    draw();
    drawPickAgain();
  }

  function draw(force = false) {
    const box = $("way-back");
    const room = ctx.room();
    const me = ctx.mySeat();
    if (me !== null) {
      deadLink = null;
      outcome = null;
      picking = false;
    }
    const names = pickableSeats(room, me);
    const listed = listedRequest();
    const status = asking ? askerWords(asking.status, asking, { listed, nameOf: ctx.seatNameOf }) : null;
    // The names are offered at once to a plain visitor who cannot take a free seat (the match is
    // under way, or they chose to watch), after "Ask again" when a link died or a request ended,
    // and to a visitor at the join panel only once they say they have a seat ("Already in this
    // game?"): someone new is not handed the others' names above "Join this game".
    const offer =
      !asking && names.length > 0 && (picking || (!deadLink && !outcome && !prefs.justWatching() && !ctx.joining()));
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
                draw();
                box.querySelector(".pick-name")?.focus();
              },
            },
            deadLink ? t("Ask for a seat again") : t("Ask again"),
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
          h("span", { class: "pick-title", id: "pick-title" }, t("Playing here? Pick your name")),
          h(
            "span",
            { class: "pick-names", role: "group", "aria-labelledby": "pick-title" },
            names.map((seat) =>
              h("button", { class: "button button-small pick-name", type: "button", "data-seat": seat.seat, onclick: (event) => askForSeat(seat, event.currentTarget) }, seat.name),
            ),
          ),
          deadLink || outcome ? null : h("button", { class: "link-button pick-dismiss", type: "button", onclick: dismissPick }, t("I'm just watching")),
        ),
      );
    }
    if (askError) parts.push(h("p", { class: "form-error", role: "alert" }, askError));
    fill(box, parts);
  }

  // Put away with "I'm just watching", the names stay one tap away under the seat list.
  function drawPickAgain() {
    const names = pickableSeats(ctx.room(), ctx.mySeat());
    $("pick-again").hidden = !(names.length && !asking && $("way-back").hidden);
    $("join-seated").hidden = !(names.length && !asking && !picking);
  }

  function pickAgain() {
    prefs.setJustWatching(false);
    picking = true;
    draw();
    drawPickAgain();
    $("way-back").scrollIntoView({ block: "nearest" });
    $("way-back").querySelector(".pick-name")?.focus();
  }

  function start() {
    $("pick-again-button").addEventListener("click", pickAgain);
    $("join-seated-button").addEventListener("click", pickAgain);
  }

  /** Poll for the request this browser was waiting on when the page opened. */
  function resume() {
    if (asking) poll();
  }

  return {
    start,
    resume,
    adoptSeatLink,
    seatRefused,
    sync,
    draw,
    drawPickAgain,
    askingId: () => asking?.request_id,
    handingOver() {
      handedOver = true;
    },
  };
}
