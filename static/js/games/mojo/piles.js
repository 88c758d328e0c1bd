// Mojo's middle of the table: the draw pile (a draw button when legal), the discard piles (play
// here, or take the top card) and the Mojo card with the round.

import { fill, h } from "../../dom.js";
import { glyph } from "../../glyph.js";
import { t, tn } from "../../i18n.js";
import { cardBack, cardFace, mojoCard } from "./cards.js";
import { cardLabel } from "./words.js";

/** The middle into `node`. `table`: { kit, send, selected() }. */
export function renderCenter(node, table, view, state, legal) {
  const { kit, send } = table;
  const selected = table.selected();
  const myTurn = kit.myTurn(state);
  const deckDraw = legal.draws.get("deck");
  const pileDraw = legal.draws.get("pile");
  const drawPile = h(
    deckDraw ? "button" : "div",
    {
      class: `pile draw-pile${deckDraw ? " is-target" : ""}`,
      ...(deckDraw ? { type: "button", "data-action": "draw-deck", "data-key": "draw-deck", onclick: () => send(deckDraw) } : {}),
      "aria-label": deckDraw
        ? tn("Draw from the draw pile: {num} card", "Draw from the draw pile: {num} cards", view.draw_pile)
        : tn("Draw pile: {num} card", "Draw pile: {num} cards", view.draw_pile),
    },
    h("div", { class: "stack" }, view.draw_pile > 0 ? [cardBack("stack-2"), cardBack("stack-1"), cardBack()] : h("div", { class: "card card-empty" })),
    h("span", { class: "pile-label" }, deckDraw ? t("Draw") : t("Draw pile"), glyph("b", {}, ` ${view.draw_pile}`)),
  );
  const piles = view.discard_piles.map((pile, index) => {
    const choices = selected !== null ? legal.plays.get(selected) || [] : [];
    const playHere = choices.find((a) => a.pile === index);
    const takeHere = pileDraw && view.turn?.pile !== null && view.turn?.pile !== index ? pileDraw : null;
    const action = playHere || takeHere;
    const top = pile.top;
    const labelWords = top ? cardLabel(top) : t("empty");
    const several = view.discard_piles.length > 1;
    const label = several ? t("Pile {number}", { number: index + 1 }) : t("Discard");
    const cards = tn("{num} card", "{num} cards", pile.count);
    let named;
    if (takeHere) {
      named = several
        ? t("Take it: {card} from pile {number} ({cards})", { card: labelWords, number: index + 1, cards })
        : t("Take it: {card} from the discard pile ({cards})", { card: labelWords, cards });
    } else {
      named = playHere
        ? t("Play here: {pile}, {card}, {cards}", { pile: label, card: labelWords, cards })
        : t("{pile}, {card}, {cards}", { pile: label, card: labelWords, cards });
    }
    return h(
      action ? "button" : "div",
      {
        class: `pile discard-pile${action ? " is-target" : ""}${view.turn?.pile === index ? " is-active" : ""}`,
        "data-pile": index,
        ...(action
          ? { type: "button", "data-action": playHere ? "play-on-pile" : "draw-pile", "data-key": `pile-${index}`, onclick: () => send(action) }
          : {}),
        // Named with its visible words first ("Take it", "Play here"), then what they mean.
          "aria-label": named,
      },
      h(
        "div",
        { class: "stack" },
        pile.count > 1 ? h("div", { class: "card card-under", "aria-hidden": "true" }) : null,
        top ? cardFace(top, { attrs: { class: `card c-${top.colour}`, "data-card-id": top.id } }) : h("div", { class: "card card-empty" }),
      ),
      h("span", { class: "pile-label" }, playHere ? t("Play here") : takeHere ? t("Take it") : label, glyph("b", {}, ` ${pile.count}`)),
    );
  });
  const round = t("Round {round}", { round: view.round });
  const target = t("to {target}", { target: view.target });
  fill(node,
    drawPile,
    ...piles,
    h(
      "div",
      { class: "mojo-slot" },
      mojoCard(view),
      h("span", { class: "pile-label" }, round, h("b", {}, ` · ${target}`)),
    ),
  );
  node.classList.toggle("is-my-turn", myTurn);
}
