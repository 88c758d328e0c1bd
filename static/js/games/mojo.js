// The Mojo table: hands, discard piles, the Mojo card, Mojo Time, round results and the game log.
// It reads the view and legal_actions only; every rule stays on the server. The parts are in
// `mojo/`: the words and legal moves (DOM-free), the card faces, the other seats, the piles in
// the middle, your own seat and hand, and the round summary.

import { createFlight } from "../card-flight.js";
import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { tableKit } from "../table-kit.js";
import { createHand } from "./mojo/hand.js";
import { renderCenter } from "./mojo/piles.js";
import { renderSeats } from "./mojo/seats.js";
import { describeEvents, legalBy, statusText } from "./mojo/words.js";

export { roundSummary } from "./mojo/summary.js";
export { cardPhrase, cardWords, describeEvents } from "./mojo/words.js";

export function mount(root, ctx) {
  const els = {
    status: h("p", { class: "table-status", id: "turn-status" }),
    opponents: h("div", { class: "table-seats", role: "list", "aria-label": t("Players") }),
    center: h("div", { class: "mojo-center" }),
    mine: h("section", { class: "table-mine mojo-mine", "aria-label": t("Your cards") }),
    faceDown: h("div", { class: "my-facedown" }),
    hand: h("div", { class: "hand", id: "hand", role: "list", "aria-label": t("Your hand") }),
    // Focusable, so a keyboard can scroll it.
    log: h("ol", { class: "log-list", id: "game-log", tabindex: "0", "aria-label": t("What happened") }),
  };
  // Cards travel between hands and piles (card-flight.js).
  const flight = createFlight(root);

  const felt = h("div", { class: "felt" }, els.opponents, els.center, els.status, els.mine);
  els.mine.append(h("div", { class: "mine-head" }), els.faceDown, els.hand);
  fill(root,
    h("div", { class: "mojo" }, felt, h("section", { class: "panel log-panel" }, h("h2", {}, t("What happened")), els.log)),
  );

  let selected = null; // a card chosen while its pile is still to be picked (double discard)
  let lastState = null;
  let currentLegal = { plays: new Map(), reveals: new Map(), draws: new Map() };
  const kit = tableKit(root, ctx, { redraw: () => lastState && update(lastState) });
  const name = (seat) => kit.name(seat);

  function send(action) {
    selected = null;
    return kit.send(action);
  }

  // What every part draws with.
  const table = {
    ctx,
    kit,
    send,
    selected: () => selected,
    legal: () => currentLegal,
    toggle(id) {
      selected = selected === id ? null : id;
      update(lastState);
    },
  };
  const renderMine = createHand(els, table);

  function update(state) {
    lastState = state;
    const view = state.view;
    const news = kit.begin(state);
    if (!view || view.game !== "mojo") return;
    const legal = legalBy(state);
    currentLegal = legal;
    if (selected !== null && !legal.plays.has(selected)) selected = null;

    const landed = [...news.fresh].reverse().find((e) => e.type === "play");
    const decorated = {
      ...state,
      _freshSeats: news.fresh.map((e) => e.seat).filter((s) => s !== undefined),
      _landed: null,
    };
    if (landed) {
      const top = view.discard_piles[landed.pile]?.top;
      if (top) decorated._landed = `${landed.pile}:${top.id}`;
    }

    const piles = view.discard_piles.length;
    flight.before();
    kit.keepFocus(() => {
      renderSeats(els.opponents, table, view, decorated);
      renderCenter(els.center, table, view, decorated, legal);
      els.status.textContent = statusText(view, state, legal, { myTurn: kit.myTurn(state), selected, seatName: ctx.seatName });
      els.status.classList.toggle("is-you", kit.myTurn(state));
      renderMine(view, state, legal, news.first);
      kit.renderLog(els.log, describeEvents(news.events, name, piles), t("The cards are dealt. Nothing played yet."));
    });
    // A played card travels from its hand (this player's, or the seat of another) to its pile,
    // and a card this player draws from the draw pile travels to the hand.
    const origins = new Map();
    const drawn = [];
    if (!news.first) {
      const deck = els.center.querySelector(".draw-pile");
      for (const event of news.fresh) {
        const from = event.type === "play" && event.seat !== ctx.mySeat ? els.opponents.querySelector(`[data-seat="${event.seat}"]`) : null;
        if (from && event.card) origins.set(String(event.card.id), from);
        if (event.type === "draw" && event.seat === ctx.mySeat && event.source === "deck" && event.card && deck) {
          origins.set(String(event.card.id), deck);
          drawn.push(String(event.card.id));
        }
      }
    }
    const moved = news.first ? 0 : flight.after({ origins });
    // A card that flew from the deck does not also drop in.
    if (moved) for (const id of drawn) els.hand.querySelector(`[data-card-id="${id}"]`)?.classList.remove("is-drawn");
    root.dataset.flights = String(Number(root.dataset.flights || 0) + moved);

    // Say what the others did, in words, and whose turn it is now: the felt alone tells
    // a screen reader nothing. The page already says "Your turn." when nothing else is new.
    kit.announceMoves(describeEvents(news.fresh, name, piles), state, view.current);
  }

  return {
    update,
    destroy() {
      root.replaceChildren();
    },
  };
}
