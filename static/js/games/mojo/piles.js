// Mojo's middle of the table: the draw pile (a draw button when legal), the discard piles (play
// here, or take the top card) and the Mojo card with the round.

import { fill, h } from "../../dom.js";
import { glyph } from "../../glyph.js";
import { cardBack, cardFace, mojoCard } from "./cards.js";

/** The middle into `node`. `t`: { kit, send, selected() }. */
export function renderCenter(node, t, view, state, legal) {
  const { kit, send } = t;
  const selected = t.selected();
  const myTurn = kit.myTurn(state);
  const deckDraw = legal.draws.get("deck");
  const pileDraw = legal.draws.get("pile");
  const drawPile = h(
    deckDraw ? "button" : "div",
    {
      class: `pile draw-pile${deckDraw ? " is-target" : ""}`,
      ...(deckDraw ? { type: "button", "data-action": "draw-deck", "data-key": "draw-deck", onclick: () => send(deckDraw) } : {}),
      "aria-label": `${deckDraw ? "Draw from the draw pile: " : "Draw pile: "}${view.draw_pile} cards`,
    },
    h("div", { class: "stack" }, view.draw_pile > 0 ? [cardBack("stack-2"), cardBack("stack-1"), cardBack()] : h("div", { class: "card card-empty" })),
    h("span", { class: "pile-label" }, deckDraw ? "Draw" : "Draw pile", glyph("b", {}, ` ${view.draw_pile}`)),
  );
  const piles = view.discard_piles.map((pile, index) => {
    const choices = selected !== null ? legal.plays.get(selected) || [] : [];
    const playHere = choices.find((a) => a.pile === index);
    const takeHere = pileDraw && view.turn?.pile !== null && view.turn?.pile !== index ? pileDraw : null;
    const action = playHere || takeHere;
    const top = pile.top;
    const labelWords = top ? `${top.colour} ${top.value}` : "empty";
    const label = view.discard_piles.length > 1 ? `Pile ${index + 1}` : "Discard";
    return h(
      action ? "button" : "div",
      {
        class: `pile discard-pile${action ? " is-target" : ""}${view.turn?.pile === index ? " is-active" : ""}`,
        "data-pile": index,
        ...(action
          ? { type: "button", "data-action": playHere ? "play-on-pile" : "draw-pile", "data-key": `pile-${index}`, onclick: () => send(action) }
          : {}),
        // Named with its visible words first ("Take it", "Play here"), then what they mean.
          "aria-label": takeHere
            ? `Take it: ${labelWords} from ${view.discard_piles.length > 1 ? `pile ${index + 1}` : "the discard pile"} (${pile.count} cards)`
            : `${playHere ? "Play here: " : ""}${label}, ${labelWords}, ${pile.count} cards`,
      },
      h(
        "div",
        { class: "stack" },
        pile.count > 1 ? h("div", { class: "card card-under", "aria-hidden": "true" }) : null,
        top ? cardFace(top, { attrs: { class: `card c-${top.colour}`, "data-card-id": top.id } }) : h("div", { class: "card card-empty" }),
      ),
      h("span", { class: "pile-label" }, playHere ? "Play here" : takeHere ? "Take it" : label, glyph("b", {}, ` ${pile.count}`)),
    );
  });
  fill(node,
    drawPile,
    ...piles,
    h(
      "div",
      { class: "mojo-slot" },
      mojoCard(view),
      h("span", { class: "pile-label" }, `Round ${view.round}`, h("b", {}, ` · to ${view.target}`)),
    ),
  );
  node.classList.toggle("is-my-turn", myTurn);
}
