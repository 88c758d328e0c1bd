// The Mooki Island table: two piles showing their top faces, the drawn card turned over for
// the drawer, both collections (top card and height only: the memory rule), the end as a
// sorting ceremony, then the poster of every Mooki each player befriended.
// It reads the view and legal_actions only; every rule stays on the server. The parts are in
// `mooki-island/`: the words (DOM-free), the card faces, the piles and drawn card, a collection,
// the trophies ceremony and the poster.

import { travel } from "../card-flight.js";
import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { tableKit } from "../table-kit.js";
import { renderCollection } from "./mooki-island/collection.js";
import { renderDrawn, renderPiles } from "./mooki-island/piles.js";
import { createTrophies } from "./mooki-island/trophies.js";
import { describeEvents, statusText } from "./mooki-island/words.js";

export { faceArt } from "./mooki-island/cards.js";
export { poster } from "./mooki-island/poster.js";
export { FAMILIES, cardPhrase, choiceWords, describeEvents, faceWords, familyName } from "./mooki-island/words.js";

export function mount(root, ctx) {
  const els = {
    status: h("p", { class: "mooki-status", id: "turn-status", "aria-live": "off" }),
    theirs: h("section", { class: "mooki-collection is-theirs" }),
    piles: h("div", { class: "mooki-piles", role: "group", "aria-label": t("Draw piles") }),
    drawn: h("section", { class: "mooki-drawn", hidden: true }),
    mine: h("section", { class: "mooki-collection is-mine" }),
    end: h("section", { class: "mooki-end", hidden: true }),
    // Focusable, so a keyboard can scroll it.
    log: h("ol", { class: "log-list", id: "game-log", tabindex: "0", "aria-label": t("What happened") }),
  };
  fill(
    root,
    h(
      "div",
      { class: "mooki" },
      h("div", { class: "mooki-felt" }, els.theirs, els.status, els.piles, els.drawn, els.mine),
      els.end,
      h("section", { class: "panel log-panel" }, h("h2", {}, t("What happened")), els.log),
    ),
  );
  let lastState = null;
  const kit = tableKit(root, ctx, { redraw: () => lastState && update(lastState) });
  const name = (seat, object = false) => kit.name(seat, object);
  // This page's own player: the words say "You took…" where a name would go.
  const isMe = (seat) => seat !== null && seat !== undefined && seat === ctx.mySeat && !ctx.onDevice;
  const send = (action) => kit.send(action);
  // What every part draws with.
  const parts = { ctx, kit, name, isMe, send };
  const renderEnd = createTrophies(els.end, parts);

  function seatsOf(view) {
    const me = ctx.mySeat;
    const mine = me === null || me === undefined ? 0 : me;
    return { mine, theirs: 1 - mine, watching: me === null || me === undefined };
  }

  function update(state) {
    lastState = state;
    const view = state.view;
    const news = kit.begin(state);
    if (!view || view.game !== "mooki-island") return;
    const { mine, theirs, watching } = seatsOf(view);
    // A placed face is named only while it is still the top of its collection (the memory rule).
    const tops = view.collections.map((c) => c.top);
    // Where the drawn card's faces are before the redraw: a placed card travels from there to
    // the collection it joins.
    const drawnAt = new Map();
    for (const node of els.drawn.querySelectorAll(".mooki-card")) drawnAt.set(node.dataset.face || "back", node.getBoundingClientRect());
    kit.keepFocus(() => {
      renderCollection(els.theirs, parts, view, theirs, watching);
      renderCollection(els.mine, parts, view, mine, watching);
      renderPiles(els.piles, parts, view, state);
      renderDrawn(els.drawn, parts, view, state);
      els.status.textContent = statusText(view, kit.myTurn(state), ctx.seatName);
      els.status.classList.toggle("is-you", kit.myTurn(state));
      renderEnd(view, state);
      kit.renderLog(els.log, describeEvents(news.events, name, tops, isMe), t("The piles are ready. Nothing taken yet."));
    });
    const placed = news.first ? null : [...news.fresh].reverse().find((e) => e.type === "place");
    if (placed && drawnAt.size) {
      const node = placed.to === mine ? els.mine : els.theirs;
      const top = node.querySelector(".mooki-stack > .mooki-card:last-child");
      const from = drawnAt.get(top?.dataset.face) || drawnAt.get("back") || drawnAt.values().next().value;
      if (travel(top, from)) root.dataset.flights = String(Number(root.dataset.flights || 0) + 1);
    }
        kit.announceMoves(describeEvents(news.fresh, name, tops, isMe), state, view.current);
  }

  return {
    update,
    destroy() {
      root.replaceChildren();
    },
  };
}
