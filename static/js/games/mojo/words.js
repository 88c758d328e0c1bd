// Mojo's words, without a DOM: cards and the log in sentences, the legal moves by card, pile and
// source, and the status line.

import { t, tn, tp } from "../../i18n.js";
import { listWords } from "../../words.js";

// A symbol per colour, so no card depends on telling colours apart.
export const SYMBOLS = { blue: "●", green: "▲", yellow: "★", orange: "◆", red: "■" };

function article(colour) {
  return /^[aeiou]/.test(colour) ? "an" : "a";
}

// Each colour's words in the reader's language, written out whole: a colour's adjective agrees with
// the card and goes before or after its value as the language says ("un 5 rouge", "eine rote 5").
// Translators: a Mojo card with its indefinite article, as said at the table ("a red 5").
const PHRASES = {
  blue: (value) => tp("mojo card", "a blue {value}", { value }),
  green: (value) => tp("mojo card", "a green {value}", { value }),
  yellow: (value) => tp("mojo card", "a yellow {value}", { value }),
  orange: (value) => tp("mojo card", "an orange {value}", { value }),
  red: (value) => tp("mojo card", "a red {value}", { value }),
};
// Translators: a Mojo card without an article, as its button names it ("red 5").
const LABELS = {
  blue: (value) => tp("mojo card", "blue {value}", { value }),
  green: (value) => tp("mojo card", "green {value}", { value }),
  yellow: (value) => tp("mojo card", "yellow {value}", { value }),
  orange: (value) => tp("mojo card", "orange {value}", { value }),
  red: (value) => tp("mojo card", "red {value}", { value }),
};
// Translators: a Mojo card's colour, printed on the card under its symbol.
const COLOURS = {
  blue: () => tp("mojo colour", "blue"),
  green: () => tp("mojo colour", "green"),
  yellow: () => tp("mojo colour", "yellow"),
  orange: () => tp("mojo colour", "orange"),
  red: () => tp("mojo colour", "red"),
};

/** A card with its article in the reader's language: "a red 5" ("un 5 rouge", "eine rote 5"); null
 * for a card the reader is not shown. English says what move-words.js `cardName` says. */
export function cardPhrase(card) {
  if (!card || typeof card !== "object" || card.value === undefined || card.value === null || !card.colour) return null;
  const phrase = PHRASES[card.colour];
  return phrase ? phrase(card.value) : `${article(card.colour)} ${card.colour} ${card.value}`;
}

export function cardWords(card) {
  return cardPhrase(card) ?? t("a card");
}

/** A card without its article, as a button or a summary names it: "red 5". */
export function cardLabel(card) {
  const label = LABELS[card.colour];
  return label ? label(card.value) : `${card.colour} ${card.value}`;
}

/** A colour's name as the card prints it: "red". */
export function colourName(colour) {
  return COLOURS[colour]?.() ?? colour;
}

/** The seat's name as a sentence's subject, and whether it is the reader ("You"). */
function subject(name, seat) {
  const said = name(seat);
  return said === t("You") ? { you: true, who: t("You") } : { you: false, who: said };
}

/** The events as sentences, oldest first, each with the seq of its last event. */
export function describeEvents(events, name, piles) {
  const lines = [];
  let i = 0;
  while (i < events.length) {
    const event = events[i];
    if (event.type === "play" || event.type === "draw" || event.type === "mojo_time") {
      const seat = event.seat;
      const { you, who } = subject(name, seat);
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
          const card = e.card ? cardWords(e.card) : null;
          // Translators: the words after a player's name in the log; "you" is the reader's own move.
          if (e.source === "pile") parts.push(you ? tp("you", "took {card} from the other pile", { card }) : t("took {card} from the other pile", { card }));
          else if (e.source === "none") parts.push(you ? tp("you", "had nothing left to draw") : t("had nothing left to draw"));
          else if (card) parts.push(you ? tp("you", "drew {card}", { card }) : t("drew {card}", { card }));
          else parts.push(you ? tp("you", "drew a card") : t("drew a card"));
        } else {
          const cards = tn("{num} card face down", "{num} cards face down", e.count);
          parts.push(you ? tp("you", "hit Mojo Time with {cards}", { cards }) : t("hit Mojo Time with {cards}", { cards }));
        }
        i += 1;
      }
      if (plays.length) {
        const cards = listWords(plays);
        const number = pile === null ? 0 : pile + 1;
        if (piles > 1 && pile !== null) {
          parts.unshift(you ? tp("you", "played {cards} on pile {pile}", { cards, pile: number }) : t("played {cards} on pile {pile}", { cards, pile: number }));
        } else parts.unshift(you ? tp("you", "played {cards}", { cards }) : t("played {cards}", { cards }));
      }
      const actions = listWords(parts);
      lines.push({ text: t("{name} {actions}.", { name: who, actions }), seq: events[i - 1].seq, seat });
      continue;
    }
    if (event.type === "reveal") {
      const { you, who } = subject(name, event.seat);
      const card = cardWords(event.card);
      const text = you ? tp("you", "{name} revealed {card}.", { name: who, card }) : t("{name} revealed {card}.", { name: who, card });
      lines.push({ text, seq: event.seq, seat: event.seat });
    } else if (event.type === "reshuffle") {
      lines.push({
        text: tn("The discards were shuffled into a new draw pile of {num} card.", "The discards were shuffled into a new draw pile of {num} cards.", event.count),
        seq: event.seq,
      });
    } else if (event.type === "round_end") {
      const scores = event.scores.map((s, seat) => `${scoreName(name, seat)} ${s}`).join(", ");
      const face = event.mojo_face === "plus10" ? "+10" : "0";
      const { you, who } = subject(name, event.seat);
      const said = { round: event.round, name: who, face, scores };
      lines.push({
        text: you
          ? t("Round {round} is over: {name} went out and take the Mojo card ({face}). Points: {scores}.", said)
          : t("Round {round} is over: {name} went out and takes the Mojo card ({face}). Points: {scores}.", said),
        seq: event.seq,
        kind: "round",
      });
    }
    i += 1;
  }
  return lines;
}

/** A seat's name in a list of points: "You" as the final scores say it. */
function scoreName(name, seat) {
  const said = name(seat);
  return said === t("You") ? tp("final scores", "You") : said;
}

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
  if (state.result || state.status === "finished") return t("The game is over.");
  if (!myTurn) {
    if (view.current === null || view.current === undefined) return "";
    const who = seatName(view.current);
    if (view.turn?.chain) return t("{name} played an equal value and plays again…", { name: who });
    return t("{name} is playing…", { name: who });
  }
  if (legal.draws.size) return t("Your turn: you played higher, so draw — from the draw pile or the other discard pile.");
  if (legal.reveals.size) return t("Your turn: Mojo Time! Reveal one of your face-down cards.");
  if (view.turn?.chain) return t("Same value! You must play another card.");
  if (selected !== null) return t("Now choose the discard pile to play it on.");
  if (view.discard_piles.length > 1 && view.turn?.pile === null) return t("Your turn: pick a card, then a discard pile.");
  return t("Your turn: play a card. Lower ends your turn, higher draws a card, equal plays again.");
}
