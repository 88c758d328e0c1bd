// Mojo's table words without a DOM: cards and turns in sentences, the legal moves sorted by what
// a press does, and the status line that tells the player what to do next.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { cardWords, describeEvents, legalBy, statusText } from "../../static/js/games/mojo/words.js";

const name = (seat) => (seat === 0 ? "You" : ["You", "Bo", "Cy"][seat]);
const red7 = { id: 7, colour: "red", value: 7 };
const orange3 = { id: 3, colour: "orange", value: 3 };

describe("cards and turns in words", () => {
  it("says a card with its article", () => {
    assert.equal(cardWords(red7), "a red 7");
    assert.equal(cardWords(orange3), "an orange 3");
  });

  it("folds one seat's play, draw and Mojo Time into one sentence", () => {
    const events = [
      { seq: 1, type: "play", seat: 1, card: red7, pile: 0 },
      { seq: 2, type: "draw", seat: 1, source: "deck" },
      { seq: 3, type: "mojo_time", seat: 1, count: 1 },
    ];
    assert.deepEqual(describeEvents(events, name, 1), [
      { text: "Bo played a red 7, drew a card and hit Mojo Time with 1 card face down.", seq: 3, seat: 1 },
    ]);
  });

  it("names the pile only when there are two, and a card taken from the other pile", () => {
    const events = [
      { seq: 4, type: "play", seat: 0, card: orange3, pile: 1 },
      { seq: 5, type: "draw", seat: 0, source: "pile", card: red7 },
    ];
    assert.equal(describeEvents(events, name, 2)[0].text, "You played an orange 3 on pile 2 and took a red 7 from the other pile.");
    assert.equal(describeEvents(events.slice(0, 1), name, 1)[0].text, "You played an orange 3.");
  });

  it("starts a new sentence when the same seat plays again after a draw", () => {
    const events = [
      { seq: 1, type: "play", seat: 2, card: red7, pile: 0 },
      { seq: 2, type: "draw", seat: 2, source: "none" },
      { seq: 3, type: "play", seat: 2, card: orange3, pile: 0 },
    ];
    assert.deepEqual(
      describeEvents(events, name, 1).map((line) => line.text),
      ["Cy played a red 7 and had nothing left to draw.", "Cy played an orange 3."],
    );
  });

  it("tells a reveal, a reshuffle and the end of a round", () => {
    const events = [
      { seq: 1, type: "reveal", seat: 1, card: red7 },
      { seq: 2, type: "reshuffle", count: 30 },
      { seq: 3, type: "round_end", round: 2, seat: 0, mojo_face: "plus10", scores: [15, 9] },
    ];
    assert.deepEqual(
      describeEvents(events, name, 1).map((line) => line.text),
      [
        "Bo revealed a red 7.",
        "The discards were shuffled into a new draw pile of 30 cards.",
        "Round 2 is over: You went out and take the Mojo card (+10). Points: You 15, Bo 9.",
      ],
    );
  });
});

describe("the legal moves and the status line", () => {
  const state = {
    legal_actions: [
      { type: "play", card: 7, pile: 0 },
      { type: "play", card: 7, pile: 1 },
      { type: "play", card: 3, pile: 0 },
      { type: "reveal", card: 9 },
      { type: "draw", source: "deck" },
    ],
  };

  it("groups plays by card (a card may go on either pile), reveals by card, draws by source", () => {
    const legal = legalBy(state);
    assert.equal(legal.plays.get(7).length, 2);
    assert.deepEqual(legal.plays.get(3), [{ type: "play", card: 3, pile: 0 }]);
    assert.deepEqual(legal.reveals.get(9), { type: "reveal", card: 9 });
    assert.deepEqual([...legal.draws.keys()], ["deck"]);
    assert.equal(legalBy({}).plays.size, 0);
  });

  const seatName = (seat) => ["Ann", "Bo"][seat];
  const view = { current: 1, turn: { pile: null }, discard_piles: [{}, {}] };
  const none = legalBy({});

  it("says who is playing, and that an equal value plays again", () => {
    assert.equal(statusText(view, {}, none, { myTurn: false, selected: null, seatName }), "Bo is playing…");
    const chain = { ...view, turn: { chain: true } };
    assert.equal(statusText(chain, {}, none, { myTurn: false, selected: null, seatName }), "Bo played an equal value and plays again…");
    assert.equal(statusText(view, { status: "finished" }, none, { myTurn: true, selected: null, seatName }), "The game is over.");
  });

  it("tells the player due what to do: draw, reveal, or choose the pile for a picked card", () => {
    const mine = { myTurn: true, selected: null, seatName };
    assert.match(statusText(view, {}, legalBy({ legal_actions: [{ type: "draw", source: "deck" }] }), mine), /draw — from the draw pile/);
    assert.match(statusText(view, {}, legalBy({ legal_actions: [{ type: "reveal", card: 1 }] }), mine), /Reveal one of your face-down cards/);
    assert.equal(statusText(view, {}, legalBy({ legal_actions: state.legal_actions.slice(0, 3) }), { ...mine, selected: 7 }), "Now choose the discard pile to play it on.");
    assert.equal(statusText(view, {}, none, mine), "Your turn: pick a card, then a discard pile.");
  });
});
