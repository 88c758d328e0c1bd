// Mooki Island's and Mokuru's cards as a sentence names them (`cardPhrase`), in English: what
// move-words.js `cardName` says for a Mokuru card, and a Mooki face with its article.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cardPhrase as mokuruPhrase } from "../../static/js/games/mokuru/words.js";
import { cardPhrase as mookiPhrase } from "../../static/js/games/mooki-island/words.js";
import { cardName } from "../../static/js/move-words.js";

const TRICKS = [
  { id: 3, kind: "trick", name: "2 Flips", category: "Basic" },
  { id: 9, kind: "trick", name: "Flip & Hold", category: "Advanced" },
  { id: 40, kind: "action", name: "Immunity", action: "immunity" },
  { id: 41, kind: "action", name: "The Doom", action: "the_doom" },
  { id: 60, kind: "master", name: "8 Flips", category: "Master" },
];

test("a Mokuru card says in English what cardName says", () => {
  for (const card of TRICKS) assert.equal(mokuruPhrase(card), cardName(card), card.name);
  assert.equal(mokuruPhrase(TRICKS[0]), "a 2 Flips");
  assert.equal(mokuruPhrase(TRICKS[2]), "an Immunity");
  assert.equal(mokuruPhrase(null), null);
  assert.equal(mokuruPhrase({ id: 4 }), null);
});

test("a Mooki face is named with its article; a card it cannot tell is null", () => {
  assert.equal(mookiPhrase({ id: 1, kind: "mooki", family: "sun" }), "a Sun Mooki");
  assert.equal(mookiPhrase({ id: 2, kind: "legendary", family: "leaf" }), "a Legendary Leaf Mooki");
  assert.equal(mookiPhrase({ id: 3, kind: "spider" }), "a Spider");
  assert.equal(mookiPhrase({ id: 4, kind: "mooki", family: "comet" }), null);
  assert.equal(mookiPhrase(undefined), null);
});
