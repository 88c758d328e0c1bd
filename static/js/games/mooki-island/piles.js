// Mooki Island's two draw piles (a take button each when legal) and the drawn card: its two sides
// as the place buttons for the drawer (shown without buttons when there is nothing to press, as
// in a replay), the up side and a hidden side for everyone else.

import { fill, h } from "../../dom.js";
import { glyph } from "../../glyph.js";
import { t, tn } from "../../i18n.js";
import { card, cardBack, stack } from "./cards.js";
import { choiceWords, pileWords } from "./words.js";

/** The piles into `node`. `parts`: { send }. */
export function renderPiles(node, parts, view, state) {
  const { send } = parts;
  const takes = new Map((state.legal_actions || []).filter((a) => a.type === "take").map((a) => [a.pile, a]));
  fill(
    node,
    view.piles.map((pile, index) => {
      const action = takes.get(index);
      return h(
        action ? "button" : "div",
        {
          class: `mooki-pile${action ? " is-target" : ""}`,
          "data-pile": index,
          ...(action
            ? { type: "button", "data-action": "take", "data-key": `take-${index}`, onclick: () => send(action), "aria-label": pileWords(pile, index, true) }
            : { role: "img", "aria-label": pileWords(pile, index, false) }),
        },
        stack(pile.top, pile.count),
        // The count on a line of its own ("17 cards"), as picture text: the button is named by what
        // it does, the count is in its name's words (pileWords) but not its visible label.
        h(
          "span",
          { class: "mooki-pile-label" },
          action ? t("Take · pile {pile}", { pile: index + 1 }) : t("Pile {pile}", { pile: index + 1 }),
          glyph("small", { class: "mooki-pile-count" }, tn("{num} card", "{num} cards", pile.count)),
        ),
      );
    }),
  );
}

/** The drawn card into `node`. `parts`: { ctx, send }. */
export function renderDrawn(node, parts, view, state) {
  const { ctx, send } = parts;
  const upSide = t("the side that was up");
  const otherSide = t("the other side");
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
      h("h2", {}, t("You drew this card: choose a side")),
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
                // Named by what a press does, then which side, in the words the button shows and in
                // their order (the card's printed name is drawn, not text): a voice saying what it
                // sees finds it (WCAG 2.5.3). No parentheses: a checker reads a name without what
                // they hold, and the side is on screen.
                "aria-label": t("{choice}, {side}", { choice: words, side: side === "upper" ? upSide : otherSide }),
                onclick: () => send(places.get(side)),
              },
            card(face),
            h("span", { class: "mooki-choice-words" }, words),
            // A space between the two lines' words, so they read as words apart (text content
            // joins elements without one).
            " ",
            h("small", { class: "muted" }, side === "upper" ? upSide : otherSide),
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
      h("h2", {}, t("{name} drew this card and chooses a side", { name: ctx.seatName(drawn.seat) })),
      h(
        "div",
        { class: "mooki-choices is-shown" },
        ["upper", "lower"].map((side) =>
          h(
            "div",
            { class: `mooki-choice f-${drawn[side].family || "spider"}`, "data-side": side },
            card(drawn[side]),
            h("small", { class: "muted" }, side === "upper" ? upSide : otherSide),
          ),
        ),
      ),
    );
    return;
  }
  fill(
    node,
    h("h2", {}, t("{name} is choosing…", { name: ctx.seatName(drawn.seat) })),
    h(
      "div",
      { class: "mooki-choices is-waiting" },
      h("div", { class: "mooki-flip" }, card(drawn.upper), h("span", { class: "muted" }, t("this side or…"))),
      h("div", { class: "mooki-flip" }, cardBack(), h("span", { class: "muted" }, t("…the hidden side"))),
    ),
  );
}
