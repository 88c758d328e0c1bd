// Move words, "Your games" and the turn line in German (du): the game's words from the catalogue,
// each sentence whole, lists joined with "und".

import assert from "node:assert/strict";
import { test } from "node:test";

import { WORDS } from "./action-words.mjs";
import { useCatalogue } from "./catalogue.mjs";

useCatalogue("de", {
  "played {card}": "hat {card} gespielt",
  "played a card": "hat eine Karte gespielt",
  "set {card} aside": "hat {card} beiseitegelegt",
  "set a card aside": "hat eine Karte beiseitegelegt",
  "drew a card": "hat eine Karte gezogen",
  "{verdict} as a witness": "hat als Zeuge {verdict}",
  "disputed the success": "den Erfolg bestritten",
});

const { cardsIn, moveWords } = await import("../../static/js/move-words.js");
const { gameLines, spanWords, turnWords } = await import("../../static/js/my-games.js");
const { screenTurn } = await import("../../static/js/screen-words.js");

const FAMILIES = { orca: "Orca" };
const phrase = (card) => `einen ${FAMILIES[card.family]} ${card.value}`;
const cards = cardsIn({ hand: [{ id: 9, family: "orca", value: 8 }] });
const name = (seat) => ["Du", "Bo", "Cy"][seat];
const said = (seat, action) => moveWords({ seat, action }, { words: WORDS, name, cards, cardPhrase: phrase, you: 0 });

test("a move in German: the game's words, the card by the game's phrase, the reader's own move", () => {
  assert.equal(said(1, { type: "play", card: 9 }), "Bo hat einen Orca 8 gespielt.");
  assert.equal(said(1, { type: "set_aside" }), "Bo hat eine Karte beiseitegelegt.");
  assert.equal(said(0, { type: "set_aside", card: 9 }), "Du: hat einen Orca 8 beiseitegelegt.");
  assert.equal(said(2, { type: "witness", verdict: "dispute" }), "Cy hat als Zeuge den Erfolg bestritten.");
  assert.equal(said(1, { type: "juggle", height: 3, hands: 2 }), "Bo: juggle (height 3 und hands 2).");
});

test("\"Your games\" and the turn line in German", () => {
  const NOW = Date.parse("2026-12-01T12:00:00Z");
  const summary = {
    found: true,
    game: "moby-trick",
    status: "playing",
    seat: 0,
    name: "Ann",
    players: [
      { seat: 0, name: "Ann" },
      { seat: 1, name: "Bo" },
      { seat: 2, name: "Cy" },
    ],
    to_act: [1, 2],
    your_turn: false,
    deadline: "2026-12-01T15:05:00Z",
    last_move: { seq: 4, seat: 1, action: { type: "draw" }, at: "2026-11-29T11:00:00Z" },
    totals: [0, 0, 0],
  };
  const lines = gameLines(summary, { words: () => WORDS, now: NOW });
  assert.equal(lines.players, "mit Bo und Cy");
  assert.equal(lines.clock, "noch 3 Std. 5 Min. für den Zug");
  assert.deepEqual(lines.last, { text: "Bo hat eine Karte gezogen.", ago: "2 Tage her" });
  assert.equal(lines.turn.text, "Warten auf Bo und Cy");
  assert.equal(turnWords({ ...summary, to_act: [1] }).text, "Bo ist dran");
  assert.equal(turnWords({ ...summary, status: "waiting" }).text, "Wartet auf den Start");
  assert.equal(spanWords(86400), "1 Tag");
  const seatName = (seat) => ["Ann", "Bo", "Cy"][seat];
  assert.equal(screenTurn({ status: "playing", to_act: [0] }, {}, seatName, 0).text, "Du bist dran");
  assert.equal(screenTurn({ status: "playing", to_act: [0, 2] }, {}, seatName, 0).text, "Warten auf dich und Cy");
  assert.equal(screenTurn(null, {}, seatName).text, "Warten auf Mitspielende");
});
