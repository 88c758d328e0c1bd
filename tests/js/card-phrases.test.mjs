// Mojo's and Moby Trick's `cardPhrase(card)`: a card with its article in the reader's language, for
// the move words ("Bo played a red 5"). In English it says what move-words.js `cardName` says for
// every card of both decks; in another language it is the catalogue's words. A page's catalogue is
// read once, as its modules load, so each language is read in a node process of its own.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

import { cardName } from "../../static/js/move-words.js";
import { cardPhrase as mobyPhrase } from "../../static/js/games/moby-trick/words.js";
import { cardPhrase as mojoPhrase } from "../../static/js/games/mojo/words.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const mojoDeck = JSON.parse(readFileSync(`${root}engines/mojo/data/deck.json`, "utf8"));
const mojoCards = mojoDeck.colours.flatMap(({ colour, values }) => values.map((value) => ({ id: value, colour, value })));
const mobyCards = JSON.parse(readFileSync(`${root}engines/moby_trick/data/cards.json`, "utf8")).cards.map((card, id) => ({ id, ...card }));

/** What `said` (a function of a game's words module, as JS source) gives in a page in `lang`
 * (its catalogue, static/i18n/<lang>.js). */
function sayIn(lang, game, said) {
  const module = game === "mojo" ? "games/mojo/words.js" : "games/moby-trick/words.js";
  const code = `
    import { readFileSync } from "node:fs";
    import vm from "node:vm";
    const context = {};
    vm.runInNewContext(readFileSync(${JSON.stringify(`${root}static/i18n/${lang}.js`)}, "utf8"), { globalThis: context });
    globalThis.motableCatalogue = context.motableCatalogue;
    const words = await import(${JSON.stringify(`${root}static/js/${module}`)});
    console.log(JSON.stringify((${said})(words)));
  `;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" }));
}

function phrasesIn(lang, game, cards) {
  return sayIn(lang, game, `(words) => ${JSON.stringify(cards)}.map(words.cardPhrase)`);
}

describe("a card's phrase", () => {
  it("says in English what the move words say today, for every card of both decks", () => {
    assert.ok(mojoCards.length >= 13 && mobyCards.length >= 36);
    for (const card of mojoCards) assert.equal(mojoPhrase(card), cardName(card), JSON.stringify(card));
    for (const card of mobyCards) assert.equal(mobyPhrase(card), cardName(card), JSON.stringify(card));
    assert.equal(mojoPhrase({ colour: "orange", value: 9 }), "an orange 9");
    assert.equal(mobyPhrase({ family: "orca", value: 7 }), "an orca 7");
    assert.equal(mobyPhrase({ family: "blue_whale", value: 2 }), "a blue whale 2");
    assert.equal(mobyPhrase({ family: null, value: 5 }), "a 5");
  });

  it("is null for a card the reader is not shown", () => {
    for (const phrase of [mojoPhrase, mobyPhrase]) {
      assert.equal(phrase(null), null);
      assert.equal(phrase(undefined), null);
      assert.equal(phrase({ id: 4 }), null);
      assert.equal(phrase({ id: 4, hidden: true }), null);
    }
  });

  it("is worded in French and German with the article and word order of the language", () => {
    const mojo = [{ colour: "red", value: 5 }, { colour: "orange", value: 8 }, { colour: "blue", value: 0 }];
    assert.deepEqual(phrasesIn("fr", "mojo", mojo), ["un 5 rouge", "un 8 orange", "un 0 bleu"]);
    assert.deepEqual(phrasesIn("de", "mojo", mojo), ["eine rote 5", "eine orange 8", "eine blaue 0"]);
    const moby = [{ family: "orca", value: 7 }, { family: "sperm_whale", value: 2 }, { family: null, value: 5 }];
    assert.deepEqual(phrasesIn("fr", "moby", moby), ["un 7 d’orque", "un 2 de cachalot", "un 5"]);
    assert.deepEqual(phrasesIn("de", "moby", moby), ["eine Orca-7", "eine Pottwal-2", "eine 5"]);
  });

  it("has words of its own in every language for every card", () => {
    for (const lang of ["fr", "de", "nl", "es", "it"]) {
      const said = [...phrasesIn(lang, "mojo", mojoCards), ...phrasesIn(lang, "moby", mobyCards.filter((card) => card.family))];
      const english = [...mojoCards, ...mobyCards.filter((card) => card.family)].map(cardName);
      said.forEach((phrase, i) => {
        assert.notEqual(phrase, english[i], `${lang}: ${phrase}`);
        assert.match(phrase, /\d/);
      });
    }
  });

  it("says the reader's own moves in the second person, and another's in the third", () => {
    // The table names the reader's own seat "You" in the reader's words (table-kit.js), "Vous", "Du".
    const name = (you) => `(seat) => (seat === 0 ? ${JSON.stringify(you)} : "Bo")`;
    const mojo = (you) => `(words) => [0, 1].map((seat) => words.describeEvents([{ seq: 1, type: "play", seat, card: { colour: "red", value: 7 }, pile: 0 }], ${name(you)}, 1)[0].text)`;
    assert.deepEqual(sayIn("fr", "mojo", mojo("Vous")), ["Vous avez joué un 7 rouge.", "Bo a joué un 7 rouge."]);
    assert.deepEqual(sayIn("de", "mojo", mojo("Du")), ["Du hast eine rote 7 gespielt.", "Bo hat eine rote 7 gespielt."]);
    const moby = (you) => `(words) => [0, 1].map((seat) => words.describeEvent({ type: "play", seat, family: "orca", value: 7 }, ${name(you)}).text)`;
    assert.deepEqual(sayIn("fr", "moby", moby("Vous")), ["Vous avez joué un 7 d’orque.", "Bo a joué un 7 d’orque."]);
    assert.deepEqual(sayIn("de", "moby", moby("Du")), ["Du hast eine Orca-7 gespielt.", "Bo hat eine Orca-7 gespielt."]);
  });
});
