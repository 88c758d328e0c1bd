// The people parts of the room page that need no DOM: initials by grapheme, presence and
// countdown words, the seat link's fragment, chat muting and when to notify, and the words of
// the way back to a seat (a dead seat link, a request for a seat, who may answer it). Tested
// under `node --test` (tests/js/people-kit.test.mjs).

import { lang, t, tn, tp } from "./i18n.js";
import { listWords } from "./words.js";

/** The move clocks a room offers (seconds, or null for none) and their words. */
export const CLOCKS = [
  [null, t("No clock")],
  [60, t("1 minute a move")],
  [180, t("3 minutes a move")],
  [3600, t("1 hour a move")],
  [86400, t("1 day a move")],
];

/** A chat message others wrote that this reader should hear of while the chat is out of sight:
 * not the table's own line, not the reader's own, not a muted writer's. */
export function chatNews(message, mySeat, muted) {
  if (isSeatLine(message)) return false;
  if (message.seat !== null && message.seat !== undefined && message.seat === mySeat) return false;
  return !muted.includes(muteKey(message));
}

/** A writer's name in the reader's words. The server keeps a spectator's as the chat first showed
 * it in English, "Cy (watching)" or "Spectator" (the muted list keys on that); a player's is their
 * own name. */
export function writerName(name, seat = null) {
  const text = String(name ?? "");
  if (seat !== null && seat !== undefined) return text;
  if (text === "Spectator") return t("Spectator");
  const watching = text.match(/^(.*) \(watching\)$/s);
  return watching ? t("{name} (watching)", { name: watching[1] }) : text;
}

/** The chat note floating at the foot of the screen while the chat is out of sight: the newest
 * message for a moment ("Bo: oops", at most `limit` characters), then a badge with the unread
 * count ("2 new messages"). null when nothing is unread. */
export function chatNoteWords(unread, latest, { open = true, limit = 120 } = {}) {
  if (!unread) return null;
  const count = tn("{num} new message", "{num} new messages", unread);
  if (!open || !latest) return { kind: "badge", text: count };
  const text = String(latest.text ?? "");
  const cut = [...text].length > limit ? `${[...text].slice(0, limit - 1).join("")}…` : text;
  return { kind: "message", name: writerName(latest.name, latest.seat), text: cut, count };
}

/** The first grapheme of a name, upper-cased: "🦊 Fox" gives "🦊", "Zoë" gives "Z", an emoji
 * family stays whole (never half a surrogate pair, which would show as "�"). */
export function initial(name) {
  const text = String(name || "").trim();
  if (!text) return "?";
  let first;
  if (typeof Intl !== "undefined" && Intl.Segmenter) {
    const segments = new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text);
    first = segments[Symbol.iterator]().next().value.segment;
  } else {
    first = Array.from(text)[0];
  }
  return first.toLocaleUpperCase();
}

/** "1:05", "12:00", "2 h 05 min", "1 d 3 h" for a time left in milliseconds (never negative). */
export function countdownWords(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (days > 0) return t("{days} d {hours} h", { days, hours });
  if (hours > 0) return t("{hours} h {minutes} min", { hours, minutes: String(minutes).padStart(2, "0") });
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}

/** How long someone has been away, in words: "away" under a minute, then "gone 3 min", "gone 2 h". */
export function presenceWords(seat, now = Date.now()) {
  if (seat.bot) return { kind: "bot", words: t("bot") };
  if (seat.stand_in) return { kind: "stand-in", words: t("bot playing") };
  if (seat.connected || !seat.away_since) return { kind: "here", words: t("here") };
  const minutes = Math.floor((now - Date.parse(seat.away_since)) / 60000);
  if (minutes < 1) return { kind: "away", words: t("away") };
  if (minutes < 60) return { kind: "gone", words: t("gone {num} min", { num: minutes }) };
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return { kind: "gone", words: t("gone {num} h", { num: hours }) };
  return { kind: "gone", words: tn("gone {num} day", "gone {num} days", Math.floor(hours / 24)) };
}

/** Seconds a seat has been away (0 while here, or for a bot). */
export function awaySeconds(seat, now = Date.now()) {
  if (seat.bot || seat.connected || !seat.away_since) return 0;
  return Math.max(0, (now - Date.parse(seat.away_since)) / 1000);
}

