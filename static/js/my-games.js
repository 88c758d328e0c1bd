// "Your games" in words (DOM-free, tested under node): each summary of `POST /api/my-games` as the
// lines the home page shows: the other players, whose turn it is, the move clock, the last move.

import { cardPhraseOf } from "./card-phrases.js";
import { t, tn } from "./i18n.js";
import { cardsIn, moveWords } from "./move-words.js";
import { listWords } from "./words.js";

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

/** A span of seconds, short: "40 s", "12 min", "3 h 5 min", "2 days". */
export function spanWords(seconds) {
  const s = Math.max(0, Math.round(seconds));
  // Translators: seconds, minutes and hours, short, as a clock says them ("40 s", "3 h 5 min").
  if (s < MINUTE) return t("{num} s", { num: s });
  if (s < HOUR) return t("{num} min", { num: Math.floor(s / MINUTE) });
  if (s < DAY) {
    const minutes = Math.floor((s % HOUR) / MINUTE);
    const hours = Math.floor(s / HOUR);
    return minutes ? t("{hours} h {minutes} min", { hours, minutes }) : t("{num} h", { num: hours });
  }
  return tn("{num} day", "{num} days", Math.floor(s / DAY));
}

/** The move clock: "12 min left", "time is up"; null without a deadline. */
export function clockWords(deadline, now = Date.now()) {
  if (!deadline) return null;
  const left = (Date.parse(deadline) - now) / 1000;
  if (!Number.isFinite(left)) return null;
  if (left <= 0) return t("time is up");
  return t("{span} left to move", { span: spanWords(left) });
}

/** How long ago: "just now", "5 min ago", "2 days ago". */
export function agoWords(at, now = Date.now()) {
  const seconds = (now - Date.parse(at)) / 1000;
  if (!Number.isFinite(seconds)) return "";
  if (seconds < 45) return t("just now");
  return t("{span} ago", { span: spanWords(seconds) });
}

/** A seat's name as the reader sees it: "You" for their own seat. */
export function namer(summary) {
  return (seat) => {
    if (seat === summary.seat) return t("You");
    return summary.players.find((p) => p.seat === seat)?.name ?? t("Seat {num}", { num: seat + 1 });
  };
}

/** Whose turn, or how the game stands: {text, mine}. */
export function turnWords(summary) {
  const name = namer(summary);
  if (summary.status === "waiting") return { text: t("Waiting to start"), mine: false };
  if (summary.status === "finished") {
    const winners = summary.winners || [];
    if (winners.includes(summary.seat)) {
      return { text: winners.length > 1 ? t("Finished: you shared the win") : t("Finished: you won"), mine: false };
    }
    const names = listWords(winners.map(name));
    return { text: tn("Finished: {names} won", "Finished: {names} won", winners.length, { names }), mine: false };
  }
  if (summary.your_turn) return { text: t("Your turn"), mine: true };
  const acting = (summary.to_act || []).map(name);
  if (!acting.length) return { text: t("In play"), mine: false };
  if (acting.length === 1) return { text: t("{name}'s turn", { name: acting[0] }), mine: false };
  return { text: t("Waiting for {names}", { names: listWords(acting) }), mine: false };
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
  const cardPhrase = cardPhraseOf(summary.game);
  return {
    title: title(summary.game),
    players: others.length ? t("with {names}", { names: listWords(others) }) : t("nobody else yet"),
    you: t("as {name}", { name: summary.name }),
    turn: turnWords(summary),
    clock: summary.status === "playing" ? clockWords(summary.deadline, now) : null,
    last: last
      ? {
          text: moveWords(last, {
            words: words(summary.game),
            name: namer(summary),
            cards: cardsIn(last.cards || []),
            cardPhrase,
            you: summary.seat,
          }),
          ago: agoWords(last.at, now),
        }
      : null,
    totals: totalsWords(summary),
  };
}

/** What a stored seat the server no longer knows says ("moved", "left", "removed", "unknown"). */
export function lostWords(status) {
  if (status === "moved") return t("your seat moved to another device");
  if (status === "left") return t("you left this game");
  if (status === "removed") return t("the host removed you from this game");
  return t("this seat is no longer on this server");
}
