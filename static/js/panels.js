// The side panel a game's descriptor names (`panel`): a points score pad, stars, or a
// progress track towards a goal. Each reads the room body's score pad, or each seat's standing
// off the view where the descriptor's `standing` says, when it moves within a round (`live`).
// The goal is read off the view where the descriptor's `goal` says.

import { fill, h } from "./dom.js";
import { bestTotal, renderScorepad } from "./scorepad.js";
import { t } from "./i18n.js";

/** The goal the view carries, where the descriptor's `goal` ({ view_key, reaching, option }) says;
 * null for a game without one (or before there is a view). */
export function goalOf(game, view) {
  const key = game?.goal?.view_key;
  if (!key || !view) return null;
  const value = view[key];
  return Number.isInteger(value) ? value : null;
}

/** Each seat's standing now, read off the view where the descriptor's `standing`
 * ({ view_key, key }) says; null when the game has none (the score pad's totals count). */
export function standingOf(game, view) {
  const where = game?.standing;
  if (!where || !view || !Array.isArray(view[where.view_key])) return null;
  const read = view[where.view_key].map((entry) => (where.key === null || where.key === undefined ? entry : entry?.[where.key]));
  return read.every(Number.isInteger) ? read : null;
}

/** The goal in words, by what reaching it means (the descriptor's `goal.reaching`): "Play to 50:
 * the game ends once a total reaches it." or "First to 9 wins."; null without a goal. */
export function goalWords(game, goal) {
  if (goal === null || goal === undefined || !game?.goal) return null;
  if (game.goal.reaching === "wins") return t("First to {num} wins.", { num: goal });
  if (game.goal.reaching === "ends_game") return t("Play to {num}: the game ends once a total reaches it.", { num: goal });
  return null;
}

export function totalsOf(room, live = null) {
  if (Array.isArray(live) && live.length === room.seats.length) return live;
  const pad = room.scorepad || { rounds: [], totals: [] };
  return pad.totals.length ? pad.totals : room.seats.map(() => 0);
}

/** Stars: each seat's total as a row of stars, the leader named as such. */
function renderStars(container, room, state, seatName, { winner, live, ties }) {
  const totals = totalsOf(room, live);
  const winners = new Set(state?.result?.winners || []);
  // A tie the rules broke: the result names the winner, and nobody else leads.
  const best = ties === "broken" && winners.size ? null : bestTotal(totals, winner);
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
          h("span", { class: "panel-total" }, String(total), mark ? h("span", { class: "sr-only" }, " " + (mark === "winner" ? t("(winner)") : t("(leading)"))) : null),
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
          h("progress", { class: "track", max: top, value: total, "aria-label": goal ? t("{name}: {total} of {goal}", { name: seatName(seat), total, goal }) : `${seatName(seat)}: ${total}` }),
          h("span", { class: "panel-total" }, goal ? `${total}/${goal}` : String(total)),
        );
      }),
    ),
  );
}

const PANELS = { points: renderScorepad, stars: renderStars, progress: renderProgress };

/** Draw the `kind` of panel into `container`; an unknown kind falls back to the score pad.
 * `winner` is the descriptor's rule (it marks the leader; there is no default: without one no
 * seat is marked leading); `goal` the total that ends the game (`goalOf`); `live` each seat's
 * standing now (`standingOf`, else the score pad's totals); `ties` the descriptor's ("broken": once
 * the result is in, only its winners are marked, never a seat that tied with them). */
export function renderPanel(kind, container, room, state, seatName, { winner, goal = null, live = null, ties = "shared" } = {}) {
  if (container.dataset.panel !== kind) {
    container.dataset.panel = kind;
    delete container.dataset.key;
  }
  (PANELS[kind] || renderScorepad)(container, room, state, seatName, { winner, goal, live, ties });
}
