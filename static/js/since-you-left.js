// "Since you left": back in a room after others moved, one dismissible card above the table lists
// the moves made since this browser last showed the table (from the log as the server redacts it for
// this seat, in words), the points each player gained meanwhile and what is asked of the player now.
// This browser remembers the last version it showed per room (storage.js `seen`). The functions
// above `createSinceYouLeft` touch no DOM and run under `node --test`.
//
// The table shows the same moves where a renderer draws seats (`.seat-panel[data-seat]`) and cards
// (`[data-card-id]`): the seats that moved pulse in their seat's colour, and the cards those moves
// played that are on the table now are ringed in the mover's colour and fly in from the mover's seat
// (card-flight.js; still, under prefers-reduced-motion). Only card ids the log gives this seat are
// looked for, and only what the table already draws is marked: nothing is shown that was hidden.

import { api } from "./api.js";
import { travel } from "./card-flight.js";
import { fill, h } from "./dom.js";
import { cardPhraseOf } from "./card-phrases.js";
import { lang, t, tn } from "./i18n.js";
import { cardsFromEvents, cardsIn, moveWords } from "./move-words.js";
import { descriptorOf, watch } from "./room-state.js";
import { seatStyle } from "./seat-style.js";
import { lastSeen } from "./storage.js";
import { listWords } from "./words.js";

/** "play a card or draw": the choices joined as the reader's language joins alternatives. */
function orWords(words) {
  if (lang === "en" || words.length <= 1) return listWords(words).replace(/ and ([^,]*)$/, " or $1");
  return new Intl.ListFormat(lang, { type: "disjunction" }).format(words);
}

// Moves listed one by one; older ones are counted ("and 12 earlier moves").
export const SHOWN_MOVES = 12;

/** The log entries made since version `since` (action seq n turns version n into n + 1). */
export function entriesSince(entries, since) {
  return (entries || []).filter((entry) => Number.isInteger(entry.seq) && entry.seq >= since);
}

/** What the game asks of `seat` now, in words; `words` is the game's action words (its
 *  descriptor's `action_words`: each type's `ask`, "play a card"). */
export function askWords(state, seat, name, words = {}) {
  if (state.status === "finished") {
    const winners = state.result?.winners || [];
    if (winners.includes(seat)) return winners.length > 1 ? t("The match is over: you share the win.") : t("The match is over: you won!");
    return tn("The match is over: {names} won.", "The match is over: {names} won.", winners.length, { names: listWords(winners.map(name)) });
  }
  const toAct = state.to_act || [];
  if (toAct.includes(seat)) {
    const asked = (action) => (words && Object.hasOwn(words, action.type) ? t(words[action.type].ask) : null);
    const kinds = [...new Set((state.legal_actions || []).map(asked).filter(Boolean))];
    // Translators: {moves} is what the game asks, as "play a card or draw".
    return kinds.length ? t("Your turn: {moves}.", { moves: orWords(kinds.slice(0, 3)) }) : t("Your turn.");
  }
  const others = toAct.filter((s) => s !== seat).map(name);
  if (!others.length) return t("Nothing is asked of you right now.");
  return others.length === 1
    ? t("Nothing to do yet: it is {name}'s turn.", { name: others[0] })
    : t("Nothing to do yet: waiting for {names}.", { names: listWords(others) });
}

/**
 * What the table can show of the moves since: the other seats that moved, in order, and the ids of
 * the cards their moves name in this seat's log (a card the log hides from the seat has no id there),
 * each with the seat that played it: { seats: [seat], cards: Map(card id as text → seat) }.
 */
export function tableMarks(entries, seat) {
  const seats = [];
  const cards = new Map();
  for (const entry of entries || []) {
    if (!Number.isInteger(entry.seat) || entry.seat === seat) continue;
    if (!seats.includes(entry.seat)) seats.push(entry.seat);
    const card = entry.action?.card;
    if (Number.isInteger(card)) cards.set(String(card), entry.seat);
  }
  return { seats, cards };
}

/** Points gained since: [{seat, name, gained}] for each seat whose total moved. */
export function pointsSince(before, after, name) {
  if (!Array.isArray(before) || !Array.isArray(after)) return [];
  return after
    .map((total, seat) => ({ seat, name: name(seat), gained: total - (before[seat] ?? 0), total }))
    .filter((row) => row.gained !== 0);
}

/**
 * The card's contents, or null when nothing happened that the player did not see: `seen` is what
 * this browser stored ({version, totals}), `log` the GET /log body for this seat, `state` its state
 * body, `totals` the score pad's totals now, `name(seat)` says a seat ("You" for the player's own),
 * `words` the game's action words (its descriptor's `action_words`), `cardPhrase(card)` the game's
 * words for a card (card-phrases.js).
 */
