// Moby Trick in words (DOM-free, tested under node): family names and symbols, a card and a bonus
// said aloud, each event as a sentence, the trick that just ended, the round summary's lines, and
// what the status line says. It reads the view and legal_actions only; every rule stays on the server.

import { listWords } from "../../words.js";

// Each family has a symbol and a name on every card, so nothing depends on telling colours apart.
export const FAMILY_ORDER = ["orca", "narwhal", "blue_whale", "sperm_whale"];
const SYMBOLS = { orca: "▲", narwhal: "◆", blue_whale: "●", sperm_whale: "■" };
// Families renamed in the card data still get a symbol of their own.
const SPARE_SYMBOLS = ["✚", "✖", "♥", "♣"];
const FIVE_SYMBOL = "★";

export function symbolOf(family) {
  if (family === null || family === undefined) return FIVE_SYMBOL;
  if (SYMBOLS[family]) return SYMBOLS[family];
  const extra = Object.keys(SYMBOLS).length;
  SYMBOLS[family] = SPARE_SYMBOLS[(Object.keys(SYMBOLS).length - extra) % SPARE_SYMBOLS.length];
  return SYMBOLS[family];
}

export function familyName(family) {
  return family ? family.replace(/_/g, " ") : "five";
}

export function familyPlural(family) {
  return family ? `${familyName(family)}s` : "5s";
}

export function familyClass(family) {
  return family ? `f-${family.replace(/_/g, "-")}` : "f-five";
}

export function cardWords(card) {
  if (card.family === null || card.family === undefined) return `a ${card.value}`;
  const name = familyName(card.family);
  return `${/^[aeiou]/.test(name) ? "an" : "a"} ${name} ${card.value}`;
}

export function pearlWords(count) {
  return `${count} pearl${count === 1 ? "" : "s"}`;
}

export function tokenWords(token) {
  return token === 9 ? "9: highest wins" : "1: lowest wins";
}

/** What a bonus does, as a short instruction. */
export function bonusWords(bonus) {
  switch (bonus?.kind) {
    case "flip":
      return "flip the token";
    case "trump":
      return `make ${familyPlural(bonus.family)} trump`;
    case "pearl":
      return "take 1 pearl";
    default:
      return "no bonus";
  }
}

/** The bonus as the log names it: "a flip-token bonus". */
export function bonusKindWords(kind) {
  return { flip: "a flip-token bonus", trump: "a change-trump bonus", pearl: "a pearl bonus" }[kind] || "a bonus";
}

export function cardLabel(card) {
  const bonus = card.bonus?.kind && card.bonus.kind !== "none" ? `, bonus: ${bonusWords(card.bonus)}` : "";
  const pearls = card.pearls ? `, ${pearlWords(card.pearls)}` : "";
  return `${card.family ? familyName(card.family) : "five"} ${card.value}${pearls}${bonus}`;
}

/** "Bo keeps" but "You keep". */
export function agree(subject, singular, plural) {
  return `${subject} ${subject === "You" ? plural : singular}`;
}

/** One event as a sentence, or null for events shown some other way. */
export function describeEvent(event, name) {
  switch (event.type) {
    case "round_start":
      return {
        text: `Round ${event.round}: ${cardWords(event.drawn)} was drawn, so ${familyPlural(event.trump)} are trump and the token shows ${tokenWords(event.token)}. ${agree(name(event.leader), "leads", "lead")}.`,
        kind: "round",
      };
    case "set_aside":
      return { text: `${name(event.seat)} set aside ${cardWords(event)} as a first bonus.` };
    case "bonus": {
      let effect = "";
      if (event.kind === "trump") effect = `: ${familyPlural(event.trump)} are trump now`;
      else if (event.kind === "flip") effect = `: the token shows ${tokenWords(event.token)}`;
      else if (event.kind === "pearl") effect = ": +1 pearl";
      return { text: `${name(event.seat)} used ${bonusKindWords(event.kind)} (${cardWords(event)})${effect}.`, kind: "bonus" };
    }
    case "play":
      return { text: `${name(event.seat)} played ${cardWords(event)}.` };
    case "trick": {
      const owner = name(event.owner);
      const whose = event.owner === event.winner ? (owner === "You" ? "your own" : "their own") : owner === "You" ? "your" : `${owner}'s`;
      const keeps = event.family ? ` ${agree(name(event.owner), "keeps", "keep")} it as a bonus.` : "";
      const extra = event.from_discard ? ` (${event.from_discard} from the discard pile)` : "";
      return {
        text: `${name(event.winner)} won the trick and took ${whose} ${cardWords(event).replace(/^an? /, "")}: ${pearlWords(event.points)}${extra}.${keeps}`,
        kind: "trick",
      };
    }
    case "leader":
      if (event.seat === event.chooser) return { text: `${name(event.chooser)} chose to lead the next trick.` };
      return { text: `${name(event.chooser)} chose ${name(event.seat, true)} to lead the next trick.` };
    case "round_end":
      return {
        text: `Round ${event.round} is over. Points: ${event.points.map((p, seat) => `${name(seat)} ${p}`).join(", ")}.`,
        kind: "round",
      };
    case "tie":
      return { text: `${listWords(event.seats.map((s) => name(s)))} share the lead, so one more round is played.`, kind: "round" };
    case "game_end":
      return { text: `The game is over: ${listWords(event.winners.map((s) => name(s)))} won!`, kind: "round" };
    default:
      return null;
  }
}

