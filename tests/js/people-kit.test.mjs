import assert from "node:assert/strict";
import { test } from "node:test";

import {
  addMessage,
  countdownWords,
  initial,
  mayRemove,
  mayStandIn,
  presenceWords,
  seatFromHash,
  seatLink,
  shouldNotify,
  visibleMessages,
} from "../../static/js/people-kit.js";

test("initials are whole graphemes", () => {
  assert.equal(initial("bo"), "B");
  assert.equal(initial("🦊 Fox"), "🦊");
  assert.equal(initial("👩‍👩‍👧 family"), "👩‍👩‍👧");
  assert.equal(initial("Éva"), "É");
  assert.equal(initial("e\u0301va"), "E\u0301");
  assert.equal(initial(""), "?");
  assert.notEqual(initial("🦊"), "\ud83e");
});

test("countdowns", () => {
  assert.equal(countdownWords(65_000), "1:05");
  assert.equal(countdownWords(0), "0:00");
  assert.equal(countdownWords(-5000), "0:00");
  assert.equal(countdownWords(180_000), "3:00");
  assert.equal(countdownWords(2 * 3600_000 + 5 * 60_000), "2 h 05 min");
  assert.equal(countdownWords(86_400_000 + 3 * 3600_000), "1 d 3 h");
});

test("presence words", () => {
  const now = Date.parse("2026-01-01T12:00:00Z");
  const away = (minutes) => ({ connected: false, away_since: new Date(now - minutes * 60000).toISOString() });
  assert.equal(presenceWords({ connected: true, away_since: null }, now).words, "here");
  assert.equal(presenceWords(away(0.5), now).words, "away");
  assert.equal(presenceWords(away(7), now).words, "gone 7 min");
  assert.equal(presenceWords(away(150), now).words, "gone 2 h");
  assert.equal(presenceWords({ ...away(7), stand_in: true }, now).words, "bot playing");
  assert.equal(presenceWords({ bot: true, connected: true }, now).kind, "bot");
});

test("who may let a bot play or remove", () => {
  const now = Date.parse("2026-01-01T12:00:00Z");
  const gone = { seat: 1, connected: false, away_since: new Date(now - 200_000).toISOString() };
  const here = { seat: 1, connected: true, away_since: null };
  const room = { status: "playing", host_seat: 0, gone_after: 120, deadline: null };
  assert.equal(mayStandIn(room, { to_act: [1] }, gone, 0, now), true);
  assert.equal(mayStandIn(room, { to_act: [1] }, here, 0, now), false);
  assert.equal(mayStandIn(room, { to_act: [1] }, gone, 1, now), false);
  assert.equal(mayStandIn(room, { to_act: [1] }, gone, null, now), false);
  const late = { ...room, deadline: new Date(now - 1000).toISOString() };
  assert.equal(mayStandIn(late, { to_act: [1] }, here, 0, now), true);
  assert.equal(mayStandIn(late, { to_act: [0] }, here, 0, now), false);
  assert.equal(mayRemove(room, gone, 0, now), true);
  assert.equal(mayRemove(room, gone, 2, now), false);
  assert.equal(mayRemove(room, here, 0, now), false);
});

test("seat links keep the token in the fragment", () => {
  const token = "abcdefghijklmnopqrstuvwxyz012345";
  assert.equal(seatFromHash(`#seat=${token}`), token);
  assert.equal(seatFromHash("#seat=<script>"), null);
  assert.equal(seatFromHash(""), null);
  assert.equal(seatLink("https://m.example", "r1", token), `https://m.example/r/r1#seat=${token}`);
});

test("chat muting and de-duplication", () => {
  const messages = [
    { id: 1, seat: 0, text: "hi" },
    { id: 2, seat: 1, text: "yo" },
    { id: 3, seat: null, text: "watching" },
  ];
  assert.deepEqual(visibleMessages(messages, [1]).map((m) => m.id), [1, 3]);
  assert.equal(addMessage(messages, { id: 2, seat: 1 }).length, 3);
  assert.deepEqual(addMessage(messages, { id: 4, seat: 0 }, 2).map((m) => m.id), [3, 4]);
});

test("notifications only for a new turn in a hidden page, after opting in", () => {
  const base = { myTurn: true, wasMyTurn: false, hidden: true, permission: "granted", optedIn: true };
  assert.equal(shouldNotify(base), true);
  assert.equal(shouldNotify({ ...base, hidden: false }), false);
  assert.equal(shouldNotify({ ...base, wasMyTurn: true }), false);
  assert.equal(shouldNotify({ ...base, permission: "default" }), false);
  assert.equal(shouldNotify({ ...base, optedIn: false }), false);
});
