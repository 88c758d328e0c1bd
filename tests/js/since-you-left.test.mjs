import assert from "node:assert/strict";
import { test } from "node:test";

import { askWords, entriesSince, pointsSince, recap, SHOWN_MOVES, tableMarks } from "../../static/js/since-you-left.js";
import { WORDS as words } from "./action-words.mjs";

const name = (seat) => ["You", "Bo", "Cy"][seat];
const log = {
  entries: [
    { seq: 1, seat: 0, action: { type: "play", card: 3 } },
    { seq: 2, seat: 1, action: { type: "play", card: 7 } },
    { seq: 3, seat: 2, action: { type: "set_aside" } },
    { seq: 4, seat: 1, action: { type: "draw" } },
  ],
};
const state = {
  version: 5,
  status: "playing",
  seat: 0,
  to_act: [0],
  legal_actions: [{ type: "play", card: 11 }, { type: "play", card: 12 }, { type: "draw" }],
  view: { discard_piles: [[{ id: 7, colour: "red", value: 5 }]] },
  result: null,
};

test("the entries since a version are those whose seq is at least that version", () => {
  assert.deepEqual(entriesSince(log.entries, 2).map((e) => e.seq), [2, 3, 4]);
  assert.deepEqual(entriesSince(log.entries, 5), []);
});

test("the recap lists the others' moves in words, the points and what is asked now", () => {
  const found = recap({ words, seen: { version: 2, totals: [0, 0, 0] }, log, state, totals: [0, 12, 0], seat: 0, name });
  assert.deepEqual(found.moves, ["Bo played a red 5.", "Cy set a card aside.", "Bo drew a card."]);
  assert.equal(found.count, 3);
  assert.equal(found.earlier, 0);
  assert.deepEqual(found.points, [{ seat: 1, name: "Bo", gained: 12, total: 12 }]);
  assert.equal(found.ask, "Your turn: play a card or draw.");
  assert.equal(found.yourTurn, true);
});

test("no card when nothing happened, or only the player's own moves", () => {
  assert.equal(recap({ words, seen: { version: 5 }, log, state, totals: [], seat: 0, name }), null);
  assert.equal(recap({ words, seen: null, log, state, totals: [], seat: 0, name }), null);
  const mine = { entries: [{ seq: 4, seat: 0, action: { type: "draw" } }] };
  assert.equal(recap({ words, seen: { version: 4 }, log: mine, state, totals: [], seat: 0, name }), null);
});

test("a long absence lists the newest moves and counts the rest", () => {
  const many = { entries: Array.from({ length: 30 }, (_, i) => ({ seq: i + 1, seat: 1, action: { type: "draw" } })) };
  const found = recap({ words, seen: { version: 1 }, log: many, state: { ...state, version: 31 }, totals: [], seat: 0, name });
  assert.equal(found.moves.length, SHOWN_MOVES);
  assert.equal(found.earlier, 30 - SHOWN_MOVES);
});

test("what is asked on your turn: the game's words for each kind of move on offer, up to three", () => {
  assert.equal(askWords(state, 0, name, words), "Your turn: play a card or draw.");
  const many = [{ type: "take", pile: 0 }, { type: "place", side: "upper" }, { type: "give", seat: 1 }, { type: "draw" }];
  assert.equal(askWords({ ...state, legal_actions: many }, 0, name, words), "Your turn: take a card, place your card or give a card.");
  // A move the words do not name is not asked for by name.
  assert.equal(askWords({ ...state, legal_actions: [{ type: "juggle" }] }, 0, name, words), "Your turn.");
  assert.equal(askWords(state, 0, name), "Your turn.");
});

test("what is asked: someone else's turn, the end of the match", () => {
  assert.equal(askWords({ ...state, to_act: [1] }, 0, name), "Nothing to do yet: it is Bo's turn.");
  assert.equal(askWords({ ...state, to_act: [1, 2] }, 0, name), "Nothing to do yet: waiting for Bo and Cy.");
  assert.equal(askWords({ ...state, status: "finished", result: { winners: [0] } }, 0, name), "The match is over: you won!");
  assert.equal(askWords({ ...state, status: "finished", result: { winners: [2] } }, 0, name), "The match is over: Cy won.");
  assert.deepEqual(pointsSince([1, 2], [1, 5], name), [{ seat: 1, name: "Bo", gained: 3, total: 5 }]);
  assert.deepEqual(pointsSince(undefined, [1, 5], name), []);
});

test("a card played and since covered is named from the table's events, matched from the end", () => {
  const played = {
    entries: [
      { seq: 1, seat: 1, action: { type: "play", card: 40 } },
      { seq: 2, seat: 1, action: { type: "play", card: 41 } },
      { seq: 3, seat: 2, action: { type: "play", card: 42 } },
    ],
  };
  const view = {
    discard_piles: [[{ id: 42, colour: "red", value: 5 }]],
    // The oldest play's event has dropped out of the view's events.
    events: [
      { seq: 8, type: "play", seat: 1, card: { colour: "green", value: 3 } },
      { seq: 9, type: "draw", seat: 1 },
      { seq: 10, type: "play", seat: 2, family: "orca", value: 4 },
    ],
  };
  const found = recap({ words, seen: { version: 1 }, log: played, state: { ...state, version: 4, view }, totals: [], seat: 0, name });
  assert.deepEqual(found.moves, ["Bo played a card.", "Bo played a green 3.", "Cy played a red 5."]);
});

test("the table marks the other seats that moved and the cards their log entries name", () => {
  const marks = tableMarks(entriesSince(log.entries, 1), 0);
  assert.deepEqual(marks.seats, [1, 2]);
  // The player's own card 3 is not marked; Bo's card 7 is, in Bo's colour; a draw names no card.
  assert.deepEqual([...marks.cards], [["7", 1]]);
  const found = recap({ words, seen: { version: 2, totals: [0, 0, 0] }, log, state, totals: [0, 0, 0], seat: 0, name });
  assert.deepEqual(found.marks.seats, [1, 2]);
  assert.deepEqual([...found.marks.cards.keys()], ["7"]);
});

test("a move whose card the log hides from the seat names no card to mark", () => {
  const hidden = [{ seq: 6, seat: 1, action: { type: "give" } }, { seq: 7, seat: 2, action: { type: "play", card: null } }];
  const marks = tableMarks(hidden, 0);
  assert.deepEqual(marks.seats, [1, 2]);
  assert.equal(marks.cards.size, 0);
});
