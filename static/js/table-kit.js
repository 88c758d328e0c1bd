// What every game table shares, so a renderer keeps only its game: one move at a time
// (send/busy), which events are news (by their seq), keyboard focus kept on a move across
// redraws, the others' moves said in words, and the event log. The functions above
// `tableKit` touch no DOM and run under `node --test`.

import { fill, h } from "./dom.js";
import { firstChoice } from "./phone-first.js";
import { seatAvatar, seatMark, seatStyle } from "./seat-style.js";
import { t } from "./i18n.js";

// ---------------------------------------------------------------------------
// Without a DOM

/** Does `seat` have to act in `state`? A spectator (null seat) never does. */
export function seatActs(state, seat) {
  return seat !== null && seat !== undefined && (state?.to_act || []).includes(seat);
}

/** The other seats in play order, starting with the one after `me` (a spectator sees them from
 * the first seat), so the seats around the table read clockwise from the player's place. */
export function othersInOrder(seats, me) {
  const start = me === null || me === undefined ? 0 : seats.indexOf(me) + 1;
  return [...seats.slice(start), ...seats.slice(0, start)].filter((seat) => seat !== me);
}

/** The events newer than `seenSeq`; before anything was seen (null), nothing is news. */
export function eventsAfter(events, seenSeq) {
  if (seenSeq === null || seenSeq === undefined) return [];
  return events.filter((event) => event.seq > seenSeq);
}

/** The highest seq in `events`, or `floor` when there is none higher. */
export function lastSeq(events, floor = 0) {
  return events.reduce((highest, event) => Math.max(highest, event.seq), floor);
}

/** One move at a time: after a move is sent, further moves wait until the state's version
 * changes (a second move with the same version would only be refused as stale). */
export class MoveGate {
  constructor() {
    this.busy = false;
    this.version = null;
  }

  /** Take the gate for a move; false while another move is in flight. */
  take() {
    if (this.busy) return false;
    this.busy = true;
    return true;
  }

  /** The move was refused or not sent: the same table takes another try. */
  release() {
    this.busy = false;
  }

  /** A state arrived; a new version answers the move in flight. */
  seen(version) {
    if (version === this.version) return;
    this.version = version;
    this.busy = false;
  }
}

/** The others' moves as one sentence for screen readers, then whose turn it is. */
export function movesAnnouncement(said, { myTurn = false, next = null } = {}) {
  if (!said.length) return "";
  const tail = myTurn ? t("Your turn.") : next ? t("{name}'s turn.", { name: next }) : "";
  return [...said, tail].filter(Boolean).join(" ");
}

/** Log lines ({text, kind, seq}, oldest first) with the table chat's messages ({name, text,
 * after, kind}, oldest first) each put right after the event it followed; a message of kind
 * "seat" is the table's own line and keeps no author. A message written before
 * the log's first line (whose events the log no longer holds) or in the waiting room is left
 * to the chat panel, and so is every message when a line has no seq to place it by. */
export function withChat(lines, messages = []) {
  const placed = messages.filter((m) => Number.isInteger(m.after));
  if (!placed.length || lines.some((line) => !Number.isInteger(line.seq))) return lines;
  const first = lines.length ? lines[0].seq : 1;
  // `said`: the line came from the chat. The table's own lines ("Ann's seat moved to another
  // device") have no author.
  const said = (m) =>
    m.kind === "seat"
      ? { text: m.text, kind: "seat", seq: m.after, said: true }
      : { text: m.text, who: m.name, kind: "chat", seq: m.after, said: true };
  const out = placed.filter((m) => m.after < first && m.after >= first - 1).map(said);
  lines.forEach((line, i) => {
    out.push(line);
    const next = i + 1 < lines.length ? lines[i + 1].seq : Infinity;
    out.push(...placed.filter((m) => m.after >= line.seq && m.after < next).map(said));
  });
  return out;
}

/** Log lines ({text, kind, seq, who?}, oldest first) as list entries newest first; an event's
 * line newer than `seenSeq` is marked new (a line from the chat never is: the chat says it). */
export function logEntries(lines, seenSeq) {
  return lines
    .slice()
    .reverse()
    .map((line) => ({
      text: line.text,
      who: line.who ?? null,
      kind: line.kind || "",
      ...(Number.isInteger(line.seat) ? { seat: line.seat } : {}),
      isNew: !line.who && !line.said && seenSeq !== null && seenSeq !== undefined && line.seq > seenSeq,
    }));
}

// ---------------------------------------------------------------------------
// On the page

/**
 * The kit for one mounted table. `root` is the table's element; `ctx` the host's context
 * (`act`, `seatName`, `announce`, `mySeat`, and `sawStart` when the page was open before the
 * deal, so the match's first events are news too); `redraw()` draws the last state again (after a
 * refused move). Controls that make a move carry `data-action`; a stable `data-key` lets
 * focus come back to the same control after a redraw.
 */
