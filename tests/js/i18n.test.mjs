import { test } from "node:test";
import assert from "node:assert/strict";
import { fill, pluralIndex, translator } from "../../static/js/i18n-core.js";

test("a word without a translation reads as written, with its places filled", () => {
  const { t } = translator(null);
  assert.equal(t("Your turn"), "Your turn");
  assert.equal(t("{name} joined", { name: "Ann" }), "Ann joined");
  assert.equal(fill("{missing} stays", {}), "{missing} stays");
});

test("a catalogue's translation is used, and its places filled", () => {
  const { t } = translator({ lang: "fr", plurals: 2, messages: { "{name} joined": "{name} a rejoint la table" } });
  assert.equal(t("{name} joined", { name: "Léa" }), "Léa a rejoint la table");
  assert.equal(t("Not in the catalogue"), "Not in the catalogue");
});

test("plural forms follow each language's rule", () => {
  const fr = translator({ lang: "fr", plurals: 2, messages: { "{num} card": ["{num} carte", "{num} cartes"] } });
  assert.equal(fr.tn("{num} card", "{num} cards", 0), "0 carte"); // French says 0 in the singular
  assert.equal(fr.tn("{num} card", "{num} cards", 1), "1 carte");
  assert.equal(fr.tn("{num} card", "{num} cards", 2), "2 cartes");
  const de = translator({ lang: "de", plurals: 2, messages: { "{num} card": ["{num} Karte", "{num} Karten"] } });
  assert.equal(de.tn("{num} card", "{num} cards", 0), "0 Karten");
  assert.equal(de.tn("{num} card", "{num} cards", 1), "1 Karte");
  const en = translator(null);
  assert.equal(en.tn("{num} card", "{num} cards", 1), "1 card");
  assert.equal(en.tn("{num} card", "{num} cards", 3), "3 cards");
});

test("numbers are written in the reader's digits", () => {
  const de = translator({ lang: "de", plurals: 2, messages: { "{num} point": ["{num} Punkt", "{num} Punkte"] } });
  assert.equal(de.tn("{num} point", "{num} points", 1200), "1.200 Punkte");
});

test("a language of three forms picks by its categories", () => {
  // Polish: one, few, many (gettext's order), as a later catalogue may bring.
  assert.equal(pluralIndex("pl", 3, 1), 0);
  assert.equal(pluralIndex("pl", 3, 3), 1);
  assert.equal(pluralIndex("pl", 3, 5), 2);
});

test("French, Spanish and Italian catalogues carry CLDR's third form for round millions", () => {
  // gettext's order for fr: one (0, 1), many (1,000,000...), other; the catalogue's forms 0, 1, 2.
  assert.equal(pluralIndex("fr", 3, 0), 0);
  assert.equal(pluralIndex("fr", 3, 1), 0);
  assert.equal(pluralIndex("fr", 3, 2), 2);
  assert.equal(pluralIndex("fr", 3, 1000000), 1);
  assert.equal(pluralIndex("es", 3, 1), 0);
  assert.equal(pluralIndex("es", 3, 0), 2);
});

test("the same English in two contexts reads each context's way", () => {
  const { t, tp } = translator({ lang: "de", plurals: 2, messages: { "approved by\u0004You": "dir", "final scores\u0004You": "Du" } });
  assert.equal(tp("approved by", "You"), "dir");
  assert.equal(tp("final scores", "You"), "Du");
  assert.equal(t("You"), "You");
  assert.equal(translator(null).tp("final scores", "You"), "You");
});

test("French drops the vowel of de and que before a name or word that starts with one", () => {
  const fr = translator({
    lang: "fr",
    plurals: 2,
    messages: {
      "{name}'s turn": "C’est au tour de {name}.",
      "More {families}": "Plus de {families}",
      "Only {name} can": "Il n’y a que {name} qui peut",
    },
  });
  assert.equal(fr.t("{name}'s turn", { name: "Ann" }), "C’est au tour d’Ann.");
  assert.equal(fr.t("{name}'s turn", { name: "Élodie" }), "C’est au tour d’Élodie.");
  assert.equal(fr.t("{name}'s turn", { name: "Bo" }), "C’est au tour de Bo.");
  // Whether an h is silent or a y a vowel, the letters cannot tell: left as written.
  assert.equal(fr.t("{name}'s turn", { name: "Hugo" }), "C’est au tour de Hugo.");
  assert.equal(fr.t("{name}'s turn", { name: "Yann" }), "C’est au tour de Yann.");
  assert.equal(fr.t("More {families}", { families: "orques" }), "Plus d’orques");
  assert.equal(fr.t("Only {name} can", { name: "Ann" }), "Il n’y a qu’Ann qui peut");
  // Only the words de and que: "garde {name}" is another word.
  assert.equal(fill("Il garde {name}", { name: "Ann" }, "fr"), "Il garde Ann");
  // Other languages keep their words as written.
  const it = translator({ lang: "it", plurals: 2, messages: { "{name}'s turn": "Tocca de {name}" } });
  assert.equal(it.t("{name}'s turn", { name: "Ann" }), "Tocca de Ann");
});
