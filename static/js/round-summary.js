// The round summary every table shares: when a round ends, a panel over the table says what each
// player scored and why (the renderer's lines), the running totals, and then "next round"; at the
// game's end the same panel lists the final scores by rank. The renderer supplies only its game's
// words through `roundSummary(event, view, name)`:
//   { intro?: string, rows: [{ seat, why: [string], cards?: [card faces] }] }
// The functions above `SummaryPanel` touch no DOM and run under `node --test`.

import { fill, h } from "./dom.js";
import { lang, t, tn } from "./i18n.js";
import { listWords } from "./words.js";

/** Seconds a round summary stays before the next round shows by itself. */
export const NEXT_ROUND_SECONDS = 12;

/** The newest "round_end" event newer than `seenSeq` (null: none). */
export function newRoundEnd(events, seenSeq) {
  let found = null;
  for (const event of events || []) {
    if (event.type === "round_end" && event.seq > (seenSeq ?? 0) && (!found || event.seq > found.seq)) found = event;
  }
  return found;
}

/** The round's points per seat from a round_end event (games name the field differently). */
export function roundPoints(event) {
  return event.scores || event.points || [];
}

/**
 * Running totals after `round`, from the room's score pad when it already holds that round,
 * else the score pad's totals plus this round's points (the room body may arrive a moment later).
 */
export function totalsAfter(scorepad, round, points) {
  const rounds = scorepad?.rounds || [];
  if (rounds.length >= round) {
    return points.map((_, seat) => rounds.slice(0, round).reduce((sum, row) => sum + (row[seat] || 0), 0));
  }
  const totals = scorepad?.totals || [];
  return points.map((p, seat) => (totals[seat] || 0) + p);
}

/**
 * Seats in rank order for the descriptor's `winner` rule; equal totals share a rank, unless the
 * descriptor's `ties` is "broken": then the result's `winners` rank above the seats they tied with
 * (Mooki Island's youngest on equal stars).
 */
export function ranked(totals, winner, { winners = [], ties = "shared" } = {}) {
  const better = winner === "lowest_total" ? (a, b) => a - b : (a, b) => b - a;
  const broken = ties === "broken";
  const won = (seat) => (broken && winners.includes(seat) ? 0 : 1);
  const order = totals.map((total, seat) => ({ seat, total })).sort((a, b) => better(a.total, b.total) || won(a.seat) - won(b.seat) || a.seat - b.seat);
  let rank = 0;
  return order.map((entry, i) => {
    const previous = order[i - 1];
    if (i === 0 || entry.total !== previous.total || won(entry.seat) !== won(previous.seat)) rank = i + 1;
    return { ...entry, rank };
  });
}

// How each language writes a rank in figures: 1er, 1., 1e, 1.º, 1º.
const RANKS = {
  fr: (n) => (n === 1 ? "1er" : `${n}e`),
  de: (n) => `${n}.`,
  nl: (n) => `${n}e`,
  es: (n) => `${n}.º`,
  it: (n) => `${n}º`,
};

