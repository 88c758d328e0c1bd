// "Your games" in words (DOM-free, tested under node): each summary of `POST /api/my-games` as the
// lines the home page shows: the other players, whose turn it is, the move clock, the last move.

import { cardsIn, moveWords } from "./move-words.js";
import { listWords } from "./words.js";

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

/** A span of seconds, short: "40 s", "12 min", "3 h 5 min", "2 days". */
export function spanWords(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < MINUTE) return `${s} s`;
  if (s < HOUR) return `${Math.floor(s / MINUTE)} min`;
  if (s < DAY) {
    const minutes = Math.floor((s % HOUR) / MINUTE);
    return `${Math.floor(s / HOUR)} h${minutes ? ` ${minutes} min` : ""}`;
  }
  const days = Math.floor(s / DAY);
  return `${days} ${days === 1 ? "day" : "days"}`;
}

/** The move clock: "12 min left", "time is up"; null without a deadline. */
export function clockWords(deadline, now = Date.now()) {
  if (!deadline) return null;
  const left = (Date.parse(deadline) - now) / 1000;
  if (!Number.isFinite(left)) return null;
  return left <= 0 ? "time is up" : `${spanWords(left)} left to move`;
}

/** How long ago: "just now", "5 min ago", "2 days ago". */
export function agoWords(at, now = Date.now()) {
  const seconds = (now - Date.parse(at)) / 1000;
  if (!Number.isFinite(seconds)) return "";
  if (seconds < 45) return "just now";
  return `${spanWords(seconds)} ago`;
}

/** A seat's name as the reader sees it: "You" for their own seat. */
export function namer(summary) {
  return (seat) => {
    if (seat === summary.seat) return "You";
    return summary.players.find((p) => p.seat === seat)?.name ?? `Seat ${seat + 1}`;
  };
}

/** Whose turn, or how the game stands: {text, mine}. */
export function turnWords(summary) {
  const name = namer(summary);
  if (summary.status === "waiting") return { text: "Waiting to start", mine: false };
  if (summary.status === "finished") {
    const winners = summary.winners || [];
    if (winners.includes(summary.seat)) {
      return { text: winners.length > 1 ? "Finished: you shared the win" : "Finished: you won", mine: false };
    }
    return { text: `Finished: ${listWords(winners.map(name))} won`, mine: false };
  }
  if (summary.your_turn) return { text: "Your turn", mine: true };
  const acting = (summary.to_act || []).map(name);
  if (!acting.length) return { text: "In play", mine: false };
  return { text: acting.length === 1 ? `${acting[0]}'s turn` : `Waiting for ${listWords(acting)}`, mine: false };
}

/** Totals as "You 12 · Bo 30" (empty before any). */
export function totalsWords(summary) {
  const name = namer(summary);
  if (!summary.totals?.length || summary.totals.every((t) => t === 0)) return "";
  return summary.totals.map((total, seat) => `${name(seat)} ${total}`).join(" · ");
}

/** Everything a list item says about one game. `title(game)` names a game; `words(game)` is its
 *  action words (its descriptor's `action_words`), for the last move. */
export function gameLines(summary, { title = (game) => game, words = () => ({}), now = Date.now() } = {}) {
  const others = summary.players.filter((p) => p.seat !== summary.seat).map((p) => p.name);
  const last = summary.last_move;
  return {
    title: title(summary.game),
    players: others.length ? `with ${listWords(others)}` : "nobody else yet",
    you: `as ${summary.name}`,
    turn: turnWords(summary),
    clock: summary.status === "playing" ? clockWords(summary.deadline, now) : null,
    last: last
      ? {
          text: moveWords(last, { words: words(summary.game), name: namer(summary), cards: cardsIn(last.cards || []) }),
          ago: agoWords(last.at, now),
        }
      : null,
    totals: totalsWords(summary),
  };
}

/** What a stored seat the server no longer knows says ("moved", "left", "removed", "unknown"). */
export function lostWords(status) {
  return (
    {
      moved: "your seat moved to another device",
      left: "you left this game",
      removed: "the host removed you from this game",
    }[status] || "this seat is no longer on this server"
  );
}
