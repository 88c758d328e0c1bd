// Move words, "Your games", the turn line and "Since you left" in French: the game's words are
// looked up in the catalogue before they are filled in, each sentence is said whole, and lists are
// joined as French joins them.

import assert from "node:assert/strict";
import { test } from "node:test";

import { WORDS } from "./action-words.mjs";
import { useCatalogue } from "./catalogue.mjs";

const NB = "\u00a0";
// The engines' words as French says them (engines/<game> marks them; their translators word them).
useCatalogue("fr", {
  "played {card}": "a joué {card}",
  "played a card": "a joué une carte",
  "play a card": "jouer une carte",
  draw: "piocher",
  "drew a card": "a pioché une carte",
  "gave a card to {seat}": "a donné une carte à {seat}",
  "gave a card away": "a donné une carte",
  "took the card on pile {pile}": "a pris la carte de la pile {pile}",
  "{verdict} as a witness": "{verdict} en tant que témoin",
  "confirmed the success": "a confirmé la réussite",
  "placed a card, {side} side up": "a posé une carte, face {side} visible",
  "upper half": "moitié haute",
});

const { cardName, cardsIn, moveWords } = await import("../../static/js/move-words.js");
const { cardPhraseOf } = await import("../../static/js/card-phrases.js");
const { agoWords, clockWords, gameLines, lostWords, spanWords, turnWords } = await import("../../static/js/my-games.js");
const { screenTurn } = await import("../../static/js/screen-words.js");
const { askWords } = await import("../../static/js/since-you-left.js");

const COLOURS = { red: "rouge", blue: "bleu" };
const phrase = (card) => `un ${card.value} ${COLOURS[card.colour]}`;
const cards = cardsIn({ piles: [[{ id: 7, colour: "red", value: 5 }]] });
const name = (seat) => ["Vous", "Bo", "Cy"][seat];
const said = (seat, action, more = {}) => moveWords({ seat, action }, { words: WORDS, name, cards, cardPhrase: phrase, you: 0, ...more });

test("a move is the game's words in French, filled in, the card said by the game's phrase", () => {
  assert.equal(said(1, { type: "play", card: 7 }), "Bo a joué un 5 rouge.");
  assert.equal(said(1, { type: "play", card: 99 }), "Bo a joué une carte.");
  assert.equal(said(2, { type: "draw" }), "Cy a pioché une carte.");
  assert.equal(said(1, { type: "give", seat: 2 }), "Bo a donné une carte à Cy.");
  assert.equal(said(1, { type: "give", seat: null }), "Bo a donné une carte.");
  assert.equal(said(1, { type: "take", pile: 0 }), "Bo a pris la carte de la pile 1.");
  // A coded value and a word placeholder are said in French too.
  assert.equal(said(1, { type: "witness", verdict: "confirm" }), "Bo a confirmé la réussite en tant que témoin.");
  assert.equal(said(1, { type: "place", side: "upper_half" }), "Bo a posé une carte, face moitié haute visible.");
});

test("the reader's own move is a sentence of its own, in French", () => {
  assert.equal(said(0, { type: "play", card: 7 }), `Vous${NB}: a joué un 5 rouge.`);
});

test("a move the game's words do not know is said from its fields, the list joined in French", () => {
  assert.equal(said(1, { type: "juggle", height: 3, hands: 2 }), `Bo${NB}: juggle (height 3 et hands 2).`);
  assert.equal(said(1, { type: "juggle" }), `Bo${NB}: juggle.`);
  assert.equal(said(0, { type: "juggle" }), `Vous${NB}: juggle.`);
});

test("without the game's card phrase, a card is said by cardName; a game without one gets cardName", () => {
  assert.equal(moveWords({ seat: 1, action: { type: "play", card: 7 } }, { words: WORDS, name, cards }), "Bo a joué a red 5.");
  assert.equal(cardPhraseOf("no-such-game"), cardName);
  for (const game of ["mojo", "moby-trick", "mooki-island", "mokuru"]) assert.equal(typeof cardPhraseOf(game), "function");
});

const NOW = Date.parse("2026-12-01T12:00:00Z");
const summary = {
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
  to_act: [1],
  your_turn: false,
  deadline: "2026-12-01T12:12:30Z",
  last_move: { seq: 4, seat: 2, action: { type: "play", card: 7 }, at: "2026-12-01T11:55:00Z" },
  totals: [3, 10, 0],
  winners: null,
};

test("\"Your games\" in French: whose turn, the players, the clock, the last move", () => {
  const lines = gameLines(summary, { title: () => "Mojo", words: () => WORDS, now: NOW });
  assert.equal(lines.players, "avec Bo et Cy");
  assert.equal(lines.you, "en tant qu’Ann");
  assert.equal(lines.clock, "12 min pour jouer");
  assert.deepEqual(lines.last, { text: "Cy a joué une carte.", ago: "il y a 5 min" });
  assert.equal(lines.totals, "Vous 3 · Bo 10 · Cy 0");
  const mine = { ...summary, last_move: { ...summary.last_move, seat: 0, action: { type: "draw" } } };
  assert.equal(gameLines(mine, { words: () => WORDS, now: NOW }).last.text, `Vous${NB}: a pioché une carte.`);
  assert.deepEqual(turnWords(summary), { text: "Au tour de Bo", mine: false });
  assert.deepEqual(turnWords({ ...summary, your_turn: true, to_act: [0] }), { text: "À vous de jouer", mine: true });
  assert.equal(turnWords({ ...summary, to_act: [1, 2] }).text, "En attente de Bo et Cy");
  assert.equal(turnWords({ ...summary, status: "finished", winners: [1, 2] }).text, `Terminée${NB}: Bo et Cy ont gagné`);
  assert.equal(turnWords({ ...summary, status: "finished", winners: [1] }).text, `Terminée${NB}: Bo a gagné`);
  assert.equal(turnWords({ ...summary, status: "finished", winners: [0] }).text, `Terminée${NB}: vous avez gagné`);
  assert.equal(spanWords(2 * 86400), "2 jours");
  assert.equal(clockWords("2026-12-01T11:00:00Z", NOW), "le temps est écoulé");
  assert.equal(agoWords("2026-12-01T11:59:50Z", NOW), "à l’instant");
  assert.equal(lostWords("left"), "vous avez quitté cette partie");
});

test("the table screen's turn line and \"Since you left\"'s question in French", () => {
  const seatName = (seat) => ["Ann", "Bo", "Cy"][seat];
  assert.equal(screenTurn({ status: "playing", to_act: [1] }, {}, seatName).text, "Au tour de Bo");
  assert.equal(screenTurn({ status: "playing", to_act: [0, 1] }, {}, seatName, 0).text, "En attente de vous et Bo");
  assert.equal(screenTurn({ status: "finished", result: {} }, {}, seatName).text, "Partie terminée");
  const state = { status: "playing", to_act: [0], legal_actions: [{ type: "play", card: 7 }, { type: "draw" }] };
  assert.equal(askWords(state, 0, seatName, WORDS), `À vous${NB}: jouer une carte ou piocher.`);
});
