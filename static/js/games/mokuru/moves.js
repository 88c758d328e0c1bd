// Mokuru's move buttons: one per legal action, named by what it does ("Landed it", "Confirm Ann's
// success"), and the possessed player's Darkness chooser.

import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { actionLabel, cardTitle, categoryName } from "./words.js";

/** One move button. `parts`: { kit, words } (words: what actionLabel names players with). */
export function moveButton(parts, view, action, big = false) {
  const { kit } = parts;
  const kind = action.type === "report" ? `report-${action.outcome}` : action.type === "witness" ? `witness-${action.verdict}` : action.type;
  return h(
    "button",
    {
      class: `button mokuru-move mokuru-${kind}${big ? " mokuru-big" : ""}`,
      type: "button",
      "data-action": kind,
      "data-key": JSON.stringify(action),
      onclick: () => kit.send(action),
    },
    actionLabel(view, action, parts.words),
  );
}

/** The possessed player's chooser: the deck's tricks by category, hardest categories last. With
 * no move to make (a replay, or a pause) the deck the player looked through is shown as names. */
export function darknessChooser(parts, view, actions) {
  const deck = new Map((view.darkness_deck || []).map((c) => [c.id, c]));
  const groups = new Map();
  const items = actions.length ? actions.map((a) => ({ card: a.card, node: () => moveButton(parts, view, a) })) : [...deck.values()].map((c) => ({ card: c.id, node: () => h("span", { class: "mokuru-chip" }, cardTitle(c)) }));
  for (const item of items) {
    const category = deck.get(item.card)?.category || "Other";
    if (!groups.has(category)) groups.set(category, []);
    groups.get(category).push(item);
  }
  const order = ["Basic", "Advanced", "Battle", "Challenge", "Other"];
  const other = t("Other");
  const heading = (c) => t("{category} ({num})", { category: c === "Other" ? other : categoryName(c), num: groups.get(c).length });
  return h(
    "div",
    { class: "mokuru-darkness-chooser" },
    h("p", { class: "mokuru-dark", "data-role": "prompt" }, actions.length ? t("Pick the trick every other player must perform on their next turn.") : t("The tricks deck, looked through to pick the trick every other player must perform:")),
    order
      .filter((c) => groups.has(c))
      .map((c) => h("section", { class: "mokuru-dark-group" }, h("h3", {}, heading(c)), h("div", { class: "mokuru-dark-moves" }, groups.get(c).map((item) => item.node())))),
  );
}
