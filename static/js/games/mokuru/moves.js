// Mokuru's move buttons: one per legal action, named by what it does ("Landed it", "Confirm Ann's
// success"), and the possessed player's Darkness chooser.

import { h } from "../../dom.js";
import { actionLabel } from "./words.js";

/** One move button. `t`: { kit, words } (words: what actionLabel names players with). */
export function moveButton(t, view, action, big = false) {
  const { kit } = t;
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
    actionLabel(view, action, t.words),
  );
}

/** The possessed player's chooser: the deck's tricks by category, hardest categories last. */
export function darknessChooser(t, view, actions) {
  const deck = new Map((view.darkness_deck || []).map((c) => [c.id, c]));
  const groups = new Map();
  for (const action of actions) {
    const category = deck.get(action.card)?.category || "Other";
    if (!groups.has(category)) groups.set(category, []);
    groups.get(category).push(action);
  }
  const order = ["Basic", "Advanced", "Battle", "Challenge", "Other"];
  return h(
    "div",
    { class: "mokuru-darkness-chooser" },
    h("p", { class: "mokuru-dark" }, "Pick the trick every other player must perform on their next turn."),
    order
      .filter((c) => groups.has(c))
      .map((c) => h("section", { class: "mokuru-dark-group" }, h("h3", {}, `${c} (${groups.get(c).length})`), h("div", { class: "mokuru-dark-moves" }, groups.get(c).map((a) => moveButton(t, view, a))))),
  );
}