export function recap({ seen, log, state, totals, seat, name, words = {}, cardPhrase = undefined }) {
  if (!seen || !Number.isInteger(seen.version) || state.version <= seen.version) return null;
  const since = entriesSince(log?.entries, seen.version);
  if (!since.some((entry) => entry.seat !== seat)) return null;
  const cards = cardsIn(state.view);
  const fromEvents = cardsFromEvents(log?.entries, state.view?.events, cards);
  const moves = since.map((entry) => moveWords(entry, { words, name, cards, shown: fromEvents.get(entry.seq), cardPhrase, you: seat }));
  const earlier = Math.max(0, moves.length - SHOWN_MOVES);
  return {
    count: since.length,
    moves: moves.slice(earlier),
    earlier,
    points: pointsSince(seen.totals, totals, name),
    ask: askWords(state, seat, name, words),
    yourTurn: (state.to_act || []).includes(seat) && state.status === "playing",
    version: state.version,
    marks: tableMarks(since, seat),
  };
}

// ---------------------------------------------------------------------------
// On the table

const MOVED = "since-moved";
const PLAYED = "since-played";

/** Takes the marks of an earlier return off the table. */
export function unmarkTable(root) {
  for (const node of root?.querySelectorAll(`.${MOVED}, .${PLAYED}`) || []) {
    node.classList.remove(MOVED, PLAYED);
    node.style.removeProperty("--since-seat");
  }
}

/** Where a card flying in from `seat` starts: small, in the middle of the seat's panel. */
function startAt(seat, card) {
  const from = seat.getBoundingClientRect();
  const size = card.getBoundingClientRect();
  const width = size.width * 0.5;
  const height = size.height * 0.5;
  return { left: from.left + (from.width - width) / 2, top: from.top + (from.height - height) / 2, width, height };
}

/**
 * Marks `marks` (tableMarks) on the table `root`: returns { seats, cards, flown }, how many seats
 * and cards it found and how many cards flew in (`flown`: the ids that flew already, kept by the
 * caller across redraws). The colour is set through the CSSOM (the page's
 * Content-Security-Policy allows no style attribute); the pulse and the ring are since.css's.
 */
export function markTable(root, marks, { again = true, flown = new Set() } = {}) {
  const found = { seats: 0, cards: 0, flown: 0 };
  if (!root || !marks) return found;
  if (again) unmarkTable(root);
  const seatNode = (seat) => root.querySelector(`.seat-panel[data-seat="${seat}"]`);
  // `again`: a new showing, the pulse restarted and the cards flown in; otherwise the marks are
  // only put back on a table drawn anew, where they are missing.
  const paint = (node, seat, mark) => {
    if (!again && node.classList.contains(mark)) return false;
    node.style.setProperty("--since-seat", seatStyle(seat).colour);
    node.classList.remove(mark);
    void node.offsetWidth;
    node.classList.add(mark);
    return true;
  };
  for (const seat of marks.seats) {
    const node = seatNode(seat);
    if (!node) continue;
    paint(node, seat, MOVED);
    found.seats += 1;
  }
  for (const [id, seat] of marks.cards) {
    const node = root.querySelector(`[data-card-id="${CSS.escape(id)}"]`);
    if (!node) continue;
    const fresh = paint(node, seat, PLAYED);
    found.cards += 1;
    const from = seatNode(seat);
    // Each card flies once per showing, also when the table draws it only after the marks came.
    if (fresh && !flown.has(id) && from && travel(node, startAt(from, node))) {
      flown.add(id);
      found.flown += 1;
    }
  }
  root.dataset.sinceSeats = String(found.seats);
  root.dataset.sinceCards = String(found.cards);
  root.dataset.sinceFlown = String(Number(root.dataset.sinceFlown || 0) + found.flown);
  return found;
}

// ---------------------------------------------------------------------------
// On the page

/**
 * ctx: { rs (the room state: its seat, room body, games and state body), roomId, box (the card's
 *        element), seatName(seat), announce(text) }.
 * It hears of each state body the page shows from the room state; the card appears once, when the
 * first state after a return is newer than what this browser saw.
 */
