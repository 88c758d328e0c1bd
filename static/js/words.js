// Small pieces of English shared by the pages and the tables.

/** "Ann", "Ann and Bo", "Ann, Bo and Cy". */
export function listWords(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** "1 card", "3 cards". */
export function counted(count, singular, plural = `${singular}s`) {
  return `${count} ${count === 1 ? singular : plural}`;
}
