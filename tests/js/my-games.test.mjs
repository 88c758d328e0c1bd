import assert from "node:assert/strict";
import { test } from "node:test";

import { cardName, cardsIn, moveWords } from "../../static/js/move-words.js";
import { agoWords, clockWords, gameLines, lostWords, spanWords, turnWords } from "../../static/js/my-games.js";
import { WORDS } from "./action-words.mjs";

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
  const words = (game) => (game === "mojo" ? WORDS : {});
  const lines = gameLines(base, { title: () => "Mojo", words, now: NOW });
  assert.equal(lines.title, "Mojo");
  assert.equal(lines.players, "with Bo and Cy");
  assert.equal(lines.clock, "12 min left to move");
  assert.deepEqual(lines.last, { text: "Cy played a card.", ago: "5 min ago" });
  const shown = { ...base, last_move: { ...base.last_move, cards: [{ id: 7, colour: "red", value: 5 }] } };
  assert.equal(gameLines(shown, { words, now: NOW }).last.text, "Cy played a red 5.");
  // The words are the room's game's: another game's descriptor does not know this move.
  assert.equal(gameLines({ ...shown, game: "other" }, { words, now: NOW }).last.text, "Cy: play (card 7).");
  assert.equal(lines.totals, "");
  assert.equal(gameLines({ ...base, totals: [3, 10, 0] }).totals, "You 3 · Bo 10 · Cy 0");
  assert.equal(gameLines({ ...base, status: "finished" }).clock, null);
  assert.match(lostWords("moved"), /another device/);
  assert.match(lostWords("whatever"), /no longer/);
});

test("moves in words: the game's words, cards the view shows named, hidden ones not", () => {
  const cards = cardsIn({ discard_piles: [[{ id: 7, colour: "red", value: 5 }]], hand: [{ id: 9, family: "orca", value: 8 }] });
  const name = (seat) => ["You", "Bo", "Cy"][seat];
  const said = (seat, action, more = {}) => moveWords({ seat, action }, { words: WORDS, name, ...more });
  assert.equal(said(1, { type: "play", card: 7 }, { cards }), "Bo played a red 5.");
  assert.equal(said(1, { type: "play", card: 99 }, { cards }), "Bo played a card.");
  assert.equal(said(2, { type: "set_aside" }, { cards }), "Cy set a card aside.");
  assert.equal(said(0, { type: "set_aside", card: 9 }, { cards }), "You set an orca 8 aside.");
  assert.equal(said(1, { type: "reveal", card: 7 }, { cards }), "Bo turned over a red 5.");
  assert.equal(said(1, { type: "reveal", card: 8 }, { cards }), "Bo turned a face-down card over.");
  assert.equal(said(1, { type: "draw", source: "deck" }), "Bo drew a card.");
  assert.equal(said(1, { type: "place" }), "Bo placed a card.");
  assert.equal(said(1, { type: "place", side: "upper_half" }), "Bo placed a card, upper half side up.");
  assert.equal(said(1, { type: "give", seat: 2 }), "Bo gave a card to Cy.");
  assert.equal(said(1, { type: "give", seat: 0 }), "Bo gave a card to You.");
  assert.equal(said(1, { type: "give", seat: null }), "Bo gave a card away.");
  assert.equal(said(1, { type: "take", pile: 0 }), "Bo took the card on pile 1.");
  assert.equal(said(1, { type: "take", pile: "0" }), "Bo took a card.");
  // A coded value is said in the game's words for it, never as it is.
  assert.equal(said(1, { type: "witness", verdict: "confirm" }), "Bo confirmed the success as a witness.");
  assert.equal(said(0, { type: "witness", verdict: "dispute" }), "You disputed the success as a witness.");
  assert.equal(said(1, { type: "witness", verdict: "shrug" }), "Bo answered as a witness.");
  assert.equal(said(1, { type: "witness", verdict: "toString" }), "Bo answered as a witness.");
  // A type the game's words do not know is said plainly from its fields; so is every move without words.
  assert.equal(said(1, { type: "juggle", height: 3 }), "Bo: juggle (height 3).");
  assert.equal(moveWords({ seat: 1, action: { type: "play", card: 7 } }, { name, cards }), "Bo: play (card 7).");
  assert.equal(said(1, { type: "toString" }), "Bo: toString.");
  assert.equal(cardName({ id: 1, value: 11 }), "an 11");
  assert.equal(cardName({ id: 1, value: 5 }), "a 5");
  assert.equal(cardName(null), null);
});
