// Moby Trick's trick: the cards played (a winner's rewards as buttons), the led family, the trick
// that just ended, and the "Who leads the next trick?" choice after a first 5.

import { fill, h } from "../../dom.js";
import { cardFace, familyChip } from "./cards.js";
import { cardLabel, lastTrickFrom, pearlWords, trickNote, trickOrder } from "./words.js";

/** t: the table's helpers { kit, seatName(seat), me(), name(seat), actionAttrs(action, key) }. */
export function renderTrick(el, t, view, legal, events, fresh) {
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
          ...t.actionAttrs(reward, `reward-${card.id}`),
          "aria-label": `Take ${pearlWords(card.pearls)}: ${t.seatName(seat)}'s ${cardLabel(card)}`,
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
        seat === t.me() ? "You" : t.seatName(seat),
      ),
      reward ? h("span", { class: "take-label" }, "Take ", h("span", { class: "pearl" }), ` ${card.pearls}`) : null,
    );
  });
  const led = view.led_family;
  const lastTrick = !view.trick.length ? lastTrickFrom(events) : null;
  fill(
    el,
    h(
      "div",
      { class: "trick-head" },
      h("span", { class: "compass-label" }, view.trick.length || view.phase === "play" ? `Trick ${view.trick_number || 1}` : "Trick"),
      led ? h("span", { class: "led" }, "Follow ", familyChip(led)) : view.trick.length ? h("span", { class: "led" }, "A 5 leads: the next whale sets the family") : null,
    ),
    h(
      "div",
      { class: "trick-row", role: "group", "aria-label": rewarding && legal.reward.size ? "Choose your reward" : "Cards in the trick" },
      slots.length ? slots : h("p", { class: "trick-note" }, trickNote(view, t.me(), t.seatName)),
    ),
    lastTrick ? renderLastTrick(t, lastTrick, fresh) : null,
  );
}

function renderLastTrick(t, last, fresh) {
  const just = fresh.some((e) => e.seq === last.taken.seq);
  return h(
    "div",
    { class: `last-trick${just ? " is-just-taken" : ""}` },
    h("span", { class: "mini-label" }, "Last trick"),
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
          h("small", {}, t.name(play.seat)),
        ),
      ),
    ),
    h("span", { class: "last-words" }, `${t.name(last.taken.winner)} took ${pearlWords(last.taken.points)}`),
  );
}

/** "Who leads the next trick?": shown only while this seat may choose. */
export function renderChoice(el, t, legal) {
  if (!legal.choose_leader.size) {
    el.hidden = true;
    el.replaceChildren();
    return;
  }
  el.hidden = false;
  fill(
    el,
    h("h2", { class: "choice-title" }, "Who leads the next trick?"),
    h(
      "div",
      { class: "button-row" },
      [...legal.choose_leader.entries()].map(([seat, action]) =>
        h(
          "button",
          {
            class: "button leader-button",
            type: "button",
            ...t.actionAttrs(action, `leader-${seat}`),
            "aria-label": seat === t.me() ? `${t.seatName(seat)} (you) lead the next trick` : `${t.seatName(seat)} leads the next trick`,
          },
          t.kit.avatar(seat),
          seat === t.me() ? `${t.seatName(seat)} (you)` : t.seatName(seat),
        ),
      ),
    ),
  );
}
