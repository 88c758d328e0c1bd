// Moby Trick's other players (hand size, pearls, bonuses, known voids) and the compass: trump,
// the value token and the round line.

import { fill, h } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { listWords } from "../../words.js";
import { cardFace } from "./cards.js";
import { familyClass, familyPlural, pearlWords, symbolOf, tokenWords } from "./words.js";

/** table: the table's helpers { kit, seatName(seat), me(), name(seat), actionAttrs(action, key) }. */
export function renderSeats(el, table, view, state, freshSeats) {
  const others = table.kit.others(view.seats.map((s) => s.seat));
  fill(
    el,
    others.map((seat) => {
      const info = view.seats[seat];
      const acting = (state.to_act || []).includes(seat);
      const choosing = view.phase === "set_aside";
      let flag = null;
      if (acting) {
        if (choosing) flag = t("choosing");
        else if (view.phase === "reward") flag = t("taking");
        else if (view.phase === "lead") flag = t("naming");
        else flag = t("playing");
      }
      const said = {
        name: table.seatName(seat),
        cards: tn("{num} card in hand", "{num} cards in hand", info.hand_count),
        pearls: pearlWords(info.pearl_count),
        bonuses: tn("{num} bonus", "{num} bonuses", info.bonuses.length),
        flag,
      };
      const named = acting ? t("{name}: {cards}, {pearls}, {bonuses}, {flag} now", said) : t("{name}: {cards}, {pearls}, {bonuses}", said);
      return h(
        "div",
        {
          class: `seat-panel moby-seat${acting && !choosing ? " is-current" : ""}${freshSeats.has(seat) ? " is-acting" : ""}`,
          role: "listitem",
          "data-seat": seat,
          "aria-label": named,
        },
        h(
          "div",
          { class: "seat-head" },
          table.kit.avatar(seat),
          h("span", { class: "seat-title", title: table.seatName(seat) }, table.seatName(seat)),
          flag ? h("span", { class: `turn-flag${choosing ? " is-quiet" : ""}` }, flag) : null,
          choosing && info.has_set_aside ? h("span", { class: "chip chip-ready" }, t("bonus chosen")) : null,
        ),
        h(
          "div",
          { class: "seat-cards" },
          h(
            "div",
            { class: "mini-hand", "aria-hidden": "true" },
            Array.from({ length: Math.min(info.hand_count, 9) }, () => h("span", { class: "mini-back" })),
          ),
          h("span", { class: "count" }, String(info.hand_count), h("small", {}, " ", tn("card", "cards", info.hand_count))),
          h("span", { class: "pearl-count", title: t("Pearls this round") }, h("span", { class: "pearl" }), ` ${info.pearl_count}`),
        ),
        info.bonuses.length
          ? h("div", { class: "seat-bonuses" }, h("span", { class: "mini-label" }, t("Bonuses")), info.bonuses.map((card) => cardFace(card, { size: "tiny" })))
          : null,
        info.known_voids.length
          ? h("p", { class: "seat-voids" }, t("Out of {families}", { families: listWords(info.known_voids.map((f) => `${symbolOf(f)} ${familyPlural(f)}`)) }))
          : null,
      );
    }),
  );
}

export function renderCompass(el, view, fresh) {
  const round = t("Round {round}", { round: view.round });
  const trick = t("trick {number} of {count}", { number: Math.min(view.trick_number, view.tricks_per_round), count: view.tricks_per_round });
  const target = t("first to {target} points", { target: view.target });
  const changed = (kind) => fresh.some((e) => e.type === "bonus" && e.kind === kind) || fresh.some((e) => e.type === "round_start");
  fill(
    el,
    h(
      "div",
      { class: `trump ${familyClass(view.trump)}${changed("trump") ? " is-changed" : ""}`, id: "trump" },
      h("span", { class: "compass-label" }, t("Trump")),
      h("span", { class: "trump-symbol", "aria-hidden": "true" }, symbolOf(view.trump)),
      h("span", { class: "trump-name" }, familyPlural(view.trump)),
    ),
    h(
      "div",
      { class: `token token-${view.token}${changed("flip") ? " is-changed" : ""}`, id: "token" },
      h("span", { class: "compass-label" }, t("Token")),
      h("span", { class: "token-disc", "aria-hidden": "true" }, String(view.token)),
      h("span", { class: "token-words" }, view.token === 9 ? t("highest wins") : t("lowest wins")),
      h("span", { class: "sr-only" }, t("Token side {side}", { side: tokenWords(view.token) })),
    ),
    h(
      "p",
      { class: "round-line" },
      round,
      view.trick_number ? ` · ${trick}` : "",
      ` · ${target}`,
    ),
  );
}
