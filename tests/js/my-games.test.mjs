import assert from "node:assert/strict";
import { test } from "node:test";

import { cardName, cardsIn, moveWords } from "../../static/js/move-words.js";
import { agoWords, clockWords, gameLines, lostWords, spanWords, turnWords } from "../../static/js/my-games.js";

const NOW = Date.parse("2026-12-01T12:00:00Z");
const base = {
  room_id: "AAAAAAAAAAAA",
  found: true,
  game: "mojo",
  status: "playing",
  seat: 0,
  name: "Ann",
  players: [
    { seat: 0, name: "Ann", bot: false },
    { seat: 1, name: "Bo", bot: false },
    { seat: 2, name: "Cy", bot: true },
  ],
  version: 5,
  to_act: [1],
  your_turn: false,
  deadline: "2026-12-01T12:12:30Z",
  last_move: { seq: 4, seat: 2, action: { type: "play", card: 7 }, at: "2026-12-01T11:55:00Z" },
  totals: [0, 0, 0],
  winners: null,
};

test("spans, clocks and times ago read short", () => {
  assert.equal(spanWords(40), "40 s");
  assert.equal(spanWords(750), "12 min");
  assert.equal(spanWords(3 * 3600 + 300), "3 h 5 min");
  assert.equal(spanWords(2 * 86400 + 5), "2 days");
  assert.equal(clockWords(base.deadline, NOW), "12 min left to move");
  assert.equal(clockWords("2026-12-01T11:00:00Z", NOW), "time is up");
  assert.equal(clockWords(null, NOW), null);
  assert.equal(agoWords("2026-12-01T11:59:50Z", NOW), "just now");
  assert.equal(agoWords("2026-12-01T11:55:00Z", NOW), "5 min ago");
});

test("whose turn: yours stands out, others by name, finished games say who won", () => {
  assert.deepEqual(turnWords(base), { text: "Bo's turn", mine: false });
  assert.deepEqual(turnWords({ ...base, to_act: [0], your_turn: true }), { text: "Your turn", mine: true });
  assert.deepEqual(turnWords({ ...base, to_act: [1, 2] }), { text: "Waiting for Bo and Cy", mine: false });
  assert.equal(turnWords({ ...base, status: "finished", winners: [0] }).text, "Finished: you won");
  assert.equal(turnWords({ ...base, status: "finished", winners: [1] }).text, "Finished: Bo won");
  assert.equal(turnWords({ ...base, status: "waiting", to_act: [] }).text, "Waiting to start");
});

test("a list item's lines: players, clock, the last move in words", () => {
  const lines = gameLines(base, { title: () => "Mojo", now: NOW });
  assert.equal(lines.title, "Mojo");
  assert.equal(lines.players, "with Bo and Cy");
  assert.equal(lines.clock, "12 min left to move");
  assert.deepEqual(lines.last, { text: "Cy played a card.", ago: "5 min ago" });
  const shown = { ...base, last_move: { ...base.last_move, cards: [{ id: 7, colour: "red", value: 5 }] } };
  assert.equal(gameLines(shown, { now: NOW }).last.text, "Cy played a red 5.");
  assert.equal(lines.totals, "");
  assert.equal(gameLines({ ...base, totals: [3, 10, 0] }).totals, "You 3 · Bo 10 · Cy 0");
  assert.equal(gameLines({ ...base, status: "finished" }).clock, null);
  assert.match(lostWords("moved"), /another device/);
  assert.match(lostWords("whatever"), /no longer/);
});

test("moves in words: cards the view shows are named, hidden ones are not", () => {
  const cards = cardsIn({ discard_piles: [[{ id: 7, colour: "red", value: 5 }]], hand: [{ id: 9, family: "orca", value: 8 }] });
  const name = (seat) => ["You", "Bo", "Cy"][seat];
  assert.equal(moveWords({ seat: 1, action: { type: "play", card: 7 } }, { name, cards }), "Bo played a red 5.");
  assert.equal(moveWords({ seat: 1, action: { type: "play", card: 99 } }, { name, cards }), "Bo played a card.");
  assert.equal(moveWords({ seat: 2, action: { type: "set_aside" } }, { name, cards }), "Cy set a card aside.");
  assert.equal(moveWords({ seat: 0, action: { type: "set_aside", card: 9 } }, { name, cards }), "You set an orca 8 aside.");
  assert.equal(moveWords({ seat: 1, action: { type: "place" } }, { name }), "Bo placed a card.");
  assert.equal(moveWords({ seat: 1, action: { type: "give", seat: 2 } }, { name }), "Bo gave a card to Cy.");
  assert.equal(moveWords({ seat: 1, action: { type: "take", pile: 0 } }, { name }), "Bo took the card on pile 1.");
  assert.equal(moveWords({ seat: 1, action: { type: "juggle", height: 3 } }, { name }), "Bo: juggle (height 3).");
  assert.equal(cardName({ id: 1, value: 11 }), "an 11");
  assert.equal(cardName({ id: 1, value: 5 }), "a 5");
  assert.equal(cardName(null), null);
});
