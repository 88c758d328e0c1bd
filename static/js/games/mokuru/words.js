// Mokuru's words, without a DOM: the actions' names, the log, the move buttons' labels, the
// witness rule, the status line, the big line around one device, and the shapes of a Marathon,
// Duel or Battle, in the reader's language (static/js/i18n.js). The cards' words (a trick's name,
// how to perform it, a belt) are the card data's (engines/mokuru/data/cards.json), each a word of
// the catalogue in its context ("mokuru trick", "mokuru belt"...).

import { lang, t, tn, tp } from "../../i18n.js";
import { listWords } from "../../words.js";

// While a person other than the one due is shown an out-of-turn move (Steal a Trick, Immunity),
// the due player's moves wait this long after the window opens: the next waited move closes it.
export const HOLD_MS = 3000;

// The action cards' names as the card data writes them (each a "mokuru action" word).
export const ACTION_NAMES = {
  duel: "Duel",
  immunity: "Immunity",
  darkness: "Darkness",
  mini_mokuru: "Mini Mokuru",
  positive_boost: "Positive Boost",
  swap: "Swap",
  negative_boost: "Negative Boost",
  the_doom: "The Doom",
  belt_steal: "Belt Steal",
  give_a_trick: "Give a Trick",
  steal_a_trick: "Steal a Trick",
  battle: "the Battle",
};

/** An action card's name in the reader's language ("Duel", "The Doom"; "the Battle" for a Battle
 * trick's choice of opponent). */
export function actionName(key) {
  if (key === "battle") return t("the Battle");
  return Object.hasOwn(ACTION_NAMES, key) ? tp("mokuru action", ACTION_NAMES[key]) : String(key ?? "");
}

/** A card's name in the reader's language: a trick's, or an action card's (`kind` "action"). */
export function cardTitle(card) {
  if (!card || !card.name) return "";
  return card.kind === "action" ? tp("mokuru action", card.name) : tp("mokuru trick", card.name);
}

/** A card named by an event (`card` its name, `action` its key for an action card). */
function eventCard(e) {
  return e.action ? tp("mokuru action", e.card) : tp("mokuru trick", e.card);
}

/** A trick card's category in the reader's language ("Basic", "Master"). */
export function categoryName(category) {
  return category ? tp("mokuru category", category) : "";
}

/** How to perform a trick (or what an action card does), in the reader's language. */
export function cardDescription(card) {
  if (!card || !card.description) return "";
  return card.kind === "action" ? tp("mokuru action description", card.description) : tp("mokuru trick description", card.description);
}

/** "a 2 Flips", "an Immunity": a card with its indefinite article ("une carte « 2 saltos »"); null
 * for a card without a name. English says what move-words.js `cardName` says. */
export function cardPhrase(card) {
  if (!card || typeof card !== "object" || !card.name) return null;
  const name = cardTitle(card);
  // Translators: a Mokuru card (trick or action) named in a sentence, with its indefinite article.
  const an = /^\d/.test(card.name) ? /^8|^1[18](\D|$)/.test(card.name) : /^[aeiou]/i.test(card.name);
  return an ? tp("mokuru card", "an {name}", { name }) : tp("mokuru card", "a {name}", { name });
}

// A difficulty level's name: lower case inside a sentence ("You play easy"), capitalised on its own.
const LEVELS = {
  easy: () => t("easy"),
  normal: () => t("normal"),
  hard: () => t("hard"),
  extreme: () => t("extreme"),
};
const LEVEL_TITLES = {
  easy: () => t("Easy"),
  normal: () => t("Normal"),
  hard: () => t("Hard"),
  extreme: () => t("Extreme"),
};

export function levelName(level) {
  return LEVELS[level]?.() ?? String(level ?? "");
}

export function levelTitle(level) {
  return LEVEL_TITLES[level]?.() ?? capital(String(level ?? ""));
}

