// Mokuru's table helpers without a DOM: the big line around one device, the Marathon line-up,
// and the two sides of a Duel or Battle.

import assert from "node:assert/strict";
import { describe, it, test } from "node:test";

import { contestSides, deviceLine, lineup } from "../../static/js/games/mokuru.js";

const names = ["Ann", "Bo", "Cy", "Di"];
const seatName = (seat) => names[seat];
const card = { name: "3 Flips back", category: "Basic" };

describe("the line for the player due around one device", () => {
  it("names the player, the trick and the tries left", () => {
    const view = { phase: "perform", trick: { card, players: [1], tries: [3], at: 0 } };
    assert.deepEqual(deviceLine(view, 1, seatName), { who: "Bo", what: "3 Flips back — 3 tries" });
    view.trick.tries = [1];
    assert.equal(deviceLine(view, 1, seatName).what, "3 Flips back — 1 try");
  });
  it("says what a witness, a racer or a drawer must do", () => {
    assert.equal(deviceLine({ phase: "confirm", claim: { seat: 0 } }, 2, seatName).what, "Did Ann land it?");
    assert.equal(deviceLine({ phase: "battle", trick: { card, players: [0, 2] } }, 2, seatName).what, "Battle: 3 Flips back — go!");
    assert.equal(deviceLine({ phase: "draw" }, 3, seatName).what, "Your turn: draw");
    assert.equal(deviceLine({ phase: "difficulty" }, 0, seatName).what, "Choose your difficulty");
  });
});

describe("the Marathon line-up", () => {
  it("runs from the drawer in turn order and marks who is out and who is due", () => {
    const trick = { performer: 2, players: [2, 0, 1], at: 1 };
    assert.deepEqual(lineup(trick, 4), [
      { seat: 2, out: false, current: false },
      { seat: 3, out: true, current: false },
      { seat: 0, out: false, current: true },
      { seat: 1, out: false, current: false },
    ]);
  });
});

describe("the two sides of a contest", () => {
  it("keeps both duellists with their tries, the one due marked", () => {
    const view = { phase: "perform", trick: { mode: "duel", performer: 0, players: [0, 3], tries: [2, 3], at: 1 } };
    assert.deepEqual(contestSides(view), [
      { seat: 0, tries: 2, out: false, current: false },
      { seat: 3, tries: 3, out: false, current: true },
    ]);
  });
  it("keeps a Battle racer who dropped out, from the event that named the opponent", () => {
    const view = {
      phase: "battle",
      events: [
        { seq: 7, type: "target", seat: 1, action: "battle", target: 2 },
        { seq: 8, type: "out", seat: 2, mode: "battle" },
      ],
      trick: { mode: "battle", performer: 1, players: [1], tries: [1], at: 0 },
    };
    assert.deepEqual(
      contestSides(view).map((side) => [side.seat, side.out, side.current]),
      [
        [1, false, false],
        [2, true, false],
      ],
    );
  });
});

test("the witness rule names who decides and why the others do not", async () => {
  const { witnessNote, peopleOutOfTurn } = await import("../../static/js/games/mokuru.js");
  const names = ["Ann", "Bo", "Cy", "Dee"];
  const name = (seat) => names[seat];
  const duel = { seat: 0, witnesses: [2], neutral: true, interested: [{ seat: 1, stake: "opponent" }], disputed_by: null };
  assert.equal(witnessNote(duel, "duel", name), "Bo (the Duel opponent) does not witness: Cy decides.");
  const alone = { seat: 0, witnesses: [1], neutral: false, interested: [{ seat: 1, stake: "opponent" }], disputed_by: null };
  assert.equal(witnessNote(alone, "battle", name), "Nobody without a stake can witness, so Bo (the Battle opponent) decides.");
  const second = { seat: 0, witnesses: [1, 3], neutral: true, interested: [], disputed_by: 2 };
  assert.equal(witnessNote(second, "solo", name), "Cy disputed it: Bo or Dee settles it, and that word is final.");
  assert.equal(witnessNote({ ...second, disputed_by: null, witnesses: [1, 2, 3] }, "solo", name), "");
  const view = { out_of_turn: [{ seat: 1, action: "steal" }, { seat: 2, action: "steal" }] };
  const room = { seats: [{ seat: 0 }, { seat: 1 }, { seat: 2, bot: true }] };
  assert.deepEqual(peopleOutOfTurn(view, room, 0), [{ seat: 1, action: "steal" }], "a bot is not waited for");
  assert.deepEqual(peopleOutOfTurn(view, room, 1), [], "nor the page's own player");
});

test("an action card aimed at its own drawer reads 'yourself'", async () => {
  const { targetLabel } = await import("../../static/js/games/mokuru.js");
  const name = (seat) => ["You", "Bo"][seat];
  const view = { seat: 0, choosing: { action: "negative_boost" } };
  assert.equal(targetLabel(view, { type: "target", seat: 0 }, name), "Knock down yourself");
  assert.equal(targetLabel(view, { type: "target", seat: 1 }, name), "Knock down Bo");
  assert.equal(targetLabel({ ...view, choosing: { action: "positive_boost" } }, { type: "target", seat: 0 }, name), "Boost yourself");
});