/** What the others may do about `seat`: let a bot play (time up on its turn, or gone a while). */
export function mayStandIn(room, state, seat, mySeat, now = Date.now()) {
  if (!room || room.status !== "playing" || mySeat === null || mySeat === undefined) return false;
  if (seat.seat === mySeat || seat.bot || seat.stand_in) return false;
  const timeUp = Boolean(room.deadline) && now >= Date.parse(room.deadline) && (state?.to_act || []).includes(seat.seat);
  return timeUp || awaySeconds(seat, now) >= (room.gone_after ?? 120);
}

/** The host may remove a player away at least `gone_after` seconds. */
export function mayRemove(room, seat, mySeat, now = Date.now()) {
  if (!room || room.status !== "playing" || mySeat !== room.host_seat) return false;
  if (seat.seat === mySeat || seat.bot) return false;
  return awaySeconds(seat, now) >= (room.gone_after ?? 120);
}

/** The token in a seat link's fragment (`#seat=<token>`), or null. */
export function seatFromHash(hash) {
  const params = new URLSearchParams(String(hash || "").replace(/^#/, ""));
  const token = params.get("seat");
  return token && /^[A-Za-z0-9_-]{16,128}$/.test(token) ? token : null;
}

/** The seat link for a room and token (the token stays in the fragment). */
export function seatLink(origin, roomId, token) {
  return `${origin}/r/${encodeURIComponent(roomId)}#seat=${token}`;
}

/** A table line ("Ann's seat moved to another device"), written by nobody: never muted. */
export function isSeatLine(message) {
  return message?.kind === "seat";
}

/** What muting a message's writer keeps in the muted list: a player's seat number, or a
 * spectator's name as the chat shows it ("Cy (watching)"); null for the table's own lines. */
export function muteKey(message) {
  if (isSeatLine(message)) return null;
  if (message.seat !== null && message.seat !== undefined) return message.seat;
  return message.name ? String(message.name) : null;
}

/** Chat messages minus the muted writers' (players by seat, spectators by name; muting is
 * this browser's choice only). The table's own lines always show. */
export function visibleMessages(messages, muted) {
  const silenced = new Set(muted || []);
  return messages.filter((m) => {
    const key = muteKey(m);
    return key === null || !silenced.has(key);
  });
}

/** The muted list with `key` added, or taken out when it was there. */
export function toggleMuted(muted, key) {
  const list = muted || [];
  return list.includes(key) ? list.filter((k) => k !== key) : [...list, key];
}

/** Add a message unless already held (by id), in id order (a message loaded late may be older
 * than one the socket brought). Keeps the newest `limit` that people wrote and, apart, the newest
 * `limit` lines of the table's own, as the server does, so a flood of table lines (pausing and
 * resuming) never pushes what people said out. */
export function addMessage(messages, message, limit = 100) {
  if (messages.some((m) => m.id === message.id)) return messages;
  const all = [...messages, message].sort((a, b) => a.id - b.id);
  const table = all.filter(isSeatLine);
  const said = all.filter((m) => !isSeatLine(m));
  const kept = new Set([...table.slice(-limit), ...said.slice(-limit)]);
  return all.filter((m) => kept.has(m));
}

/** Notify only on a new turn, with permission, while the page is hidden and the player opted in. */
export function shouldNotify({ myTurn, wasMyTurn, hidden, permission, optedIn }) {
  return Boolean(myTurn && !wasMyTurn && hidden && optedIn && permission === "granted");
}

// ---------------------------------------------------------------------------
// The way back to a seat

const DAY_FORMAT = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };

/** "Tue 1 Dec, 14:03" (no-break spaces in "Tue 1 Dec") for an ISO time ("" when there is none), in the reader's time zone
 * unless one is named. */
export function dayWords(iso, timeZone) {
  const date = new Date(iso ?? NaN);
  if (!iso || Number.isNaN(date.getTime())) return "";
  if (lang !== "en") return new Intl.DateTimeFormat(lang, { ...DAY_FORMAT, timeZone }).format(date);
  const parts = {};
  for (const part of new Intl.DateTimeFormat("en-GB", { ...DAY_FORMAT, timeZone }).formatToParts(date)) {
    parts[part.type] = part.value;
  }
  // No-break spaces keep "1 Dec" together when the banner wraps.
  return `${parts.weekday}\u00a0${parts.day}\u00a0${parts.month}, ${parts.hour}:${parts.minute}`;
}

/** "14:03" for an ISO time ("" when there is none). */
export function hourWords(iso, timeZone) {
  const date = new Date(iso ?? NaN);
  if (!iso || Number.isNaN(date.getTime())) return "";
  const parts = {};
  for (const part of new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone }).formatToParts(date)) {
    parts[part.type] = part.value;
  }
  return `${parts.hour}:${parts.minute}`;
}

