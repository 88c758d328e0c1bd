// The table for any game without a renderer of its own: it plays from `legal_actions` and
// the view alone. Each move is a button labelled in words ("Play card 3"), the view is shown
// as labelled values, and events (when the view has them) fill the log. It decides no rule.
// Its keys and values are the game's codes, said as they are; its own words are the reader's.

import { fill, h } from "../dom.js";
import { t, tn } from "../i18n.js";
import { tableKit } from "../table-kit.js";
import { listWords } from "../words.js";

// The view envelope every engine fills (PLAN decision 1); shown elsewhere or not at all.
const ENVELOPE = new Set(["game", "seat", "players", "events"]);
// Fields whose value is a seat number, or a list with one number per seat.
const SEAT_KEY = /(^|_)(seat|player|leader|owner|winner|holder|chooser)s?$/;
const PER_SEAT_KEY = /(^|_)(counts?|scores?|totals?|points)$/;

/** "first_seat" → "first seat", "drawPile" → "draw pile". */
export function words(key) {
  return String(key)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Every object with an `id` anywhere inside `value`, by id (cards, in the contract's words). */
export function cardsById(value, found = new Map()) {
  if (Array.isArray(value)) {
    for (const item of value) cardsById(item, found);
  } else if (value !== null && typeof value === "object") {
    if (Number.isInteger(value.id) && !found.has(value.id)) found.set(value.id, value);
    for (const item of Object.values(value)) cardsById(item, found);
  }
  return found;
}

/** Is `value`, under `key`, the id of a card in the view ({"card": 7})? */
function cardRef(key, value, cards) {
  return Number.isInteger(value) && /(^|_)(card|id)s?$/.test(key) && cards.has(value);
}

/** A card object in words: its fields other than the id ("value 3, colour red"). */
export function cardWords(card) {
  const parts = Object.entries(card)
    .filter(([key, value]) => key !== "id" && value !== null && typeof value !== "object")
    .map(([key, value]) => `${words(key)} ${value}`);
  return parts.length ? parts.join(", ") : `#${card.id}`;
}

/** Any JSON value in short words; seats by name, cards by their fields. */
export function valueWords(value, { key = "", name = (seat) => t("seat {num}", { num: seat + 1 }), cards = new Map() } = {}) {
  if (value === null || value === undefined) return t("none");
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  if (Number.isInteger(value) && SEAT_KEY.test(key)) return name(value);
  if (cardRef(key, value, cards)) return cardWords(cards.get(value));
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) {
    if (!value.length) return t("none");
    if (PER_SEAT_KEY.test(key) && value.every((item) => typeof item === "number")) {
      return value.map((item, seat) => `${name(seat)} ${item}`).join(", ");
    }
    const singular = key.replace(/s$/, "");
    return value.map((item) => valueWords(item, { key: singular, name, cards })).join(", ");
  }
  if (Number.isInteger(value.id)) return cardWords(value);
  const parts = Object.entries(value).map(([k, v]) => `${words(k)} ${valueWords(v, { key: k, name, cards })}`);
  return parts.length ? parts.join("; ") : t("none");
}

/** One field of an action or event: a seat by name alone, a card by its fields. */
function fieldWords(key, value, { name, cards }) {
  if (Number.isInteger(value) && SEAT_KEY.test(key)) return name(value);
  const said = valueWords(value, { key, name, cards });
  return cardRef(key, value, cards) ? `${words(key)} (${said})` : `${words(key)} ${said}`;
}

/** A legal action as a button label: its type as a verb, then its fields in words,
 * e.g. {"type": "play", "card": 7} → "Play: card (value 2)" when card 7 is in the view. */
export function actionWords(action, { name, cards = new Map() } = {}) {
  const verb = capital(words(action.type ?? "move"));
  const details = Object.entries(action)
    .filter(([key]) => key !== "type")
    .map(([key, value]) => fieldWords(key, value, { name, cards }));
  return details.length ? `${verb}: ${details.join(", ")}` : verb;
}

/** An event as a sentence: who, what, and its other fields. */
export function eventWords(event, { name, cards = new Map() } = {}) {
  const who = Number.isInteger(event.seat) ? `${name(event.seat)}: ` : "";
  const details = Object.entries(event)
    .filter(([key]) => !["seq", "type", "seat"].includes(key))
    .map(([key, value]) => fieldWords(key, value, { name, cards }));
  return `${who}${words(event.type ?? "event")}${details.length ? ` (${details.join(", ")})` : ""}.`;
}

export function mount(root, ctx) {
  const els = {
    status: h("p", { class: "table-status", id: "turn-status" }),
    view: h("dl", { class: "generic-view" }),
    moves: h("div", { class: "generic-moves button-row", role: "group", "aria-label": t("Your moves") }),
    log: h("ol", { class: "log-list", id: "game-log" }),
  };
  // A game that logs no events gets no empty "What happened" box.
  const logPanel = h("section", { class: "panel log-panel", hidden: true }, h("h2", {}, t("What happened")), els.log);
  fill(
    root,
    h(
      "div",
      { class: "generic" },
      h("div", { class: "felt generic-table" }, els.status, els.view, els.moves),
      logPanel,
    ),
  );
  let lastState = null;
  const kit = tableKit(root, ctx, { redraw: () => lastState && update(lastState) });
  const name = (seat) => kit.name(seat);

  function statusText(state) {
    if (state.result) {
      const winners = state.result.winners.map((seat) => kit.name(seat));
      // The kit names the reader's own seat "You" (table-kit.js).
      if (winners.length === 1 && winners[0] === t("You")) return t("The game is over: You win.");
      const names = listWords(winners);
      return tn("The game is over: {names} wins.", "The game is over: {names} win.", winners.length, { names });
    }
    if (kit.myTurn(state)) return t("Your turn: choose a move.");
    const waiting = (state.to_act || []).map((seat) => ctx.seatName(seat));
    return waiting.length ? t("Waiting for {names}…", { names: listWords(waiting) }) : "";
  }

  function update(state) {
    lastState = state;
    const news = kit.begin(state);
    const view = state.view || {};
    const cards = cardsById(view);
    kit.keepFocus(() => {
      els.status.textContent = statusText(state);
      els.status.classList.toggle("is-you", kit.myTurn(state));
      fill(
        els.view,
        Object.entries(view)
          .filter(([key]) => !ENVELOPE.has(key))
          .map(([key, value]) => [
            h("dt", {}, capital(words(key))),
            h("dd", {}, valueWords(value, { key, name, cards })),
          ]),
      );
      const actions = state.legal_actions || [];
      fill(
        els.moves,
        actions.map((action) =>
          h(
            "button",
            {
              class: "button",
              type: "button",
              "data-action": action.type ?? "move",
              "data-key": JSON.stringify(action),
              onclick: () => kit.send(action),
            },
            actionWords(action, { name, cards }),
          ),
        ),
      );
      els.moves.hidden = !actions.length;
      logPanel.hidden = !news.events.length;
      kit.renderLog(
        els.log,
        news.events.map((event) => ({ text: eventWords(event, { name, cards }), seq: event.seq })),
      );
    });
    const said = news.fresh.filter((e) => e.seat !== ctx.mySeat).map((e) => eventWords(e, { name, cards }));
    kit.announceMoves(said, state);
  }

  return {
    update,
    destroy() {
      root.replaceChildren();
    },
  };
}
