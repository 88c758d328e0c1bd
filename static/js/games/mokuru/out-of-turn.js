// Moves out of turn (Steal a Trick, Immunity): the short hold on the due player's moves while
// someone else here may act, and the buttons named after the player they belong to.

import { h } from "../../dom.js";
import { lang, t } from "../../i18n.js";
import { HOLD_MS, actionLabel, actionName, peopleOutOfTurn } from "./words.js";

/** `createHold(parts)` → { holdingFor(state, view), until() }. `parts`: { ctx, kit, room(), redraw() }.
 * holdingFor gives the people who may act out of turn at this version while the due player's
 * moves wait, or [] once HOLD_MS have passed since this page first saw the window. */
export function createHold(parts) {
  const { ctx, kit } = parts;
  // The hold on the due player's moves: { version, until, timer }.
  let hold = { version: null, until: 0, timer: null };
  return {
    until: () => hold.until,
    holdingFor(state, view) {
      const others = peopleOutOfTurn(view, parts.room(), ctx.mySeat);
      if (!others.length || !kit.myTurn(state)) return [];
      if (hold.version !== state.version) {
        clearTimeout(hold.timer);
        hold = { version: state.version, until: Date.now() + HOLD_MS, timer: null };
      }
      const left = hold.until - Date.now();
      if (left <= 0) return [];
      clearTimeout(hold.timer);
      hold.timer = setTimeout(() => parts.redraw(), Math.min(left, 1000));
      return others;
    },
  };
}

/** An out-of-turn button named after its player ("Bo: steal Blind Flip from Ann"). */
export function namedMove(words, player, view, action, send) {
  // English lowers the move's first letter after the name ("Bo: steal…"); a language whose nouns
  // are capitalised (German) keeps the move as its button says it.
  const move = actionLabel(view, action, words);
  const said = lang === "en" ? move.replace(/^./, (c) => c.toLowerCase()) : move;
  const label = action.type === "immunity" && view.pending ? t("use Immunity against {action}", { action: actionName(view.pending.action) }) : said;
  return h(
    "button",
    { class: `button mokuru-move mokuru-${action.type} mokuru-named`, type: "button", "data-action": action.type, "data-seat": player.seat, "data-key": JSON.stringify({ ...action, by: player.seat }), onclick: (event) => { event.currentTarget.disabled = true; send(action); } },
    t("{name}: {move}", { name: player.name, move: label }),
  );
}