/** "1st", "2nd", "3rd", "4th"… (in the reader's language). */
export function ordinal(n) {
  if (RANKS[lang]) return RANKS[lang](n);
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${tail}`;
}

/** A round's points with their sign, for a column headed by the round: "+12", "0". */
export function signed(points) {
  return `${points > 0 ? "+" : ""}${points}`;
}

/** A round's points with their sign, never ambiguous next to a total: "+12 points", "0 points". */
export function gained(points) {
  const words = tn("{num} point", "{num} points", points);
  return points > 0 ? "+" + words : words;
}

/** How the descriptor's winner rule reads on the final list. */
export function winnerRule(winner) {
  if (winner === "lowest_total") return t("The lowest total wins.");
  if (winner === "highest_total") return t("The highest total wins.");
  return "";
}

// ---------------------------------------------------------------------------
// On the page

/**
 * The panel over the table. `host` gives `seatName(seat)`, `mySeat`, `winner` (descriptor) and
 * `describe(event, view)` (the renderer's `roundSummary`, or null for the generic lines).
 */
export class SummaryPanel {
  constructor(node, host) {
    this.node = node;
    this.host = host;
    this.seenSeq = null; // round ends up to here were shown (or were before this page opened)
    this.shown = null; // { event, final }
    this.timer = null;
    this.left = 0;
    this.finalShown = false;
    this.watchedPlay = false;
  }

  name(seat) {
    return seat === this.host.mySeat ? t("You") : this.host.seatName(seat);
  }

  /** Called on every state: opens the panel on a new round end, or the final list at the end. */
  update(state, room, { sawStart = false } = {}) {
    const view = state?.view || {};
    const events = view.events || [];
    if (!state.result) this.watchedPlay = true;
    if (this.seenSeq === null) {
      // A page opened mid-match does not replay old round ends; one opened before the deal does.
      const newest = newRoundEnd(events, 0);
      this.seenSeq = sawStart || state.result ? 0 : newest ? newest.seq : 0;
    }
    const fresh = newRoundEnd(events, this.seenSeq);
    if (fresh) {
      this.seenSeq = fresh.seq;
      this.finalShown = Boolean(state.result);
      this.open(fresh, Boolean(state.result), state, room);
    } else if (state.result && !this.finalShown && (sawStart || this.watchedPlay)) {
      // A game without rounds still gets its final list when it ends under this page's eyes.
      this.finalShown = true;
      this.open({ type: "game_end", seq: 0, round: view.round || 1 }, true, state, room);
    } else if (this.shown) {
      this.draw(state, room); // the room body (totals) may have come in since
    }
  }

  open(event, final, state, room) {
    this.shown = { event, final };
    clearInterval(this.timer);
    this.timer = null;
    if (!final) {
      this.left = NEXT_ROUND_SECONDS;
      this.timer = setInterval(() => {
        this.left -= 1;
        if (this.left <= 0) this.close();
        else this.tick();
      }, 1000);
    }
    this.draw(state, room);
    // On its closing button: Enter goes on ("Next round", "See the table"); a rematch offered
    // beside it is one Tab away, never pressed by accident.
    (this.node.querySelector("button.summary-close") || this.node.querySelector("button"))?.focus({ preventScroll: true });
  }

  close() {
    const final = Boolean(this.shown?.final);
    const hadFocus = this.node.contains(document.activeElement);
    clearInterval(this.timer);
    this.timer = null;
    this.shown = null;
    this.node.hidden = true;
    this.node.replaceChildren();
    // Keyboard focus goes back to the game: the result at the end, else the first move on offer.
    if (hadFocus) this.host.afterClose?.(final);
  }

  tick() {
    const note = this.node.querySelector(".summary-countdown");
    if (note) note.textContent = t("The next round shows in {num} s.", { num: this.left });
  }

  draw(state, room) {
    const { event, final } = this.shown;
    const view = state?.view || {};
    const points = roundPoints(event);
    const hasPoints = points.length > 0;
    const totals = final && state.result ? state.result.scores : totalsAfter(room?.scorepad, event.round, points);
    const said = (event.type === "round_end" && this.host.describe?.(event, view, (seat) => this.name(seat))) || { rows: [] };
    const why = new Map((said.rows || []).map((row) => [row.seat, row]));
    const order = final ? ranked(totals, this.host.winner, { winners: state.result?.winners || [], ties: this.host.ties }) : points.map((_, seat) => ({ seat, total: totals[seat] }));
    const winners = state.result?.winners || [];
    const key = JSON.stringify([event.seq, final, totals, winners, this.host.mySeat, final ? this.host.finalKey?.() : null]);
    if (this.node.dataset.key === key && !this.node.hidden) return;
    this.node.dataset.key = key;
    this.node.hidden = false;
    const names = listWords(winners.map((s) => this.name(s)));
    let title;
    if (!final) title = t("Round {round} is over", { round: event.round });
    else if (winners.includes(this.host.mySeat)) {
      // The reader among the winners: a sentence of its own, its verb agreeing with "you".
      const others = listWords(winners.filter((s) => s !== this.host.mySeat).map((s) => this.name(s)));
      title = winners.length === 1 ? t("Game over: You win!") : t("Game over: You and {names} win!", { names: others });
    } else if (winners.length === 1) title = t("Game over: {name} wins!", { name: names });
    else title = t("Game over: {names} win!", { names });
    fill(
      this.node,
      h(
        "div",
        { class: "summary-card", role: "dialog", "aria-modal": "false", "aria-labelledby": "summary-title" },
        h("h2", { id: "summary-title" }, title),
        said.intro ? h("p", { class: "summary-intro" }, said.intro) : null,
        final
          ? h(
              "p",
              { class: "summary-intro" },
              [hasPoints ? tn("Final scores after {num} round.", "Final scores after {num} rounds.", event.round) : t("Final scores."), winnerRule(this.host.winner)]
                .filter(Boolean)
                .join(" "),
            )
          : null,
        h(
          "table",
          { class: "summary-table" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              final ? h("th", { scope: "col", class: "summary-rank" }, t("Rank")) : null,
              h("th", { scope: "col" }, t("Player")),
              hasPoints ? h("th", { scope: "col", class: "summary-points" }, t("Round {round}", { round: event.round })) : null,
              h("th", { scope: "col", class: "summary-total" }, t("Total")),
            ),
          ),
          h(
            "tbody",
            {},
            order.map(({ seat, rank }) => {
              const row = why.get(seat);
              return h(
                "tr",
                { class: [seat === this.host.mySeat ? "is-you" : "", winners.includes(seat) ? "is-winner" : ""].join(" ").trim() || null, "data-seat": seat },
                final ? h("td", { class: "summary-rank" }, ordinal(rank)) : null,
                h(
                  "th",
                  { scope: "row", class: "summary-who" },
                  h("span", { class: "summary-name" }, this.name(seat)),
                  row?.cards?.length ? h("span", { class: "summary-cards" }, row.cards) : null,
                  (row?.why || []).map((line) => h("span", { class: "summary-why" }, line)),
                ),
                hasPoints ? h("td", { class: "summary-points" }, signed(points[seat] ?? 0)) : null,
                h("td", { class: "summary-total" }, String(totals[seat] ?? 0)),
              );
            }),
          ),
        ),
        final ? null : h("p", { class: "summary-countdown muted small", "aria-live": "off" }, t("The next round shows in {num} s.", { num: this.left })),
        h(
          "div",
          { class: "button-row" },
          // At the end the host may offer the rematch right here (a player should not have to
          // close the list to find it).
          final ? this.host.finalActions?.() : null,
          h("button", { class: `button summary-close${final && this.host.finalActions?.() ? "" : " button-primary"}`, type: "button", onclick: () => this.close() }, final ? t("See the table") : t("Next round")),
        ),
      ),
    );
  }
}
