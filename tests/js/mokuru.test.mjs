// Mokuru's table helpers without a DOM: the big line around one device, the Marathon line-up,
// and the two sides of a Duel or Battle.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

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
