// The trick to perform: its card (name, category, markers, diagram, description) and who performs
// it — a Marathon line-up, the two sides of a Duel or Battle, or the performers with tries left.

import { fill, h } from "../../dom.js";
import { diagram } from "./diagram.js";
import { capital, contestSides, lineup } from "./words.js";

function tryDots(total, left) {
  return h("span", { class: "mk-dots", role: "img", "aria-label": `${left} of ${total} tries left` }, Array.from({ length: total }, (_, i) => h("span", { class: i < left ? "mk-dot is-left" : "mk-dot" })));
}

/** The trick into `node`. `t`: { kit, name }. */
export function renderTrick(node, t, view) {
  const { kit, name } = t;
  const trick = view.trick;
  if (!trick) {
    const darkness = view.darkness.length ? h("p", { class: "mk-dark" }, `On the table (Darkness): ${view.darkness.map((d) => d.card.name).join(", ")}`) : null;
    fill(node, h("p", { class: "muted" }, `Tricks deck: ${view.deck_count} cards · Master tricks: ${view.master_count}`), darkness);
    return;
  }
  const card = trick.card;
  const markers = [];
  if (trick.mini) markers.push(h("span", { class: "mk-chip" }, "Mini Mokuru"));
  if (trick.source === "darkness") markers.push(h("span", { class: "mk-chip mk-dark" }, "Darkness"));
  if (trick.source === "given" || trick.source === "stolen") markers.push(h("span", { class: "mk-chip mk-imposed" }, capital(trick.source)));
  if (trick.mode === "duel" || trick.mode === "doom") markers.push(h("span", { class: "mk-chip" }, trick.mode === "duel" ? "Duel" : "The Doom"));
  let performers;
  if (trick.mode === "marathon") {
    const line = lineup(trick, view.players);
    performers = h(
      "div",
      { class: "mk-marathon" },
      h("p", { class: "mk-lineup-count" }, `${trick.players.length} of ${line.length} still in`),
      h(
        "ol",
        { class: "mk-lineup", "aria-label": "Marathon line-up" },
        line.map((p) => h("li", { class: `${p.current ? "is-current" : ""}${p.out ? " is-out" : ""}`, "data-seat": p.seat }, name(p.seat), p.out ? h("span", { class: "mk-out" }, " out") : null)),
      ),
    );
  } else if (trick.mode === "duel" || trick.mode === "battle") {
    const sides = contestSides(view);
    const side = (p) =>
      h(
        "div",
        { class: `mk-side${p.current ? " is-current" : ""}${p.out ? " is-out" : ""}`, "data-seat": p.seat },
        kit.avatar(p.seat),
        h("strong", { class: "mk-side-name" }, name(p.seat)),
        trick.mode === "duel"
          ? tryDots(view.seats[p.seat].tries_per_trick, p.tries)
          : h("span", { class: "mk-side-state" }, p.out ? "out" : view.phase === "battle" ? "racing" : ""),
      );
    performers = h(
      "div",
      { class: "mk-versus mk-performers", "aria-label": `${trick.mode === "duel" ? "Duel" : "Battle"}: ${sides.map((p) => name(p.seat)).join(" against ")}` },
      side(sides[0]),
      h("span", { class: "mk-vs", "aria-hidden": "true" }, "vs"),
      sides[1] ? side(sides[1]) : h("div", { class: "mk-side is-open" }, h("strong", { class: "mk-side-name" }, "?"), h("span", { class: "mk-side-state" }, "to be chosen")),
    );
  } else {
    performers = h(
      "ul",
      { class: "mk-performers" },
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
      { class: `mk-card mk-${(card.category || "").toLowerCase()}`, "data-card-id": card.id },
      h("header", {}, h("h2", { class: "mk-card-name" }, card.name), h("span", { class: "mk-category" }, `${card.category} · ${card.mokuru} Mokuru`)),
      markers.length ? h("p", { class: "mk-markers" }, markers) : null,
      diagram(card),
      h("p", { class: "mk-description" }, card.description),
      performers,
    ),
  );
}
