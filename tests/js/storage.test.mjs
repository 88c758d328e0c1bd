// The page keeps working when the browser blocks site storage: values live in memory instead.
import assert from "node:assert/strict";
import { test } from "node:test";

import { memoryStore, playerName, seats, setting, storageBlocked } from "../../static/js/storage.js";

test("without a window (or with storage blocked) nothing throws and values last while the page is open", () => {
  assert.equal(storageBlocked, true);
  assert.equal(seats.get("room1"), null);
  seats.save("room1", { seat: 2, token: "t" });
  assert.equal(seats.get("room1").seat, 2);
  assert.equal(seats.get("room1").room_id, "room1");
  seats.forget("room1");
  assert.equal(seats.get("room1"), null);
  playerName.set("Bo");
  assert.equal(playerName.get(), "Bo");
});

test("a setting reads off until it is turned on", () => {
  const sound = setting("test.sound");
  assert.equal(sound.on, false);
  sound.on = true;
  assert.equal(sound.on, true);
  sound.on = false;
  assert.equal(sound.on, false);
});

test("the memory store answers like localStorage", () => {
  const store = memoryStore();
  assert.equal(store.getItem("k"), null);
  store.setItem("k", 5);
  assert.equal(store.getItem("k"), "5");
  store.removeItem("k");
  assert.equal(store.getItem("k"), null);
});
