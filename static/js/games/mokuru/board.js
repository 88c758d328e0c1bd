// Mokuru's belts board (each belt with the pawns on it) and the seats with their belt,
// difficulty, kept cards and what waits for them.

import { fill, h } from "../../dom.js";
import { capital } from "./words.js";

/** The board into `node`. `t`: { kit, name }. */
export function renderBoard(node, t, view) {
  const { kit, name } = t;
  const columns = [...view.belts.map((b, i) => ({ key: b, label: capital(b), index: i })), { key: "grandmaster", label: "Grandmaster", index: view.grandmaster }];
  fill(
    node,
    columns
      .slice()
      .reverse()
      .map((column) =>
        h(
          "li",
          { class: `mokuru-belt belt-${column.key}`, "data-belt": column.index },
          h("span", { class: "belt-chip" }),
          h("span", { class: "mokuru-belt-name" }, column.label),
          h(
            "span",
            { class: "mokuru-pawns" },
            view.seats.filter((seat) => seat.belt === column.index).map((seat) => h("span", { class: `mokuru-pawn${seat.seat === view.turn && view.phase !== "difficulty" ? " is-turn" : ""}`, title: name(seat.seat) }, kit.avatar(seat.seat), h("span", { class: "sr-only" }, name(seat.seat)))),
          ),
        ),
      ),
  );
}

/** The seats into `node`. `t`: { name }. */
export function renderSeats(node, t, view) {
  const { name } = t;
  fill(
    node,
    view.seats.map((seat) =>
      h(
        "li",
        { class: `seat-panel mokuru-seat${seat.seat === view.turn && view.phase !== "difficulty" ? " is-current" : ""}`, "data-seat": seat.seat },
        h("strong", {}, name(seat.seat)),
        h("span", { class: `belt-chip belt-${seat.belt >= view.grandmaster ? "grandmaster" : view.belts[seat.belt]}` }),
        h("span", { class: "mokuru-belt-label" }, seat.belt_name === "grandmaster" ? "Grandmaster" : `${capital(seat.belt_name)} belt`),
        seat.difficulty ? h("span", { class: "muted small" }, `${capital(seat.difficulty)} · ${seat.hand} · ${seat.tries_per_trick} ${seat.tries_per_trick === 1 ? "try" : "tries"}`) : h("span", { class: "muted small" }, "choosing…"),
        seat.kept.length ? h("span", { class: "mokuru-kept" }, seat.kept.map((card) => h("span", { class: "mokuru-chip" }, card.name))) : null,
        seat.imposed.length ? h("span", { class: "mokuru-kept" }, seat.imposed.map((r) => h("span", { class: "mokuru-chip mokuru-imposed" }, `${r.source === "given" ? "Given" : "Stolen"}: ${r.card.name}`))) : null,
        seat.darkness_due ? h("span", { class: "mokuru-chip mokuru-dark" }, "Darkness trick next") : null,
        seat.mini_next ? h("span", { class: "mokuru-chip" }, "Mini Mokuru next") : null,
      ),
    ),
  );
}
