// The Moby Trick table: trump and value token, the trick, your hand by family, bonuses, rewards and the log.
// It reads the view and legal_actions only; every rule stays on the server. The parts are in
// `moby-trick/`: the words (DOM-free), the card faces, the other seats and compass, the trick, and
// your own seat (pearls, bonuses, hand).

import { createFlight } from "../card-flight.js";
import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { tableKit } from "../table-kit.js";
import { renderMine } from "./moby-trick/hand.js";
import { renderCompass, renderSeats } from "./moby-trick/seats.js";
import { renderChoice, renderTrick } from "./moby-trick/trick.js";
import { describeEvent, legalBy, statusText } from "./moby-trick/words.js";

export { cardPhrase, describeEvent, roundSummary } from "./moby-trick/words.js";

export function mount(root, ctx) {
  const els = {
    seats: h("div", { class: "table-seats", role: "list", "aria-label": t("Other players") }),
    compass: h("section", { class: "moby-compass", "aria-label": t("Trump and value token") }),
    trick: h("section", { class: "moby-trick", "aria-label": t("The trick") }),
    status: h("p", { class: "table-status", id: "turn-status" }),
    choice: h("section", { class: "moby-choice", hidden: true }),
    mine: h("section", { class: "table-mine moby-mine", "aria-label": t("Your cards") }),
    // Focusable, so a keyboard can scroll it.
    log: h("ol", { class: "log-list", id: "game-log", tabindex: "0", "aria-label": t("What happened") }),
  };
  const felt = h(
    "div",
    { class: "felt moby-felt" },
    els.seats,
    h("div", { class: "moby-center" }, els.compass, els.trick),
    els.status,
    els.choice,
    els.mine,
  );
  const layout = h("div", { class: "moby" }, felt, h("section", { class: "panel log-panel" }, h("h2", {}, t("What happened")), els.log));
  fill(root, layout);

  // Cards travel: from a hand to the trick, and a taken trick to its winner (card-flight.js).
  const flight = createFlight(root);
  let lastState = null;
  const kit = tableKit(root, ctx, { redraw: () => lastState && update(lastState) });
  const me = () => ctx.mySeat;
  const name = (seat, object = false) => kit.name(seat, object);
  // What every part draws with.
  const table = {
    kit,
    me,
    name,
    seatName: (seat) => ctx.seatName(seat),
    actionAttrs: (action, key) => ({ "data-action": action.type, "data-key": key, onclick: () => kit.send(action) }),
  };

  function update(state) {
    lastState = state;
    const view = state.view;
    const news = kit.begin(state);
    if (!view || !Array.isArray(view.seats) || view.trump === undefined) return;
    const legal = legalBy(state);
    const { events, fresh } = news;
    const freshSeats = new Set(fresh.map((e) => e.seat).filter((s) => s !== undefined));
    const dealt = !news.first && fresh.some((e) => e.type === "round_start");
    const myTurn = kit.myTurn(state);

    root.dataset.phase = view.phase;
    root.dataset.myTurn = String(myTurn);
    const trickIds = [...els.trick.querySelectorAll("[data-card-id]")].map((n) => n.dataset.cardId);
    flight.before();
    kit.keepFocus(() => {
      renderSeats(els.seats, table, view, state, freshSeats);
      renderCompass(els.compass, view, fresh);
      renderTrick(els.trick, table, view, legal, events, fresh);
      els.status.textContent = statusText(view, state, legal, { me: me(), myTurn, name, seatName: table.seatName });
      els.status.classList.toggle("is-you", myTurn);
      renderChoice(els.choice, table, legal);
      renderMine(els.mine, table, view, state, legal, dealt);
      const lines = events.map((event) => ({ ...describeEvent(event, name), seq: event.seq })).filter((line) => line.text);
      kit.renderLog(els.log, lines, t("The cards are dealt. Nothing played yet."));
    });

    if (!news.first) {
      // Another seat's card comes from that seat; a taken trick goes to its winner.
      const seatNode = (seat) => (seat === me() ? els.mine : els.seats.querySelector(`[data-seat="${seat}"]`));
      const origins = new Map();
      const playedBy = new Set(fresh.filter((e) => e.type === "play" && e.seat !== me()).map((e) => e.seat));
      for (const play of view.trick) {
        const from = playedBy.has(play.seat) && play.card?.id !== undefined ? seatNode(play.seat) : null;
        if (from) origins.set(String(play.card.id), from);
      }
      const won = [...fresh].reverse().find((e) => e.type === "trick");
      const to = won && Number.isInteger(won.winner) ? seatNode(won.winner) : null;
      const moved = flight.after({ origins, taken: to ? { ids: trickIds, to } : null });
      root.dataset.flights = String(Number(root.dataset.flights || 0) + moved);
    } else flight.after();

    // Say what the others did, in words, and whose turn it is now.
    const said = fresh
      .filter((e) => e.seat === undefined || e.seat !== me())
      .map((e) => describeEvent(e, name))
      .filter(Boolean)
      .map((line) => line.text);
    kit.announceMoves(said, state, view.phase === "over" ? null : view.turn);
  }

  return {
    update,
    destroy() {
      root.replaceChildren();
    },
  };
}
