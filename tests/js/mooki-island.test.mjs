// The Mooki Island table's words, without a DOM: what the log and the choice buttons say.
import assert from "node:assert/strict";
import { test } from "node:test";

import { choiceWords, describeEvents, faceWords } from "../../static/js/games/mooki-island.js";

const name = (seat, object = false) => (seat === 0 ? (object ? "you" : "You") : "Robin");

test("faces are named the way a child would say them", () => {
  assert.equal(faceWords({ kind: "mooki", family: "sun" }), "the Sun Mooki");
  assert.equal(faceWords({ kind: "legendary", family: "leaf" }), "the Legendary Leaf Mooki");
  assert.equal(faceWords({ kind: "spider" }, { article: "a" }), "a Spider");
  assert.equal(faceWords(null), "a card");
});

test("the two choices say where the card goes", () => {
  assert.equal(choiceWords({ kind: "mooki", family: "sun" }, "Robin"), "Keep the Sun Mooki");
  assert.equal(choiceWords({ kind: "spider" }, "Robin"), "Send the Spider to Robin");
});

test("the log tells takes, placements and the end, and names a face only while it is on top", () => {
  const events = [
    { seq: 1, type: "take", seat: 1, pile: 0 },
    { seq: 2, type: "place", seat: 1, to: 0 },
    { seq: 3, type: "take", seat: 0, pile: 1 },
    { seq: 4, type: "place", seat: 0, to: 0 },
    { seq: 5, type: "take", seat: 1, pile: 1 },
    { seq: 6, type: "trophies", owners: { sun: 0, moon: 1, fossil: null, seashell: 1, leaf: 0 } },
    { seq: 7, type: "spider", seat: 1, spiders: [1, 2], returned: "seashell" },
    { seq: 8, type: "end", stars: [6, 4], winner: 0, tie: false },
  ];
  const tops = [{ kind: "legendary", family: "leaf" }, null];
  const lines = describeEvents(events, name, tops);
  assert.deepEqual(
    lines.map((l) => l.text),
    [
      "Robin took a card from pile 1 and sent a Spider to you.",
      "You took a card from pile 2 and kept the Legendary Leaf Mooki.",
      "Robin took the top card of pile 2 and is choosing a side.",
      "The last card is placed. Trophies: Sun to you, Moon to Robin, Fossil to nobody (a tie), Seashell to Robin and Leaf to you.",
      "Robin had more Spiders: the Spider ran off with the Seashell trophy.",
      "You win with 6 stars to 4.",
    ],
  );
  assert.deepEqual(lines.map((l) => l.seq), [2, 4, 5, 6, 7, 8]);
  // Without the view's tops (the log), no face is named at all.
  assert.equal(describeEvents(events, name)[1].text, "You took a card from pile 2 and kept a Mooki.");
});

test("the status line tells the player due what to do and everyone else who is playing", async () => {
  const { statusText } = await import("../../static/js/games/mooki-island/words.js");
  const seatName = (seat) => ["Ann", "Robin"][seat];
  assert.equal(statusText({ phase: "take", current: 0 }, true, seatName), "Your turn: take the top card of a pile.");
  assert.match(statusText({ phase: "place", current: 0 }, true, seatName), /^Look at both sides/);
  assert.equal(statusText({ phase: "take", current: 1 }, false, seatName), "Robin is playing…");
  const choosing = { end: { spider: { choosing: true, seat: 1 } } };
  assert.match(statusText(choosing, false, seatName), /^Robin has more Spiders/);
  assert.match(statusText(choosing, true, seatName), /^You have more Spiders/);
  assert.equal(statusText({ end: { spider: { choosing: false } } }, false, seatName), "The game is over: see the sorting below.");
});
