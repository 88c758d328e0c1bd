// Mooki Island's words, without a DOM: family names and marks, faces, the log, the choice buttons
// and the status line, in the reader's language (static/js/i18n.js).

import { t, tn, tp } from "../../i18n.js";
import { listWords } from "../../words.js";

export const FAMILIES = ["sun", "moon", "fossil", "seashell", "leaf"];
// The families' names as the card data writes them (engines/mooki_island/data/cards.json, each a
// "mooki family" word of the catalogue): familyName() says one in the reader's language.
export const NAMES = { sun: "Sun", moon: "Moon", fossil: "Fossil", seashell: "Seashell", leaf: "Leaf" };
// Each family has a colour, a symbol and a badge shape, so a card reads without colour too.
export const SYMBOL = { sun: "☀", moon: "☾", fossil: "◎", seashell: "◒", leaf: "❦" };

/** A family's name in the reader's language: "Sun" ("Soleil", "Sonne"). */
export function familyName(family) {
  return Object.hasOwn(NAMES, family) ? tp("mooki family", NAMES[family]) : String(family);
}

// Every face written out whole, with its article as each language says it (a family's name
// agrees with its Mooki and goes before or after it as the language says: "le Mooki Soleil",
// "das Sonnen-Mooki"). `the` and `a` stand where a sentence names the face; `bare` on the card.
const FACES = {
  the: {
    sun: () => t("the Sun Mooki"),
    moon: () => t("the Moon Mooki"),
    fossil: () => t("the Fossil Mooki"),
    seashell: () => t("the Seashell Mooki"),
    leaf: () => t("the Leaf Mooki"),
    "legendary sun": () => t("the Legendary Sun Mooki"),
    "legendary moon": () => t("the Legendary Moon Mooki"),
    "legendary fossil": () => t("the Legendary Fossil Mooki"),
    "legendary seashell": () => t("the Legendary Seashell Mooki"),
    "legendary leaf": () => t("the Legendary Leaf Mooki"),
    spider: () => t("the Spider"),
  },
  a: {
    sun: () => t("a Sun Mooki"),
    moon: () => t("a Moon Mooki"),
    fossil: () => t("a Fossil Mooki"),
    seashell: () => t("a Seashell Mooki"),
    leaf: () => t("a Leaf Mooki"),
    "legendary sun": () => t("a Legendary Sun Mooki"),
    "legendary moon": () => t("a Legendary Moon Mooki"),
    "legendary fossil": () => t("a Legendary Fossil Mooki"),
    "legendary seashell": () => t("a Legendary Seashell Mooki"),
    "legendary leaf": () => t("a Legendary Leaf Mooki"),
    spider: () => t("a Spider"),
  },
  // Translators: a face as the card names it, without an article.
  bare: {
    sun: () => t("Sun Mooki"),
    moon: () => t("Moon Mooki"),
    fossil: () => t("Fossil Mooki"),
    seashell: () => t("Seashell Mooki"),
    leaf: () => t("Leaf Mooki"),
    "legendary sun": () => t("Legendary Sun Mooki"),
    "legendary moon": () => t("Legendary Moon Mooki"),
    "legendary fossil": () => t("Legendary Fossil Mooki"),
    "legendary seashell": () => t("Legendary Seashell Mooki"),
    "legendary leaf": () => t("Legendary Leaf Mooki"),
    spider: () => t("Spider"),
  },
};

function faceKey(face) {
  if (face.kind === "spider") return "spider";
  return face.kind === "legendary" ? `legendary ${face.family}` : face.family;
}

/** "the Sun Mooki", "the Legendary Leaf Mooki", "a Spider" (`article`: "the", "a" or "bare"). */
export function faceWords(face, { article = "the" } = {}) {
  if (!face) return t("a card");
  const form = FACES[article === "the" || article === "bare" ? article : "a"];
  const said = form[faceKey(face)];
  if (said) return said();
  const legend = face.kind === "legendary" ? "Legendary " : "";
  return `${article === "the" ? "the" : "a"} ${legend}${familyName(face.family)} Mooki`;
}

/** A card as a sentence names it, with its indefinite article in the reader's language: "a Sun
 * Mooki" ("un Mooki Soleil", "ein Sonnen-Mooki"), "a Spider"; null for a card it cannot tell. */
export function cardPhrase(card) {
  if (!card || typeof card !== "object") return null;
  if (card.kind !== "spider" && !Object.hasOwn(NAMES, card.family)) return null;
  return faceWords(card, { article: "a" });
}

export function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Whether `name` says the page's own player: "You" (table-kit's name for this browser's seat). */
function defaultIsMe(name) {
  return (seat) => name(seat) === t("You");
}

function placedWords(e, pile, face, name, isMe) {
  const args = { name: name(e.seat), pile, face, other: name(e.to) };
  if (e.to === e.seat) {
    const kept = face && face.kind !== "spider" ? faceWords(face) : t("a Mooki");
    const said = { ...args, face: kept };
    if (isMe(e.seat)) return pile ? t("You took a card from pile {pile} and kept {face}.", said) : t("You took a card and kept {face}.", said);
    return pile ? t("{name} took a card from pile {pile} and kept {face}.", said) : t("{name} took a card and kept {face}.", said);
  }
  if (isMe(e.seat)) return pile ? t("You took a card from pile {pile} and sent a Spider to {other}.", args) : t("You took a card and sent a Spider to {other}.", args);
  if (isMe(e.to)) return pile ? t("{name} took a card from pile {pile} and sent a Spider to you.", args) : t("{name} took a card and sent a Spider to you.", args);
  return pile ? t("{name} took a card from pile {pile} and sent a Spider to {other}.", args) : t("{name} took a card and sent a Spider to {other}.", args);
}