export function createSinceYouLeft(ctx) {
  const { rs, roomId, box } = ctx;
  const seatOf = () => rs.get().seat;
  let latest = null;
  let checking = false;
  let shownFor = null;
  // The card is for coming back: it is looked for when the page opens and when it is shown again after
  // being hidden, never for a move that arrives while the player is watching (that one is remembered).
  let armed = true;

  const visible = () => document.visibilityState !== "hidden";
  const totals = () => rs.get().room?.scorepad?.totals || [];
  const name = (seat) => (seat === seatOf()?.seat ? t("You") : ctx.seatName(seat));

  function remember(state) {
    if (!visible() || !box.hidden) return;
    lastSeen.save(roomId, { version: state.version, totals: totals() });
  }

  // The marks of the last return, for the version they were made for: a move that comes while the
  // player watches ends them (it is no return), a redraw of the same version keeps them.
  let shown = null;
  const table = () => document.getElementById("table");

  // The table may still be drawing its first state when the log comes: looked for a few times.
  function showOnTable(tries = 6) {
    const marks = shown?.marks;
    if (!marks || (!marks.seats.length && !marks.cards.size)) return;
    shown.flown.clear();
    const found = markTable(table(), marks, { flown: shown.flown });
    if (!found.seats && !found.cards && tries > 1) setTimeout(() => showOnTable(tries - 1), 250);
  }

  function dismiss() {
    box.hidden = true;
    if (latest) remember(latest);
    // Back to the table: what moved is shown there once more, where the player now looks.
    showOnTable(1);
    table()?.querySelector("button:not([disabled]), [tabindex]")?.focus();
  }

  function draw(found) {
    const pointsLine = found.points.length
      ? h(
          "p",
          { class: "since-points" },
          h("b", {}, t("Points:")),
          " ",
          found.points.map((row, i) => [
            // The reader's own row: "You" here, whatever the moves above say.
            i ? ", " : "",
            h("span", { class: row.gained > 0 ? "since-up" : "since-down" }, [row.seat === seatOf()?.seat ? t("You") : row.name, " ", row.gained > 0 ? "+" : "", String(row.gained)].join("")),
            ` (${row.total})`,
          ]),
        )
      : null;
    fill(
      box,
      h(
        "div",
        { class: "since-head" },
        h("h2", { id: "since-title" }, t("Since you left")),
        h("button", { class: "icon-button since-close", type: "button", "aria-label": t("Dismiss what happened since you left"), onclick: dismiss }, "✕"),
      ),
      h("p", { class: "since-count muted" }, tn("{num} move while you were away", "{num} moves while you were away", found.count)),
      h(
        "ol",
        // It scrolls when the list is long: reachable by Tab, named for a screen reader.
        { class: "since-moves", tabindex: "0", "aria-label": t("Moves while you were away") },
        found.earlier ? h("li", { class: "since-earlier muted" }, tn("…and {num} earlier move", "…and {num} earlier moves", found.earlier)) : null,
        found.moves.map((text) => h("li", {}, text)),
      ),
      pointsLine,
      h("p", { class: `since-ask${found.yourTurn ? " is-your-turn" : ""}` }, found.ask),
      h("div", { class: "button-row" }, h("button", { class: "button button-primary button-small", type: "button", onclick: dismiss }, found.yourTurn ? t("To the table") : t("Got it"))),
    );
    box.hidden = false;
    shown = { marks: found.marks, version: found.version, flown: new Set() };
    showOnTable();
    ctx.announce([tn("Since you left: {num} move.", "Since you left: {num} moves.", found.count), found.ask].join(" "));
  }

  async function check() {
    const seat = seatOf();
    const state = latest;
    if (!seat || !state || checking || !visible() || !box.hidden || state.status === "waiting") return;
    const seen = lastSeen.get(roomId);
    armed = false;
    if (!seen || state.version <= seen.version || shownFor === state.version) {
      remember(state);
      return;
    }
    checking = true;
    try {
      const log = await api("GET", `/api/rooms/${roomId}/log`, { token: seat.token });
      const words = descriptorOf(rs.get())?.action_words;
      const cardPhrase = cardPhraseOf(rs.get().room?.game);
      const found = recap({ seen, log, state, totals: totals(), seat: seat.seat, name, words, cardPhrase });
      shownFor = state.version;
      if (found) draw(found);
      else remember(state);
    } catch {
      // No log to be had just now: the table shows the game as it is; nothing is remembered.
    } finally {
      checking = false;
    }
  }

  document.addEventListener("visibilitychange", () => {
    if (visible()) check();
    else armed = true;
  });

  watch(rs, ["state"], (now) => {
    if (now.state) stateShown(now.state);
  });

  function stateShown(state) {
    // Around one device the page may show another local player's seat: the card is the page's own.
    if (state.seat === null || state.seat === undefined || state.seat !== seatOf()?.seat) return;
    latest = state;
    if (armed) check();
    else remember(state);
  }

  return {
    drawn(state) {
      if (!shown) return;
      if (state.version !== shown.version) {
        shown = null;
        unmarkTable(table());
      } else {
        markTable(table(), shown.marks, { again: false, flown: shown.flown });
      }
    },
  };
}
