// Which requests for this browser's seats a page asks about (static/js/seat-asks.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { gameWords, seatAsks } from "../../static/js/seat-asks.js";

const summary = (room_id, requests, extra = {}) => ({
  room_id,
  found: true,
  game: "mojo",
  seat: 0,
  name: "Ann",
  players: [
    { seat: 0, name: "Ann", bot: false },
    { seat: 1, name: "Bo", bot: false },
    { seat: 2, name: "Bot", bot: true },
  ],
  seat_requests: requests,
  ...extra,
});

test("every held seat's open requests, oldest first, but the room this page shows", () => {
  const late = { id: "r2", seat: 0, at: "2026-12-06T10:05:00+00:00", status: "pending" };
  const early = { id: "r1", seat: 0, at: "2026-12-06T10:00:00+00:00", status: "waiting" };
  const here = { id: "r3", seat: 0, at: "2026-12-06T09:00:00+00:00", status: "pending" };
  const found = seatAsks([summary("a", [late]), summary("b", [early]), summary("c", [here]), { room_id: "d", found: false }], "c");
  assert.deepEqual(found.map((f) => f.request.id), ["r1", "r2"]);
  assert.deepEqual(seatAsks(undefined), []);
});

test("a game is named with the people in it", () => {
  const title = (id) => ({ mojo: "Mojo" })[id];
  assert.equal(gameWords(summary("a", []), title), "Mojo with Bo");
  assert.equal(gameWords(summary("a", [], { players: [{ seat: 0, name: "Ann" }] }), title), "Mojo");
});