// A seat's holder when the answer names nobody.
function holderName(name) {
  return name || t("this player");
}

/**
 * Why a seat link stopped working, from `GET /api/rooms/{id}/seat-check`'s answer (or null when
 * that could not be asked): `{ kind, text }`, `kind` one of "moved", "left", "removed",
 * "unknown", "asking", "valid" or "gone" (no reason known). `handedOver`: this page approved the
 * move itself, so the words are not an alarm; `stored`: the token is the one this browser kept
 * (not a link just opened). `nameOf(seat)` names a seat for "asking".
 */
export function deadLinkWords(check, { handedOver = false, stored = false, timeZone, nameOf = () => "" } = {}) {
  const day = dayWords(check?.at, timeZone);
  const name = holderName(check?.name);
  const by = check?.by;
  switch (check?.status) {
    case "valid":
      return { kind: "valid", text: "" };
    case "moved": {
      if (handedOver) {
        const text = day
          ? t("You moved {name}'s seat to your other device on {day}: play there. This page now watches.", { name, day })
          : t("You moved {name}'s seat to your other device: play there. This page now watches.", { name });
        return { kind: "moved", calm: true, text };
      }
      let text;
      if (day && by) text = t("This seat link no longer works: {name}'s seat moved to another device on {day}, approved by {by}.", { name, day, by });
      else if (day) text = t("This seat link no longer works: {name}'s seat moved to another device on {day}.", { name, day });
      else if (by) text = t("This seat link no longer works: {name}'s seat moved to another device, approved by {by}.", { name, by });
      else text = t("This seat link no longer works: {name}'s seat moved to another device.", { name });
      return { kind: "moved", text };
    }
    case "left": {
      const text = day
        ? t("This seat link no longer works: you left this game on {day}, a bot plays your seat.", { day })
        : t("This seat link no longer works: you left this game, a bot plays your seat.");
      return { kind: "left", text };
    }
    case "removed": {
      let text;
      if (day && by) text = t("This seat link no longer works: the host ({by}) removed {name}'s seat on {day}; a bot plays it now.", { name, day, by });
      else if (day) text = t("This seat link no longer works: the host removed {name}'s seat on {day}; a bot plays it now.", { name, day });
      else if (by) text = t("This seat link no longer works: the host ({by}) removed {name}'s seat; a bot plays it now.", { name, by });
      else text = t("This seat link no longer works: the host removed {name}'s seat; a bot plays it now.", { name });
      return { kind: "removed", text };
    }
    case "unknown":
      return stored
        ? { kind: "unknown", text: t("This browser's seat is not known here any more (the game may have been reset).") }
        : { kind: "unknown", text: t("This seat link is not valid (it may be cut short).") };
    case "asking": {
      const request = check.request || {};
      const seat = request.seat ?? check.seat;
      const text = t("This link is your request for {name}'s seat: it works once the request is approved.", { name: holderName(nameOf(seat)) });
      return { kind: "asking", text };
    }
    default:
      return { kind: "gone", text: t("This seat link no longer works: the server does not know it any more.") };
  }
}

/** The human seats a visitor may say are theirs: by seat order, bots left out. Empty when the
 * page holds a seat, or the room is over, or nobody human sits in it yet. */
export function pickableSeats(room, mySeat) {
  if (!room || room.status === "finished" || (mySeat !== null && mySeat !== undefined)) return [];
  return (room.seats || []).filter((s) => !s.bot);
}

/** Requests still open: a pending one nobody answered lapses at `expires`. */
export function openRequests(room, now = Date.now()) {
  return (room?.seat_requests || []).filter(
    (r) => (r.status ?? "pending") === "waiting" || !r.expires || Date.parse(r.expires) > now,
  );
}

