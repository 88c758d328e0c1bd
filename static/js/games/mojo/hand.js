// Mojo's own seat: the head, the face-down and revealed cards of Mojo Time, and the hand as a
// list of one button per card. The buttons are kept across updates so keyboard focus stays on its card.

import { fill, h } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { cardFace } from "./cards.js";
import { cardLabel } from "./words.js";

/** `createHand(els, table)` → renderMine(view, state, legal, first). `els`: { mine, faceDown, hand };
 * `table`: { ctx, kit, send, legal(), selected(), toggle(id) }. */
export function createHand(els, table) {
  const { ctx, kit, send } = table;
  const handNodes = new Map();
  return function renderMine(view, state, legal, first) {
    const me = ctx.mySeat;
    if (me === null || me === undefined) {
      els.mine.hidden = true;
      return;
    }
    els.mine.hidden = false;
    const info = view.seats[me];
    const myTurn = kit.myTurn(state);
    const head = els.mine.querySelector(".mine-head");
    fill(head,
      kit.avatar(me),
      h("span", { class: "seat-title" }, t("{name} (you)", { name: ctx.seatName(me) })),
      myTurn ? h("span", { class: "turn-flag is-you" }, t("your turn")) : null,
      info?.mojo_time && !state.result ? h("span", { class: "chip chip-time" }, t("Mojo Time")) : null,
      view.mojo?.holder === me ? h("span", { class: "chip chip-mojo" }, "Mojo") : null,
      h("span", { class: "count" }, tn("{num} in hand", "{num} in hand", view.hand.length)),
    );
    els.mine.classList.toggle("is-current", myTurn);

    // Face-down and revealed cards (Mojo Time). You know your own face-down cards.
    const revealedCards = info?.revealed || [];
    els.faceDown.hidden = !view.face_down.length && !revealedCards.length;
    fill(els.faceDown,
      view.face_down.length ? h("span", { class: "facedown-label" }, t("Face down:")) : null,
      ...view.face_down.map((card) => {
        const reveal = legal.reveals.get(card.id);
        return cardFace(card, {
          tag: reveal ? "button" : "div",
          size: "small",
          attrs: {
            class: `card card-small c-${card.colour} is-facedown${reveal ? " is-legal" : ""}`,
            "data-card-id": card.id,
            "aria-label": reveal ? t("Reveal {card}", { card: cardLabel(card) }) : t("Face down: {card}", { card: cardLabel(card) }),
            ...(reveal ? { "data-action": "reveal", "data-key": `reveal-${card.id}`, onclick: () => send(reveal) } : {}),
          },
        });
      }),
      revealedCards.length ? h("span", { class: "facedown-label" }, t("Revealed:")) : null,
      ...revealedCards.map((card) => cardFace(card, { size: "small" })),
    );

    // The hand: one button per card, kept across updates so keyboard focus stays put.
    const before = new Set(handNodes.keys());
    const top = view.discard_piles[view.turn?.pile ?? 0]?.top;
    const wanted = view.hand.map((card) => {
      let node = handNodes.get(card.id)?.firstElementChild;
      if (!node) {
        node = cardFace(card, { tag: "button", attrs: { "data-card-id": card.id, "data-key": `card-${card.id}` } });
        const id = card.id;
        node.addEventListener("click", () => {
          const actions = table.legal().plays.get(id) || [];
          if (actions.length === 1) send(actions[0]);
          else if (actions.length > 1) {
            table.toggle(id);
          }
        });
        if (!first) node.classList.add("is-drawn");
        // Each card is an item of the list "Your hand".
        handNodes.set(card.id, h("span", { class: "hand-slot", role: "listitem" }, node));
      }
      before.delete(card.id);
      const actions = legal.plays.get(card.id) || [];
      node.disabled = !actions.length;
      if (actions.length) node.dataset.action = "play";
      else delete node.dataset.action;
      node.classList.toggle("is-legal", actions.length > 0);
      node.classList.toggle("is-selected", table.selected() === card.id);
      // Only a card that still needs a pile choice is a toggle.
      if (actions.length > 1) node.setAttribute("aria-pressed", String(table.selected() === card.id));
      else node.removeAttribute("aria-pressed");
      if (top && actions.length && view.discard_piles.length === 1) {
        node.dataset.compare = card.value < top.value ? "lower" : card.value > top.value ? "higher" : "equal";
      } else delete node.dataset.compare;
      // Named by what a press does: "Play red 7" (a screen reader and a keyboard user hear the move).
      const named = cardLabel(card);
      let label;
      if (actions.length === 1) label = t("Play {card}", { card: named });
      else if (actions.length) label = t("Play {card}, then choose its pile", { card: named });
      else label = t("{card} (not playable now)", { card: named });
      node.setAttribute("aria-label", label);
      return node;
    });
    for (const gone of before) handNodes.delete(gone);
    wanted.forEach((node, index) => {
      const slot = node.parentElement;
      if (els.hand.children[index] !== slot) els.hand.insertBefore(slot, els.hand.children[index] || null);
    });
    while (els.hand.children.length > wanted.length) els.hand.lastElementChild.remove();
    if (!view.hand.length) {
      // "Your cards are face down" only while some still are; once all are revealed it would mislead.
      els.hand.dataset.empty = view.face_down.length ? "mojo" : "none";
      els.hand.dataset.emptyWords = t("Mojo Time: your cards are face down.");
    } else delete els.hand.dataset.empty;
    setTimeout(() => {
      for (const node of wanted) node.classList.remove("is-drawn");
    }, 600);
  };
}
