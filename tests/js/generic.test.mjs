// The generic table's words: any game's actions, view values and events, read without a renderer.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { actionWords, cardsById, eventWords, valueWords, words } from "../../static/js/games/generic.js";

const name = (seat) => ["Ann", "Bo", "Cy"][seat];
const view = {
  round: 2,
  hand: [{ id: 7, value: 2 }, { id: 3, colour: "red", value: 11 }],
  hand_counts: [2, 5, 1],
  discard: { top: { id: 40, value: 9 }, count: 4 },
};
const cards = cardsById(view);

describe("generic table words", () => {
  it("turns keys into words", () => {
    assert.equal(words("first_seat"), "first seat");
    assert.equal(words("drawPile"), "draw pile");
    assert.equal(words("double-discard"), "double discard");
  });

  it("finds every card object by id, however deep", () => {
    assert.deepEqual([...cards.keys()].sort((a, b) => a - b), [3, 7, 40]);
  });

  it("labels an action by its verb and the card it names", () => {
    assert.equal(actionWords({ type: "play", card: 3 }, { name, cards }), "Play: card (colour red, value 11)");
    assert.equal(actionWords({ type: "play", card: 7, pile: 1 }, { name, cards }), "Play: card (value 2), pile 1");
    assert.equal(actionWords({ type: "choose_leader", seat: 2 }, { name, cards }), "Choose leader: Cy");
    assert.equal(actionWords({ type: "draw", source: "deck" }, { name, cards }), "Draw: source deck");
    assert.equal(actionWords({ type: "pass" }, { name, cards }), "Pass");
  });

  it("says a card id that is not in the view as a plain number", () => {
    assert.equal(actionWords({ type: "play", card: 99 }, { name, cards }), "Play: card 99");
  });

  it("shows view values in words: cards, counts per player, nested objects", () => {
    assert.equal(valueWords(view.hand, { key: "hand", name, cards }), "value 2, colour red, value 11");
    assert.equal(valueWords(view.hand_counts, { key: "hand_counts", name }), "Ann 2, Bo 5, Cy 1");
    assert.equal(valueWords(view.discard, { key: "discard", name, cards }), "top value 9; count 4");
    assert.equal(valueWords([], { key: "played" }), "none");
    assert.equal(valueWords(true), "yes");
    assert.equal(valueWords(null), "none");
  });

  it("says an event with who did it", () => {
    assert.equal(eventWords({ seq: 4, type: "play", seat: 1, card: 7 }, { name, cards }), "Bo: play (card (value 2)).");
    assert.equal(eventWords({ seq: 5, type: "round_end", scores: [3, 9, 1] }, { name, cards }), "round end (scores Ann 3, Bo 9, Cy 1).");
  });
});

describe("generic table numbers that are not cards", () => {
  it("does not read a value that happens to equal a card id as that card", () => {
    // Card 3 is in the view, but "value 3" is a number, not card 3.
    assert.equal(eventWords({ seq: 1, type: "play", seat: 0, value: 3 }, { name, cards }), "Ann: play (value 3).");
    assert.equal(actionWords({ type: "bid", amount: 7 }, { name, cards }), "Bid: amount 7");
  });
});
