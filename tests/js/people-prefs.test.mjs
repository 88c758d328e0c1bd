// What a browser keeps about a room's people: mutes, "just watching", the request it waits on.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { ASKED_KEY, MUTED_KEY, NOTIFY_KEY, readJson, roomPrefs } from "../../static/js/people-prefs.js";
import { memoryStore } from "../../static/js/storage.js";

describe("room prefs", () => {
  it("keeps each room's mutes apart", () => {
    const store = memoryStore();
    const a = roomPrefs(store, "a");
    const b = roomPrefs(store, "b");
    assert.deepEqual(a.muted(), []);
    a.setMuted([1, "Cy"]);
    assert.deepEqual(a.muted(), [1, "Cy"]);
    assert.deepEqual(b.muted(), []);
    assert.deepEqual(JSON.parse(store.getItem(MUTED_KEY)), { a: [1, "Cy"] });
  });

  it("sets and clears just watching and the asked request", () => {
    const store = memoryStore();
    const p = roomPrefs(store, "r");
    assert.equal(p.justWatching(), false);
    p.setJustWatching(true);
    assert.equal(p.justWatching(), true);
    p.setJustWatching(false);
    assert.equal(p.justWatching(), false);
    assert.equal(p.asked(), null);
    p.setAsked({ request_id: "q", seat: 1 });
    assert.deepEqual(p.asked(), { request_id: "q", seat: 1 });
    p.setAsked(null);
    assert.equal(p.asked(), null);
    assert.deepEqual(JSON.parse(store.getItem(ASKED_KEY)), {});
  });

  it("keeps the notification opt-in as on/off", () => {
    const store = memoryStore();
    const p = roomPrefs(store, "r");
    assert.equal(p.notify(), false);
    p.setNotify(true);
    assert.equal(store.getItem(NOTIFY_KEY), "on");
    assert.equal(p.notify(), true);
    p.setNotify(false);
    assert.equal(store.getItem(NOTIFY_KEY), "off");
  });

  it("reads broken JSON as the fallback", () => {
    const store = memoryStore();
    store.setItem(MUTED_KEY, "{not json");
    assert.deepEqual(readJson(store, MUTED_KEY, {}), {});
    assert.deepEqual(roomPrefs(store, "r").muted(), []);
  });
});
