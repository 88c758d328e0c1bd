// The table kit's parts that need no DOM: which events are news (by seq), one move at a
// time, what is announced, and the log's order and "new" marks.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  MoveGate,
  eventsAfter,
  lastSeq,
  logEntries,
  withChat,
  movesAnnouncement,
  othersInOrder,
  seatActs,
  tableKit,
} from "../../static/js/table-kit.js";

const ev = (seq, type = "play", more = {}) => ({ seq, type, ...more });

describe("events by seq", () => {
  it("finds nothing new before anything was seen", () => {
    assert.deepEqual(eventsAfter([ev(1), ev(2)], null), []);
  });

  it("finds the events after the last seen seq, even when the window slid past it", () => {
    const window = [ev(5), ev(6), ev(7), ev(8)];
    assert.deepEqual(eventsAfter(window, 6), [ev(7), ev(8)]);
    // More happened than the window holds: every event in it is new.
    assert.deepEqual(eventsAfter(window, 2), window);
    assert.deepEqual(eventsAfter(window, 8), []);
  });

  it("tells repeated identical moves apart by seq", () => {
    // The same card drawn twice in a row reads the same; only seq says the second is new.
    const before = [ev(1, "draw", { seat: 1 })];
    const after = [ev(1, "draw", { seat: 1 }), ev(2, "draw", { seat: 1 })];
    assert.deepEqual(eventsAfter(after, lastSeq(before)), [ev(2, "draw", { seat: 1 })]);
  });

  it("keeps the highest seq seen when a list is empty", () => {
    assert.equal(lastSeq([], 4), 4);
    assert.equal(lastSeq([ev(3), ev(9)]), 9);
  });
});

describe("MoveGate", () => {
  it("lets one move through until the version changes", () => {
    const gate = new MoveGate();
    gate.seen(4);
    assert.equal(gate.take(), true);
    assert.equal(gate.take(), false);
    gate.seen(4); // a redraw of the same state does not free it
    assert.equal(gate.busy, true);
    gate.seen(5);
    assert.equal(gate.busy, false);
    assert.equal(gate.take(), true);
  });

  it("is free again at once when the move was refused", () => {
    const gate = new MoveGate();
    gate.take();
    gate.release();
    assert.equal(gate.take(), true);
  });
});

describe("turns and words", () => {
  it("knows whose turn it is, and that a spectator never acts", () => {
    const state = { to_act: [0, 2] };
    assert.equal(seatActs(state, 0), true);
    assert.equal(seatActs(state, 1), false);
    assert.equal(seatActs(state, null), false);
    assert.equal(seatActs({}, 0), false);
  });

  it("says the others' moves, then whose turn it is", () => {
    assert.equal(movesAnnouncement(["Bo played a red 4."], { myTurn: true }), "Bo played a red 4. Your turn.");
    assert.equal(
      movesAnnouncement(["Bo played a red 4.", "Cy drew a card."], { next: "Dee" }),
      "Bo played a red 4. Cy drew a card. Dee's turn.",
    );
    assert.equal(movesAnnouncement(["The game is over."], {}), "The game is over.");
    assert.equal(movesAnnouncement([], { myTurn: true }), "");
  });

  it("lists the log newest first and marks the lines after the last seen seq", () => {
    const lines = [
      { text: "Ann played.", seq: 2 },
      { text: "Round 1 is over.", seq: 3, kind: "round" },
      { text: "Bo played.", seq: 5 },
    ];
    assert.deepEqual(logEntries(lines, 3), [
      { text: "Bo played.", who: null, kind: "", isNew: true },
      { text: "Round 1 is over.", who: null, kind: "round", isNew: false },
      { text: "Ann played.", who: null, kind: "", isNew: false },
    ]);
    assert.ok(logEntries(lines, null).every((entry) => !entry.isNew));
  });

  it("puts each chat message right after the event it followed", () => {
    const lines = [
      { text: "Ann played.", seq: 2 },
      { text: "Bo played twice.", seq: 5 },
      { text: "Cy played.", seq: 6 },
    ];
    const chat = [
      { name: "Lost", text: "long ago", after: 0 }, // its events are no longer in the log
      { name: "Ann", text: "hi", after: 1 }, // said during the first line's events
      { name: "Bo", text: "waiting room", after: null },
      { name: "Bo", text: "ha", after: 3 },
      { name: "Cy", text: "gg", after: 6 },
    ];
    const texts = withChat(lines, chat).map((line) => (line.who ? `${line.who}: ${line.text}` : line.text));
    assert.deepEqual(texts, ["Ann: hi", "Ann played.", "Bo: ha", "Bo played twice.", "Cy played.", "Cy: gg"]);
    // Newest first; a chat line is never marked as news of the table.
    const entries = logEntries(withChat(lines, chat), 0);
    assert.deepEqual(entries[0], { text: "gg", who: "Cy", kind: "chat", isNew: false });
    // Before any event, messages written at the deal show; without seqs none can be placed.
    assert.deepEqual(withChat([], chat).map((line) => line.text), ["long ago"]);
    assert.deepEqual(withChat([{ text: "no seq" }], chat), [{ text: "no seq" }]);
  });

  it("shows the table's own lines among the moves without an author", () => {
    const lines = [
      { text: "Ann played.", seq: 2 },
      { text: "Bo played.", seq: 3 },
    ];
    const chat = [{ seat: null, name: "", text: "Bo's seat moved to another device", after: 2, kind: "seat" }];
    const entries = logEntries(withChat(lines, chat), 0);
    assert.deepEqual(entries.map((e) => e.text), ["Bo played.", "Bo's seat moved to another device", "Ann played."]);
    // Never news of the table (the chat shows it), never a speech line.
    assert.deepEqual(entries[1], { text: "Bo's seat moved to another device", who: null, kind: "seat", isNew: false });
    assert.equal(entries[0].isNew, true);
  });
});

describe("seats around the table", () => {
  it("lists the others clockwise from the player's place", () => {
    assert.deepEqual(othersInOrder([0, 1, 2, 3], 2), [3, 0, 1]);
    assert.deepEqual(othersInOrder([0, 1, 2, 3], 0), [1, 2, 3]);
    assert.deepEqual(othersInOrder([0, 1, 2], null), [0, 1, 2]);
  });
});

describe("announcing the others' moves", () => {
  const kitFor = (mySeat) => {
    const heard = [];
    const ctx = { mySeat, seatName: (seat) => ["Ann", "Bo", "Cy"][seat], announce: (text) => heard.push(text) };
    return { kit: tableKit(null, ctx), heard };
  };

  it("leaves out this seat's own lines and names the one seat the game waits for", () => {
    const { kit, heard } = kitFor(0);
    const lines = [{ seat: 0, text: "You played a 5." }, { seat: 1, text: "Bo drew a card." }, "The deck was shuffled."];
    kit.announceMoves(lines, { to_act: [2], result: null });
    assert.equal(heard.length, 1);
    assert.ok(!heard[0].includes("You played"), heard[0]);
    assert.ok(heard[0].includes("Bo drew a card.") && heard[0].includes("The deck was shuffled."), heard[0]);
    assert.ok(heard[0].includes("Cy"), heard[0]);
  });

  it("names nobody when several seats act at once and none is given", () => {
    const { kit, heard } = kitFor(0);
    kit.announceMoves([{ seat: 1, text: "Bo chose." }], { to_act: [1, 2], result: null });
    assert.ok(!heard[0].includes("Cy"), heard[0]);
  });
});
