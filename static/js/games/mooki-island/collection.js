// A Mooki Island collection: its owner, the top card and the height (the memory rule), and for
// the page's own player the memory aid when the room has it on.

import { fill, h } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { stack } from "./cards.js";
import { FAMILIES, SYMBOL, familyName } from "./words.js";

/** Draws `seat`'s collection into `node`. `parts`: { ctx }. */
export function renderCollection(node, parts, view, seat, watching) {
  const { ctx } = parts;
  const info = view.collections[seat];
  const own = !watching && seat === ctx.mySeat;
  const title = own ? t("Your collection") : t("{name}'s collection", { name: ctx.seatName(seat) });
  const acting = view.current === seat && !view.end;
  const aid = own && view.aid;
  fill(
    node,
    h(
      "div",
      { class: "mooki-collection-head" },
      h("h2", {}, title, view.youngest === seat ? h("span", { class: "mooki-chip", title: t("Starts and wins a tie") }, t("youngest")) : null),
      acting ? h("span", { class: `turn-flag${own ? " is-you" : ""}` }, own ? t("your turn") : t("playing")) : null,
    ),
    h(
      "div",
      { class: "mooki-collection-body" },
      stack(info.top, info.height, { small: true }),
      h(
        "p",
        { class: "mooki-height", "data-seat": seat },
        // The height in bold inside the sentence: "<b>3</b> cards".
        heightWords(info.height),
        h("br"),
        h("small", { class: "muted" }, info.top ? t("only the top one shows") : t("none yet")),
      ),
      aid
        ? h(
            "ul",
            { class: "mooki-aid", "aria-label": t("Memory aid: your Mookies per family") },
            FAMILIES.map((f) => h("li", { class: `f-${f}` }, h("span", { "aria-hidden": "true" }, SYMBOL[f]), ` ${familyName(f)} ${aid[f]}`)),
            h("li", { class: "f-spider" }, t("Spiders {num}", { num: aid.spiders })),
          )
        : null,
    ),
  );
  node.classList.toggle("is-current", acting);
}

/** "3 cards" with the number in bold, in the reader's words. */
function heightWords(height) {
  const [before, after = ""] = tn("{num} card", "{num} cards", height, { num: "\u0000" }).split("\u0000");
  return [before, h("b", {}, String(height)), after];
}
