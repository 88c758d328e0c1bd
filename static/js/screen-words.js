// Whose turn it is, in words, for the table screen and the phones' hand view (DOM-free, tested by
// tests/js/screen-words.test.mjs).

import { t, tp } from "./i18n.js";
import { listWords } from "./words.js";

/** The turn line: `{ seat, text }`, `seat` the one seat the game waits for (null when it waits for
 * several, for none, or is over). `mySeat` is the reader's own seat on a phone ("Your turn"). */
export function screenTurn(state, room, seatName, mySeat = null) {
  if (!state || state.status === "waiting") return { seat: null, text: t("Waiting for players") };
  if (state.result) return { seat: null, text: t("Game over") };
  const waiting = state.to_act || [];
  if (!waiting.length) return { seat: null, text: "…" };
  if (waiting.length === 1) {
    const seat = waiting[0];
    return { seat, text: seat === mySeat ? t("Your turn") : t("{name}'s turn", { name: seatName(seat) }) };
  }
  // Translators: "you" in a list of the players the game waits for ("Waiting for Bo and you").
  const names = waiting.map((seat) => (seat === mySeat ? tp("waiting for", "you") : seatName(seat)));
  return { seat: null, text: t("Waiting for {names}", { names: listWords(names) }) };
}

/** Whether the page offers the hand view ("Hand only" / "Show table"): a table screen is open, the
 * match is on, and the device is a phone or came from the screen's QR code (a laptop far from the
 * table is not offered it). */
export function handOffered({ room, state, seat, narrow = false, fromScreen = false }) {
  if (!room?.screen || seat === null || seat === undefined) return false;
  // The seat's own state says whether the match is on: a room body fetched a moment before the
  // start may still say "waiting" after the state moved on.
  if (!state || state.status === "waiting") return false;
  return Boolean(narrow || fromScreen);
}

/** Whether a seat shows only its hand: a table screen is open and the player chose it, or, unless
 * they chose the table, the device came from the screen's QR code, or it is a phone and the host
 * marked the screen as the table (`table_screen`: the players sit around it). A friend who plays
 * remotely keeps the whole table on a laptop, and on a phone taps "Show table" once. */
export function handView({ room, state, seat, narrow = false, fromScreen = false, choice = null }) {
  if (!handOffered({ room, state, seat, narrow, fromScreen })) return false;
  if (choice === "hand") return true;
  if (choice === "table") return false;
  return Boolean(fromScreen || (room.table_screen && narrow));
}