export function tableKit(root, ctx, { redraw = () => {} } = {}) {
  const gate = new MoveGate();
  let seenSeq = ctx.sawStart ? 0 : null;
  let news = { version: undefined, events: [], fresh: [], first: true, seenBefore: null };
  // Set when the focused control went away and no move was on offer: the next time there
  // is a move, keyboard focus comes back to the table.
  let focusLost = false;
  // The last log drawn, drawn again with the chat when a message comes.
  let lastLog = null;
  ctx.onChat?.(() => lastLog && kit.renderLog(lastLog.list, lastLog.lines, lastLog.empty));

  const kit = {
    get mySeat() {
      return ctx.mySeat;
    },

    /** "You" (in the reader's words) for this browser's seat, the player's name otherwise (always the name when several
     * players share this page: "you" would change hands). */
    name(seat, object = false) {
      if (seat !== null && seat !== undefined && seat === ctx.mySeat && !ctx.onDevice) return object ? t("you") : t("You");
      return ctx.seatName(seat);
    },

    myTurn(state) {
      return seatActs(state, ctx.mySeat);
    },

    /** The seats other than this browser's, clockwise from its place. */
    others(seats) {
      return othersInOrder(seats, ctx.mySeat);
    },

    /** A seat's round initial, next to its name. */
    avatar(seat) {
      return seatAvatar(seat, ctx.seatName(seat));
    },

    get busy() {
      return gate.busy;
    },

    /** Send an element of legal_actions; ignored while another move is in flight. */
    async send(action) {
      if (!gate.take()) return;
      root.classList.add("is-busy");
      try {
        await ctx.act(action);
      } catch {
        gate.release();
        root.classList.remove("is-busy");
        redraw();
      }
    },

    /** Call first in `update(state)`: frees the gate on a new version and tells which events
     * are news. A redraw of the same version gets the same answer. */
    begin(state) {
      gate.seen(state.version);
      root.classList.toggle("is-busy", gate.busy);
      if (state.version === news.version) return news;
      const events = state.view?.events || [];
      news = {
        version: state.version,
        events,
        fresh: eventsAfter(events, seenSeq),
        first: news.version === undefined,
        seenBefore: seenSeq,
      };
      seenSeq = lastSeq(events, seenSeq ?? 0);
      return news;
    },

    /** Run `render()` keeping keyboard focus on the table: on the same control (by data-key)
     * if it is still there, else on the first move on offer, else on the first move of the
     * player's next turn. */
    keepFocus(render) {
      const before = document.activeElement;
      const hadFocus = root.contains(before);
      const key = hadFocus ? before.dataset?.key : null;
      render();
      const active = document.activeElement;
      // A focused button that became disabled is dropped to <body> by the browser a moment later.
      const nowhere = !active || active === document.body || (root.contains(active) && active.disabled);
      const firstMove = () => firstChoice(root);
      if (hadFocus && (nowhere || !root.contains(active))) {
        const again = key ? root.querySelector(`[data-key="${CSS.escape(key)}"]:not([disabled])`) : null;
        const next = again || firstMove();
        if (next) next.focus({ preventScroll: true });
        else focusLost = true;
      } else if (focusLost && nowhere) {
        const next = firstMove();
        if (next) {
          next.focus({ preventScroll: true });
          focusLost = false;
        }
      } else if (!nowhere) focusLost = false;
    },

    /** Fill `list` with the log, newest first, the lines since the last state marked new and
     * the table chat's messages among them. The kit draws it again when a message comes. */
    renderLog(list, lines, empty = t("Nothing has happened yet.")) {
      lastLog = { list, lines, empty };
      // The log scrolls within its box: keyboard users reach it with Tab, screen readers hear its name.
      if (!list.hasAttribute("tabindex")) list.tabIndex = 0;
      if (!list.hasAttribute("aria-label") && !list.hasAttribute("aria-labelledby")) list.setAttribute("aria-label", t("Game log"));
      const entries = logEntries(withChat(lines, ctx.chat?.() || []), news.seenBefore);
      fill(
        list,
        entries.length
          ? entries.map((entry) =>
              h(
                "li",
                { class: [entry.kind ? `log-${entry.kind}` : "", entry.isNew ? "is-new" : ""].join(" ").trim() || null },
                // A seat's move carries the seat's shape and colour, as on its avatar and score pad line.
                entry.seat !== undefined ? h("span", { class: `log-mark seat-c${seatStyle(entry.seat).index}` }, seatMark(entry.seat, { size: 11 })) : null,
                entry.who ? [h("b", { class: "log-who" }, `${entry.who}:`), " ", entry.text] : entry.text,
              ),
            )
          : h("li", { class: "muted" }, empty),
      );
    },

    /** Say the others' moves (already in words) and whose turn it is now. */
    announceMoves(lines, state, nextSeat) {
      // Lines are words, or {seat, text}: what this seat did itself is not read back to it.
      const said = lines
        .filter((line) => typeof line === "string" || line.seat === undefined || line.seat !== ctx.mySeat)
        .map((line) => (typeof line === "string" ? line : line.text));
      const myTurn = seatActs(state, ctx.mySeat);
      // Without a seat named, the next is whoever alone the game waits for.
      const waited = state.to_act || [];
      const seat = nextSeat === undefined ? (waited.length === 1 ? waited[0] : null) : nextSeat;
      const next = !state.result && seat !== null ? ctx.seatName(seat) : null;
      const text = movesAnnouncement(said, { myTurn, next });
      if (text) ctx.announce(text);
    },
  };
  return kit;
}
