// Mokuru's belts board (each belt with the pawns on it) and the seats with their belt,
// difficulty, kept cards and what waits for them.

import { fill, h } from "../../dom.js";
import { t } from "../../i18n.js";
import { beltTitle, cardTitle, handWords, levelTitle, triesWords } from "./words.js";

/** The board into `node`. `parts`: { kit, name }. */
export function renderBoard(node, parts, view) {
  const { kit, name } = parts;
  const columns = [...view.belts.map((b, i) => ({ key: b, label: beltTitle(b), index: i })), { key: "grandmaster", label: beltTitle("grandmaster"), index: view.grandmaster }];
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

/** The seats into `node`. `parts`: { name }. */
export function renderSeats(node, parts, view) {
  const { name } = parts;
  fill(
    node,
    view.seats.map((seat) =>
      h(
        "li",
        { class: `seat-panel mokuru-seat${seat.seat === view.turn && view.phase !== "difficulty" ? " is-current" : ""}`, "data-seat": seat.seat },
        h("strong", {}, name(seat.seat)),
        h("span", { class: `belt-chip belt-${seat.belt >= view.grandmaster ? "grandmaster" : view.belts[seat.belt]}` }),
        h("span", { class: "mokuru-belt-label" }, seat.belt_name === "grandmaster" ? beltTitle("grandmaster") : t("{belt} belt", { belt: beltTitle(seat.belt_name) })),
        seat.difficulty ? h("span", { class: "muted small" }, `${levelTitle(seat.difficulty)} · ${handWords(seat.hand)} · ${triesWords(seat.tries_per_trick)}`) : h("span", { class: "muted small" }, t("choosing…")),
        seat.kept.length ? h("span", { class: "mokuru-kept" }, seat.kept.map((card) => h("span", { class: "mokuru-chip" }, cardTitle(card)))) : null,
        seat.imposed.length ? h("span", { class: "mokuru-kept" }, seat.imposed.map((r) => h("span", { class: "mokuru-chip mokuru-imposed" }, r.source === "given" ? t("Given: {trick}", { trick: cardTitle(r.card) }) : t("Stolen: {trick}", { trick: cardTitle(r.card) })))) : null,
        seat.darkness_due ? h("span", { class: "mokuru-chip mokuru-dark" }, t("Darkness trick next")) : null,
        seat.mini_next ? h("span", { class: "mokuru-chip" }, t("Mini Mokuru next")) : null,
      ),
    ),
  );
}
