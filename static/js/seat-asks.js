// Requests for this browser's seats in other rooms ("Someone asks for your seat from another
// device. Is it you?"), asked on any page of the browser: the home page (from the same
// `POST /api/my-games` answer its "Your games" list reads) and a room's page (for the other rooms
// held here; the room's own seat alert asks about its own seat). Drawn in the page's request
// layer, with the same answers as the room page's: approve (it is you) or refuse.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { holderNotice } from "./people-kit.js";
import { say } from "./room-page.js";
import { seats } from "./storage.js";
import { listWords } from "./words.js";
import { t } from "./i18n.js";

// Seconds between asks on a room's page while it is in view (a hidden page asks nothing).
const POLL_MS = 10000;

/** The open requests for held seats among `summaries` (POST /api/my-games), leaving out the room
 *  this page shows: [{ summary, request }], oldest first. DOM-free. */
export function seatAsks(summaries, exceptRoom = null) {
  const found = [];
  for (const summary of summaries || []) {
    if (!summary?.found || summary.room_id === exceptRoom) continue;
    for (const request of summary.seat_requests || []) found.push({ summary, request });
  }
  return found.sort((a, b) => String(a.request.at).localeCompare(String(b.request.at)));
}

/** "Mojo with Ann and Bo": which of your games a request is about. */
export function gameWords(summary, title) {
  const others = (summary.players || []).filter((p) => p.seat !== summary.seat && !p.bot).map((p) => p.name);
  return others.length ? t("{game} with {names}", { game: title(summary.game), names: listWords(others) }) : title(summary.game);
}

/** node: the request layer's section to draw into; title(gameId): a game's name; exceptRoom: the
 *  room this page shows; answered(): ask again at once (the list of seats changed). */
export function createSeatAsks(node, { title, exceptRoom = null, answered = () => {} }) {
  let shownKey = null;

  async function answer(summary, request, approve, error) {
    const token = seats.get(summary.room_id)?.token;
    try {
      await api("POST", `/api/rooms/${summary.room_id}/seat-requests/${request.id}/${approve ? "approve" : "refuse"}`, { body: {}, token });
      say(error, null);
    } catch (problem) {
      say(error, problem);
    }
    shownKey = null;
    answered();
  }

  function draw(summaries) {
    const asks = seatAsks(summaries, exceptRoom);
    const key = JSON.stringify(asks.map(({ summary, request }) => [summary.room_id, request.id, request.status, request.effective_at, request.approvals]));
    if (key === shownKey) return;
    shownKey = key;
    node.hidden = asks.length === 0;
    const nameOf = (summary) => (seat) => summary.players?.find((p) => p.seat === seat)?.name || t("Seat {num}", { num: seat + 1 });
    fill(
      node,
      asks.map(({ summary, request }) => {
        const notice = holderNotice(request, nameOf(summary));
        const error = h("p", { class: "form-error", role: "alert", hidden: true });
        const buttons = [];
        if (notice.kind === "ask") {
          buttons.push(h("button", { class: "button button-small button-primary", type: "button", onclick: () => answer(summary, request, true, error) }, t("Yes, it's me (approve)")));
        }
        buttons.push(h("button", { class: "button button-small button-danger", type: "button", onclick: () => answer(summary, request, false, error) }, t("No, refuse")));
        buttons.push(h("a", { class: "button button-small", href: `/r/${summary.room_id}` }, t("Open the game")));
        return h(
          "div",
          { class: `seat-alert-item is-${notice.kind}`, "data-room": summary.room_id, "data-request": request.id, "data-asks": `seat-${request.id}-${request.status}` },
          h("p", { class: "seat-alert-who small" }, t("{game}, as {name}:", { game: gameWords(summary, title), name: summary.name })),
          h("p", { class: "seat-alert-text" }, notice.text),
          h("p", { class: "seat-alert-buttons" }, buttons),
          error,
        );
      }),
    );
  }

  return { draw };
}

/** On a room's page: every few seconds while in view, ask about the seats held in other rooms. */
export function pollSeatAsks(node, { title, exceptRoom }) {
  let asking = false;
  let timer = null;
  const asks = createSeatAsks(node, { title, exceptRoom, answered: () => ask() });

  async function ask() {
    const held = Object.values(seats.all()).filter((entry) => entry?.room_id && entry.token && entry.room_id !== exceptRoom);
    if (!held.length) {
      asks.draw([]);
      return;
    }
    if (asking) return;
    asking = true;
    try {
      const answer = await api("POST", "/api/my-games", { body: { seats: held.map((entry) => ({ room_id: entry.room_id, token: entry.token })) } });
      asks.draw(answer.games);
    } catch {
      // Offline or the server restarting: the next tick asks again.
    } finally {
      asking = false;
    }
  }

  function schedule() {
    clearInterval(timer);
    timer = document.visibilityState === "hidden" ? null : setInterval(ask, POLL_MS);
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") ask();
    schedule();
  });
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key === "motable.seats") ask();
  });
  ask();
  schedule();
}
