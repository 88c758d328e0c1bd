// The score pad every game shares: points per round, totals, and a chart of running totals.

import { fill, h } from "./dom.js";
// Each seat's colour, dash and marker are its look everywhere on the page (seat-style.js).
import { marker, SEAT_STYLES, svg } from "./seat-style.js";
import { t, tn } from "./i18n.js";

function runningTotals(rounds, seatCount) {
  const lines = Array.from({ length: seatCount }, () => [0]);
  const sums = new Array(seatCount).fill(0);
  for (const round of rounds) {
    round.forEach((points, seat) => {
      sums[seat] += points;
      lines[seat].push(sums[seat]);
    });
  }
  return lines;
}

function chart(rounds, seatCount, target, names) {
  const width = 320;
  const height = 150;
  const pad = { left: 30, right: 16, top: 10, bottom: 22 };
  const lines = runningTotals(rounds, seatCount);
  const top = Math.max(target || 0, ...lines.flat(), 10);
  const x = (i) => pad.left + (i * (width - pad.left - pad.right)) / Math.max(1, rounds.length);
  const y = (v) => height - pad.bottom - (v * (height - pad.top - pad.bottom)) / top;
  const root = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "score-chart",
    role: "img",
    "aria-label": tn("Running totals after {num} round: {totals}", "Running totals after {num} rounds: {totals}", rounds.length, {
      totals: names.map((name, seat) => `${name} ${lines[seat][lines[seat].length - 1]}`).join(", "),
    }),
  });
  for (const v of [0, Math.round(top / 2), top]) {
    root.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }));
    const label = svg("text", { x: pad.left - 5, y: y(v) + 4, class: "axis", "text-anchor": "end" });
    label.textContent = String(v);
    root.append(label);
  }
  if (target) {
    root.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(target), y2: y(target), class: "target" }));
    const label = svg("text", { x: width - pad.right, y: y(target) - 4, class: "axis target-label", "text-anchor": "end" });
    label.textContent = t("end at {num}", { num: target });
    root.append(label);
  }
  rounds.forEach((_, i) => {
    const label = svg("text", { x: x(i + 1), y: height - 6, class: "axis", "text-anchor": "middle" });
    label.textContent = t("R{num}", { num: i + 1 });
    root.append(label);
  });
  lines.forEach((points, seat) => {
    const style = SEAT_STYLES[seat % SEAT_STYLES.length];
    const d = points.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join("");
    root.append(
      svg("path", {
        d,
        fill: "none",
        stroke: style.colour,
        "stroke-width": 2.2,
        "stroke-dasharray": style.dash,
        "stroke-linejoin": "round",
      }),
    );
    points.forEach((v, i) => {
      if (i > 0) root.append(marker(style.marker, x(i), y(v), style.colour));
    });
  });
  return root;
}

function legendSwatch(seat) {
  const style = SEAT_STYLES[seat % SEAT_STYLES.length];
  const root = svg("svg", { viewBox: "0 0 26 10", width: 26, height: 10, "aria-hidden": "true", class: "swatch" });
  root.append(
    svg("line", { x1: 1, x2: 25, y1: 5, y2: 5, stroke: style.colour, "stroke-width": 2.2, "stroke-dasharray": style.dash }),
    marker(style.marker, 13, 5, style.colour),
  );
  return root;
}

/** The best total so far for a game won by `winner` (the descriptor's "lowest_total",
 * "highest_total" or "first_to_goal"); null for any other (no seat is marked leading). */
export function bestTotal(totals, winner) {
  if (winner === "lowest_total") return Math.min(...totals);
  if (winner === "highest_total" || winner === "first_to_goal") return Math.max(...totals);
  return null;
}

/** Render `room.scorepad` into `container`: a table and a line chart, the best total
 * by the game's `winner` marked as leading. */
export function renderScorepad(container, room, state, seatName, { winner, goal = null, ties = "shared" } = {}) {
  const pad = room.scorepad || { rounds: [], totals: [] };
  const seatCount = room.seats.length;
  const key = JSON.stringify([pad, room.seats.map((s) => s.name), state?.result?.winners, winner, goal, ties]);
  if (container.dataset.key === key) return;
  container.dataset.key = key;
  const names = room.seats.map((s) => seatName(s.seat));
  const winners = new Set(state?.result?.winners || []);
  const totals = pad.totals.length ? pad.totals : new Array(seatCount).fill(0);
  // A tie the rules broke: the result names the winner, and nobody else leads.
  const best = ties === "broken" && winners.size ? null : bestTotal(totals, winner);
  const target = goal;

  const head = h("tr", {}, h("th", { scope: "col" }, t("Round")), names.map((name, seat) => h("th", { scope: "col", title: name }, legendSwatch(seat), " ", name)));
  const body = pad.rounds.map((round, i) =>
    h("tr", {}, h("th", { scope: "row" }, String(i + 1)), round.map((points) => h("td", {}, String(points)))),
  );
  const foot = h(
    "tr",
    { class: "totals" },
    h("th", { scope: "row" }, t("Total")),
    totals.map((total, seat) =>
      h(
        "td",
        { class: winners.has(seat) ? "is-winner" : pad.rounds.length && total === best ? "is-leading" : null },
        String(total),
        winners.has(seat)
          ? h("span", { class: "sr-only" }, " " + t("(winner)"))
          : pad.rounds.length && total === best
            ? h("span", { class: "sr-only" }, " " + t("(leading)"))
            : null,
      ),
    ),
  );
  fill(container, 
    pad.rounds.length
      ? null
      : h("p", { class: "muted small" }, t("Scores appear here after each round.")),
    h(
      "div",
      { class: "scorepad-scroll" },
      // Up to four seats fit a side panel or a phone with narrower columns; more scroll sideways.
      h("table", { class: names.length <= 4 ? "scorepad is-few" : "scorepad" }, h("thead", {}, head), h("tbody", {}, body), h("tfoot", {}, foot)),
    ),
    pad.rounds.length ? chart(pad.rounds, seatCount, target, names) : null,
  );
}
