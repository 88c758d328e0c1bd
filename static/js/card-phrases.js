// Each game's words for a card in a sentence ("a red 5", "un 5 rouge"), by game id, for the pages
// that say a game's moves outside its table ("Your games", "Since you left", a takeback's question):
// each game's words module says its cards (`cardPhrase`, in the reader's language). A game whose
// words module has none (yet) is said by move-words' cardName, in English.

import * as mobyTrick from "./games/moby-trick/words.js";
import * as mojo from "./games/mojo/words.js";
import * as mokuru from "./games/mokuru/words.js";
import * as mookiIsland from "./games/mooki-island/words.js";
import { cardName } from "./move-words.js";

// A namespace import reads a missing export as undefined, so a module without `cardPhrase` loads.
const MODULES = { mojo, "moby-trick": mobyTrick, "mooki-island": mookiIsland, mokuru };

/** The card phrase of game `id` (a function of a card object), cardName for any other. */
export function cardPhraseOf(id) {
  const phrase = Object.hasOwn(MODULES, id) ? MODULES[id].cardPhrase : undefined;
  return typeof phrase === "function" ? phrase : cardName;
}
