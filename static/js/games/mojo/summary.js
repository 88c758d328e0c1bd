// The round summary's Mojo part: why each player's round counts what it counts.

import { cardFace } from "./cards.js";
import { COLOUR_WORDS } from "./words.js";

/** The round summary's Mojo lines: per player each colour's highest card (what counts) and the
 * Mojo card; the cards each player held, face-down ones included, are shown with them. */
export function roundSummary(event, view, name) {
  const plus = event.mojo_face === "plus10";
  const ender = name(event.seat);
  const you = ender === "You";
  const intro = plus
    ? `${ender} went out first but did not have the lowest count, so the Mojo card adds 10 to ${you ? "your" : "their"} round.`
    : `${ender} went out first with the lowest count: the Mojo card shows 0 and ${you ? "your" : "their"} round counts nothing.`;
  const held = view.last_round?.round === event.round ? view.last_round.counted : null;
  const rows = (event.best || []).map((best, seat) => {
    const sum = best.map((card) => `${COLOUR_WORDS[card.colour] || card.colour} ${card.value}`).join(" + ");
    const why = [best.length ? `Highest of each colour: ${sum} = ${event.raw?.[seat] ?? 0}` : "No cards left: 0"];
    if (seat === event.seat) {
      why.push(plus ? `Mojo card: ${event.raw?.[seat] ?? 0} + 10 = ${event.scores[seat]}` : "Mojo card: this round counts 0");
    }
    return { seat, why, cards: held?.[seat]?.map((card) => cardFace(card, { size: "tiny" })) || [] };
  });
  return { intro, rows };
}
