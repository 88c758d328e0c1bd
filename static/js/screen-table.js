// The table screen as the table: until the host marks it, it shows a short code in a corner that
// the host types on their own page ("Use a screen as the table"): a TV needs no keyboard. Once
// marked, its token (kept in this browser) starts the match, seats a bot and opens the rematch; it
// holds no seat, so the screen still reads the public view only. The mark is the server's: the room
// body's `table_screen` says one is marked, `GET /screens/me` whether it is this one. When codes
// give way to newer ones the server says so on the room's socket (`{"type": "screens"}`), and the
// screen looks at once (`check`) instead of showing a dead code.

import { api, ApiError } from "./api.js";

// A code lives 30 minutes on the server: a fresh one well before, while nobody typed it.
const CODE_REFRESH_MS = 20 * 60_000;
// A new code refused (the room's screens asked for many just now, or the server is away): ask again
// after this long, showing no code meanwhile rather than a dead one.
const PAIR_RETRY_MS = 20_000;

const keyOf = (roomId) => `motable.screen-token.${roomId}`;

function stored(roomId) {
  try {
    return localStorage.getItem(keyOf(roomId));
  } catch {
    return null;
  }
}

function store(roomId, token) {
  try {
    if (token) localStorage.setItem(keyOf(roomId), token);
    else localStorage.removeItem(keyOf(roomId));
  } catch {
    // Storage blocked: the token lasts as long as the page.
  }
}

/** ctx: { roomId, changed() (the marked state or the code changed: redraw) } */
export function createTableMark(ctx) {
  const { roomId } = ctx;
  const mark = { token: stored(roomId), marked: false, code: null, checking: null, again: false, refreshed: 0, retry: null };

  async function pair() {
    const made = await api("POST", `/api/rooms/${roomId}/screens`);
    mark.token = made.token;
    mark.code = made.code;
    mark.marked = false;
    mark.refreshed = Date.now();
    store(roomId, made.token);
  }

  /** Ask the server what this screen is now (a fresh code when its old one lapsed or was replaced). */
  function check() {
    if (mark.checking) {
      // Asked again while a look is under way: it may have read the server before the change.
      mark.again = true;
      return mark.checking;
    }
    mark.checking = (async () => {
      try {
        if (!mark.token) {
          await pair();
          return;
        }
        const now = await api("GET", `/api/rooms/${roomId}/screens/me`, { token: mark.token });
        mark.marked = now.marked;
        mark.code = now.code;
        // A code from before this page loaded is counted from the load (it lives 30 minutes).
        mark.refreshed ||= Date.now();
        if (!now.marked && Date.now() - mark.refreshed > CODE_REFRESH_MS) await pair();
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== "unauthorized") throw error;
        // The code lapsed or gave way to newer ones: it is never shown again, even if no new one comes.
        Object.assign(mark, { token: null, code: null, marked: false });
        store(roomId, null);
        await pair();
      }
    })()
      .catch((error) => {
        console.info("the table code cannot be fetched now:", error.message);
        if (!mark.token && !mark.retry) {
          mark.retry = setTimeout(() => {
            mark.retry = null;
            check();
          }, PAIR_RETRY_MS);
        }
      })
      .finally(() => {
        mark.checking = null;
        ctx.changed();
        if (mark.again) {
          mark.again = false;
          check();
        }
      });
    return mark.checking;
  }

  let seen = null;
  /** A room body arrived: look again while a screen is marked (the host may just have typed this
   * screen's code, or marked another one instead), and when the mark went away. Room bodies come
   * when seats, presence or scores change: a few looks a minute at most. */
  function roomChanged(room) {
    const flag = Boolean(room.table_screen);
    if (!flag && seen === false) return;
    seen = flag;
    check();
  }

  /** The screen follows the table into the rematch: its mark went along, so its token goes too. */
  function carryTo(rematchId) {
    if (mark.marked && mark.token) {
      try {
        localStorage.setItem(keyOf(rematchId), mark.token);
      } catch {
        // Storage blocked: the rematch's screen pairs again.
      }
    }
  }

  /** A host action from the sofa: the marked screen's token stands in for the host's. */
  async function host(method, path, body) {
    try {
      return await api(method, `/api/rooms/${roomId}${path}`, { token: mark.token, body });
    } catch (error) {
      if (error instanceof ApiError && error.code === "unauthorized") check();
      throw error;
    }
  }

  setInterval(() => {
    if (!mark.marked) check();
  }, CODE_REFRESH_MS / 4);

  return {
    get marked() {
      return mark.marked;
    },
    get code() {
      return mark.code;
    },
    check,
    roomChanged,
    carryTo,
    host,
  };
}
