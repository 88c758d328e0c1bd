// The room page's observable state: get/set/subscribe and the small readers over it.

import assert from "node:assert/strict";
import { describe, it, test } from "node:test";

import {
  createRoomState,
  descriptorOf,
  freeSeats,
  initialRoomState,
  isNewerRoom,
  isTurnOf,
  seatNameIn,
  setRoom,
  watch,
} from "../../static/js/room-state.js";

describe("room state", () => {
  it("starts from the page's initial fields", () => {
    const rs = createRoomState();
    assert.equal(rs.get().room, null);
    assert.equal(rs.get().seat, null);
    assert.equal(rs.get().myTurn, false);
    assert.ok(rs.get().device.conns instanceof Map);
    assert.notEqual(initialRoomState().device, initialRoomState().device);
  });

  it("merges a patch into a fresh object and tells subscribers what changed", () => {
    const rs = createRoomState();
    const before = rs.get();
    const heard = [];
    rs.subscribe((state, changed) => heard.push([state.room?.status, changed]));
    const room = { status: "waiting", seats: [] };
    assert.deepEqual(rs.set({ room, myTurn: false }), ["room"]);
    assert.equal(before.room, null, "a state handed out does not change");
    assert.equal(rs.get().room, room);
    assert.deepEqual(heard, [["waiting", ["room"]]]);
  });

  it("stays quiet when nothing changed, and unsubscribes", () => {
    const rs = createRoomState();
    let calls = 0;
    const off = rs.subscribe(() => calls++);
    rs.set({ seat: null });
    assert.equal(calls, 0);
    rs.set({ seat: { seat: 0 } });
    assert.equal(calls, 1);
    off();
    rs.set({ seat: { seat: 1 } });
    assert.equal(calls, 1);
  });

  it("lets a subscriber unsubscribe while being told", () => {
    const rs = createRoomState();
    const order = [];
    const off = rs.subscribe(() => {
      order.push("a");
      off();
    });
    rs.subscribe(() => order.push("b"));
    rs.set({ myTurn: true });
    rs.set({ myTurn: false });
    assert.deepEqual(order, ["a", "b", "b"]);
  });
});

describe("readers", () => {
  const room = { game: "mojo", seats: [{ seat: 0, name: "Ann" }, { seat: 2, name: "Cy" }] };
  const games = [{ id: "mojo", max_players: 5 }, { id: "mokuru", max_players: 2 }];

  it("names a seat from the room body", () => {
    assert.equal(seatNameIn(room, 2), "Cy");
    assert.equal(seatNameIn(room, 1), "Seat 2");
    assert.equal(seatNameIn(null, 0), "Seat 1");
  });

  it("finds the room's descriptor and the free seats", () => {
    assert.equal(descriptorOf({ room, games }).id, "mojo");
    assert.equal(descriptorOf({ room, games: null }), null);
    assert.equal(freeSeats({ room, games }), 3);
    assert.equal(freeSeats({ room, games: null }), 1);
  });

  it("says whose turn a state body waits for", () => {
    assert.equal(isTurnOf({ to_act: [0, 2] }, 2), true);
    assert.equal(isTurnOf({ to_act: [0] }, 2), false);
    assert.equal(isTurnOf({ to_act: [0] }, null), false);
    assert.equal(isTurnOf(null, 0), false);
  });
});

test("an older room body is dropped, an equal or newer one kept, another room always taken", () => {
  const body = (revision, extra = {}) => ({ room_id: "r1", revision, seats: [], ...extra });
  assert.equal(isNewerRoom(null, body(3)), true);
  assert.equal(isNewerRoom(body(3), body(4)), true);
  assert.equal(isNewerRoom(body(3), body(3)), true);
  // A GET answered late by a loaded process must not undo a join the socket already showed.
  assert.equal(isNewerRoom(body(4, { seats: [{}, {}] }), body(3, { seats: [{}] })), false);
  assert.equal(isNewerRoom(body(9), { ...body(0), room_id: "r2" }), true);
  // A server from before revisions: nothing to compare, the body that came last is kept.
  assert.equal(isNewerRoom({ room_id: "r1" }, { room_id: "r1" }), true);
});

test("setRoom keeps the newest room body in a store, and only the room's subscribers hear of it", () => {
  // The table screen's store: the same function, its own fields.
  const store = createRoomState({ room: null, games: null, state: null });
  const heard = { room: 0, state: 0 };
  store.subscribe((_, changed) => {
    for (const key of changed) heard[key] += 1;
  });
  const body = (revision) => ({ room_id: "r1", revision, seats: [] });
  const fourth = body(4);
  assert.equal(setRoom(store, fourth), true);
  assert.equal(setRoom(store, body(3)), false, "a late, older body is dropped");
  assert.equal(store.get().room, fourth);
  assert.equal(setRoom(store, body(5)), true);
  assert.equal(store.get().room.revision, 5);
  assert.deepEqual(heard, { room: 2, state: 0 });
  store.set({ state: { version: 1 } });
  assert.deepEqual(heard, { room: 2, state: 1 });
});

test("watch calls a part only for the keys it draws from, and unsubscribes", () => {
  const store = createRoomState();
  const heard = [];
  const off = watch(store, ["room", "seat"], (state, changed) => heard.push(changed));
  store.set({ state: { version: 1 }, myTurn: true });
  assert.deepEqual(heard, [], "a state body is not the room's part's business");
  store.set({ room: { room_id: "r1" }, state: { version: 2 } });
  store.set({ seat: { seat: 0 } });
  assert.deepEqual(heard, [["room", "state"], ["seat"]]);
  off();
  store.set({ seat: null });
  assert.equal(heard.length, 2);
});
