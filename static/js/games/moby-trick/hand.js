// Moby Trick's own seat: the head with this round's pearls and points, the bonuses (a set-aside
// card waiting to be shown, usable ones as buttons) and the hand by family.

import { fill, h } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { cardFace } from "./cards.js";
import { bonusWords, cardLabel, familyClass, familyPlural, handGroups, pearlWords, symbolOf } from "./words.js";

/** The seat's head: name, turn flag, pearls and points this round. */
function pearlsHead(table, view, mine, myTurn) {
  const info = view.seats[mine];
  const you = t("{name} (you)", { name: table.seatName(mine) });
  return h(
    "div",
    { class: "mine-head" },
    table.kit.avatar(mine),
    h("span", { class: "seat-title", title: you }, you),
    myTurn ? h("span", { class: "turn-flag is-you" }, view.phase === "set_aside" ? t("choose a bonus") : t("your turn")) : null,
    h(
      "span",
      { class: "pearl-count mine-pearls", title: t("Pearls this round") },
      h("span", { class: "pearl" }),
      ` ${pearlWords(info.pearl_count)}`,
      h("small", {}, " · ", tn("{num} point this round", "{num} points this round", info.round_points)),
    ),
  );
}

/** The seat's bonuses: the first bonus set aside (until all have chosen), then each kept card. */
function bonusesRow(table, view, legal, mine) {
  const bonusCards = [...view.seats[mine].bonuses];
  const pending = view.set_aside;
  return h(
    "div",
    { class: "my-bonuses", role: "group", "aria-label": t("Your bonuses") },
    h("span", { class: "row-label" }, t("Bonuses")),
    !bonusCards.length && !pending ? h("span", { class: "muted-note" }, t("None yet. Cards of yours that win someone pearls come back to you as bonuses.")) : null,
    pending
      ? h(
          "div",
          { class: "bonus-item is-pending" },
          cardFace(pending, { size: "small" }),
          h("span", { class: "bonus-words" }, bonusWords(pending.bonus), h("small", {}, t("shown when all have chosen"))),
        )
      : null,
    bonusCards.map((card) => {
      const use = legal.use_bonus.get(card.id);
      const bonus = bonusWords(card.bonus);
      return h(
        "div",
        { class: `bonus-item${use ? " is-usable" : ""}` },
        cardFace(card, { size: "small", extraClass: use ? "is-lit" : "" }),
        use
          ? h(
              "button",
              { class: "button button-small use-button", type: "button", ...table.actionAttrs(use, `use-${card.id}`), "aria-label": t("Use: {bonus} (the bonus of your {card})", { bonus, card: cardLabel(card) }) },
              t("Use: {bonus}", { bonus }),
            )
          : h(
              "span",
              { class: "bonus-words" },
              bonusWords(card.bonus),
              card.bonus?.kind === "trump" && card.bonus.family === view.trump ? h("small", {}, t("already trump")) : null,
            ),
      );
    }),
  );
}

/** The hand by family, each card a button (disabled when it cannot be played now): a list named
 * "Your hand" whose items are the families, each saying how many cards it holds. */
function handRow(table, view, legal, dealt) {
  const groups = handGroups(view.hand).map(([family, cards]) => {
    const trump = family === view.trump;
    const said = { families: family ? familyPlural(family) : t("fives"), cards: tn("{num} card", "{num} cards", cards.length) };
    const named = trump ? t("{families} (trump): {cards}", said) : t("{families}: {cards}", said);
    return h(
      "div",
      { class: `family-group ${familyClass(family)}${trump ? " is-trump" : ""}`, role: "listitem", "aria-label": named },
      h(
        "span",
        { class: "group-label" },
        h("span", { class: "chip-symbol", "aria-hidden": "true" }, symbolOf(family)),
        h("span", { class: "group-name" }, family ? familyPlural(family) : t("5s (any family)")),
        trump ? h("span", { class: "trump-tag" }, t("trump")) : null,
      ),
      h(
        "div",
        { class: "group-cards" },
        cards.map((card) => {
          const action = legal.set_aside.get(card.id) || legal.play.get(card.id);
          const label = cardLabel(card);
          const named = action?.type === "set_aside" ? t("Set aside {card} as your first bonus", { card: label }) : t("Play {card}", { card: label });
          return cardFace(card, {
            tag: "button",
            extraClass: `${action ? "is-legal" : ""}${dealt ? " is-dealt" : ""}`,
            attrs: action
              ? { ...table.actionAttrs(action, `hand-${card.id}`), "aria-label": named }
              : { disabled: true, "data-key": `hand-${card.id}`, "aria-label": t("{card} (not playable now)", { card: label }) },
          });
        }),
      ),
    );
  });
  return h(
    "div",
    { class: `hand moby-hand${groups.length ? "" : " is-empty"}`, id: "hand", role: "list", "aria-label": t("Your hand") },
    groups.length ? groups : h("p", { class: "muted-note", role: "listitem" }, t("No cards in hand.")),
  );
}

/** table: the table's helpers { kit, seatName(seat), me(), name(seat), actionAttrs(action, key) }. */
export function renderMine(el, table, view, state, legal, dealt) {
  const mine = table.me();
  if (mine === null || mine === undefined) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const myTurn = table.kit.myTurn(state);
  el.classList.toggle("is-current", myTurn);
  fill(el, pearlsHead(table, view, mine, myTurn), bonusesRow(table, view, legal, mine), handRow(table, view, legal, dealt));
}
