// What you must do, on screen: when a match starts on this page or a turn comes to it, the page
// scrolls so that the player's hand and the choices the table offers now are in view below the
// sticky site header. A phone shows one screen at a time: without this the hand may sit under the
// score pad or the fold. Nothing moves while the player types (chat, a name) or when it is all in
// view already.

// The parts of a table that are "what you must do": the enabled moves, and the hand they come from.
export const CHOICES = "[data-action]:not([disabled])";
const HAND = "#hand, .my-hand, [data-role=hand]";

/** The page-space box around `nodes` (top, bottom), or null when none is drawn. */
function spanOf(nodes) {
  let top = Infinity;
  let bottom = -Infinity;
  for (const node of nodes) {
    const box = node.getBoundingClientRect();
    if (!box.width && !box.height) continue;
    top = Math.min(top, box.top + window.scrollY);
    bottom = Math.max(bottom, box.bottom + window.scrollY);
  }
  return top === Infinity ? null : { top, bottom };
}

function headerHeight() {
  const header = document.querySelector(".site-header");
  if (!header || getComputedStyle(header).position !== "sticky") return 0;
  return header.getBoundingClientRect().height;
}

function typing() {
  const active = document.activeElement;
  return Boolean(active?.matches?.("input:not([type=checkbox]):not([type=radio]), textarea, select"));
}

// With them when there is room: the line saying what to do, your own seat's head, and whatever
// else a table marks as the words that ask for the move (`data-role="prompt"`).
const CONTEXT = ".table-status.is-you, .table-mine, [data-role=prompt]:not([hidden])";

/** How much of the screen's foot the request layer (takeback, pause, seat requests) covers. */
function layerHeight() {
  const layer = document.getElementById("request-layer");
  const box = layer?.getBoundingClientRect();
  return box?.height ? Math.max(0, window.innerHeight - box.top) : 0;
}

/** The page's visible band below the sticky header and above the request layer: { top, bottom }
 *  in page space. */
function band(margin = 8) {
  return { top: window.scrollY + headerHeight() + margin, bottom: window.scrollY + window.innerHeight - layerHeight() - margin };
}

/** The first move `table` offers now (null: none). */
export function firstChoice(table) {
  return table.querySelector(CHOICES);
}

/** Where the page's top should come to (page space, before the header and margin are taken off),
 * or null when nothing needs to move. `core`: the span of the moves and the hand; `wide`: that with
 * the words asking for them; `leads`: the boxes of those words; `band`: the visible band. All of
 * it when it fits (its end at the screen's end, so what leads up to it shows too); otherwise its
 * start under the header, with the words that sit just above the moves (a prompt no further up
 * than a third of the screen: "Pick the trick…" over a list of dozens) read first. */
export function scrollTarget({ core, wide, leads = [], band: { top, bottom } }) {
  const room = bottom - top;
  const span = wide && wide.bottom - wide.top <= room ? wide : core;
  if (span.top >= top && span.bottom <= bottom) return null;
  if (span.bottom - span.top <= room) return Math.min(span.top, span.bottom - room);
  const above = leads.filter((box) => box.bottom <= span.top + 1 && span.top - box.top <= room / 3);
  return Math.min(span.top, ...above.map((box) => box.top));
}

/** Scroll `table` so its hand and enabled choices show (with the words that ask for them when
 *  all fits one screen); returns whether it scrolled. */
export function bringChoicesIntoView(table) {
  if (!table || typing()) return false;
  const core = spanOf(table.querySelectorAll(`${CHOICES}, ${HAND}`));
  if (!core) return false;
  const margin = 8;
  const context = [...table.querySelectorAll(CONTEXT)];
  const leads = context.map((node) => spanOf([node])).filter(Boolean);
  const wide = spanOf(table.querySelectorAll(`${CHOICES}, ${HAND}, ${CONTEXT}`));
  const wanted = scrollTarget({ core, wide, leads, band: band(margin) });
  if (wanted === null) return false;
  const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  window.scrollTo({ top: Math.max(0, wanted - headerHeight() - margin), behavior: reduce ? "auto" : "smooth" });
  return true;
}

/**
 * `createPhoneFirst()` → { after(table, { key, acting, seat, step, blocked }) }: call after each
 * table render with the match's key (a new key: a new match on this page), whether this page has a
 * move to make, the seat it acts as and the table's step (the state's version: a move made). It
 * scrolls when the match is new to the page or the page's turn just came: it had no move before,
 * (around one device) the device went to another player who has one, or a move was made and this
 * page has moves to make after it, its own move included (Mokuru's next step of your turn, your
 * verdict on a trick, a Mooki Island card's side after its take). A redraw of the same step (chat,
 * presence, a countdown) never scrolls, and nothing moves when the moves are in view already.
 */
export function createPhoneFirst() {
  let shownKey = null;
  let wasActing = false;
  let wasSeat = null;
  let wasStep = null;
  return {
    after(table, { key, acting, seat = null, step = null, blocked = false }) {
      const fresh = key !== shownKey;
      const moved = step !== null && wasStep !== null && step !== wasStep;
      const turnCame = acting && (!wasActing || seat !== wasSeat || moved);
      wasActing = acting;
      wasSeat = seat;
      wasStep = step;
      if (blocked) return;
      if (fresh || turnCame) {
        shownKey = key;
        // After the browser laid the new table out.
        requestAnimationFrame(() => bringChoicesIntoView(table));
      }
    },
  };
}