/** May `mySeat` answer `request`? The room body says (`answerable_by`); a body from a server
 * that does not list it falls back to the older rule: any other seated player. */
export function mayAnswer(request, mySeat) {
  if (mySeat === null || mySeat === undefined) return false;
  if (Array.isArray(request.answerable_by)) return request.answerable_by.includes(mySeat);
  return mySeat !== request.seat;
}

function approverNames(request, nameOf, mySeat = null) {
  const names = (request.approvals || []).map((seat) => (seat === mySeat ? tp("approved by", "You") : nameOf(seat))).filter(Boolean);
  if (!names.length) return t("a player");
  return listWords(names);
}

/**
 * The notice for a request on this page's own seat: `{ kind: "ask" | "waiting", text }`.
 * "ask": someone wants the seat (the holder approves when it is them); "waiting": others
 * approved and the seat moves at `effective_at` unless the holder refuses.
 */
export function holderNotice(request, nameOf, { timeZone } = {}) {
  if ((request.status ?? "pending") === "waiting") {
    const at = hourWords(request.effective_at, timeZone);
    const who = approverNames(request, nameOf);
    const text = at
      ? t("{who} approved moving your seat to another device; it moves at {at}. Refuse if this was not you.", { who, at })
      : t("{who} approved moving your seat to another device; it moves soon. Refuse if this was not you.", { who });
    return { kind: "waiting", text };
  }
  return { kind: "ask", text: t("Someone asks for your seat from another device. Is it you?") };
}

/** A request on someone else's seat, as the other players read it. */
export function requestWords(request, nameOf, mySeat, { timeZone } = {}) {
  const holder = nameOf(request.seat);
  if ((request.status ?? "pending") === "waiting") {
    const at = hourWords(request.effective_at, timeZone);
    const who = approverNames(request, nameOf, mySeat);
    return at
      ? t("{who} approved moving {holder}'s seat to another device; it moves at {at} unless {holder} refuses.", { who, holder, at })
      : t("{who} approved moving {holder}'s seat to another device; it moves unless {holder} refuses.", { who, holder });
  }
  const approvals = request.approvals || [];
  if (mySeat !== null && mySeat !== undefined && approvals.includes(mySeat)) {
    return t("Someone asks for {holder}'s seat. You approved; more players must approve too.", { holder });
  }
  if (approvals.length) return t("Someone asks for {holder}'s seat; {who} approved.", { holder, who: approverNames(request, nameOf) });
  return t("Someone asks for {holder}'s seat.", { holder });
}

/**
 * What the asker's page says about its request: `{ text, done, again }`. `status` is the
 * request's status ("pending", "waiting", "approved", "refused", "expired"); `request` the
 * asker's record ({ name, seat, effective_at? }); `listed` the room body's entry for it, if any
 * (its approvals name who approved).
 */
export function askerWords(status, request, { listed = null, nameOf = () => "", timeZone } = {}) {
  const name = request.name || nameOf(request.seat) || t("this player");
  switch (status) {
    case "waiting": {
      const effective = listed?.effective_at ?? request.effective_at;
      const at = hourWords(effective, timeZone);
      const who = listed?.approvals?.length ? approverNames(listed, nameOf) : null;
      let text;
      if (who && at) text = t("Approved by {who}: the seat moves to you at {at} unless {name} refuses.", { who, at, name });
      else if (who) text = t("Approved by {who}: the seat moves to you soon unless {name} refuses.", { who, name });
      else if (at) text = t("Approved: the seat moves to you at {at} unless {name} refuses.", { at, name });
      else text = t("Approved: the seat moves to you soon unless {name} refuses.", { name });
      return { text, done: false, again: false };
    }
    case "approved":
      return { text: t("Approved: you play as {name} now.", { name }), done: true, again: false };
    case "refused":
      return { text: t("Your request for {name}'s seat was refused.", { name }), done: true, again: true };
    case "expired":
      return { text: t("Nobody answered your request for {name}'s seat in time.", { name }), done: true, again: true };
    default:
      return { text: t("Asked for {name}'s seat: waiting for {name} (or the table) to approve.", { name }), done: false, again: false };
  }
}
