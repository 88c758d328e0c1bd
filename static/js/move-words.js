// A logged move in words ("Bo played a red 5", "Cy set a card aside"), for the home page's "Your
// games" and the room's "Since you left" card. It reads a log entry's action as the server gave it
// to this seat (already redacted) and, where the action names a card by id, the card as the seat's
// view shows it; a card it cannot find is "a card". DOM-free, tested under node.

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

/** The card a move names, in words, when the reader's view shows it; else `otherwise`. */
function card(action, known, otherwise = "a card") {
  return (Number.isInteger(action.card) && cardName(known.get(action.card))) || otherwise;
}

// What each kind of move says, after the mover's name. `name(seat)` names another seat.
const VERBS = {
  play: (a, c) => `played ${card(a, c)}`,
  reveal: (a, c) => (c.has(a.card) ? `turned over ${card(a, c)}` : "turned a face-down card over"),
  draw: () => "drew a card",
  mojo_time: () => "called Mojo Time",
  set_aside: (a, c) => (Number.isInteger(a.card) ? `set ${card(a, c)} aside` : "set a card aside"),
  use_bonus: () => "used a bonus",
  take: (a) => (Number.isInteger(a.pile) ? `took the card on pile ${a.pile + 1}` : "took a card"),
  place: (a) => (a.side ? `placed a card, ${spaced(a.side)} side up` : "placed a card"),
  return: (a) => (a.family ? `put back a ${spaced(a.family)}` : "put a card back"),
  difficulty: (a) => (a.level ? `chose the ${spaced(a.level)} level` : "chose a level"),
  report: (a) => (a.outcome ? `reported the trick: ${spaced(a.outcome)}` : "reported the trick"),
  target: (a, _c, name) => (Number.isInteger(a.seat) ? `picked ${name(a.seat)}` : "picked a player"),
  impose: () => "imposed a trick",
  give: (a, _c, name) => (Number.isInteger(a.seat) ? `gave a card to ${name(a.seat)}` : "gave a card away"),
  immunity: () => "used Immunity",
  steal: () => "stole a trick",
  choose_leader: (a, _c, name) => (Number.isInteger(a.seat) ? `chose ${name(a.seat)} to lead` : "chose who leads"),
  accept_miss: () => "accepted the miss",
};

/**
 * One logged move as a sentence: `entry` is a log entry ({seq, seat, action}); `name(seat)` says a
 * seat ("You" for the reader's own); `cards` the cards the reader's view shows, by id; `shown`
 * the card the table's events showed for this entry (cardsFromEvents), if any.
 */
export function moveWords(entry, { name = (seat) => `Seat ${seat + 1}`, cards = new Map(), shown = null } = {}) {
  const action = entry?.action && typeof entry.action === "object" ? entry.action : {};
  // A card the events showed for this very entry stands in for one the view no longer holds.
  const known = shown && Number.isInteger(action.card) ? new Map([...cards, [action.card, shown]]) : cards;
  const who = name(entry.seat);
  const verb = VERBS[action.type];
  if (verb) return `${who} ${verb(action, known, name)}.`;
  const details = Object.entries(action)
    .filter(([key, value]) => key !== "type" && (typeof value !== "object" || value === null))
    .map(([key, value]) => `${spaced(key)} ${value}`);
  const said = spaced(action.type || "moved");
  return `${who}: ${said}${details.length ? ` (${listWords(details)})` : ""}.`;
}
