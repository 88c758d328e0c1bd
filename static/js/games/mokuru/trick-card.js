// The trick to perform: its card (name, category, markers, diagram, description) and who performs
// it — a Marathon line-up, the two sides of a Duel or Battle, or the performers with tries left.

import { fill, h } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { diagram } from "./diagram.js";
import { actionName, cardDescription, cardTitle, categoryName, contestSides, lineup } from "./words.js";

function tryDots(total, left) {
  return h("span", { class: "mokuru-dots", role: "img", "aria-label": tn("{left} of {num} try left", "{left} of {num} tries left", total, { left }) }, Array.from({ length: total }, (_, i) => h("span", { class: i < left ? "mokuru-dot is-left" : "mokuru-dot" })));
}

/** The trick into `node`. `parts`: { kit, name }. */
export function renderTrick(node, parts, view) {
  const { kit, name } = parts;
  const trick = view.trick;
  if (!trick) {
    const imposed = t("On the table (Darkness): {tricks}", { tricks: view.darkness.map((d) => cardTitle(d.card)).join(", ") });
    const darkness = view.darkness.length ? h("p", { class: "mokuru-dark" }, imposed) : null;
    const decks = tn("Tricks deck: {num} card · Master tricks: {masters}", "Tricks deck: {num} cards · Master tricks: {masters}", view.deck_count, { masters: view.master_count });
    fill(node, h("p", { class: "muted" }, decks), darkness);
    return;
  }
  const card = trick.card;
  const markers = [];
  if (trick.mini) markers.push(h("span", { class: "mokuru-chip" }, actionName("mini_mokuru")));
  if (trick.source === "darkness") markers.push(h("span", { class: "mokuru-chip mokuru-dark" }, actionName("darkness")));
  if (trick.source === "given" || trick.source === "stolen") markers.push(h("span", { class: "mokuru-chip mokuru-imposed" }, trick.source === "given" ? t("Given") : t("Stolen")));
  if (trick.mode === "duel" || trick.mode === "doom") markers.push(h("span", { class: "mokuru-chip" }, actionName(trick.mode === "duel" ? "duel" : "the_doom")));
  let performers;
  if (trick.mode === "marathon") {
    const line = lineup(trick, view.players);
    const out = t("out");
    performers = h(
      "div",
      { class: "mokuru-marathon" },
      h("p", { class: "mokuru-lineup-count" }, tn("{left} of {num} still in", "{left} of {num} still in", line.length, { left: trick.players.length })),
      h(
        "ol",
        { class: "mokuru-lineup", "aria-label": t("Marathon line-up") },
        line.map((p) => h("li", { class: `${p.current ? "is-current" : ""}${p.out ? " is-out" : ""}`, "data-seat": p.seat }, name(p.seat), p.out ? h("span", { class: "mokuru-out" }, " ", out) : null)),
      ),
    );
  } else if (trick.mode === "duel" || trick.mode === "battle") {
    const sides = contestSides(view);
    const [a, b] = sides.map((p) => name(p.seat));
    const duel = trick.mode === "duel";
    const versus = b === undefined
      ? (duel ? t("Duel: {a}", { a }) : t("Battle: {a}", { a }))
      : (duel ? t("Duel: {a} against {b}", { a, b }) : t("Battle: {a} against {b}", { a, b }));
    const side = (p) =>
      h(
        "div",
        { class: `mokuru-side${p.current ? " is-current" : ""}${p.out ? " is-out" : ""}`, "data-seat": p.seat },
        kit.avatar(p.seat),
        h("strong", { class: "mokuru-side-name" }, name(p.seat)),
        trick.mode === "duel"
          ? tryDots(view.seats[p.seat].tries_per_trick, p.tries)
          : h("span", { class: "mokuru-side-state" }, p.out ? t("out") : view.phase === "battle" ? t("racing") : ""),
      );
    performers = h(
      "div",
      { class: "mokuru-versus mokuru-performers", "aria-label": versus },
      side(sides[0]),
      h("span", { class: "mokuru-vs", "aria-hidden": "true" }, t("vs")),
      sides[1] ? side(sides[1]) : h("div", { class: "mokuru-side is-open" }, h("strong", { class: "mokuru-side-name" }, "?"), h("span", { class: "mokuru-side-state" }, t("to be chosen"))),
    );
  } else {
    performers = h(
      "ul",
      { class: "mokuru-performers" },
      trick.players.map((seat, i) =>
        h(
          "li",
          { class: view.phase !== "battle" && i === trick.at ? "is-current" : "" },
          h("span", {}, name(seat)),
          trick.mode === "battle" ? null : tryDots(trick.mode === "doom" ? 1 : view.seats[seat].tries_per_trick, trick.tries[i]),
        ),
      ),
    );
  }
  fill(
    node,
    h(
      "article",
      { class: `mokuru-card mokuru-${(card.category || "").toLowerCase()}`, "data-card-id": card.id },
      h("header", {}, h("h2", { class: "mokuru-card-name" }, cardTitle(card)), h("span", { class: "mokuru-category" }, tn("{category} · {num} Mokuru", "{category} · {num} Mokuru", card.mokuru, { category: categoryName(card.category) }))),
      markers.length ? h("p", { class: "mokuru-markers" }, markers) : null,
      diagram(card),
      h("p", { class: "mokuru-description" }, cardDescription(card)),
      performers,
    ),
  );
}
