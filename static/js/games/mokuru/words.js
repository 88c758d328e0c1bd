// Mokuru's words, without a DOM: the actions' names, the log, the move buttons' labels, the
// witness rule, the status line, the big line around one device, and the shapes of a Marathon,
// Duel or Battle.

import { listWords } from "../../words.js";

// While a person other than the one due is shown an out-of-turn move (Steal a Trick, Immunity),
// the due player's moves wait this long after the window opens: the next waited move closes it.
export const HOLD_MS = 3000;

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

export const TARGET_VERBS = {
  positive_boost: "Boost",
  negative_boost: "Knock down",
  swap: "Swap pawns with",
  belt_steal: "Steal a belt from",
  duel: "Duel",
  the_doom: "Doom",
  battle: "Battle",
};


// What a witness who does not decide has at stake, in the table's words.
export const STAKES = {
  opponent: (mode) => (mode === "battle" ? "the Battle opponent" : "the Duel opponent"),
  rival: () => "still in the Marathon",
  victim: () => "The Doom's victim",
  giver: () => "who gave the trick",
};

/** The witness rule as the table says it: who decides a reported success, and why not the others.
 * `claim` is the view's; `mode` the trick's; `seatName(seat)` a player's name. */
export function witnessNote(claim, mode, seatName) {
  if (!claim) return "";
  const names = claim.witnesses.map(seatName);
  const deciders = names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}` : names.join("");
  const stakes = claim.interested.map((i) => `${seatName(i.seat)} (${STAKES[i.stake]?.(mode) || i.stake})`);
  if (Number.isInteger(claim.disputed_by)) return `${seatName(claim.disputed_by)} disputed it: ${deciders} settles it, and that word is final.`;
  if (!claim.neutral) return `Nobody without a stake can witness, so ${listWords(stakes)} decides.`;
  if (stakes.length) return `${listWords(stakes)} does not witness: ${deciders} decides.`;
  return "";
}

/** The seats (other than `me`) that a person plays and that may act out of turn now. */
export function peopleOutOfTurn(view, room, me) {
  const bots = new Set((room?.seats || []).filter((s) => s.bot || s.stand_in).map((s) => s.seat));
  return (view.out_of_turn || []).filter((o) => o.seat !== me && !bots.has(o.seat));
}

/** A target button: "Knock down Bo", and "Knock down yourself" / "Boost yourself" for the seat
 * choosing (the view's own seat). */
export function targetLabel(view, action, seatName) {
  const verb = TARGET_VERBS[view.choosing?.action] || "Choose";
  return `${verb} ${action.seat === view.seat ? "yourself" : seatName(action.seat)}`;
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
  if (view.phase === "difficulty") return { who, what: "Choose your difficulty" };
  if (view.phase === "confirm") return { who, what: `Did ${seatName(view.claim.seat)} land it?` };
  if (trick && view.phase === "battle") return { who, what: `Battle: ${trick.card.name} — go!` };
  if (trick && ["perform", "spent"].includes(view.phase)) {
    const at = trick.players.indexOf(seat);
    const tries = at >= 0 ? trick.tries[at] : 0;
    if (view.phase === "spent") return { who, what: `${trick.card.name} — no tries left` };
    return { who, what: `${trick.card.name} — ${tries} ${tries === 1 ? "try" : "tries"}` };
  }
  if (view.phase === "darkness") return { who, what: "Possessed: choose a trick for the others" };
  if (view.phase === "target") return { who, what: `Choose who ${ACTION_NAMES[view.choosing?.action] || "it"} aims at` };
  return { who, what: "Your turn: draw" };
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
// page's player), `whose(seat)` ("your", "Bo's"), `isMe(seat)`, `isBot(seat)` and `seatName(seat)`
// (always the player's own name).

/** A belt's name on the board: "Yellow", or "Grandmaster" past the last belt. */
export function beltName(view, index) {
  return index >= view.grandmaster ? "Grandmaster" : capital(view.belts[index]);
}

/** One event as a sentence of the log. */
export function eventWords(view, e, { name, whose, isBot }) {
  const who = Number.isInteger(e.seat) ? name(e.seat) : "";
  switch (e.type) {
    case "difficulty": return `${who} ${who === "You" ? "play" : "plays"} ${e.level} (${e.tries} ${e.tries === 1 ? "try" : "tries"}).`;
    case "turn": return `${capital(whose(e.seat))} turn.`;
    case "action": return `${who} drew ${e.card}.`;
    case "discarded": return `${e.card} is discarded.`;
    case "trick": return `${who} ${who === "You" ? "perform" : "performs"} ${e.card} (${e.category})${e.source === "darkness" ? ", imposed by Darkness" : e.source === "given" ? ", a given trick" : e.source === "stolen" ? ", a stolen trick" : ""}.`;
    case "target": return `${who} aimed ${ACTION_NAMES[e.action] || e.action} at ${name(e.target)}.`;
    case "belt": return e.from === e.to ? `${who} ${who === "You" ? "stay" : "stays"} on ${beltName(view, e.to)}.` : `${who}: ${beltName(view, e.from)} → ${beltName(view, e.to)}.`;
    case "report": return `${who}: ${e.outcome === "landed" ? "landed it" : e.outcome === "done" ? "done!" : "missed"}.`;
    case "witness":
      // A bot answers a person's claim only when no person can witness: its word proves nothing.
      if (isBot(e.seat) && !isBot(e.claimant)) return `${capital(whose(e.claimant))} success stands: no person could witness it.`;
      if (e.appeal) return `${who} disputed ${whose(e.claimant)} success; a second witness decides.`;
      return `${who} ${e.verdict === "confirm" ? "confirmed" : "disputed"} ${whose(e.claimant)} success.`;
    case "miss": return `${who} did not land the trick.`;
    case "success": return `${who} landed ${e.card}!`;
    case "winner": return Number.isInteger(e.seat) ? `${who} won the ${e.mode}.` : `Nobody won the ${e.mode}.`;
    case "out": return `${who} ${who === "You" ? "are" : "is"} out of the ${e.mode}.`;
    case "immunity": return `${who} used Immunity${e.against ? ` against ${ACTION_NAMES[e.against]}` : " to win the trick"}.`;
    case "give": return `${who} gave ${e.card} to ${name(e.target)}.`;
    case "steal": return `${who} stole ${e.card} from ${name(e.victim)}.`;
    case "darkness": return e.card ? `${who} ${who === "You" ? "are" : "is"} possessed and imposed ${e.card} on everyone else.` : `${who} ${who === "You" ? "are" : "is"} possessed.`;
    case "swap": return `${who} swapped pawns with ${name(e.target)}.`;
    case "shuffle": return `The ${e.deck === "masters" ? "master tricks" : "tricks"} deck was reshuffled.`;
    case "no_trick": return `No trick left to draw for ${who}.`;
    case "no_target": return `${ACTION_NAMES[e.action]}: nobody to aim at.`;
    case "grandmaster": return `${who} ${who === "You" ? "are" : "is"} Grandmaster!`;
    default: return `${who} ${e.type}.`;
  }
}

/** A move button's label: "Landed it", "Steal Blind Flip from Ann", "Knock down Bo". */
export function actionLabel(view, action, { name, whose }) {
  const trickName = view.trick?.card?.name;
  switch (action.type) {
    case "difficulty": {
      const level = view.levels[action.level];
      return `${capital(action.level)}: ${level.hand}, ${level.tries} ${level.tries === 1 ? "try" : "tries"}`;
    }
    case "draw": {
      const me = view.seats[view.turn];
      if (me.darkness_due) return "Take the Darkness trick";
      if (me.imposed.length) return "Take your received trick";
      if (me.belt >= view.belts.length - 1) return "Draw a master trick";
      return "Draw a card";
    }
    case "report":
      return action.outcome === "landed" ? "Landed it" : action.outcome === "done" ? "Done!" : "Missed";
    case "witness":
      return action.verdict === "confirm" ? `Confirm ${whose(view.claim.seat)} success` : "Dispute";
    case "immunity":
      if (view.pending) return `Use Immunity: block ${ACTION_NAMES[view.pending.action]}`;
      return "Use Immunity: count it landed";
    case "accept_miss":
      return "Accept the miss";
    case "target":
      return targetLabel(view, action, name);
    case "give":
      return `Give ${trickName} to ${name(action.seat)}`;
    case "steal":
      return `Steal ${trickName} from ${name(view.trick.performer)}`;
    case "impose": {
      const card = (view.darkness_deck || []).find((c) => c.id === action.card);
      return card ? `${card.name} (${card.category})` : `Trick ${action.card}`;
    }
    default:
      return capital(action.type);
  }
}

/** The status line. `mine`: this page's player is due. */
export function statusText(state, view, { mine, name, whose, isMe, seatName }) {
  if (view.winner !== null && view.winner !== undefined) return `${name(view.winner)} ${isMe(view.winner) ? "are" : "is"} Grandmaster!`;
  const acting = state.to_act || [];
  if (view.phase === "difficulty") return mine ? "Choose your difficulty." : `Waiting for ${listWords(acting.map(name))} to choose a difficulty…`;
  if (view.phase === "confirm") {
    // Real names in the rule, also for this page's player: "so Bo (the Duel opponent) decides".
    const note = witnessNote(view.claim, view.trick?.mode, seatName);
    const ask = mine ? `Did ${name(view.claim.seat)} land it? Confirm or dispute.` : `Waiting for a witness for ${whose(view.claim.seat)} try…`;
    return note ? `${ask} ${note}` : ask;
  }
  if (view.phase === "battle") return mine ? "Battle! Perform now; press Done! when you finish." : `Battle between ${listWords(view.trick.players.map(name))}…`;
  if (view.trick && ["perform", "spent"].includes(view.phase)) {
    const card = view.trick.card;
    const at = view.trick.current;
    const tries = view.trick.tries[view.trick.at];
    const triesText = view.trick.mode === "marathon" ? "" : ` — ${tries} ${tries === 1 ? "try" : "tries"} left`;
    return `${name(at)}: ${card.name}${triesText}`;
  }
  if (mine) return view.phase === "darkness" ? "You are possessed: choose a trick for everyone else." : view.phase === "target" ? `Choose who ${ACTION_NAMES[view.choosing.action]} aims at.` : "Your turn: draw.";
  return acting.length ? `Waiting for ${listWords(acting.map(name))}…` : "";
}
