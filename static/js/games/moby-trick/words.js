// Moby Trick in words (DOM-free, tested under node): family names and symbols, a card and a bonus
// said aloud, each event as a sentence, the trick that just ended, the round summary's lines, and
// what the status line says. It reads the view and legal_actions only; every rule stays on the server.

import { t, tn, tp } from "../../i18n.js";
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

// Each family's words in the reader's language, written out whole.
// Translators: a Moby Trick family, as the card prints it under its symbol.
const NAMES = {
  orca: () => tp("moby family", "orca"),
  narwhal: () => tp("moby family", "narwhal"),
  blue_whale: () => tp("moby family", "blue whale"),
  sperm_whale: () => tp("moby family", "sperm whale"),
};
// Translators: a Moby Trick family in the plural: "orcas are trump", "Out of orcas".
const PLURALS = {
  orca: () => tp("moby family", "orcas"),
  narwhal: () => tp("moby family", "narwhals"),
  blue_whale: () => tp("moby family", "blue whales"),
  sperm_whale: () => tp("moby family", "sperm whales"),
};
// Translators: a Moby Trick card with its indefinite article, as said at the table ("an orca 7").
const PHRASES = {
  orca: (value) => tp("moby card", "an orca {value}", { value }),
  narwhal: (value) => tp("moby card", "a narwhal {value}", { value }),
  blue_whale: (value) => tp("moby card", "a blue whale {value}", { value }),
  sperm_whale: (value) => tp("moby card", "a sperm whale {value}", { value }),
};
// Translators: a Moby Trick card without an article, as a button names it ("orca 7").
const LABELS = {
  orca: (value) => tp("moby card", "orca {value}", { value }),
  narwhal: (value) => tp("moby card", "narwhal {value}", { value }),
  blue_whale: (value) => tp("moby card", "blue whale {value}", { value }),
  sperm_whale: (value) => tp("moby card", "sperm whale {value}", { value }),
};

function spaced(family) {
  return family.replace(/_/g, " ");
}

/** "a" or "an" before a word or a number as it is said (as move-words.js says it). */
function article(word) {
  const text = String(word);
  if (/^\d/.test(text)) return /^8|^1[18](\D|$)/.test(text) ? "an" : "a";
  return /^[aeiou]/i.test(text) ? "an" : "a";
}

export function familyName(family) {
  if (!family) return t("five");
  return NAMES[family]?.() ?? spaced(family);
}

export function familyPlural(family) {
  if (!family) return t("5s");
  return PLURALS[family]?.() ?? `${spaced(family)}s`;
}

export function familyClass(family) {
  return family ? `f-${family.replace(/_/g, "-")}` : "f-five";
}

/** A card with its article in the reader's language: "an orca 7" ("un 7 d’orque", "eine Orca-7"),
 * "a 5"; null for a card the reader is not shown. English says what move-words.js `cardName` says. */
export function cardPhrase(card) {
  if (!card || typeof card !== "object" || card.value === undefined || card.value === null) return null;
  const family = card.family ?? null;
  if (family === null) {
    // Translators: a 5, a card of no family, with its indefinite article ("a 5").
    return article(card.value) === "an" ? tp("moby card", "an {value}", { value: card.value }) : tp("moby card", "a {value}", { value: card.value });
  }
  const phrase = PHRASES[family];
  return phrase ? phrase(card.value) : `${article(spaced(family))} ${spaced(family)} ${card.value}`;
}

export function cardWords(card) {
  return cardPhrase(card) ?? t("a card");
}

/** A card's family and value without an article: "orca 7"; a 5 is just "5". */
function shortName(card) {
  if (!card.family) return String(card.value);
  return LABELS[card.family]?.(card.value) ?? `${spaced(card.family)} ${card.value}`;
}

export function pearlWords(count) {
  return tn("{num} pearl", "{num} pearls", count);
}

export function tokenWords(token) {
  return token === 9 ? t("9: highest wins") : t("1: lowest wins");
}

/** What a bonus does, as a short instruction. */
export function bonusWords(bonus) {
  switch (bonus?.kind) {
    case "flip":
      return t("flip the token");
    case "trump":
      return t("make {families} trump", { families: familyPlural(bonus.family) });
    case "pearl":
      return t("take 1 pearl");
    default:
      return t("no bonus");
  }
}

