// A language's browser catalogue for the node tests, as a page loads it in its head: the real
// static/i18n/<lang>.js (the translations of the modules' own words), with `more` entries on top
// (the engines' words as the game engineers translate them). Call it before importing a module
// that reads the catalogue (static/js/i18n.js reads it once, as it is loaded).

import { readFileSync } from "node:fs";
import { runInThisContext } from "node:vm";

export function useCatalogue(lang, more = {}) {
  const source = readFileSync(new URL(`../../static/i18n/${lang}.js`, import.meta.url), "utf-8");
  runInThisContext(source);
  const catalogue = globalThis.motableCatalogue;
  catalogue.messages = { ...catalogue.messages, ...more };
  return catalogue;
}
