import assert from "node:assert/strict";
import { test } from "node:test";

import { alertTrouble, badgeCount, keyBytes, nextWaiting, shouldOffer, support } from "../../static/js/push.js";

test("a refused permission is said in words with what to do, never the browser's message", () => {
  const refused = alertTrouble(Object.assign(new Error("Registration failed - permission denied"), { name: "NotAllowedError" }));
  assert.match(refused, /allow notifications/);
  assert.doesNotMatch(refused, /Registration failed/);
  assert.match(alertTrouble(Object.assign(new Error("Registration failed - push service error"), { name: "AbortError" })), /could not be reached/);
  assert.match(alertTrouble(new Error("something odd")), /email alerts/);
  assert.doesNotMatch(alertTrouble(new Error("something odd")), /odd/);
  assert.match(alertTrouble(new Error("x"), false), /turned off/);
});

test("the server's base64url key becomes the 65 bytes of an uncompressed P-256 point", () => {
  const bytes = new Uint8Array(65).map((_, i) => (i === 0 ? 4 : (i * 37) % 256));
  const base64url = Buffer.from(bytes).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  assert.ok(base64url.includes("-") || base64url.includes("_"), "the sample uses the url-safe letters");
  assert.deepEqual(keyBytes(base64url), bytes);
});

const able = { serviceWorker: true, pushManager: true, notification: true, secure: true, permission: "default" };

test("alerts are offered only where the browser can show them", () => {
  assert.equal(support(able), "ok");
  assert.equal(support({ ...able, pushManager: false }), "unsupported");
  assert.equal(support({ ...able, secure: false }), "insecure");
  assert.equal(support({ ...able, permission: "denied" }), "blocked");
});

const leaving = { hidden: true, playing: true, seated: true, subscribed: false, offered: false, supported: "ok" };

test("the offer comes when a seated player leaves the tab of a game in play, once", () => {
  assert.equal(shouldOffer(leaving), true);
  assert.equal(shouldOffer({ ...leaving, hidden: false }), false);
  assert.equal(shouldOffer({ ...leaving, playing: false }), false);
  assert.equal(shouldOffer({ ...leaving, seated: false }), false);
  assert.equal(shouldOffer({ ...leaving, subscribed: true }), false);
  assert.equal(shouldOffer({ ...leaving, offered: true }), false);
  assert.equal(shouldOffer({ ...leaving, supported: "blocked" }), false);
});

test("the badge counts the games waiting for this browser, and only those it still holds", () => {
  let waiting = nextWaiting({}, "a", true, ["a", "b"]);
  waiting = nextWaiting(waiting, "b", true, ["a", "b"]);
  assert.equal(badgeCount(waiting), 2);
  waiting = nextWaiting(waiting, "a", false, ["a", "b"]);
  assert.deepEqual(waiting, { b: true });
  // A room this browser forgot drops out, and a room it holds no seat in is never counted.
  assert.deepEqual(nextWaiting(waiting, "c", true, ["a"]), {});
  assert.equal(badgeCount(nextWaiting({ x: "junk" }, "a", false, ["a", "x"])), 0);
});
