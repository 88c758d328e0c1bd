// Mojo's card faces: a card (a button when it can be chosen), a card back and the Mojo card.

import { h } from "../../dom.js";
import { glyph } from "../../glyph.js";
import { t } from "../../i18n.js";
import { cardLabel, colourName, SYMBOLS } from "./words.js";

/** One card face. `tag` is "button" for a card that can be chosen. */
export function cardFace(card, { tag = "div", size = "", attrs = {} } = {}) {
  const symbol = SYMBOLS[card.colour] || "?";
  return h(
    tag,
    {
      class: `card c-${card.colour}${size ? ` card-${size}` : ""}`,
      "aria-label": cardLabel(card),
      ...(tag === "button" ? { type: "button" } : { role: "img" }),
      ...attrs,
    },
    h("span", { class: "card-corner tl", "aria-hidden": "true" }, glyph("b", {}, card.value), glyph("i", {}, symbol)),
    h("span", { class: "card-middle", "aria-hidden": "true" }, glyph("span", { class: "card-value" }, card.value)),
    glyph("span", { class: "card-name", "aria-hidden": "true" }, `${symbol} ${colourName(card.colour)}`),
  );
}

export function cardBack(extra = "") {
  return h("div", { class: `card card-back${extra ? ` ${extra}` : ""}`, "aria-hidden": "true" }, glyph("span", { class: "back-mark" }, "M"));
}

export function mojoCard(view) {
  const face = view.mojo?.face === "plus10" ? "+10" : "0";
  const clockwise = view.direction !== "counterclockwise";
  const holder = view.mojo?.holder;
  const held = t("(held)");
  return h(
    "div",
    {
      class: `mojo-card face-${view.mojo?.face || "zero"}`,
      role: "img",
      "aria-label": clockwise
        ? t("Mojo card showing {face}; play goes clockwise", { face })
        : t("Mojo card showing {face}; play goes counter-clockwise", { face }),
    },
    h("span", { class: "mojo-arrow", "aria-hidden": "true" }, clockwise ? "↻" : "↺"),
    h("span", { class: "mojo-face", "aria-hidden": "true" }, face),
    h("span", { class: "mojo-label", "aria-hidden": "true" }, "MOJO"),
    holder !== null && holder !== undefined ? h("span", { class: "sr-only" }, ` ${held}`) : null,
  );
}
