// The people parts of the room page that need no DOM: initials by grapheme, presence and
// countdown words, the seat link's fragment, chat muting and when to notify. Tested under
// `node --test` (tests/js/people-kit.test.mjs).

/** The move clocks a room offers (seconds, or null for none) and their words. */
export const CLOCKS = [
  [null, "No clock"],
  [60, "1 minute a move"],
  [180, "3 minutes a move"],
  [3600, "1 hour a move"],
  [86400, "1 day a move"],
];

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
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, "0")} min`;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}

/** How long someone has been away, in words: "away" under a minute, then "gone 3 min", "gone 2 h". */
export function presenceWords(seat, now = Date.now()) {
  if (seat.bot) return { kind: "bot", words: "bot" };
  if (seat.stand_in) return { kind: "stand-in", words: "bot playing" };
  if (seat.connected || !seat.away_since) return { kind: "here", words: "here" };
  const minutes = Math.floor((now - Date.parse(seat.away_since)) / 60000);
  if (minutes < 1) return { kind: "away", words: "away" };
  if (minutes < 60) return { kind: "gone", words: `gone ${minutes} min` };
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return { kind: "gone", words: `gone ${hours} h` };
  return { kind: "gone", words: `gone ${Math.floor(hours / 24)} days` };
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

/** Chat messages minus the muted seats' (a muted player is muted only in this browser). */
export function visibleMessages(messages, muted) {
  const silenced = new Set(muted || []);
  return messages.filter((m) => m.seat === null || m.seat === undefined || !silenced.has(m.seat));
}

/** Append a message unless already held (by id); keeps the newest `limit`. */
export function addMessage(messages, message, limit = 100) {
  if (messages.some((m) => m.id === message.id)) return messages;
  return [...messages, message].slice(-limit);
}

/** Notify only on a new turn, with permission, while the page is hidden and the player opted in. */
export function shouldNotify({ myTurn, wasMyTurn, hidden, permission, optedIn }) {
  return Boolean(myTurn && !wasMyTurn && hidden && optedIn && permission === "granted");
}
