// Mooki Island's and Mokuru's words in French and German, read from the catalogues the pages load
// (static/i18n/<lang>.js): the card phrases, the log, the buttons and the card data's words.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import vm from "node:vm";

function catalogue(lang) {
  const context = { globalThis: {} };
  vm.runInNewContext(readFileSync(new URL(`../../static/i18n/${lang}.js`, import.meta.url), "utf8"), context);
  return context.globalThis.motableCatalogue;
}

// The page's catalogue is there before any module runs, as the page's head loads it.
globalThis.motableCatalogue = catalogue("fr");
const mooki = await import("../../static/js/games/mooki-island/words.js");
const mokuru = await import("../../static/js/games/mokuru/words.js");

const NBSP = "\u00a0";

test("a Mooki face and a Mokuru card with their French articles", () => {
  assert.equal(mooki.cardPhrase({ id: 1, kind: "mooki", family: "sun" }), "un Mooki Soleil");
  assert.equal(mooki.cardPhrase({ id: 2, kind: "legendary", family: "leaf" }), "un Mooki Feuille légendaire");
  assert.equal(mooki.cardPhrase({ id: 3, kind: "spider" }), "une Araignée");
  assert.equal(mokuru.cardPhrase({ id: 3, kind: "trick", name: "2 Flips back" }), `une carte «${NBSP}2 saltos aller-retour${NBSP}»`);
  assert.equal(mokuru.cardPhrase({ id: 40, kind: "action", name: "Immunity" }), `une carte «${NBSP}Immunité${NBSP}»`);
});

test("the Mooki log and choices in French, the reader's own moves in their own sentences", () => {
  const name = (seat) => (seat === 0 ? "You" : "Robin");
  const isMe = (seat) => seat === 0;
  const events = [
    { seq: 1, type: "take", seat: 1, pile: 0 },
    { seq: 2, type: "place", seat: 1, to: 0 },
    { seq: 3, type: "take", seat: 0, pile: 1 },
    { seq: 4, type: "place", seat: 0, to: 0 },
  ];
  const lines = mooki.describeEvents(events, name, [{ kind: "mooki", family: "moon" }, null], isMe).map((l) => l.text);
  assert.deepEqual(lines, [
    "Robin a pris une carte de la pile 1 et vous a envoyé une Araignée.",
    "Vous avez pris une carte de la pile 2 et gardé le Mooki Lune.",
  ]);
  assert.equal(mooki.choiceWords({ kind: "spider" }, "Robin"), "Envoyer l’Araignée à Robin");
  assert.equal(mooki.statusText({ phase: "take", current: 0 }, true, () => "Ann"), `À vous${NBSP}: prenez la carte du dessus d’une pile.`);
});

test("Mokuru's referee, belts and tricks in French", () => {
  const words = { name: (s) => ["You", "Bo"][s], isMe: (s) => s === 0, isBot: () => false, seatName: (s) => ["Ann", "Bo"][s] };
  const view = {
    belts: ["white", "yellow"],
    grandmaster: 2,
    trick: { card: { kind: "trick", name: "Blind Flip" }, performer: 1, players: [1], tries: [2], at: 0, current: 1, mode: "solo" },
    claim: { seat: 1, witnesses: [0], interested: [], neutral: true, disputed_by: null },
    phase: "perform",
  };
  assert.equal(mokuru.actionLabel(view, { type: "report", outcome: "landed" }, words), "Réussi");
  assert.equal(mokuru.actionLabel(view, { type: "witness", verdict: "confirm" }, words), "Confirmer la réussite de Bo");
  assert.equal(mokuru.actionLabel(view, { type: "steal" }, words), "Voler Salto à l’aveugle à Bo");
  assert.equal(mokuru.statusText({}, view, { ...words, mine: false }), `Bo${NBSP}: Salto à l’aveugle — 2 essais restants`);
  assert.equal(mokuru.beltName(view, 1), "Ceinture jaune");
  assert.equal(mokuru.beltName(view, 2), "Grand maître");
  assert.equal(mokuru.eventWords(view, { type: "belt", seat: 0, from: 0, to: 1 }, words), `Vous${NBSP}: Ceinture blanche → Ceinture jaune.`);
  assert.equal(mokuru.eventWords(view, { type: "success", seat: 1, card: "Triangle", category: "Basic" }, words), `Bo a réussi Triangle${NBSP}!`);
  assert.equal(mokuru.cardDescription({ kind: "action", description: "Pick any player, black belt included: they drop one belt. Draw on." }), `Choisissez un joueur, ceinture noire comprise${NBSP}: il descend d’une ceinture. Continuez à piocher.`);
});
