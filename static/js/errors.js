// A refused request in a player's words. The server's codes say what happened; these sentences
// say what it means for the person at the table. DOM-free, so it runs under `node --test`.

import { t } from "./i18n.js";

/** Codes that mean the table on screen is out of date: someone (or this player in another tab)
 * moved first. The page refreshes the table rather than offering the same move again. */
const MOVED_ON = new Set(["stale_version", "illegal_action", "not_your_turn"]);

/**
 * What to say about a move the server refused (or that never left): `{ text, refresh }`, where
 * `refresh` asks the page to fetch the table again.
 */
export function moveProblem(error) {
  const code = error?.code;
  if (MOVED_ON.has(code)) {
    return {
      text: t("The game moved on before your move arrived (perhaps it was played in another tab). The table is up to date again: have a look and play from there."),
      refresh: true,
    };
  }
  if (code === "game_over") return { text: t("This game is already over."), refresh: true };
  if (code === "not_started") return { text: t("The game has not started yet."), refresh: true };
  if (code === "offline") {
    return { text: t("Your move was not sent: the connection is down. It comes back by itself; try again then."), refresh: false };
  }
  if (code === "unauthorized" || code === "forbidden") {
    return { text: t("This browser's seat is not recognised here. Reload the page to join again."), refresh: false };
  }
  if (code === "rate_limited") return { text: t("That was a lot of clicks at once. Wait a moment and try again."), refresh: false };
  if (code === "malformed_action") return { text: t("That move could not be read. Reload the page and try again."), refresh: true };
  const message = error?.message || String(error || "");
  return { text: message || t("Something went wrong. Try again."), refresh: false };
}
