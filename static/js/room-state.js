// The room page's state, in one observable place (DOM-free): the room body, the games' descriptors,
// the seat this page acts as and its connection, the seat's state body, whether it is this seat's
// turn, and what is around one device. The page's modules read it with `get()`, change it with
// `set(patch)`, and hear of changes with `subscribe(fn)`. The table screen keeps its room, state
// and games in a store made by the same `createRoomState`.

import { t } from "./i18n.js";

/** The fields a room page starts with. */
export function initialRoomState() {
  return {
    room: null, // the room body the server pushes (seats, status, score pad, requests)
    games: null, // GET /api/games: every game's descriptor
    seat: null, // { seat, token, name } when this page acts as a seat here
    connection: null, // the active seat's (or the spectator's) RoomConnection
    state: null, // the active connection's state body
    myTurn: false,
    sawStart: false, // this page saw the room before the deal
    joinReason: null,
    joining: false, // the join panel is open: a visitor deciding whether to take a free seat
    // Around one device: a connection per held seat, and the pass-the-device cover.
    device: { conns: new Map(), covered: false, passTo: null, ready: false },
  };
}

/**
 * `createRoomState(initial)` → { get(), set(patch), subscribe(fn) }. `set` merges `patch` into a
 * fresh object (a state handed out by `get` is never changed by a later `set`) and calls every
 * subscriber with (state, changedKeys) when a value actually changed; `subscribe` returns the
 * function that unsubscribes.
 */
export function createRoomState(initial = initialRoomState()) {
  let current = { ...initial };
  const listeners = new Set();
  return {
    get() {
      return current;
    },
    set(patch) {
      const changed = Object.keys(patch).filter((key) => !Object.is(current[key], patch[key]));
      if (!changed.length) return changed;
      current = { ...current, ...patch };
      for (const fn of [...listeners]) fn(current, changed);
      return changed;
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

/**
 * `watch(store, keys, fn)`: subscribes `fn(state, changedKeys)` to `keys` only, so a part that
 * draws the room body is not called for a state body; returns the function that unsubscribes.
 */
export function watch(store, keys, fn) {
  return store.subscribe((state, changed) => {
    if (keys.some((key) => changed.includes(key))) fn(state, changed);
  });
}

/**
 * Whether `incoming` should replace `current` as the room body shown. Bodies come by socket and by
 * HTTP, from any server process, so an older one can arrive last: each carries a `revision` that
 * grows with every change, and an older one is dropped. Equal revisions show the same changes, so
 * the later one is kept; another room (a rematch) always replaces.
 */
export function isNewerRoom(current, incoming) {
  if (!current || !incoming || current.room_id !== incoming.room_id) return true;
  if (typeof current.revision !== "number" || typeof incoming.revision !== "number") return true;
  return incoming.revision >= current.revision;
}

/**
 * `setRoom(store, room)`: keeps `room` as the store's room body when it is newer than the one held
 * (`isNewerRoom`), so no page writes the revision rule again; true when it was kept.
 */
export function setRoom(store, room) {
  if (!isNewerRoom(store.get().room, room)) return false;
  store.set({ room });
  return true;
}

/** The name of `seat` as the room body has it ("Seat 3" when it is not listed). */
export function seatNameIn(room, seat) {
  const entry = room?.seats?.find((s) => s.seat === seat);
  return entry?.name || t("Seat {num}", { num: seat + 1 });
}

/** The descriptor `GET /api/games` serves for the room's game, or null. */
export function descriptorOf(state) {
  return state.games?.find((g) => g.id === state.room?.game) || null;
}

/** How many seats are still free (1 while the descriptor is not known). */
export function freeSeats(state) {
  const game = descriptorOf(state);
  if (!game) return 1;
  return game.max_players - state.room.seats.length;
}

/** Whether `state` (a state body) waits for `seat`. */
export function isTurnOf(state, seat) {
  return seat !== null && seat !== undefined && (state?.to_act || []).includes(seat);
}
