// Mojo's words, without a DOM: cards and the log in sentences, the legal moves by card, pile and
// source, and the status line.

import { listWords } from "../../words.js";

// A symbol per colour, so no card depends on telling colours apart.
export const SYMBOLS = { blue: "●", green: "▲", yellow: "★", orange: "◆", red: "■" };

function article(colour) {
  return /^[aeiou]/.test(colour) ? "an" : "a";
}

export function cardWords(card) {
  return `${article(card.colour)} ${card.colour} ${card.value}`;
}

/** The events as sentences, oldest first, each with the seq of its last event. */
export function describeEvents(events, name, piles) {
  const lines = [];
  let i = 0;
  while (i < events.length) {
    const event = events[i];
    if (event.type === "play" || event.type === "draw" || event.type === "mojo_time") {
      const seat = event.seat;
      const plays = [];
      const parts = [];
      let pile = null;
      while (i < events.length && events[i].seat === seat && ["play", "draw", "mojo_time"].includes(events[i].type)) {
        const e = events[i];
        if (e.type === "play") {
          if (parts.length) break; // a new turn of the same seat (e.g. two players, after a draw)
          plays.push(cardWords(e.card));
          pile = e.pile;
        } else if (e.type === "draw") {
          if (e.source === "pile") parts.push(`took ${cardWords(e.card)} from the other pile`);
          else if (e.source === "none") parts.push("had nothing left to draw");
          else parts.push(e.card ? `drew ${cardWords(e.card)}` : "drew a card");
        } else {
          parts.push(`hit Mojo Time with ${e.count} card${e.count === 1 ? "" : "s"} face down`);
        }
        i += 1;
      }
      if (plays.length) {
        const where = piles > 1 && pile !== null ? ` on pile ${pile + 1}` : "";
        parts.unshift(`played ${listWords(plays)}${where}`);
      }
      lines.push({ text: `${name(seat)} ${listWords(parts)}.`, seq: events[i - 1].seq, seat });
      continue;
    }
    if (event.type === "reveal") {
      lines.push({ text: `${name(event.seat)} revealed ${cardWords(event.card)}.`, seq: event.seq, seat: event.seat });
    } else if (event.type === "reshuffle") {
      lines.push({ text: `The discards were shuffled into a new draw pile of ${event.count} cards.`, seq: event.seq });
    } else if (event.type === "round_end") {
      const scores = event.scores.map((s, seat) => `${name(seat)} ${s}`).join(", ");
      const face = event.mojo_face === "plus10" ? "+10" : "0";
      lines.push({
        text: `Round ${event.round} is over: ${name(event.seat)} went out and ${name(event.seat) === "You" ? "take" : "takes"} the Mojo card (${face}). Points: ${scores}.`,
        seq: event.seq,
        kind: "round",
      });
    }
    i += 1;
  }
  return lines;
}

export const COLOUR_WORDS = { blue: "Blue", green: "Green", yellow: "Yellow", orange: "Orange", red: "Red" };

/** The legal actions by kind: plays by card id (a card may go on either pile), reveals by card id,
 * draws by source. */
export function legalBy(state) {
  const plays = new Map();
  const reveals = new Map();
  const draws = new Map();
  for (const action of state.legal_actions || []) {
    if (action.type === "play") {
      if (!plays.has(action.card)) plays.set(action.card, []);
      plays.get(action.card).push(action);
    } else if (action.type === "reveal") reveals.set(action.card, action);
    else if (action.type === "draw") draws.set(action.source, action);
  }
  return { plays, reveals, draws };
}

/** The status line. `myTurn`: this page's player is due; `selected`: a card picked while its pile
 * is still to be chosen; `seatName(seat)` names a player. */
export function statusText(view, state, legal, { myTurn, selected, seatName }) {
  if (state.result || state.status === "finished") return "The game is over.";
  if (!myTurn) {
    if (view.current === null || view.current === undefined) return "";
    const who = seatName(view.current);
    if (view.turn?.chain) return `${who} played an equal value and plays again…`;
    return `${who} is playing…`;
  }
  if (legal.draws.size) return "Your turn: you played higher, so draw — from the draw pile or the other discard pile.";
  if (legal.reveals.size) return "Your turn: Mojo Time! Reveal one of your face-down cards.";
  if (view.turn?.chain) return "Same value! You must play another card.";
  if (selected !== null) return "Now choose the discard pile to play it on.";
  if (view.discard_piles.length > 1 && view.turn?.pile === null) return "Your turn: pick a card, then a discard pile.";
  return "Your turn: play a card. Lower ends your turn, higher draws a card, equal plays again.";
}
