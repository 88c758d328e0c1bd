// Moby Trick's own seat: the head with this round's pearls and points, the bonuses (a set-aside
// card waiting to be shown, usable ones as buttons) and the hand by family.

import { fill, h } from "../../dom.js";
import { cardFace } from "./cards.js";
import { bonusWords, cardLabel, familyClass, familyPlural, handGroups, pearlWords, symbolOf } from "./words.js";

/** The seat's head: name, turn flag, pearls and points this round. */
function pearlsHead(t, view, mine, myTurn) {
  const info = view.seats[mine];
  return h(
    "div",
    { class: "mine-head" },
    t.kit.avatar(mine),
    h("span", { class: "seat-title", title: `${t.seatName(mine)} (you)` }, `${t.seatName(mine)} (you)`),
    myTurn ? h("span", { class: "turn-flag is-you" }, view.phase === "set_aside" ? "choose a bonus" : "your turn") : null,
    h(
      "span",
      { class: "pearl-count mine-pearls", title: "Pearls this round" },
      h("span", { class: "pearl" }),
      ` ${pearlWords(info.pearl_count)}`,
      h("small", {}, ` · ${info.round_points} point${info.round_points === 1 ? "" : "s"} this round`),
    ),
  );
}

/** The seat's bonuses: the first bonus set aside (until all have chosen), then each kept card. */
function bonusesRow(t, view, legal, mine) {
  const bonusCards = [...view.seats[mine].bonuses];
  const pending = view.set_aside;
  return h(
    "div",
    { class: "my-bonuses", role: "group", "aria-label": "Your bonuses" },
    h("span", { class: "row-label" }, "Bonuses"),
    !bonusCards.length && !pending ? h("span", { class: "muted-note" }, "None yet. Cards of yours that win someone pearls come back to you as bonuses.") : null,
    pending
      ? h(
          "div",
          { class: "bonus-item is-pending" },
          cardFace(pending, { size: "small" }),
          h("span", { class: "bonus-words" }, bonusWords(pending.bonus), h("small", {}, "shown when all have chosen")),
        )
      : null,
    bonusCards.map((card) => {
      const use = legal.use_bonus.get(card.id);
      return h(
        "div",
        { class: `bonus-item${use ? " is-usable" : ""}` },
        cardFace(card, { size: "small", extraClass: use ? "is-lit" : "" }),
        use
          ? h(
              "button",
              { class: "button button-small use-button", type: "button", ...t.actionAttrs(use, `use-${card.id}`), "aria-label": `Use: ${bonusWords(card.bonus)} (the bonus of your ${cardLabel(card)})` },
              `Use: ${bonusWords(card.bonus)}`,
            )
          : h(
              "span",
              { class: "bonus-words" },
              bonusWords(card.bonus),
              card.bonus?.kind === "trump" && card.bonus.family === view.trump ? h("small", {}, "already trump") : null,
            ),
      );
    }),
  );
}

/** The hand by family, each card a button (disabled when it cannot be played now): a list named
 * "Your hand" whose items are the families, each saying how many cards it holds. */
function handRow(t, view, legal, dealt) {
  const groups = handGroups(view.hand).map(([family, cards]) =>
    h(
      "div",
      { class: `family-group ${familyClass(family)}${family === view.trump ? " is-trump" : ""}`, role: "listitem", "aria-label": `${family ? familyPlural(family) : "fives"}${family === view.trump ? " (trump)" : ""}: ${cards.length} card${cards.length === 1 ? "" : "s"}` },
      h(
        "span",
        { class: "group-label" },
        h("span", { class: "chip-symbol", "aria-hidden": "true" }, symbolOf(family)),
        h("span", { class: "group-name" }, family ? familyPlural(family) : "5s (any family)"),
        family === view.trump ? h("span", { class: "trump-tag" }, "trump") : null,
      ),
      h(
        "div",
        { class: "group-cards" },
        cards.map((card) => {
          const action = legal.set_aside.get(card.id) || legal.play.get(card.id);
          const named = action?.type === "set_aside" ? `Set aside ${cardLabel(card)} as your first bonus` : `Play ${cardLabel(card)}`;
          return cardFace(card, {
            tag: "button",
            extraClass: `${action ? "is-legal" : ""}${dealt ? " is-dealt" : ""}`,
            attrs: action
              ? { ...t.actionAttrs(action, `hand-${card.id}`), "aria-label": named }
              : { disabled: true, "data-key": `hand-${card.id}`, "aria-label": `${cardLabel(card)} (not playable now)` },
          });
        }),
      ),
    ),
  );
  return h(
    "div",
    { class: `hand moby-hand${groups.length ? "" : " is-empty"}`, id: "hand", role: "list", "aria-label": "Your hand" },
    groups.length ? groups : h("p", { class: "muted-note", role: "listitem" }, "No cards in hand."),
  );
}

/** t: the table's helpers { kit, seatName(seat), me(), name(seat), actionAttrs(action, key) }. */
export function renderMine(el, t, view, state, legal, dealt) {
  const mine = t.me();
  if (mine === null || mine === undefined) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const myTurn = t.kit.myTurn(state);
  el.classList.toggle("is-current", myTurn);
  fill(el, pearlsHead(t, view, mine, myTurn), bonusesRow(t, view, legal, mine), handRow(t, view, legal, dealt));
}
