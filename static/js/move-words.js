// A logged move in words ("Bo played a red 5", "Cy set a card aside"), for the home page's "Your
// games" and the room's "Since you left" card. The words are the game's own, from its descriptor
// (`action_words`, docs/engines.md); this module fills them in: it reads a log entry's action as the
// server gave it to this seat (already redacted) and, where the action names a card by id, the card
// as the seat's view shows it (a card it cannot find is said by the words' `otherwise`). DOM-free,
// tested under node.
//
// The game's words are English msgids (the engines mark them, and the browser's catalogue holds
// every word under engines/): each is looked up in the reader's language before it is filled in.

import { lang as LANG, t } from "./i18n.js";
import { listWords } from "./words.js";

/** "a" or "an" before a word or a number as it is said ("an orca", "an 8", "an 11", "a 5"). */
function article(word) {
  const text = String(word);
  if (/^\d/.test(text)) return /^8|^1[18](\D|$)/.test(text) ? "an" : "a";
  return /^[aeiou]/i.test(text) ? "an" : "a";
}

function spaced(text) {
  return String(text ?? "").replace(/[_-]+/g, " ").trim();
}

/** A card object in short words: "a red 5", "an orca 7", "a 5"; null when it says nothing. */
export function cardName(card) {
  if (!card || typeof card !== "object") return null;
  const kind = card.colour ?? card.color ?? card.family ?? null;
  if (card.value !== undefined && card.value !== null) {
    return kind ? `${article(spaced(kind))} ${spaced(kind)} ${card.value}` : `${article(card.value)} ${card.value}`;
  }
  if (card.name) return `${article(card.name)} ${card.name}`;
  return null;
}

/** Every object with an integer `id` anywhere inside `value` (the cards of a view), by id. */
export function cardsIn(value, found = new Map()) {
  if (Array.isArray(value)) {
    for (const item of value) cardsIn(item, found);
  } else if (value !== null && typeof value === "object") {
    if (Number.isInteger(value.id) && !found.has(value.id)) found.set(value.id, value);
    for (const item of Object.values(value)) cardsIn(item, found);
  }
  return found;
}

/** The card an event shows: its `card` object, or its own colour/family and value. */
function eventCard(event) {
  if (event.card && typeof event.card === "object") return event.card;
  if (event.value !== undefined && (event.colour || event.family)) return { colour: event.colour, family: event.family, value: event.value };
  return null;
}

/**
 * Cards named by the table's events for log entries whose card id the view no longer shows (a card
 * played and since covered on its pile). The view keeps the newest events, so each seat's moves of a
 * kind are matched from the end: the last "play" entry of Bo with the last "play" event of Bo, and so
 * on. The events are the reader's own view: nothing is named that the reader was not shown.
 * Returns a Map from entry seq to the card.
 */
