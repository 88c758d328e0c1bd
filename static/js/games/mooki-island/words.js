// Mooki Island's words, without a DOM: family names and marks, faces, the log, the choice buttons
// and the status line.

import { listWords } from "../../words.js";

export const FAMILIES = ["sun", "moon", "fossil", "seashell", "leaf"];
export const NAMES = { sun: "Sun", moon: "Moon", fossil: "Fossil", seashell: "Seashell", leaf: "Leaf" };
// Each family has a colour, a symbol and a badge shape, so a card reads without colour too.
export const SYMBOL = { sun: "☀", moon: "☾", fossil: "◎", seashell: "◒", leaf: "❦" };

/** "the Sun Mooki", "the Legendary Leaf Mooki", "a Spider". */
export function faceWords(face, { article = "the" } = {}) {
  if (!face) return "a card";
  if (face.kind === "spider") return article === "the" ? "the Spider" : "a Spider";
  const legend = face.kind === "legendary" ? "Legendary " : "";
  return `${article === "the" ? "the" : "a"} ${legend}${NAMES[face.family]} Mooki`;
}

export function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The events as sentences, oldest first, each with its seq (and the seat that acted). Events
 * name no face (the memory rule); `tops` (each collection's top face, from the view) names the
 * face of the newest placement on each collection, which is still on top. */
export function describeEvents(events, name, tops = null) {
  const lines = [];
  const newest = {};
  for (const e of events) if (e.type === "place") newest[e.to] = e.seq;
  for (let i = 0; i < events.length; i += 1) {
    const e = events[i];
    if (e.type === "take") {
      const next = events[i + 1];
      const took = `${name(e.seat)} took the top card of pile ${e.pile + 1}`;
      if (next && next.type === "place" && next.seat === e.seat) continue; // said with the placement
      lines.push({ text: `${took} and is choosing a side.`, seq: e.seq, seat: e.seat });
    } else if (e.type === "place") {
      const before = events[i - 1];
      const pile = before && before.type === "take" && before.seat === e.seat ? ` from pile ${before.pile + 1}` : "";
      const face = tops && newest[e.to] === e.seq ? tops[e.to] : null;
      const text =
        e.to === e.seat
          ? `${name(e.seat)} took a card${pile} and kept ${face && face.kind !== "spider" ? faceWords(face) : "a Mooki"}.`
          : `${name(e.seat)} took a card${pile} and sent a Spider to ${name(e.to, true)}.`;
      lines.push({ text, seq: e.seq, seat: e.seat });
    } else if (e.type === "trophies") {
      const parts = FAMILIES.map((f) => {
        const owner = e.owners[f];
        return `${NAMES[f]} ${owner === null || owner === undefined ? "to nobody (a tie)" : `to ${name(owner, true)}`}`;
      });
      lines.push({ text: `The last card is placed. Trophies: ${listWords(parts)}.`, seq: e.seq, kind: "round" });
    } else if (e.type === "spider") {
      let text;
      if (e.seat === null || e.seat === undefined) text = `Spiders are tied ${e.spiders[0]}–${e.spiders[1]}: no trophy is lost.`;
      else if (e.returned) text = `${name(e.seat)} had more Spiders: the Spider ran off with the ${NAMES[e.returned]} trophy.`;
      else text = `${name(e.seat)} had more Spiders but no trophy for it to take.`;
      lines.push({ text, seq: e.seq, kind: "round" });
    } else if (e.type === "end") {
      const score = `${e.stars[e.winner]} stars to ${e.stars[1 - e.winner]}`;
      const tie = e.tie ? " (a tie: the youngest wins)" : "";
      lines.push({ text: `${name(e.winner)} ${name(e.winner) === "You" ? "win" : "wins"} with ${score}${tie}.`, seq: e.seq, kind: "round" });
    }
  }
  return lines;
}

/** The label of a "place" choice: "Keep the Sun Mooki" or "Send the Spider to Robin". */
export function choiceWords(face, opponentName) {
  if (face.kind === "spider") return `Send the Spider to ${opponentName}`;
  return `Keep ${faceWords(face)}`;
}

/** The status line under the opponent's collection. `myTurn` says whether this page's player is
 * due; `seatName(seat)` names a player. */
export function statusText(view, myTurn, seatName) {
  if (view.end) {
    if (view.end.spider.choosing) {
      return myTurn
        ? "You have more Spiders: choose the trophy the Spider takes away."
        : `${seatName(view.end.spider.seat)} has more Spiders and is choosing a trophy to give up…`;
    }
    return "The game is over: see the sorting below.";
  }
  if (!myTurn) {
    return view.current === null || view.current === undefined ? "" : `${seatName(view.current)} is playing…`;
  }
  if (view.phase === "take") return "Your turn: take the top card of a pile.";
  return "Look at both sides and choose one: a Mooki joins your collection, a Spider goes to your opponent's.";
}