/** The cards of the trick that just ended, rebuilt from the events (the view clears the trick once it is taken). */
export function lastTrickFrom(events) {
  const end = events.map((e) => e.type).lastIndexOf("trick");
  if (end < 0) return null;
  const plays = [];
  for (let i = end - 1; i >= 0; i -= 1) {
    const kind = events[i].type;
    if (kind === "play") plays.unshift(events[i]);
    else if (kind !== "bonus") break;
  }
  const trickEvent = events[end];
  const after = events.slice(end + 1);
  // Once a new trick or round has begun, the old trick is no longer the news.
  if (after.some((e) => e.type === "play" || e.type === "round_start")) return null;
  return { plays, taken: trickEvent, index: end };
}

/** The round summary's Moby Trick lines: each player's pearls and the pairs of unused bonuses. */
export function roundSummary(event) {
  const rows = (event.points || []).map((_, seat) => {
    const pearls = event.pearls?.[seat] ?? event.points[seat];
    const pairs = event.bonus_pairs?.[seat] ?? 0;
    const why = [`${pearls} ${pearls === 1 ? "pearl" : "pearls"}`];
    if (pairs) why.push(`${pairs} ${pairs === 1 ? "pair" : "pairs"} of unused bonuses: +${pairs}`);
    return { seat, why };
  });
  return { intro: "Each pearl is a point, and each pair of bonuses left unused is one more.", rows };
}


/** The legal actions by type, keyed by card id (by seat for choose_leader). */
export function legalBy(state) {
  const byType = { set_aside: new Map(), use_bonus: new Map(), play: new Map(), reward: new Map(), choose_leader: new Map() };
  for (const action of state.legal_actions || []) {
    const table = byType[action.type];
    if (!table) continue;
    table.set(action.type === "choose_leader" ? action.seat : action.card, action);
  }
  return byType;
}

/** The seats in the order they play this trick, from its first card (or who is due to lead). */
export function trickOrder(view) {
  const n = view.players;
  const played = view.trick.map((t) => t.seat);
  const first = played.length ? played[0] : view.turn ?? view.leader;
  return Array.from({ length: n }, (_, i) => (first + i) % n);
}

/** What the empty trick area says between tricks. */
export function trickNote(view, me, seatName) {
  if (view.phase === "set_aside") return "The first trick starts once everyone has chosen a first bonus.";
  if (view.phase === "lead") return view.turn === me ? "Choose who leads the next trick." : `${seatName(view.turn)} is naming the next leader.`;
  if (view.phase === "over") return "No more tricks: the game is over.";
  return "";
}

function cardById(view, id) {
  return view.hand.find((c) => c.id === id) || null;
}

/**
 * The status line under the trick. who: { me (this page's seat or null), myTurn, name(seat)
 * ("You" for me), seatName(seat) }.
 */
export function statusText(view, state, legal, who) {
  const { me: mine, myTurn, name, seatName } = who;
  if (state.result) {
    const winners = state.result.winners.map((seat) => name(seat));
    const top = state.result.scores[state.result.winners[0]];
    const verb = winners.length === 1 && winners[0] !== "You" ? "wins" : "win";
    return `The game is over: ${listWords(winners)} ${verb} with ${top} points!`;
  }
  if (view.phase === "over") return "The game is over.";
  const waiting = (state.to_act || []).filter((s) => s !== mine).map((s) => seatName(s));
  if (view.phase === "set_aside") {
    if (myTurn) return "Choose your first bonus: set aside one card of your hand to keep its bonus for this round.";
    return waiting.length ? `Waiting for ${listWords(waiting)} to choose a first bonus…` : "";
  }
  if (!myTurn) {
    const turn = view.turn === null || view.turn === undefined ? "" : seatName(view.turn);
    if (view.phase === "reward") return `${turn} won the trick and is choosing a reward…`;
    if (view.phase === "lead") return `${turn} played the first 5 and is choosing who leads next…`;
    return turn ? `${turn} is playing…` : "";
  }
  if (view.phase === "reward") return "You won the trick! Take the pearls of one of the other cards.";
  if (view.phase === "lead") return "Your 5 decides: who leads the next trick?";
  const bonus = legal.use_bonus.size ? " You may use a bonus first." : "";
  const led = view.led_family;
  if (!view.trick.length) return `Your lead: play any card.${bonus}`;
  if (led && [...legal.play.values()].every((a) => cardById(view, a.card)?.family === led || cardById(view, a.card)?.value === 5)) {
    return `Your turn: follow with ${familyPlural(led)} (or a 5).${bonus}`;
  }
  return `Your turn: play any card.${bonus}`;
}

/** The hand by family in the deck's order; the 5s belong to no family and come last. */
export function handGroups(hand) {
  const groups = new Map();
  for (const family of FAMILY_ORDER) groups.set(family, []);
  for (const card of hand) {
    const key = card.family ?? null;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(card);
  }
  if (groups.has(null)) {
    const fives = groups.get(null);
    groups.delete(null);
    groups.set(null, fives);
  }
  return [...groups.entries()].filter(([, cards]) => cards.length);
}