export function cardsFromEvents(entries, events, known = new Map()) {
  const named = new Map();
  const groups = new Map();
  for (const event of events || []) {
    const card = eventCard(event);
    if (!card || !Number.isInteger(event.seat)) continue;
    const key = `${event.type}:${event.seat}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(card);
  }
  const byKind = new Map();
  for (const entry of entries || []) {
    const action = entry.action || {};
    if (!Number.isInteger(action.card)) continue;
    const key = `${action.type}:${entry.seat}`;
    if (!byKind.has(key)) byKind.set(key, []);
    byKind.get(key).push(entry);
  }
  for (const [key, list] of byKind) {
    const cards = groups.get(key) || [];
    // Only the newest entries have events still in the view: match the two tails.
    const count = Math.min(cards.length, list.length);
    for (let i = 1; i <= count; i += 1) {
      const entry = list[list.length - i];
      if (!known.has(entry.action.card)) named.set(entry.seq, cards[cards.length - i]);
    }
  }
  return named;
}

// How a placeholder of a game's action words reads the action's value, by its kind (the
// descriptor's `action_words[type].params`): null when the action gives it nothing to say.
// A card is said by the game's own card phrase (its words module's `cardPhrase`, in the reader's
// language), or by cardName.
const READERS = {
  card: (value, { cards, cardPhrase = cardName }) => {
    if (!Number.isInteger(value) || !cards.has(value)) return null;
    return cardPhrase(cards.get(value)) ?? null;
  },
  seat: (value, { name }) => (Number.isInteger(value) ? name(value) : null),
  position: (value) => (Number.isInteger(value) ? new Intl.NumberFormat(LANG).format(value + 1) : null),
  text: (value) => ((typeof value === "string" && value.trim()) || Number.isFinite(value) ? t(spaced(value)) : null),
};

/**
 * A game's words for one action, filled in (GET /api/games `action_words[type]`: `done` with
 * `{key}` placeholders, `otherwise` when one of them has nothing to say, `params` their kinds,
 * `values` the words a player says for a placeholder's coded values: "confirm" is "confirmed the
 * success"). `reader`: { cards (the cards the reader's view shows, by id), name(seat),
 * cardPhrase(card) (the game's words for a card, cardName unless given) }. Every word is the
 * reader's language's: the game's English is looked up in the catalogue before it is filled in.
 */
export function doneWords(words, action, reader) {
  let unknown = false;
  const said = t(words.done).replace(/\{(\w+)\}/g, (whole, key) => {
    const table = words.values?.[key];
    // A coded value the table does not know is never said as it is: `otherwise` says the move.
    const value = table
      ? (Object.hasOwn(table, String(action[key])) ? t(table[String(action[key])]) : null)
      : (READERS[words.params?.[key] ?? "text"]?.(action[key], reader) ?? null);
    if (value === null) unknown = true;
    return value ?? "";
  });
  if (!unknown) return said;
  return words.otherwise ? t(words.otherwise) : said;
}

/**
 * One logged move as a sentence: `entry` is a log entry ({seq, seat, action}); `words` the game's
 * action words (its descriptor's `action_words`); `name(seat)` says a seat ("You" for the reader's
 * own); `cards` the cards the reader's view shows, by id; `shown` the card the table's events
 * showed for this entry (cardsFromEvents), if any; `cardPhrase(card)` the game's words for a card
 * (cardName unless given); `you` the reader's own seat, whose moves are said as theirs ("You
 * played a red 5"). A type the words do not know (a game's older log) is said plainly from its
 * fields.
 */
export function moveWords(
  entry,
  { words = {}, name = defaultName, cards = new Map(), shown = null, cardPhrase = cardName, you = null } = {},
) {
  const action = entry?.action && typeof entry.action === "object" ? entry.action : {};
  // A card the events showed for this very entry stands in for one the view no longer holds.
  const known = shown && Number.isInteger(action.card) ? new Map([...cards, [action.card, shown]]) : cards;
  const mine = you !== null && entry.seat === you;
  const who = name(entry.seat);
  const game = words && Object.hasOwn(words, action.type) ? words[action.type] : null;
  if (game) {
    const done = doneWords(game, action, { cards: known, name, cardPhrase });
    // The reader's own move has a sentence of its own: the game's words follow a name, in the
    // third person ("a joué un 5 rouge"), so a language whose verb agrees with "you" says the
    // reader's move so that the third person still reads ("Vous : a joué un 5 rouge.").
    // Translators: {done} is the game's words for the move, as they follow a player's name
    // ("played a red 5", your translation of it in the third person); this is the reader's own move.
    if (mine) return t("You {done}.", { done });
    // Translators: {name} is a player, {done} the game's words for their move, as "played a red 5".
    return t("{name} {done}.", { name: who, done });
  }
  const details = Object.entries(action)
    .filter(([key, value]) => key !== "type" && (typeof value !== "object" || value === null))
    .map(([key, value]) => {
      const field = t(spaced(key));
      return `${field} ${value}`;
    });
  const move = t(spaced(action.type || "moved"));
  const mover = mine ? t("You") : who;
  // A move the game's words do not know, said from its fields: "Bo: swap (card 4, pile 2)."
  if (!details.length) return t("{name}: {move}.", { name: mover, move });
  return t("{name}: {move} ({details}).", { name: mover, move, details: listWords(details) });
}

/** A seat without a name: "Seat 2". */
function defaultName(seat) {
  return t("Seat {num}", { num: seat + 1 });
}
