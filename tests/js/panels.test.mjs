// The side panel's totals: the score pad's, or the standing a game's table reads off the view.
import assert from "node:assert/strict";
import { test } from "node:test";

import { goalOf, goalWords, standingOf, totalsOf } from "../../static/js/panels.js";

const room = { seats: [{ seat: 0 }, { seat: 1 }], scorepad: { rounds: [[1, 0]], totals: [1, 0] } };

test("the score pad's totals when the table reads no standing", () => {
  assert.deepEqual(totalsOf(room), [1, 0]);
  assert.deepEqual(totalsOf({ seats: room.seats, scorepad: { rounds: [], totals: [] } }), [0, 0]);
});

test("a live standing (a belt won within the round) wins over the last round's totals", () => {
  assert.deepEqual(totalsOf(room, [2, 1]), [2, 1]);
});

test("a standing that does not fit the seats is ignored", () => {
  assert.deepEqual(totalsOf(room, [2]), [1, 0]);
  assert.deepEqual(totalsOf(room, "2,1"), [1, 0]);
});

// The goal and the standing are read off the view where the game's descriptor says.
const mokuru = { goal: { view_key: "grandmaster", reaching: "wins", option: null }, standing: { view_key: "seats", key: "belt" } };

test("the goal is the view's number under the descriptor's goal key", () => {
  assert.equal(goalOf(mokuru, { grandmaster: 9 }), 9);
  assert.equal(goalOf({ goal: { view_key: "target", reaching: "ends_game", option: "target" } }, { target: 50 }), 50);
  assert.equal(goalOf({ goal: null }, { target: 50 }), null, "a game without a goal draws none");
  assert.equal(goalOf(mokuru, { grandmaster: "9" }), null);
  assert.equal(goalOf(mokuru, undefined), null);
});

test("the standing is read per seat where the descriptor says, else the score pad counts", () => {
  assert.deepEqual(standingOf(mokuru, { seats: [{ belt: 2 }, { belt: 0 }] }), [2, 0]);
  assert.deepEqual(standingOf({ standing: { view_key: "stars", key: null } }, { stars: [3, 1] }), [3, 1]);
  assert.equal(standingOf({ standing: null }, { seats: [{ belt: 2 }] }), null);
  assert.equal(standingOf(mokuru, { seats: [{ belt: "white" }] }), null);
  assert.equal(standingOf(mokuru, {}), null);
  assert.deepEqual(totalsOf(room, standingOf(mokuru, { seats: [{ belt: 2 }, { belt: 1 }] })), [2, 1]);
});

test("the goal in words says what reaching it means", () => {
  assert.equal(goalWords(mokuru, 9), "First to 9 wins.");
  const mojo = { goal: { view_key: "target", reaching: "ends_game", option: "target" } };
  assert.equal(goalWords(mojo, 50), "Play to 50: the game ends once a total reaches it.");
  assert.equal(goalWords({ goal: null }, 50), null);
  assert.equal(goalWords(mojo, null), null);
});
