// The side panel a game's descriptor names (`panel`): a points score pad, stars, or a
// progress track towards a goal. Each reads the room body's score pad, or the standing the
// game's table reads off the view when it moves within a round (`live`).

import { fill, h } from "./dom.js";
import { bestTotal, renderScorepad } from "./scorepad.js";

export function totalsOf(room, live = null) {
  if (Array.isArray(live) && live.length === room.seats.length) return live;
  const pad = room.scorepad || { rounds: [], totals: [] };
  return pad.totals.length ? pad.totals : room.seats.map(() => 0);
}

/** Stars: each seat's total as a row of stars, the leader named as such. */
function renderStars(container, room, state, seatName, { winner, live }) {
  const totals = totalsOf(room, live);
  const winners = new Set(state?.result?.winners || []);
  const best = bestTotal(totals, winner);
  const scored = (room.scorepad?.rounds || []).length > 0;
  fill(
    container,
    h(
      "ul",
      { class: "panel-rows star-rows" },
      room.seats.map(({ seat }) => {
        const total = totals[seat] ?? 0;
        const mark = winners.has(seat) ? "winner" : scored && total === best ? "leading" : null;
        return h(
          "li",
          { class: mark ? `is-${mark}` : null, "data-seat": seat },
          h("span", { class: "panel-name" }, seatName(seat)),
          h("span", { class: "stars", "aria-hidden": "true" }, "★".repeat(Math.min(total, 20))),
          h("span", { class: "panel-total" }, String(total), mark ? h("span", { class: "sr-only" }, ` (${mark})`) : null),
        );
      }),
    ),
  );
}

/** Progress: how far each seat has come, as a bar towards the goal when the table names one. */
function renderProgress(container, room, state, seatName, { goal, live }) {
  const totals = totalsOf(room, live);
  const winners = new Set(state?.result?.winners || []);
  const top = Math.max(goal ?? 0, ...totals, 1);
  fill(
    container,
    h(
      "ul",
      { class: "panel-rows progress-rows" },
      room.seats.map(({ seat }) => {
        const total = totals[seat] ?? 0;
        return h(
          "li",
          { class: winners.has(seat) ? "is-winner" : null, "data-seat": seat },
          h("span", { class: "panel-name" }, seatName(seat)),
          h("progress", { class: "track", max: top, value: total, "aria-label": `${seatName(seat)}: ${total}${goal ? ` of ${goal}` : ""}` }),
          h("span", { class: "panel-total" }, goal ? `${total}/${goal}` : String(total)),
        );
      }),
    ),
  );
}

const PANELS = { points: renderScorepad, stars: renderStars, progress: renderProgress };

/** Draw the `kind` of panel into `container`; an unknown kind falls back to the score pad.
 * `winner` is the descriptor's rule (it marks the leader); `goal` the total that ends the game,
 * when the game's table names one; `live` each seat's standing now, when the table reads one off
 * the view (else the score pad's totals). */
export function renderPanel(kind, container, room, state, seatName, { winner = "lowest_total", goal = null, live = null } = {}) {
  if (container.dataset.panel !== kind) {
    container.dataset.panel = kind;
    delete container.dataset.key;
  }
  (PANELS[kind] || renderScorepad)(container, room, state, seatName, { winner, goal, live });
}
