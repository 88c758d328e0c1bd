// A Mooki Island collection: its owner, the top card and the height (the memory rule), and for
// the page's own player the memory aid when the room has it on.

import { fill, h } from "../../dom.js";
import { stack } from "./cards.js";
import { FAMILIES, NAMES, SYMBOL } from "./words.js";

/** Draws `seat`'s collection into `node`. `t`: { ctx }. */
export function renderCollection(node, t, view, seat, watching) {
  const { ctx } = t;
  const info = view.collections[seat];
  const own = !watching && seat === ctx.mySeat;
  const title = own ? "Your collection" : `${ctx.seatName(seat)}'s collection`;
  const acting = view.current === seat && !view.end;
  const aid = own && view.aid;
  fill(
    node,
    h(
      "div",
      { class: "mooki-collection-head" },
      h("h2", {}, title, view.youngest === seat ? h("span", { class: "mooki-chip", title: "Starts and wins a tie" }, "youngest") : null),
      acting ? h("span", { class: `turn-flag${own ? " is-you" : ""}` }, own ? "your turn" : "playing") : null,
    ),
    h(
      "div",
      { class: "mooki-collection-body" },
      stack(info.top, info.height, { small: true }),
      h(
        "p",
        { class: "mooki-height", "data-seat": seat },
        h("b", {}, String(info.height)),
        info.height === 1 ? " card" : " cards",
        h("br"),
        h("small", { class: "muted" }, info.top ? "only the top one shows" : "none yet"),
      ),
      aid
        ? h(
            "ul",
            { class: "mooki-aid", "aria-label": "Memory aid: your Mookies per family" },
            FAMILIES.map((f) => h("li", { class: `f-${f}` }, h("span", { "aria-hidden": "true" }, SYMBOL[f]), ` ${NAMES[f]} ${aid[f]}`)),
            h("li", { class: "f-spider" }, `Spiders ${aid.spiders}`),
          )
        : null,
    ),
  );
  node.classList.toggle("is-current", acting);
}
