// Mooki Island's two draw piles (a take button each when legal) and the drawn card: its two sides
// as the place buttons for the drawer (shown without buttons when there is nothing to press, as
// in a replay), the up side and a hidden side for everyone else.

import { fill, h } from "../../dom.js";
import { glyph } from "../../glyph.js";
import { card, cardBack, stack } from "./cards.js";
import { choiceWords, faceWords } from "./words.js";

/** The piles into `node`. `t`: { send }. */
export function renderPiles(node, t, view, state) {
  const { send } = t;
  const takes = new Map((state.legal_actions || []).filter((a) => a.type === "take").map((a) => [a.pile, a]));
  fill(
    node,
    view.piles.map((pile, index) => {
      const action = takes.get(index);
      const what = pile.top ? faceWords(pile.top, { article: "a" }) : "empty";
      return h(
        action ? "button" : "div",
        {
          class: `mooki-pile${action ? " is-target" : ""}`,
          "data-pile": index,
          ...(action
            ? { type: "button", "data-action": "take", "data-key": `take-${index}`, onclick: () => send(action), "aria-label": `Take · pile ${index + 1}: the top card (${what} on top, ${pile.count} cards)` }
            : { role: "img", "aria-label": `Pile ${index + 1}: ${what} on top, ${pile.count} cards` }),
        },
        stack(pile.top, pile.count),
        h("span", { class: "mooki-pile-label" }, action ? `Take · pile ${index + 1}` : `Pile ${index + 1}`, glyph("b", {}, ` · ${pile.count}`)),
      );
    }),
  );
}

/** The drawn card into `node`. `t`: { ctx, send }. */
export function renderDrawn(node, t, view, state) {
  const { ctx, send } = t;
  const drawn = view.drawn;
  if (!drawn) {
    node.hidden = true;
    fill(node);
    return;
  }
  node.hidden = false;
  const places = new Map((state.legal_actions || []).filter((a) => a.type === "place").map((a) => [a.side, a]));
  const opponent = ctx.seatName(1 - drawn.seat);
  if (places.size && drawn.lower) {
    fill(
      node,
      h("h2", {}, "You drew this card: choose a side"),
      h(
        "div",
        { class: "mooki-choices" },
        ["upper", "lower"].map((side) => {
          const face = drawn[side];
          const words = choiceWords(face, opponent);
          return h(
            "button",
            {
                type: "button",
                class: `mooki-choice f-${face.family || "spider"}`,
                "data-action": "place",
                "data-side": side,
                "data-key": `place-${side}`,
                // Named by what a press does; the card inside is a picture of the same face.
                "aria-label": `${words} (${side === "upper" ? "the side that was up" : "the other side"})`,
                onclick: () => send(places.get(side)),
              },
            card(face),
            h("span", { class: "mooki-choice-words" }, words),
            h("small", { class: "muted" }, side === "upper" ? "the side that was up" : "the other side"),
          );
        }),
      ),
    );
    return;
  }
  if (drawn.lower) {
    // Both sides known but nothing to press: the drawer's own view while the table waits (a
    // pause), or a replay, which shows the choice the drawer had.
    fill(
      node,
      h("h2", {}, `${ctx.seatName(drawn.seat)} drew this card and chooses a side`),
      h(
        "div",
        { class: "mooki-choices is-shown" },
        ["upper", "lower"].map((side) =>
          h(
            "div",
            { class: `mooki-choice f-${drawn[side].family || "spider"}`, "data-side": side },
            card(drawn[side]),
            h("small", { class: "muted" }, side === "upper" ? "the side that was up" : "the other side"),
          ),
        ),
      ),
    );
    return;
  }
  fill(
    node,
    h("h2", {}, `${ctx.seatName(drawn.seat)} is choosing…`),
    h(
      "div",
      { class: "mooki-choices is-waiting" },
      h("div", { class: "mooki-flip" }, card(drawn.upper), h("span", { class: "muted" }, "this side or…")),
      h("div", { class: "mooki-flip" }, cardBack(), h("span", { class: "muted" }, "…the hidden side")),
    ),
  );
}