export function cardLabel(card) {
  let label = card.family ? shortName(card) : t("five {value}", { value: card.value });
  if (card.pearls) label = t("{card}, {pearls}", { card: label, pearls: pearlWords(card.pearls) });
  if (card.bonus?.kind && card.bonus.kind !== "none") label = t("{card}, bonus: {bonus}", { card: label, bonus: bonusWords(card.bonus) });
  return label;
}

/** The seat's name as a sentence's subject, and whether it is the reader ("You"). */
function subject(name, seat) {
  const said = name(seat);
  return said === t("You") ? { you: true, who: t("You") } : { you: false, who: said };
}

/** Names in a list of points or winners: "You" as the final scores say it. */
function listed(name, seat) {
  const said = name(seat);
  return said === t("You") ? tp("final scores", "You") : said;
}

function bonusLine(event, name) {
  const { you, who } = subject(name, event.seat);
  const said = { name: who, card: cardWords(event) };
  // Translators: "you" is the reader's own move: "Vous avez utilisé…", "Du hast … benutzt".
  switch (event.kind) {
    case "trump":
      said.families = familyPlural(event.trump);
      return you
        ? tp("you", "{name} used a change-trump bonus ({card}): {families} are trump now.", said)
        : t("{name} used a change-trump bonus ({card}): {families} are trump now.", said);
    case "flip":
      said.token = tokenWords(event.token);
      return you
        ? tp("you", "{name} used a flip-token bonus ({card}): the token shows {token}.", said)
        : t("{name} used a flip-token bonus ({card}): the token shows {token}.", said);
    case "pearl":
      return you ? tp("you", "{name} used a pearl bonus ({card}): +1 pearl.", said) : t("{name} used a pearl bonus ({card}): +1 pearl.", said);
    default:
      return you ? tp("you", "{name} used a bonus ({card}).", said) : t("{name} used a bonus ({card}).", said);
  }
}

function trickLine(event, name) {
  const winner = subject(name, event.winner);
  const owner = name(event.owner);
  const pearls = event.from_discard
    ? t("{pearls} ({num} from the discard pile)", { pearls: pearlWords(event.points), num: event.from_discard })
    : pearlWords(event.points);
  const said = { name: winner.who, owner, card: shortName(event), pearls };
  let text;
  if (event.owner === event.winner) {
    text = winner.you
      ? t("You won the trick and took your own {card}: {pearls}.", said)
      : t("{name} won the trick and took their own {card}: {pearls}.", said);
  } else if (owner === t("You")) text = t("{name} won the trick and took your {card}: {pearls}.", said);
  else text = winner.you ? tp("you", "{name} won the trick and took {owner}'s {card}: {pearls}.", said) : t("{name} won the trick and took {owner}'s {card}: {pearls}.", said);
  if (event.family) {
    const keeps = owner === t("You") ? t("You keep it as a bonus.") : t("{name} keeps it as a bonus.", { name: owner });
    text = `${text} ${keeps}`;
  }
  return text;
}

