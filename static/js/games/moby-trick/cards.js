// Moby Trick's card faces and chips: value, pearls down the left edge, the family's symbol and
// name, and the bonus badge, so nothing depends on telling colours apart.

import { h } from "../../dom.js";
import { glyph } from "../../glyph.js";
import { t } from "../../i18n.js";
import { bonusWords, cardLabel, familyClass, familyName, symbolOf } from "./words.js";

export function pearlDots(count) {
  return Array.from({ length: count }, () => h("span", { class: "pearl" }));
}

export function bonusBadge(bonus) {
  switch (bonus?.kind) {
    case "flip":
      return glyph("span", { class: "whale-bonus bonus-flip", title: t("Bonus: flip the token") }, "1⇅9");
    case "trump":
      return h(
        "span",
        { class: "whale-bonus bonus-trump", title: t("Bonus: {bonus}", { bonus: bonusWords(bonus) }) },
        glyph("span", {}, "⇒"),
        glyph("b", { class: familyClass(bonus.family) }, symbolOf(bonus.family)),
      );
    case "pearl":
      return h("span", { class: "whale-bonus bonus-pearl", title: t("Bonus: 1 pearl") }, glyph("span", {}, "+"), h("span", { class: "pearl" }));
    default:
      return null;
  }
}

/** One card face. `tag` is "button" for a card that can be chosen. Pearls run down the left edge as printed. */
export function cardFace(card, { tag = "div", size = "", extraClass = "", attrs = {} } = {}) {
  const button = tag === "button";
  return h(
    tag,
    {
      class: `card whale ${familyClass(card.family)}${size ? ` card-${size}` : ""}${extraClass ? ` ${extraClass}` : ""}`,
      "aria-label": cardLabel(card),
      ...(button ? { type: "button" } : { role: "img" }),
      ...(card.id !== undefined ? { "data-card-id": card.id } : {}),
      ...attrs,
    },
    glyph("span", { class: "whale-value", "aria-hidden": "true" }, card.value),
    card.pearls ? h("span", { class: "whale-pearls", "aria-hidden": "true" }, pearlDots(card.pearls)) : null,
    glyph("span", { class: "whale-mark", "aria-hidden": "true" }, symbolOf(card.family)),
    h("span", { class: "whale-corner", "aria-hidden": "true" }, bonusBadge(card.bonus)),
    glyph("span", { class: "whale-name", "aria-hidden": "true" }, card.family ? familyName(card.family) : t("any family")),
  );
}

export function familyChip(family, extra = "") {
  return h(
    "span",
    { class: `family-chip ${familyClass(family)}${extra ? ` ${extra}` : ""}` },
    h("span", { class: "chip-symbol", "aria-hidden": "true" }, symbolOf(family)),
    " ",
    familyName(family),
  );
}

