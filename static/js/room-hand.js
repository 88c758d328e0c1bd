// The phone as a hand: while the room has a table screen (`/r/{id}/screen`, the room body's
// `screen`), a seat opened from the screen's QR code shows a compact hand view: its cards and
// choices, its score and whose turn it is, the table itself behind "Show table". Any other seat is
// offered "Hand only" (a friend playing remotely keeps the table); the choice is kept for the room.
// The table's parts are hidden by css/hand.css under the room root's `is-hand-view` class.

import { h } from "./dom.js";
import { standingOf, totalsOf } from "./panels.js";
import { descriptorOf } from "./room-state.js";
import { handOffered, handView, screenTurn } from "./screen-words.js";
import { t } from "./i18n.js";

/** ctx: { rs, roomId, seatName(seat) } */
export function createHandView(ctx) {
  const { rs, roomId } = ctx;
  const root = document.getElementById("room");
  const key = `motable.hand.${roomId}`;
  // Came from the screen's QR code (`?hand`): a tablet used as a hand gets the hand view too.
  let fromScreen = new URLSearchParams(location.search).has("hand");
  try {
    if (fromScreen) sessionStorage.setItem(key, "1");
    else fromScreen = sessionStorage.getItem(key) === "1";
  } catch {
    // Storage blocked: the address alone says it for this page.
  }
  const narrow = matchMedia("(max-width: 700px)");
  narrow.addEventListener("change", () => update());
  const choiceKey = `motable.hand-choice.${roomId}`;
  let choice = null; // "hand" | "table" | null (not chosen: the QR code decides)
  try {
    choice = sessionStorage.getItem(choiceKey);
  } catch {
    // Storage blocked: the choice lasts as long as the page.
  }

  const turn = h("p", { class: "hand-turn", "aria-live": "polite" });
  const score = h("p", { class: "hand-score" });
  const toggle = h("button", { class: "button button-small hand-toggle", type: "button", "aria-pressed": "false" }, t("Show table"));
  const bar = h("section", { id: "hand-bar", class: "hand-bar", hidden: true, "aria-label": t("Your hand") }, turn, score, toggle);
  toggle.addEventListener("click", () => {
    choice = root.classList.contains("is-hand-view") ? "table" : "hand";
    try {
      sessionStorage.setItem(choiceKey, choice);
    } catch {
      // Storage blocked: kept for this page only.
    }
    update();
  });
  document.getElementById("game-panel").before(bar);

  function update() {
    const { room, state, seat } = rs.get();
    const mine = seat?.seat ?? null;
    const where = { room, state, seat: mine, narrow: narrow.matches, fromScreen };
    const on = handView({ ...where, choice });
    root.classList.toggle("is-hand-view", on);
    bar.hidden = !handOffered(where);
    if (bar.hidden) return;
    const line = screenTurn(state, room, ctx.seatName, mine);
    turn.textContent = state.result ? t("Game over: the result is on the table screen") : line.text;
    turn.classList.toggle("is-mine", line.seat === mine && mine !== null);
    const totals = totalsOf(room, standingOf(descriptorOf(rs.get()), state.view));
    score.textContent = `${seat.name}: ${totals[mine] ?? 0}`;
    toggle.textContent = on ? t("Show table") : t("Hand only");
    toggle.setAttribute("aria-pressed", String(!on));
  }

  return { update };
}
