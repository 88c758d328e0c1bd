// Mojo's other seats: name, hand size as card backs, the Mojo card, Mojo Time's face-down and
// revealed cards, and at the end every card each one held.

import { fill, h } from "../../dom.js";
import { cardBack, cardFace } from "./cards.js";
import { cardWords } from "./words.js";

/** The seats into `node`. `t`: { ctx, kit }. */
export function renderSeats(node, t, view, state) {
  const { ctx, kit } = t;
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
      return h(
        "div",
        {
          class: `seat-panel${current ? " is-current" : ""}${freshSeats.has(seat) ? " is-acting" : ""}${info.mojo_time && !over ? " is-mojo-time" : ""}`,
          role: "listitem",
          "data-seat": seat,
          "aria-label": `${ctx.seatName(seat)}: ${info.hand_count} cards in hand${info.face_down_count ? `, ${info.face_down_count} face down` : ""}${current ? ", playing now" : ""}`,
        },
        h(
          "div",
          { class: "seat-head" },
          kit.avatar(seat),
          h("span", { class: "seat-title", title: ctx.seatName(seat) }, ctx.seatName(seat)),
          current ? h("span", { class: "turn-flag" }, "playing") : null,
          view.mojo?.holder === seat ? h("span", { class: "chip chip-mojo", title: "Holds the Mojo card" }, "Mojo") : null,
        ),
        h(
          "div",
          { class: "seat-cards" },
          h(
            "div",
            { class: "mini-hand", "aria-hidden": "true" },
            Array.from({ length: backs }, () => h("span", { class: "mini-back" })),
          ),
          h("span", { class: "count" }, `${info.hand_count}`, h("small", {}, info.hand_count === 1 ? " card" : " cards")),
        ),
        held
          ? h(
              "div",
              { class: "seat-held", "aria-label": `${ctx.seatName(seat)} held ${held.map(cardWords).join(", ") || "no cards"}` },
              held.map((card) => cardFace(card, { size: "tiny" })),
            )
          : null,
        info.mojo_time && !over
          ? h(
              "div",
              { class: "seat-mojo-time" },
              h("span", { class: "chip chip-time" }, "Mojo Time"),
              Array.from({ length: info.face_down_count }, () => cardBack("card-tiny")),
              info.revealed.map((card) => cardFace(card, { size: "tiny" })),
            )
          : null,
      );
    }),
  );
}
