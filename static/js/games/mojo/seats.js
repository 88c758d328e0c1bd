// Mojo's other seats: name, hand size as card backs, the Mojo card, Mojo Time's face-down and
// revealed cards, and at the end every card each one held.

import { fill, h } from "../../dom.js";
import { cardBack, cardFace } from "./cards.js";
import { t, tn } from "../../i18n.js";
import { cardWords } from "./words.js";

/** The seats into `node`. `table`: { ctx, kit }. */
export function renderSeats(node, table, view, state) {
  const { ctx, kit } = table;
  const others = kit.others(view.seats.map((s) => s.seat));
  const freshSeats = new Set(state._freshSeats || []);
  node.dataset.direction = view.direction;
  fill(node,
    ...others.map((seat) => {
      const info = view.seats[seat];
      const current = view.current === seat;
      // At the game's end every card is shown, face-down ones too, and Mojo Time is over.
      const over = Boolean(state.result);
      const held = over && view.last_round ? view.last_round.counted[seat] || [] : null;
      const backs = Math.min(info.hand_count, 10);
      const inHand = tn("{num} card in hand", "{num} cards in hand", info.hand_count);
      const faceDown = info.face_down_count ? tn("{num} face down", "{num} face down", info.face_down_count) : "";
      const said = { name: ctx.seatName(seat), cards: inHand, down: faceDown };
      let named;
      if (faceDown) named = current ? t("{name}: {cards}, {down}, playing now", said) : t("{name}: {cards}, {down}", said);
      else named = current ? t("{name}: {cards}, playing now", said) : t("{name}: {cards}", said);
      const heldWords = held?.length
        ? t("{name} held {cards}", { name: ctx.seatName(seat), cards: held.map(cardWords).join(", ") })
        : t("{name} held no cards", { name: ctx.seatName(seat) });
      return h(
        "div",
        {
          class: `seat-panel${current ? " is-current" : ""}${freshSeats.has(seat) ? " is-acting" : ""}${info.mojo_time && !over ? " is-mojo-time" : ""}`,
          role: "listitem",
          "data-seat": seat,
          "aria-label": named,
        },
        h(
          "div",
          { class: "seat-head" },
          kit.avatar(seat),
          h("span", { class: "seat-title", title: ctx.seatName(seat) }, ctx.seatName(seat)),
          current ? h("span", { class: "turn-flag" }, t("playing")) : null,
          view.mojo?.holder === seat ? h("span", { class: "chip chip-mojo", title: t("Holds the Mojo card") }, "Mojo") : null,
        ),
        h(
          "div",
          { class: "seat-cards" },
          h(
            "div",
            { class: "mini-hand", "aria-hidden": "true" },
            Array.from({ length: backs }, () => h("span", { class: "mini-back" })),
          ),
          h("span", { class: "count" }, `${info.hand_count}`, h("small", {}, " ", tn("card", "cards", info.hand_count))),
        ),
        held
          ? h(
              "div",
              { class: "seat-held", "aria-label": heldWords },
              held.map((card) => cardFace(card, { size: "tiny" })),
            )
          : null,
        info.mojo_time && !over
          ? h(
              "div",
              { class: "seat-mojo-time" },
              h("span", { class: "chip chip-time" }, t("Mojo Time")),
              Array.from({ length: info.face_down_count }, () => cardBack("card-tiny")),
              info.revealed.map((card) => cardFace(card, { size: "tiny" })),
            )
          : null,
      );
    }),
  );
}
