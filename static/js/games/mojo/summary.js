// The round summary's Mojo part: why each player's round counts what it counts.

import { t } from "../../i18n.js";
import { cardFace } from "./cards.js";
import { cardLabel } from "./words.js";

/** "Red 7": a card as a sum names it, with a capital. */
function summed(card) {
  const label = cardLabel(card);
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** The round summary's Mojo lines: per player each colour's highest card (what counts) and the
 * Mojo card; the cards each player held, face-down ones included, are shown with them. */
export function roundSummary(event, view, name) {
  const plus = event.mojo_face === "plus10";
  const ender = name(event.seat);
  const you = ender === t("You");
  let intro;
  if (plus) {
    intro = you
      ? t("You went out first but did not have the lowest count, so the Mojo card adds 10 to your round.")
      : t("{name} went out first but did not have the lowest count, so the Mojo card adds 10 to their round.", { name: ender });
  } else {
    intro = you
      ? t("You went out first with the lowest count: the Mojo card shows 0 and your round counts nothing.")
      : t("{name} went out first with the lowest count: the Mojo card shows 0 and their round counts nothing.", { name: ender });
  }
  const held = view.last_round?.round === event.round ? view.last_round.counted : null;
  const rows = (event.best || []).map((best, seat) => {
    const sum = best.map(summed).join(" + ");
    const total = event.raw?.[seat] ?? 0;
    const why = [best.length ? t("Highest of each colour: {sum} = {total}", { sum, total }) : t("No cards left: 0")];
    if (seat === event.seat) {
      why.push(plus ? t("Mojo card: {count} + 10 = {score}", { count: total, score: event.scores[seat] }) : t("Mojo card: this round counts 0"));
    }
    return { seat, why, cards: held?.[seat]?.map((card) => cardFace(card, { size: "tiny" })) || [] };
  });
  return { intro, rows };
}