/** What a level starts and stops the Mokuru with ("one hand"): the engine's words. */
export function handWords(hand) {
  return hand ? t(hand) : "";
}

/** "3 tries", "1 try". */
export function triesWords(n) {
  return tn("{num} try", "{num} tries", n);
}

// What a witness who does not decide has at stake, in the table's words.
export const STAKES = {
  opponent: (mode) => (mode === "battle" ? t("the Battle opponent") : t("the Duel opponent")),
  rival: () => t("still in the Marathon"),
  victim: () => t("The Doom's victim"),
  giver: () => t("who gave the trick"),
};

/** "Ann or Bo", "Ann, Bo or Cy". */
function eitherWords(names) {
  if (names.length <= 1) return names.join("");
  if (lang !== "en") return new Intl.ListFormat(lang, { type: "disjunction" }).format(names);
  return `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** The witness rule as the table says it: who decides a reported success, and why not the others.
 * `claim` is the view's; `mode` the trick's; `seatName(seat)` a player's name. */
export function witnessNote(claim, mode, seatName) {
  if (!claim) return "";
  const deciders = eitherWords(claim.witnesses.map(seatName));
  const stakes = claim.interested.map((i) => t("{name} ({stake})", { name: seatName(i.seat), stake: STAKES[i.stake]?.(mode) || i.stake }));
  if (Number.isInteger(claim.disputed_by)) return t("{name} disputed it: {deciders} settles it, and that word is final.", { name: seatName(claim.disputed_by), deciders });
  if (!claim.neutral) return t("Nobody without a stake can witness, so {names} decides.", { names: listWords(stakes) });
  if (stakes.length) return t("{names} does not witness: {deciders} decides.", { names: listWords(stakes), deciders });
  return "";
}

/** The seats (other than `me`) that a person plays and that may act out of turn now. */
export function peopleOutOfTurn(view, room, me) {
  const bots = new Set((room?.seats || []).filter((s) => s.bot || s.stand_in).map((s) => s.seat));
  return (view.out_of_turn || []).filter((o) => o.seat !== me && !bots.has(o.seat));
}

// A target button per action: "Knock down Bo", and "Knock down yourself" for the seat choosing.
const TARGETS = {
  positive_boost: [(name) => t("Boost {name}", { name }), () => t("Boost yourself")],
  negative_boost: [(name) => t("Knock down {name}", { name }), () => t("Knock down yourself")],
  swap: [(name) => t("Swap pawns with {name}", { name }), () => t("Swap pawns with yourself")],
  belt_steal: [(name) => t("Steal a belt from {name}", { name }), () => t("Steal a belt from yourself")],
  duel: [(name) => t("Duel {name}", { name }), () => t("Duel yourself")],
  the_doom: [(name) => t("Doom {name}", { name }), () => t("Doom yourself")],
  battle: [(name) => t("Battle {name}", { name }), () => t("Battle yourself")],
};
const CHOOSE = [(name) => t("Choose {name}", { name }), () => t("Choose yourself")];

/** A target button: "Knock down Bo", and "Knock down yourself" / "Boost yourself" for the seat
 * choosing (the view's own seat). */
export function targetLabel(view, action, seatName) {
  const [other, self] = TARGETS[view.choosing?.action] || CHOOSE;
  return action.seat === view.seat ? self() : other(seatName(action.seat));
}

export function capital(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

// Around one device the page needs no pass-the-device screen: the descriptor says `open_table`
// (Darkness's deck is shown only to the possessed player, while they choose). Its goal (the
// Grandmaster) and its live standing (the belts) are the descriptor's too.

/** The glanceable line for the player due around one device: "Ann: 3 Flips back — 3 tries". */
export function deviceLine(view, seat, seatName) {
  const who = seatName(seat);
  const trick = view.trick;
  if (view.phase === "difficulty") return { who, what: t("Choose your difficulty") };
  if (view.phase === "confirm") return { who, what: t("Did {name} land it?", { name: seatName(view.claim.seat) }) };
  if (trick && view.phase === "battle") return { who, what: t("Battle: {trick} — go!", { trick: cardTitle(trick.card) }) };
  if (trick && ["perform", "spent"].includes(view.phase)) {
    const at = trick.players.indexOf(seat);
    const tries = at >= 0 ? trick.tries[at] : 0;
    if (view.phase === "spent") return { who, what: t("{trick} — no tries left", { trick: cardTitle(trick.card) }) };
    return { who, what: tn("{trick} — {num} try", "{trick} — {num} tries", tries, { trick: cardTitle(trick.card) }) };
  }
  if (view.phase === "darkness") return { who, what: t("Possessed: choose a trick for the others") };
  if (view.phase === "target") {
    if (!view.choosing?.action) return { who, what: t("Choose who it aims at") };
    return { who, what: t("Choose who {action} aims at", { action: actionName(view.choosing.action) }) };
  }
  return { who, what: t("Your turn: draw") };
}

/** The Marathon line-up in turn order from the drawer: everyone, each marked in, out or current;
 * the line shrinks as players drop out. */
export function lineup(trick, players) {
  const seats = Array.from({ length: players }, (_, k) => (trick.performer + k) % players);
  const current = trick.players[trick.at];
  return seats.map((seat) => ({ seat, out: !trick.players.includes(seat), current: seat === current }));
}

/** The two sides of a Duel or Battle, from the trick and (for a Battle, whose racers drop out of
 * `players`) the event that named the opponent. Each side: seat, tries left (Duel) and whether out. */
export function contestSides(view) {
  const trick = view.trick;
  let seats = trick.players.slice(0, 2);
  if (trick.mode === "battle" && view.phase !== "target") {
    const named = [...(view.events || [])].reverse().find((e) => e.type === "target" && e.action === "battle" && e.seat === trick.performer);
    if (named) seats = [named.seat, named.target];
  }
  return seats.map((seat) => {
    const at = trick.players.indexOf(seat);
    return { seat, tries: at >= 0 ? trick.tries[at] : 0, out: at < 0, current: view.phase !== "battle" && at === trick.at };
  });
}

// The words below name players with what the page gives them: `name(seat)` ("You" for this
// page's player), `isMe(seat)`, `isBot(seat)` and `seatName(seat)` (always the player's own
// name). Each sentence about this page's player is a sentence of its own ("You play easy"), so a
// language words it with its own verb.

/** A belt's name in the reader's language: "White", or "Grandmaster" past the last belt. */
export function beltTitle(belt) {
  return capital(tp("mokuru belt", belt));
}

/** A belt's name on the board: "Yellow", or "Grandmaster" past the last belt. */
export function beltName(view, index) {
  return beltTitle(index >= view.grandmaster ? "grandmaster" : view.belts[index]);
}

// A Duel, Battle, The Doom or Marathon won, lost by all, or left.
const MODES = {
  duel: {
    won: (name) => t("{name} won the duel.", { name }),
    wonMe: () => t("You won the duel."),
    nobody: () => t("Nobody won the duel."),
    out: (name) => t("{name} is out of the duel.", { name }),
    outMe: () => t("You are out of the duel."),
  },
  battle: {
    won: (name) => t("{name} won the battle.", { name }),
    wonMe: () => t("You won the battle."),
    nobody: () => t("Nobody won the battle."),
    out: (name) => t("{name} is out of the battle.", { name }),
    outMe: () => t("You are out of the battle."),
  },
  doom: {
    won: (name) => t("{name} won the doom.", { name }),
    wonMe: () => t("You won the doom."),
    nobody: () => t("Nobody won the doom."),
    out: (name) => t("{name} is out of the doom.", { name }),
    outMe: () => t("You are out of the doom."),
  },
  marathon: {
    won: (name) => t("{name} won the marathon.", { name }),
    wonMe: () => t("You won the marathon."),
    nobody: () => t("Nobody won the marathon."),
    out: (name) => t("{name} is out of the marathon.", { name }),
    outMe: () => t("You are out of the marathon."),
  },
};

function trickWords(e, me, args) {
  if (e.source === "darkness") return me ? t("You perform {card} ({category}), imposed by Darkness.", args) : t("{name} performs {card} ({category}), imposed by Darkness.", args);
  if (e.source === "given") return me ? t("You perform {card} ({category}), a given trick.", args) : t("{name} performs {card} ({category}), a given trick.", args);
  if (e.source === "stolen") return me ? t("You perform {card} ({category}), a stolen trick.", args) : t("{name} performs {card} ({category}), a stolen trick.", args);
  return me ? t("You perform {card} ({category}).", args) : t("{name} performs {card} ({category}).", args);
}

/** A sentence of one actor and another player: the actor is this page's player, the other is, or
 * neither. `forms`: [mine, theirsToMe, others], each a function of the args. */
function between(isMe, seat, other, forms, args) {
  if (isMe(seat)) return forms[0](args);
  if (isMe(other)) return forms[1](args);
  return forms[2](args);
}

function witnessWords(e, { name, isMe, isBot }) {
  const args = { name: Number.isInteger(e.seat) ? name(e.seat) : "", claimant: name(e.claimant) };
  // A bot answers a person's claim only when no person can witness: its word proves nothing.
  if (isBot(e.seat) && !isBot(e.claimant)) {
    return isMe(e.claimant) ? t("Your success stands: no person could witness it.") : t("{claimant}'s success stands: no person could witness it.", args);
  }
  if (e.appeal) {
    return between(isMe, e.seat, e.claimant, [
      (a) => t("You disputed {claimant}'s success; a second witness decides.", a),
      (a) => t("{name} disputed your success; a second witness decides.", a),
      (a) => t("{name} disputed {claimant}'s success; a second witness decides.", a),
    ], args);
  }
  if (e.verdict === "confirm") {
    return between(isMe, e.seat, e.claimant, [
      (a) => t("You confirmed {claimant}'s success.", a),
      (a) => t("{name} confirmed your success.", a),
      (a) => t("{name} confirmed {claimant}'s success.", a),
    ], args);
  }
  return between(isMe, e.seat, e.claimant, [
    (a) => t("You disputed {claimant}'s success.", a),
    (a) => t("{name} disputed your success.", a),
    (a) => t("{name} disputed {claimant}'s success.", a),
  ], args);
}

/** One event as a sentence of the log. */
export function eventWords(view, e, { name, isMe = (seat) => name(seat) === t("You"), isBot = () => false }) {
  const who = Number.isInteger(e.seat) ? name(e.seat) : "";
  const me = Number.isInteger(e.seat) && isMe(e.seat);
  // The player as the subject of a line that starts with a name: "Bo: landed it."
  const subject = me ? t("You") : who;
  switch (e.type) {
    case "difficulty": {
      const args = { name: who, level: levelName(e.level) };
      return me ? tn("You play {level} ({num} try).", "You play {level} ({num} tries).", e.tries, args) : tn("{name} plays {level} ({num} try).", "{name} plays {level} ({num} tries).", e.tries, args);
    }
    case "turn": return me ? t("Your turn.") : t("{name}'s turn.", { name: who });
    case "action": return me ? t("You drew {card}.", { card: eventCard(e) }) : t("{name} drew {card}.", { name: who, card: eventCard(e) });
    case "discarded": return t("{card} is discarded.", { card: eventCard(e) });
    case "trick": return trickWords(e, me, { name: who, card: eventCard(e), category: categoryName(e.category) });
    case "target": {
      const args = { name: who, action: actionName(e.action), target: name(e.target) };
      if (me && isMe(e.target)) return t("You aimed {action} at yourself.", args);
      return between(isMe, e.seat, e.target, [
        (a) => t("You aimed {action} at {target}.", a),
        (a) => t("{name} aimed {action} at you.", a),
        (a) => t("{name} aimed {action} at {target}.", a),
      ], args);
    }
    case "belt": {
      if (e.from === e.to) return me ? t("You stay on {belt}.", { belt: beltName(view, e.to) }) : t("{name} stays on {belt}.", { name: who, belt: beltName(view, e.to) });
      return t("{name}: {from} → {to}.", { name: subject, from: beltName(view, e.from), to: beltName(view, e.to) });
    }
    case "report":
      if (e.outcome === "landed") return t("{name}: landed it.", { name: subject });
      if (e.outcome === "done") return t("{name}: done!", { name: subject });
      return t("{name}: missed.", { name: subject });
    case "witness": return witnessWords(e, { name, isMe, isBot });
    case "miss": return me ? t("You did not land the trick.") : t("{name} did not land the trick.", { name: who });
    case "success": return me ? t("You landed {card}!", { card: eventCard(e) }) : t("{name} landed {card}!", { name: who, card: eventCard(e) });
    case "winner": {
      const mode = MODES[e.mode];
      if (!mode) return Number.isInteger(e.seat) ? `${who} won the ${e.mode}.` : `Nobody won the ${e.mode}.`;
      if (!Number.isInteger(e.seat)) return mode.nobody();
      return me ? mode.wonMe() : mode.won(who);
    }
    case "out": {
      const mode = MODES[e.mode];
      if (!mode) return `${who} ${me ? "are" : "is"} out of the ${e.mode}.`;
      return me ? mode.outMe() : mode.out(who);
    }
    case "immunity": {
      const args = { name: who, action: actionName(e.against) };
      if (e.against) return me ? t("You used Immunity against {action}.", args) : t("{name} used Immunity against {action}.", args);
      return me ? t("You used Immunity to win the trick.") : t("{name} used Immunity to win the trick.", args);
    }
    case "give":
      return between(isMe, e.seat, e.target, [
        (a) => t("You gave {card} to {target}.", a),
        (a) => t("{name} gave {card} to you.", a),
        (a) => t("{name} gave {card} to {target}.", a),
      ], { name: who, card: eventCard(e), target: name(e.target) });
    case "steal":
      return between(isMe, e.seat, e.victim, [
        (a) => t("You stole {card} from {victim}.", a),
        (a) => t("{name} stole {card} from you.", a),
        (a) => t("{name} stole {card} from {victim}.", a),
      ], { name: who, card: eventCard(e), victim: name(e.victim) });
    case "darkness":
      if (e.card) return me ? t("You are possessed and imposed {card} on everyone else.", { card: eventCard(e) }) : t("{name} is possessed and imposed {card} on everyone else.", { name: who, card: eventCard(e) });
      return me ? t("You are possessed.") : t("{name} is possessed.", { name: who });
    case "swap":
      return between(isMe, e.seat, e.target, [
        (a) => t("You swapped pawns with {target}.", a),
        (a) => t("{name} swapped pawns with you.", a),
        (a) => t("{name} swapped pawns with {target}.", a),
      ], { name: who, target: name(e.target) });
    case "shuffle": return e.deck === "masters" ? t("The master tricks deck was reshuffled.") : t("The tricks deck was reshuffled.");
    case "no_trick": return me ? t("No trick left to draw for you.") : t("No trick left to draw for {name}.", { name: who });
    case "no_target": return t("{action}: nobody to aim at.", { action: actionName(e.action) });
    case "grandmaster": return me ? t("You are Grandmaster!") : t("{name} is Grandmaster!", { name: who });
    default: return `${who} ${e.type}.`;
  }
}

/** A move button's label: "Landed it", "Steal Blind Flip from Ann", "Knock down Bo". */
export function actionLabel(view, action, { name, isMe = (seat) => name(seat) === t("You") }) {
  const trick = view.trick?.card ? cardTitle(view.trick.card) : "";
  switch (action.type) {
    case "difficulty": {
      const level = view.levels[action.level];
      return tn("{level}: {hand}, {num} try", "{level}: {hand}, {num} tries", level.tries, { level: levelTitle(action.level), hand: handWords(level.hand) });
    }
    case "draw": {
      const me = view.seats[view.turn];
      if (me.darkness_due) return t("Take the Darkness trick");
      if (me.imposed.length) return t("Take your received trick");
      if (me.belt >= view.belts.length - 1) return t("Draw a master trick");
      return t("Draw a card");
    }
    case "report":
      return action.outcome === "landed" ? t("Landed it") : action.outcome === "done" ? t("Done!") : t("Missed");
    case "witness":
      if (action.verdict !== "confirm") return t("Dispute");
      return isMe(view.claim.seat) ? t("Confirm your success") : t("Confirm {name}'s success", { name: name(view.claim.seat) });
    case "immunity":
      if (view.pending) return t("Use Immunity: block {action}", { action: actionName(view.pending.action) });
      return t("Use Immunity: count it landed");
    case "accept_miss":
      return t("Accept the miss");
    case "target":
      return targetLabel(view, action, name);
    case "give":
      return t("Give {trick} to {name}", { trick, name: name(action.seat) });
    case "steal":
      return t("Steal {trick} from {name}", { trick, name: name(view.trick.performer) });
    case "impose": {
      const card = (view.darkness_deck || []).find((c) => c.id === action.card);
      return card ? t("{trick} ({category})", { trick: cardTitle(card), category: categoryName(card.category) }) : t("Trick {num}", { num: action.card });
    }
    default:
      return capital(action.type);
  }
}

/** The status line. `mine`: this page's player is due. */
export function statusText(state, view, { mine, name, isMe, seatName }) {
  if (view.winner !== null && view.winner !== undefined) return isMe(view.winner) ? t("You are Grandmaster!") : t("{name} is Grandmaster!", { name: name(view.winner) });
  const acting = state.to_act || [];
  if (view.phase === "difficulty") return mine ? t("Choose your difficulty.") : t("Waiting for {names} to choose a difficulty…", { names: listWords(acting.map(name)) });
  if (view.phase === "confirm") {
    // Real names in the rule, also for this page's player: "so Bo (the Duel opponent) decides".
    const note = witnessNote(view.claim, view.trick?.mode, seatName);
    const claimant = view.claim.seat;
    let ask;
    if (mine) ask = t("Did {name} land it? Confirm or dispute.", { name: name(claimant) });
    else ask = isMe(claimant) ? t("Waiting for a witness for your try…") : t("Waiting for a witness for {name}'s try…", { name: name(claimant) });
    return note ? `${ask} ${note}` : ask;
  }
  if (view.phase === "battle") return mine ? t("Battle! Perform now; press Done! when you finish.") : t("Battle between {names}…", { names: listWords(view.trick.players.map(name)) });
  if (view.trick && ["perform", "spent"].includes(view.phase)) {
    const at = view.trick.current;
    const tries = view.trick.tries[view.trick.at];
    const args = { name: isMe(at) ? t("You") : name(at), trick: cardTitle(view.trick.card) };
    if (view.trick.mode === "marathon") return t("{name}: {trick}", args);
    return tn("{name}: {trick} — {num} try left", "{name}: {trick} — {num} tries left", tries, args);
  }
  if (mine) {
    if (view.phase === "darkness") return t("You are possessed: choose a trick for everyone else.");
    if (view.phase === "target") return t("Choose who {action} aims at.", { action: actionName(view.choosing.action) });
    return t("Your turn: draw.");
  }
  return acting.length ? t("Waiting for {names}…", { names: listWords(acting.map(name)) }) : "";
}