/** One event as a sentence, or null for events shown some other way. */
export function describeEvent(event, name) {
  switch (event.type) {
    case "round_start": {
      const lead = subject(name, event.leader);
      const drawn = t("Round {round}: {card} was drawn, so {families} are trump and the token shows {token}.", {
        round: event.round,
        card: cardWords(event.drawn),
        families: familyPlural(event.trump),
        token: tokenWords(event.token),
      });
      const leads = lead.you ? t("You lead.") : t("{name} leads.", { name: lead.who });
      return { text: `${drawn} ${leads}`, kind: "round" };
    }
    case "set_aside": {
      const { you, who } = subject(name, event.seat);
      const said = { name: who, card: cardWords(event) };
      return { text: you ? tp("you", "{name} set aside {card} as a first bonus.", said) : t("{name} set aside {card} as a first bonus.", said) };
    }
    case "bonus":
      return { text: bonusLine(event, name), kind: "bonus" };
    case "play": {
      const { you, who } = subject(name, event.seat);
      const said = { name: who, card: cardWords(event) };
      return { text: you ? tp("you", "{name} played {card}.", said) : t("{name} played {card}.", said) };
    }
    case "trick":
      return { text: trickLine(event, name), kind: "trick" };
    case "leader": {
      const { you, who } = subject(name, event.chooser);
      if (event.seat === event.chooser) {
        return { text: you ? tp("you", "{name} chose to lead the next trick.", { name: who }) : t("{name} chose to lead the next trick.", { name: who }) };
      }
      const chosen = name(event.seat, true);
      if (chosen === t("you")) return { text: t("{name} chose you to lead the next trick.", { name: who }) };
      const said = { name: who, seat: chosen };
      return { text: you ? tp("you", "{name} chose {seat} to lead the next trick.", said) : t("{name} chose {seat} to lead the next trick.", said) };
    }
    case "round_end": {
      const points = event.points.map((p, seat) => `${listed(name, seat)} ${p}`).join(", ");
      return { text: t("Round {round} is over. Points: {points}.", { round: event.round, points }), kind: "round" };
    }
    case "tie": {
      const names = listWords(event.seats.map((s) => listed(name, s)));
      return { text: t("{names} share the lead, so one more round is played.", { names }), kind: "round" };
    }
    case "game_end": {
      const names = listWords(event.winners.map((s) => listed(name, s)));
      return { text: t("The game is over: {names} won!", { names }), kind: "round" };
    }
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
    const why = [pearlWords(pearls)];
    if (pairs) why.push(tn("{num} pair of unused bonuses: +{num}", "{num} pairs of unused bonuses: +{num}", pairs));
    return { seat, why };
  });
  return { intro: t("Each pearl is a point, and each pair of bonuses left unused is one more."), rows };
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
  const played = view.trick.map((play) => play.seat);
  const first = played.length ? played[0] : view.turn ?? view.leader;
  return Array.from({ length: n }, (_, i) => (first + i) % n);
}

/** What the empty trick area says between tricks. */
export function trickNote(view, me, seatName) {
  if (view.phase === "set_aside") return t("The first trick starts once everyone has chosen a first bonus.");
  if (view.phase === "lead") return view.turn === me ? t("Choose who leads the next trick.") : t("{name} is naming the next leader.", { name: seatName(view.turn) });
  if (view.phase === "over") return t("No more tricks: the game is over.");
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
    const said = { names: listWords(state.result.winners.map((seat) => listed(name, seat))), points: state.result.scores[state.result.winners[0]] };
    if (winners.length > 1) return t("The game is over: {names} win with {points} points!", said);
    if (winners[0] === t("You")) return tp("you", "The game is over: {names} win with {points} points!", said);
    return t("The game is over: {names} wins with {points} points!", said);
  }
  if (view.phase === "over") return t("The game is over.");
  const waiting = (state.to_act || []).filter((s) => s !== mine).map((s) => seatName(s));
  if (view.phase === "set_aside") {
    if (myTurn) return t("Choose your first bonus: set aside one card of your hand to keep its bonus for this round.");
    return waiting.length ? t("Waiting for {names} to choose a first bonus…", { names: listWords(waiting) }) : "";
  }
  if (!myTurn) {
    const turn = view.turn === null || view.turn === undefined ? "" : seatName(view.turn);
    if (view.phase === "reward") return t("{name} won the trick and is choosing a reward…", { name: turn });
    if (view.phase === "lead") return t("{name} played the first 5 and is choosing who leads next…", { name: turn });
    return turn ? t("{name} is playing…", { name: turn }) : "";
  }
  if (view.phase === "reward") return t("You won the trick! Take the pearls of one of the other cards.");
  if (view.phase === "lead") return t("Your 5 decides: who leads the next trick?");
  const bonus = legal.use_bonus.size > 0;
  const led = view.led_family;
  if (!view.trick.length) return bonus ? t("Your lead: play any card. You may use a bonus first.") : t("Your lead: play any card.");
  if (led && [...legal.play.values()].every((a) => cardById(view, a.card)?.family === led || cardById(view, a.card)?.value === 5)) {
    const families = familyPlural(led);
    return bonus
      ? t("Your turn: follow with {families} (or a 5). You may use a bonus first.", { families })
      : t("Your turn: follow with {families} (or a 5).", { families });
  }
  return bonus ? t("Your turn: play any card. You may use a bonus first.") : t("Your turn: play any card.");
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
