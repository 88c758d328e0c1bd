// The Mokuru table: Motable referees tricks the players perform with real Mokuru. It draws
// the belts board, the trick to perform (with a diagram of the movement), the tries left and
// big report buttons; every button is an element of legal_actions. It decides no rule.
// The parts are in `mokuru/`: the words (DOM-free), the diagram, the board and seats, the trick
// card, the move buttons, and moves out of turn.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { tableKit } from "../table-kit.js";
import { listWords } from "../words.js";
import { renderBoard, renderSeats } from "./mokuru/board.js";
import { darknessChooser, moveButton } from "./mokuru/moves.js";
import { createHold, namedMove } from "./mokuru/out-of-turn.js";
import { renderTrick } from "./mokuru/trick-card.js";
import { deviceLine, eventWords, statusText } from "./mokuru/words.js";

export { diagram } from "./mokuru/diagram.js";
export { HOLD_MS, cardPhrase, contestSides, deviceLine, lineup, peopleOutOfTurn, targetLabel, witnessNote } from "./mokuru/words.js";

export function mount(root, ctx) {
  const els = {
    status: h("p", { class: "table-status mokuru-status", id: "turn-status" }),
    device: h("div", { class: "mokuru-device-screen", "data-role": "prompt", hidden: true, "aria-live": "polite" }),
    board: h("ol", { class: "mokuru-board", "aria-label": t("Belts board") }),
    seats: h("ul", { class: "mokuru-seats" }),
    trick: h("section", { class: "mokuru-trick", "aria-live": "polite" }),
    moves: h("div", { class: "mokuru-moves", role: "group", "aria-label": t("Your moves") }),
    extra: h("div", { class: "mokuru-extra", role: "group", "aria-label": t("Out of turn") }),
    celebration: h("div", { class: "mokuru-celebration", hidden: true }),
    // Focusable, so a keyboard can scroll it.
    log: h("ol", { class: "log-list", id: "game-log", tabindex: "0", "aria-label": t("What happened") }),
  };
  fill(
    root,
    h(
      "div",
      { class: "mokuru" },
      // The trick to perform, then its buttons, then the belts ladder and the seats: on a phone the
      // trick card (name, diagram, how-to) is read before it is reported; on a wider screen the
      // two groups stand side by side (mokuru.css), so one screen holds all of it.
      h(
        "div",
        { class: "felt mokuru-table" },
        els.status,
        els.celebration,
        els.device,
        h("div", { class: "mokuru-play" }, els.trick, els.moves, els.extra),
        h("div", { class: "mokuru-ladder" }, els.board, els.seats),
      ),
      h("section", { class: "panel log-panel" }, h("h2", {}, t("What happened")), els.log),
    ),
  );
  let last = null;
  let lastRoom = null;
  const kit = tableKit(root, ctx, { redraw: () => last && update(last) });
  const name = (seat) => kit.name(seat);
  // Around one device the page speaks of every player by name: "you" would change hands.
  const isMe = (seat) => seat === ctx.mySeat && !ctx.onDevice;
  const whose = (seat) => (isMe(seat) ? "your" : `${name(seat)}'s`);
  const isBot = (seat) => Boolean(lastRoom?.seats?.find((s) => s.seat === seat && (s.bot || s.stand_in)));
  // How the words name players, and what every part draws with.
  const words = { name, whose, isMe, isBot, seatName: ctx.seatName };
  const parts = { ctx, kit, name, words, room: () => lastRoom, redraw: () => last && update(last) };
  const hold = createHold(parts);

  function update(state, room) {
    last = state;
    if (room) lastRoom = room;
    const view = state.view || {};
    const news = kit.begin(state);
    if (!view.seats) return;
    kit.keepFocus(() => {
      els.status.textContent = statusText(state, view, { ...words, mine: kit.myTurn(state) });
      els.status.classList.toggle("is-you", kit.myTurn(state));
      renderBoard(els.board, parts, view);
      renderTrick(els.trick, parts, view);
      renderSeats(els.seats, parts, view);
      const actions = state.legal_actions || [];
      const mine = kit.myTurn(state);
      // A seat the game waits for gets its moves as the big buttons; any other seat may only
      // have optional moves (Immunity against a pending effect, Steal a Trick), shown apart.
      const waited = mine ? actions : [];
      const optional = mine ? [] : actions;
      // Around one device, every other player here with an out-of-turn move gets a named button.
      const offers = ctx.onDevice ? ctx.localOffers?.() || [] : [];
      const holding = hold.holdingFor(state, view);
      const device = Boolean(ctx.onDevice) && mine;
      els.device.hidden = !device;
      if (device) {
        const line = deviceLine(view, ctx.mySeat, ctx.seatName);
        fill(els.device, h("p", { class: "mokuru-device-who" }, line.who), h("p", { class: "mokuru-device-what" }, line.what));
      }
      els.moves.classList.toggle("is-device", device);
      // Around one device the big buttons sit right under the big line, above the board.
      const anchor = device ? els.device : els.trick;
      if (anchor.nextSibling !== els.moves) anchor.after(els.moves);
      // Out-of-turn moves sit right under the due player's, where everyone at the table looks.
      if (els.moves.nextSibling !== els.extra) els.moves.after(els.extra);
      const big = device || ["perform", "battle", "spent", "confirm", "draw"].includes(view.phase);
      // The deck the possessed player looks through shows wherever the view holds it (a replay too).
      const looking = view.phase === "darkness" && (mine || (!actions.length && view.darkness_deck?.length));
      if (looking) fill(els.moves, darknessChooser(parts, view, waited));
      else fill(els.moves, waited.map((a) => moveButton(parts, view, a, big)));
      if (holding.length) {
        for (const button of els.moves.querySelectorAll("button")) button.disabled = true;
        const seconds = Math.max(1, Math.ceil((hold.until() - Date.now()) / 1000));
        const waiting = t("A moment: {names} may act out of turn ({num} s).", { names: listWords(holding.map((o) => name(o.seat))), num: seconds });
        els.moves.prepend(h("p", { class: "mokuru-hold", role: "status" }, waiting));
      }
      els.moves.hidden = !waited.length && !looking;
      const extra = [];
      if (optional.length && ctx.onDevice) {
        const me = { seat: ctx.mySeat, name: name(ctx.mySeat) };
        extra.push(optional.map((a) => namedMove(words, me, view, a, (action) => kit.send(action))));
      } else if (optional.length) {
        extra.push(h("p", { class: "small" }, t("You may act now, out of turn:")), optional.map((a) => moveButton(parts, view, a)));
      }
      for (const offer of offers) {
        const seatView = offer.state.view || view;
        extra.push(offer.state.legal_actions.map((a) => namedMove(words, offer, seatView, a, offer.act)));
      }
      if (extra.length && ctx.onDevice) extra.unshift(h("p", { class: "small" }, t("Out of turn, for the player named:")));
      fill(els.extra, extra);
      els.extra.hidden = !extra.length;
      const over = view.winner !== null && view.winner !== undefined;
      els.celebration.hidden = !over;
      if (over) fill(els.celebration, h("p", { class: "mokuru-grandmaster" }, "★ ", isMe(view.winner) ? t("You are Grandmaster!") : t("{name} is Grandmaster!", { name: name(view.winner) })));
      kit.renderLog(els.log, news.events.map((e) => ({ text: eventWords(view, e, words), seq: e.seq })));
    });
    const said = news.fresh.filter((e) => e.seat !== ctx.mySeat && e.type !== "turn").map((e) => eventWords(view, e, words));
    kit.announceMoves(said, state);
  }

  return {
    update,
    destroy() {
      root.replaceChildren();
    },
  };
}
