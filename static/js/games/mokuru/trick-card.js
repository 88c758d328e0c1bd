// The trick to perform: its card (name, category, markers, diagram, description) and who performs
// it — a Marathon line-up, the two sides of a Duel or Battle, or the performers with tries left.

import { fill, h } from "../../dom.js";
import { diagram } from "./diagram.js";
import { capital, contestSides, lineup } from "./words.js";

function tryDots(total, left) {
  return h("span", { class: "mokuru-dots", role: "img", "aria-label": `${left} of ${total} tries left` }, Array.from({ length: total }, (_, i) => h("span", { class: i < left ? "mokuru-dot is-left" : "mokuru-dot" })));
}

/** The trick into `node`. `t`: { kit, name }. */
export function renderTrick(node, t, view) {
  const { kit, name } = t;
  const trick = view.trick;
  if (!trick) {
    const darkness = view.darkness.length ? h("p", { class: "mokuru-dark" }, `On the table (Darkness): ${view.darkness.map((d) => d.card.name).join(", ")}`) : null;
    fill(node, h("p", { class: "muted" }, `Tricks deck: ${view.deck_count} cards · Master tricks: ${view.master_count}`), darkness);
    return;
  }
  const card = trick.card;
  const markers = [];
  if (trick.mini) markers.push(h("span", { class: "mokuru-chip" }, "Mini Mokuru"));
  if (trick.source === "darkness") markers.push(h("span", { class: "mokuru-chip mokuru-dark" }, "Darkness"));
  if (trick.source === "given" || trick.source === "stolen") markers.push(h("span", { class: "mokuru-chip mokuru-imposed" }, capital(trick.source)));
  if (trick.mode === "duel" || trick.mode === "doom") markers.push(h("span", { class: "mokuru-chip" }, trick.mode === "duel" ? "Duel" : "The Doom"));
  let performers;
  if (trick.mode === "marathon") {
    const line = lineup(trick, view.players);
    performers = h(
      "div",
      { class: "mokuru-marathon" },
      h("p", { class: "mokuru-lineup-count" }, `${trick.players.length} of ${line.length} still in`),
      h(
        "ol",
        { class: "mokuru-lineup", "aria-label": "Marathon line-up" },
        line.map((p) => h("li", { class: `${p.current ? "is-current" : ""}${p.out ? " is-out" : ""}`, "data-seat": p.seat }, name(p.seat), p.out ? h("span", { class: "mokuru-out" }, " out") : null)),
      ),
    );
  } else if (trick.mode === "duel" || trick.mode === "battle") {
    const sides = contestSides(view);
    const side = (p) =>
      h(
        "div",
        { class: `mokuru-side${p.current ? " is-current" : ""}${p.out ? " is-out" : ""}`, "data-seat": p.seat },
        kit.avatar(p.seat),
        h("strong", { class: "mokuru-side-name" }, name(p.seat)),
        trick.mode === "duel"
          ? tryDots(view.seats[p.seat].tries_per_trick, p.tries)
          : h("span", { class: "mokuru-side-state" }, p.out ? "out" : view.phase === "battle" ? "racing" : ""),
      );
    performers = h(
      "div",
      { class: "mokuru-versus mokuru-performers", "aria-label": `${trick.mode === "duel" ? "Duel" : "Battle"}: ${sides.map((p) => name(p.seat)).join(" against ")}` },
      side(sides[0]),
      h("span", { class: "mokuru-vs", "aria-hidden": "true" }, "vs"),
      sides[1] ? side(sides[1]) : h("div", { class: "mokuru-side is-open" }, h("strong", { class: "mokuru-side-name" }, "?"), h("span", { class: "mokuru-side-state" }, "to be chosen")),
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
      h("header", {}, h("h2", { class: "mokuru-card-name" }, card.name), h("span", { class: "mokuru-category" }, `${card.category} · ${card.mokuru} Mokuru`)),
      markers.length ? h("p", { class: "mokuru-markers" }, markers) : null,
      diagram(card),
      h("p", { class: "mokuru-description" }, card.description),
      performers,
    ),
  );
}
