// The end of a Mooki Island game as a sorting ceremony: Mookies per family, the trophies, the
// Spider's theft (with the give-up buttons for the player who must choose), the winner and the
// poster. Drawn again only when the end or the legal moves change, so the ceremony plays once.

import { fill, h } from "../../dom.js";
import { t } from "../../i18n.js";
import { card, withVars } from "./cards.js";
import { poster } from "./poster.js";
import { SYMBOL, familyName } from "./words.js";

/** `createTrophies(node, parts)` → render(view, state). `parts`: { ctx, send, name, isMe }. */
export function createTrophies(node, parts) {
  const { ctx, send, name } = parts;
  const isMe = parts.isMe || ((seat) => name(seat) === t("You"));
  let shownEnd = null;
  const spidersWord = t("Spiders");

  /** What the Spider did, in the trophy column of its row. */
  function spiderWords(spider) {
    if (spider.seat === null) return t("tied: no trophy lost");
    if (spider.choosing) return t("{name} is choosing", { name: ctx.seatName(spider.seat) });
    if (spider.returned) return t("carried off the {family} trophy", { family: familyName(spider.returned) });
    return t("no trophy to take");
  }

  /** "Ann wins!", "You win! (a tie goes to the youngest)". */
  function winnerWords(end) {
    const tie = end.stars[0] === end.stars[1];
    const who = { name: name(end.winner) };
    if (isMe(end.winner)) return tie ? t("You win! (a tie goes to the youngest)") : t("You win!");
    return tie ? t("{name} wins! (a tie goes to the youngest)", who) : t("{name} wins!", who);
  }
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
      h("h2", {}, t("Sorting the collections")),
      h(
        "table",
        { class: "mooki-sorting" },
        h("caption", { class: "sr-only" }, t("Mookies per family (a Legendary counts for 2)")),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Family")), seats.map((seat) => h("th", { scope: "col" }, ctx.seatName(seat))), h("th", { scope: "col" }, t("Trophy")))),
        h(
          "tbody",
          {},
          end.trophies.map((trophy, i) => {
            const taken = end.spider.returned === trophy.family;
            const winner = trophy.awarded;
            return withVars(h(
              "tr",
              { class: `f-${trophy.family}` },
              h("th", { scope: "row" }, h("span", { class: "mooki-badge", "aria-hidden": "true" }, SYMBOL[trophy.family]), ` ${familyName(trophy.family)}`),
              trophy.counts.map((n, seat) => h("td", { class: winner === seat ? "is-most" : null }, String(n))),
              h(
                "td",
                { class: `mooki-trophy${taken ? " is-taken" : ""}` },
                h("span", { class: "mooki-stars" }, "★".repeat(trophy.stars)),
                " ",
                winner === null ? t("nobody (tie)") : taken ? t("{name}: taken by the Spider", { name: ctx.seatName(winner) }) : ctx.seatName(winner),
                taken ? h("span", { class: "mooki-scurry", "aria-hidden": "true" }, "✷") : null,
              ),
            ), { step: i });
          }),
          withVars(h(
            "tr",
            { class: "f-spider" },
            h("th", { scope: "row" }, h("span", { class: "mooki-badge", "aria-hidden": "true" }, "✷"), " ", spidersWord),
            end.sorted.map((side) => h("td", {}, String(side.spiders))),
            h("td", {}, spiderWords(end.spider)),
          ), { step: end.trophies.length }),
        ),
      ),
      returns.length
        ? h(
            "div",
            { class: "mooki-returns", role: "group", "aria-label": t("Give up a trophy") },
            h("p", {}, t("The Spider takes one of your trophies. Which one?")),
            returns.map((a) =>
              h("button", { type: "button", class: "button", "data-action": "return", "data-key": `return-${a.family}`, onclick: () => send(a) }, t("Give up the {family} trophy ({stars}★)", { family: familyName(a.family), stars: stars[a.family] })),
            ),
          )
        : null,
      end.stars
        ? h(
            "div",
            { class: "mooki-winner" },
            h("p", { class: "mooki-final" }, seats.map((seat) => `${ctx.seatName(seat)} ${end.stars[seat]}★`).join(" · ")),
            h("p", { class: "mooki-winner-line" }, winnerWords(end)),
          )
        : null,
      end.stars
        ? h(
            "section",
            { class: "mooki-poster-wrap", "aria-label": t("Poster") },
            h("h2", {}, t("The poster: every Mooki you befriended")),
            poster(end, (seat) => ctx.seatName(seat)),
            h(
              "p",
              { class: "mooki-legend" },
              seats.map((seat) => h("span", { class: `owner-${seat}` }, seat === 0 ? t("{name}: white ring", { name: ctx.seatName(seat) }) : t("{name}: dark ring", { name: ctx.seatName(seat) }))),
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
