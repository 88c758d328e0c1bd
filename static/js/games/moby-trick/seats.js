// Moby Trick's other players (hand size, pearls, bonuses, known voids) and the compass: trump,
// the value token and the round line.

import { fill, h } from "../../dom.js";
import { listWords } from "../../words.js";
import { cardFace } from "./cards.js";
import { familyClass, familyPlural, pearlWords, symbolOf, tokenWords } from "./words.js";

/** t: the table's helpers { kit, seatName(seat), me(), name(seat), actionAttrs(action, key) }. */
export function renderSeats(el, t, view, state, freshSeats) {
  const others = t.kit.others(view.seats.map((s) => s.seat));
  fill(
    el,
    others.map((seat) => {
      const info = view.seats[seat];
      const acting = (state.to_act || []).includes(seat);
      const choosing = view.phase === "set_aside";
      const flag = acting ? (choosing ? "choosing" : view.phase === "reward" ? "taking" : view.phase === "lead" ? "naming" : "playing") : null;
      return h(
        "div",
        {
          class: `seat-panel moby-seat${acting && !choosing ? " is-current" : ""}${freshSeats.has(seat) ? " is-acting" : ""}`,
          role: "listitem",
          "data-seat": seat,
          "aria-label": `${t.seatName(seat)}: ${info.hand_count} cards in hand, ${pearlWords(info.pearl_count)}, ${info.bonuses.length} bonus${info.bonuses.length === 1 ? "" : "es"}${acting ? `, ${flag} now` : ""}`,
        },
        h(
          "div",
          { class: "seat-head" },
          t.kit.avatar(seat),
          h("span", { class: "seat-title", title: t.seatName(seat) }, t.seatName(seat)),
          flag ? h("span", { class: `turn-flag${choosing ? " is-quiet" : ""}` }, flag) : null,
          choosing && info.has_set_aside ? h("span", { class: "chip chip-ready" }, "bonus chosen") : null,
        ),
        h(
          "div",
          { class: "seat-cards" },
          h(
            "div",
            { class: "mini-hand", "aria-hidden": "true" },
            Array.from({ length: Math.min(info.hand_count, 9) }, () => h("span", { class: "mini-back" })),
          ),
          h("span", { class: "count" }, String(info.hand_count), h("small", {}, info.hand_count === 1 ? " card" : " cards")),
          h("span", { class: "pearl-count", title: "Pearls this round" }, h("span", { class: "pearl" }), ` ${info.pearl_count}`),
        ),
        info.bonuses.length
          ? h("div", { class: "seat-bonuses" }, h("span", { class: "mini-label" }, "Bonuses"), info.bonuses.map((card) => cardFace(card, { size: "tiny" })))
          : null,
        info.known_voids.length
          ? h("p", { class: "seat-voids" }, "Out of ", listWords(info.known_voids.map((f) => `${symbolOf(f)} ${familyPlural(f)}`)))
          : null,
      );
    }),
  );
}

export function renderCompass(el, view, fresh) {
  const changed = (kind) => fresh.some((e) => e.type === "bonus" && e.kind === kind) || fresh.some((e) => e.type === "round_start");
  fill(
    el,
    h(
      "div",
      { class: `trump ${familyClass(view.trump)}${changed("trump") ? " is-changed" : ""}`, id: "trump" },
      h("span", { class: "compass-label" }, "Trump"),
      h("span", { class: "trump-symbol", "aria-hidden": "true" }, symbolOf(view.trump)),
      h("span", { class: "trump-name" }, familyPlural(view.trump)),
    ),
    h(
      "div",
      { class: `token token-${view.token}${changed("flip") ? " is-changed" : ""}`, id: "token" },
      h("span", { class: "compass-label" }, "Token"),
      h("span", { class: "token-disc", "aria-hidden": "true" }, String(view.token)),
      h("span", { class: "token-words" }, view.token === 9 ? "highest wins" : "lowest wins"),
      h("span", { class: "sr-only" }, `Token side ${tokenWords(view.token)}`),
    ),
    h(
      "p",
      { class: "round-line" },
      `Round ${view.round}`,
      view.trick_number ? ` · trick ${Math.min(view.trick_number, view.tricks_per_round)} of ${view.tricks_per_round}` : "",
      ` · first to ${view.target} points`,
    ),
  );
}