function trophyWords(family, owner, name, isMe) {
  const args = { family: familyName(family), name: owner === null || owner === undefined ? "" : name(owner) };
  if (owner === null || owner === undefined) return t("{family} to nobody (a tie)", args);
  return isMe(owner) ? t("{family} to you", args) : t("{family} to {name}", args);
}

function endWords(e, name, isMe) {
  const args = { name: name(e.winner), stars: e.stars[e.winner], other: e.stars[1 - e.winner] };
  if (isMe(e.winner)) return e.tie ? t("You win with {stars} stars to {other} (a tie: the youngest wins).", args) : t("You win with {stars} stars to {other}.", args);
  return e.tie ? t("{name} wins with {stars} stars to {other} (a tie: the youngest wins).", args) : t("{name} wins with {stars} stars to {other}.", args);
}

/** The events as sentences, oldest first, each with its seq (and the seat that acted). Events
 * name no face (the memory rule); `tops` (each collection's top face, from the view) names the
 * face of the newest placement on each collection, which is still on top. `name(seat)` names a
 * player ("You" for this page's own); `isMe(seat)` says whether a seat is this page's player. */
export function describeEvents(events, name, tops = null, isMe = defaultIsMe(name)) {
  const lines = [];
  const newest = {};
  for (const e of events) if (e.type === "place") newest[e.to] = e.seq;
  for (let i = 0; i < events.length; i += 1) {
    const e = events[i];
    if (e.type === "take") {
      const next = events[i + 1];
      if (next && next.type === "place" && next.seat === e.seat) continue; // said with the placement
      const args = { name: name(e.seat), pile: e.pile + 1 };
      const text = isMe(e.seat) ? t("You took the top card of pile {pile} and are choosing a side.", args) : t("{name} took the top card of pile {pile} and is choosing a side.", args);
      lines.push({ text, seq: e.seq, seat: e.seat });
    } else if (e.type === "place") {
      const before = events[i - 1];
      const pile = before && before.type === "take" && before.seat === e.seat ? before.pile + 1 : null;
      const face = tops && newest[e.to] === e.seq ? tops[e.to] : null;
      lines.push({ text: placedWords(e, pile, face, name, isMe), seq: e.seq, seat: e.seat });
    } else if (e.type === "trophies") {
      const parts = FAMILIES.map((f) => trophyWords(f, e.owners[f], name, isMe));
      lines.push({ text: t("The last card is placed. Trophies: {trophies}.", { trophies: listWords(parts) }), seq: e.seq, kind: "round" });
    } else if (e.type === "spider") {
      let text;
      const args = { name: Number.isInteger(e.seat) ? name(e.seat) : "", family: e.returned ? familyName(e.returned) : "" };
      if (e.seat === null || e.seat === undefined) text = t("Spiders are tied {mine}–{theirs}: no trophy is lost.", { mine: e.spiders[0], theirs: e.spiders[1] });
      else if (e.returned) text = isMe(e.seat) ? t("You had more Spiders: the Spider ran off with the {family} trophy.", args) : t("{name} had more Spiders: the Spider ran off with the {family} trophy.", args);
      else text = isMe(e.seat) ? t("You had more Spiders but no trophy for it to take.", args) : t("{name} had more Spiders but no trophy for it to take.", args);
      lines.push({ text, seq: e.seq, kind: "round" });
    } else if (e.type === "end") {
      lines.push({ text: endWords(e, name, isMe), seq: e.seq, kind: "round" });
    }
  }
  return lines;
}

/** The label of a "place" choice: "Keep the Sun Mooki" or "Send the Spider to Robin". */
export function choiceWords(face, opponentName) {
  if (face.kind === "spider") return t("Send the Spider to {name}", { name: opponentName });
  return t("Keep {face}", { face: faceWords(face) });
}

/** The status line under the opponent's collection. `myTurn` says whether this page's player is
 * due; `seatName(seat)` names a player. */
export function statusText(view, myTurn, seatName) {
  if (view.end) {
    if (view.end.spider.choosing) {
      return myTurn
        ? t("You have more Spiders: choose the trophy the Spider takes away.")
        : t("{name} has more Spiders and is choosing a trophy to give up…", { name: seatName(view.end.spider.seat) });
    }
    return t("The game is over: see the sorting below.");
  }
  if (!myTurn) {
    return view.current === null || view.current === undefined ? "" : t("{name} is playing…", { name: seatName(view.current) });
  }
  if (view.phase === "take") return t("Your turn: take the top card of a pile.");
  return t("Look at both sides and choose one: a Mooki joins your collection, a Spider goes to your opponent's.");
}

/** A pile as its button or picture says it: "Pile 1: a Sun Mooki on top, 12 cards". */
export function pileWords(pile, index, take) {
  const args = { pile: index + 1, what: pile.top ? faceWords(pile.top, { article: "a" }) : "" };
  if (!pile.top) {
    return take
      ? tn("Take · pile {pile}: the top card (empty, {num} card)", "Take · pile {pile}: the top card (empty, {num} cards)", pile.count, args)
      : tn("Pile {pile}: empty, {num} card", "Pile {pile}: empty, {num} cards", pile.count, args);
  }
  return take
    ? tn("Take · pile {pile}: the top card ({what} on top, {num} card)", "Take · pile {pile}: the top card ({what} on top, {num} cards)", pile.count, args)
    : tn("Pile {pile}: {what} on top, {num} card", "Pile {pile}: {what} on top, {num} cards", pile.count, args);
}
