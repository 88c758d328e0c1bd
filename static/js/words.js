// Small pieces of English shared by the pages and the tables.

import { lang } from "./i18n.js";

/** "Ann", "Ann and Bo", "Ann, Bo and Cy". */
export function listWords(words) {
  if (words.length <= 1) return words.join("");
  // Other languages join a list their own way ("A, B et C", "A, B und C"), as Intl knows.
  if (lang !== "en") return new Intl.ListFormat(lang, { type: "conjunction" }).format(words);
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** "1 card", "3 cards". */
export function counted(count, singular, plural = `${singular}s`) {
  return `${count} ${count === 1 ? singular : plural}`;
}
