// The side panel's totals: the score pad's, or the standing a game's table reads off the view.
import assert from "node:assert/strict";
import { test } from "node:test";

import { totalsOf } from "../../static/js/panels.js";

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
