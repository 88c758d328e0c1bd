// The end of a Mooki Island game as a sorting ceremony: Mookies per family, the trophies, the
// Spider's theft (with the give-up buttons for the player who must choose), the winner and the
// poster. Drawn again only when the end or the legal moves change, so the ceremony plays once.

import { fill, h } from "../../dom.js";
import { card, withVars } from "./cards.js";
import { poster } from "./poster.js";
import { NAMES, SYMBOL } from "./words.js";

/** `createTrophies(node, t)` → render(view, state). `t`: { ctx, send, name }. */
export function createTrophies(node, t) {
  const { ctx, send, name } = t;
  let shownEnd = null;
  return function renderEnd(view, state) {
    const end = view.end;
    if (!end) {
      node.hidden = true;
      shownEnd = null;
      return;
    }
    const key = JSON.stringify([end, state.legal_actions]);
    if (shownEnd === key) return;
    const first = shownEnd === null;
    shownEnd = key;
    node.hidden = false;
    node.classList.toggle("is-ceremony", first);
    const returns = (state.legal_actions || []).filter((a) => a.type === "return");
    const seats = end.sorted.map((side) => side.seat);
    const stars = view.trophy_stars;
    fill(
      node,
      h("h2", {}, "Sorting the collections"),
      h(
        "table",
        { class: "mooki-sorting" },
        h("caption", { class: "sr-only" }, "Mookies per family (a Legendary counts for 2)"),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Family"), seats.map((seat) => h("th", { scope: "col" }, ctx.seatName(seat))), h("th", { scope: "col" }, "Trophy"))),
        h(
          "tbody",
          {},
          end.trophies.map((t, i) => {
            const taken = end.spider.returned === t.family;
            const winner = t.awarded;
            return withVars(h(
              "tr",
              { class: `f-${t.family}` },
              h("th", { scope: "row" }, h("span", { class: "mooki-badge", "aria-hidden": "true" }, SYMBOL[t.family]), ` ${NAMES[t.family]}`),
              t.counts.map((n, seat) => h("td", { class: winner === seat ? "is-most" : null }, String(n))),
              h(
                "td",
                { class: `mooki-trophy${taken ? " is-taken" : ""}` },
                h("span", { class: "mooki-stars" }, "★".repeat(t.stars)),
                " ",
                winner === null ? "nobody (tie)" : taken ? `${ctx.seatName(winner)}: taken by the Spider` : ctx.seatName(winner),
                taken ? h("span", { class: "mooki-scurry", "aria-hidden": "true" }, "✷") : null,
              ),
            ), { step: i });
          }),
          withVars(h(
            "tr",
            { class: "f-spider" },
            h("th", { scope: "row" }, h("span", { class: "mooki-badge", "aria-hidden": "true" }, "✷"), " Spiders"),
            end.sorted.map((side) => h("td", {}, String(side.spiders))),
            h("td", {}, end.spider.seat === null ? "tied: no trophy lost" : end.spider.choosing ? `${ctx.seatName(end.spider.seat)} is choosing` : end.spider.returned ? `carried off the ${NAMES[end.spider.returned]} trophy` : "no trophy to take"),
          ), { step: end.trophies.length }),
        ),
      ),
      returns.length
        ? h(
            "div",
            { class: "mooki-returns", role: "group", "aria-label": "Give up a trophy" },
            h("p", {}, "The Spider takes one of your trophies. Which one?"),
            returns.map((a) =>
              h("button", { type: "button", class: "button", "data-action": "return", "data-key": `return-${a.family}`, onclick: () => send(a) }, `Give up the ${NAMES[a.family]} trophy (${stars[a.family]}★)`),
            ),
          )
        : null,
      end.stars
        ? h(
            "div",
            { class: "mooki-winner" },
            h("p", { class: "mooki-final" }, seats.map((seat) => `${ctx.seatName(seat)} ${end.stars[seat]}★`).join(" · ")),
            h("p", { class: "mooki-winner-line" }, `${name(end.winner)} ${name(end.winner) === "You" ? "win" : "wins"}!${end.stars[0] === end.stars[1] ? " (a tie goes to the youngest)" : ""}`),
          )
        : null,
      end.stars
        ? h(
            "section",
            { class: "mooki-poster-wrap", "aria-label": "Poster" },
            h("h2", {}, "The poster: every Mooki you befriended"),
            poster(end, (seat) => ctx.seatName(seat)),
            h(
              "p",
              { class: "mooki-legend" },
              seats.map((seat) => h("span", { class: `owner-${seat}` }, `${ctx.seatName(seat)}: ${seat === 0 ? "white" : "dark"} ring`)),
            ),
            h(
              "div",
              { class: "mooki-befriended" },
              end.sorted.map((side) =>
                h("div", {}, h("h3", {}, ctx.seatName(side.seat)), h("div", { class: "mooki-row" }, side.faces.map((f) => card(f, { small: true })))),
              ),
            ),
          )
        : null,
    );
  };
}
