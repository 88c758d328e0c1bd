// Moby Trick's trick: the cards played (a winner's rewards as buttons), the led family, the trick
// that just ended, and the "Who leads the next trick?" choice after a first 5.

import { fill, h } from "../../dom.js";
import { t } from "../../i18n.js";
import { cardFace, familyChip } from "./cards.js";
import { cardLabel, lastTrickFrom, pearlWords, trickNote, trickOrder } from "./words.js";

/** table: the table's helpers { kit, seatName(seat), me(), name(seat), actionAttrs(action, key) }. */
export function renderTrick(el, table, view, legal, events, fresh) {
  const freshPlays = new Set(fresh.filter((e) => e.type === "play").map((e) => `${e.seat}:${e.family}:${e.value}`));
  const rewarding = view.phase === "reward";
  // Empty places only make sense while a trick is being played; between tricks they would be noise.
  const seatsShown = view.trick.length || view.phase === "play" ? trickOrder(view) : [];
  const slots = seatsShown.map((seat) => {
    const played = view.trick.find((p) => p.seat === seat);
    const card = played?.card;
    const reward = card ? legal.reward.get(card.id) : null;
    const isWinner = rewarding && view.turn === seat;
    const landing = card && freshPlays.has(`${seat}:${card.family}:${card.value}`);
    let face;
    if (!card) {
      face = h("div", { class: `card card-empty${view.turn === seat && view.phase === "play" ? " is-next" : ""}`, "aria-hidden": "true" });
    } else if (reward) {
      face = cardFace(card, {
        tag: "button",
        extraClass: `is-legal is-reward${landing ? " is-landing" : ""}`,
        attrs: {
          ...table.actionAttrs(reward, `reward-${card.id}`),
          "aria-label": t("Take {pearls}: {name}'s {card}", { pearls: pearlWords(card.pearls), name: table.seatName(seat), card: cardLabel(card) }),
        },
      });
    } else {
      face = cardFace(card, { extraClass: landing ? "is-landing" : "" });
    }
    return h(
      "div",
      { class: `trick-slot${isWinner ? " is-winner" : ""}${card ? "" : " is-open"}`, "data-seat": seat },
      face,
      h(
        "span",
        { class: "slot-name" },
        isWinner ? h("span", { class: "crown", "aria-hidden": "true" }, "♛ ") : null,
        seat === table.me() ? t("You") : table.seatName(seat),
      ),
      reward ? h("span", { class: "take-label" }, t("Take"), " ", h("span", { class: "pearl" }), ` ${card.pearls}`) : null,
    );
  });
  const led = view.led_family;
  const lastTrick = !view.trick.length ? lastTrickFrom(events) : null;
  fill(
    el,
    h(
      "div",
      { class: "trick-head" },
      h("span", { class: "compass-label" }, view.trick.length || view.phase === "play" ? t("Trick {number}", { number: view.trick_number || 1 }) : t("Trick")),
      led ? h("span", { class: "led" }, t("Follow"), " ", familyChip(led)) : view.trick.length ? h("span", { class: "led" }, t("A 5 leads: the next whale sets the family")) : null,
    ),
    h(
      "div",
      { class: "trick-row", role: "group", "aria-label": rewarding && legal.reward.size ? t("Choose your reward") : t("Cards in the trick") },
      slots.length ? slots : h("p", { class: "trick-note" }, trickNote(view, table.me(), table.seatName)),
    ),
    lastTrick ? renderLastTrick(table, lastTrick, fresh) : null,
  );
}

function renderLastTrick(table, last, fresh) {
  const just = fresh.some((e) => e.seq === last.taken.seq);
  const winner = table.name(last.taken.winner);
  const pearls = pearlWords(last.taken.points);
  const took = winner === t("You") ? t("You took {pearls}", { pearls }) : t("{name} took {pearls}", { name: winner, pearls });
  return h(
    "div",
    { class: `last-trick${just ? " is-just-taken" : ""}` },
    h("span", { class: "mini-label" }, t("Last trick")),
    h(
      "span",
      { class: "last-cards" },
      last.plays.map((play) =>
        h(
          "span",
          {
            class: `last-card${play.seat === last.taken.owner && play.family === last.taken.family && play.value === last.taken.value ? " is-taken" : ""}`,
          },
          cardFace({ family: play.family, value: play.value }, { size: "tiny" }),
          h("small", {}, table.name(play.seat)),
        ),
      ),
    ),
    h("span", { class: "last-words" }, took),
  );
}

/** "Who leads the next trick?": shown only while this seat may choose. */
export function renderChoice(el, table, legal) {
  if (!legal.choose_leader.size) {
    el.hidden = true;
    el.replaceChildren();
    return;
  }
  el.hidden = false;
  fill(
    el,
    h("h2", { class: "choice-title" }, t("Who leads the next trick?")),
    h(
      "div",
      { class: "button-row" },
      [...legal.choose_leader.entries()].map(([seat, action]) =>
        h(
          "button",
          {
            class: "button leader-button",
            type: "button",
            ...table.actionAttrs(action, `leader-${seat}`),
            "aria-label": seat === table.me()
              ? t("{name} (you) lead the next trick", { name: table.seatName(seat) })
              : t("{name} leads the next trick", { name: table.seatName(seat) }),
          },
          table.kit.avatar(seat),
          seat === table.me() ? t("{name} (you)", { name: table.seatName(seat) }) : table.seatName(seat),
        ),
      ),
    ),
  );
}
