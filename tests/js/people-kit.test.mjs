import assert from "node:assert/strict";
import { test } from "node:test";

import {
  addMessage,
  askerWords,
  chatNews,
  chatNoteWords,
  writerName,
  countdownWords,
  dayWords,
  deadLinkWords,
  holderNotice,
  hourWords,
  initial,
  isSeatLine,
  mayAnswer,
  mayRemove,
  mayStandIn,
  muteKey,
  openRequests,
  pickableSeats,
  presenceWords,
  requestWords,
  seatFromHash,
  seatLink,
  shouldNotify,
  toggleMuted,
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

test("the chat note: others' messages only, the newest for a moment, then the unread count", () => {
  const bo = { id: 1, seat: 1, name: "Bo", text: "oops", kind: "chat" };
  assert.equal(chatNews(bo, 0, []), true);
  assert.equal(chatNews(bo, 1, []), false); // your own
  assert.equal(chatNews(bo, 0, [1]), false); // muted
  assert.equal(chatNews({ id: 2, seat: null, name: "", text: "Bo's seat moved", kind: "seat" }, 0, []), false);
  assert.equal(chatNews({ id: 3, seat: null, name: "Cy (watching)", text: "go!", kind: "chat" }, null, []), true);
  assert.equal(chatNoteWords(0, bo), null);
  assert.deepEqual(chatNoteWords(1, bo), { kind: "message", name: "Bo", text: "oops", count: "1 new message" });
  assert.deepEqual(chatNoteWords(3, bo, { open: false }), { kind: "badge", text: "3 new messages" });
  const long = chatNoteWords(1, { ...bo, text: "ab🦊".repeat(60) }, { limit: 10 });
  assert.equal([...long.text].length, 10);
  assert.ok(long.text.endsWith("…"));
});

test("the chat keeps people's messages and the table's own lines apart, in order", () => {
  const line = (id) => ({ id, seat: null, name: "", text: "Ann paused the game", kind: "seat" });
  let messages = [{ id: 1, seat: 1, name: "Bo", text: "gg", kind: "chat" }];
  for (let id = 2; id <= 12; id++) messages = addMessage(messages, line(id), 3);
  // A flood of table lines keeps the newest 3 of them, and what Bo said.
  assert.deepEqual(messages.map((m) => m.id), [1, 10, 11, 12]);
  // A message loaded late goes in its place; Bo's words give way only to people's newer words.
  messages = addMessage(messages, { id: 9, seat: 0, name: "Ann", text: "brb", kind: "chat" }, 3);
  assert.deepEqual(messages.map((m) => m.id), [1, 9, 10, 11, 12]);
  for (const id of [13, 14]) messages = addMessage(messages, { id, seat: 0, name: "Ann", text: "back", kind: "chat" }, 3);
  assert.deepEqual(messages.map((m) => m.id), [9, 10, 11, 12, 13, 14]);
});

test("notifications only for a new turn in a hidden page, after opting in", () => {
  const base = { myTurn: true, wasMyTurn: false, hidden: true, permission: "granted", optedIn: true };
  assert.equal(shouldNotify(base), true);
  assert.equal(shouldNotify({ ...base, hidden: false }), false);
  assert.equal(shouldNotify({ ...base, wasMyTurn: true }), false);
  assert.equal(shouldNotify({ ...base, permission: "default" }), false);
  assert.equal(shouldNotify({ ...base, optedIn: false }), false);
});

test("spectators are muted by name, the table's own lines never", () => {
  const messages = [
    { id: 1, seat: 0, name: "Ann", text: "hi", kind: "chat" },
    { id: 2, seat: null, name: "Cy (watching)", text: "go!", kind: "chat" },
    { id: 3, seat: null, name: "", text: "Bo's seat moved to another device", kind: "seat" },
    { id: 4, seat: null, name: "Dee (watching)", text: "hello" }, // an older server: no kind
  ];
  assert.equal(muteKey(messages[0]), 0);
  assert.equal(muteKey(messages[1]), "Cy (watching)");
  assert.equal(muteKey(messages[2]), null);
  assert.ok(isSeatLine(messages[2]) && !isSeatLine(messages[3]));
  assert.deepEqual(visibleMessages(messages, ["Cy (watching)"]).map((m) => m.id), [1, 3, 4]);
  assert.deepEqual(visibleMessages(messages, [0, "Cy (watching)", "Dee (watching)", ""]).map((m) => m.id), [3]);
  assert.deepEqual(toggleMuted([0], "Cy (watching)"), [0, "Cy (watching)"]);
  assert.deepEqual(toggleMuted([0, "Cy (watching)"], "Cy (watching)"), [0]);
  assert.deepEqual(toggleMuted(null, 1), [1]);
});

test("times in the banners", () => {
  assert.equal(dayWords("2026-12-01T14:03:00Z", "UTC"), "Tue\u00a01\u00a0Dec, 14:03");
  assert.equal(dayWords("2026-12-01T14:03:00Z", "Europe/Paris"), "Tue\u00a01\u00a0Dec, 15:03");
  assert.equal(hourWords("2026-12-01T09:05:00Z", "UTC"), "09:05");
  assert.equal(dayWords(null), "");
  assert.equal(dayWords("not a time"), "");
  assert.equal(hourWords(undefined), "");
});

test("a dead seat link says why", () => {
  const at = "2026-12-01T14:03:00Z";
  const words = (check, extra = {}) => deadLinkWords(check, { timeZone: "UTC", ...extra }).text.replace(/\u00a0/g, " ");
  assert.equal(
    words({ status: "moved", seat: 0, name: "Ann", at, by: null }),
    "This seat link no longer works: Ann's seat moved to another device on Tue 1 Dec, 14:03.",
  );
  assert.equal(
    words({ status: "moved", seat: 0, name: "Ann", at, by: "Bo" }),
    "This seat link no longer works: Ann's seat moved to another device on Tue 1 Dec, 14:03, approved by Bo.",
  );
  assert.equal(
    words({ status: "left", seat: 0, name: "Ann", at, by: null }),
    "This seat link no longer works: you left this game on Tue 1 Dec, 14:03, a bot plays your seat.",
  );
  assert.equal(
    words({ status: "removed", seat: 1, name: "Bo", at, by: "Ann" }),
    "This seat link no longer works: the host (Ann) removed Bo's seat on Tue 1 Dec, 14:03; a bot plays it now.",
  );
  assert.equal(words({ status: "unknown" }), "This seat link is not valid (it may be cut short).");
  assert.match(words({ status: "unknown" }, { stored: true }), /^This browser's seat is not known here any more/);
  // No reason to be had (the check failed): still a clear sentence, never "undefined".
  assert.equal(words(null), "This seat link no longer works: the server does not know it any more.");
  assert.equal(words({ status: "moved", name: "Ann" }), "This seat link no longer works: Ann's seat moved to another device.");
  // The page that approved the move itself is told calmly.
  const calm = deadLinkWords({ status: "moved", name: "Ann", at }, { handedOver: true, timeZone: "UTC" });
  assert.equal(calm.calm, true);
  assert.match(calm.text, /^You moved Ann's seat to your other device on Tue.1.Dec, 14:03: play there/);
  const asking = deadLinkWords({ status: "asking", seat: 1, request: { request_id: "r", seat: 1, status: "pending" } }, { nameOf: () => "Bo" });
  assert.equal(asking.kind, "asking");
  assert.match(asking.text, /request for Bo's seat/);
  assert.equal(deadLinkWords({ status: "valid", seat: 0 }).kind, "valid");
});

test("who may pick a name, and which requests are open", () => {
  const room = {
    status: "playing",
    seats: [
      { seat: 0, name: "Ann", bot: false },
      { seat: 1, name: "Ada", bot: true },
      { seat: 2, name: "Bo", bot: false },
    ],
  };
  assert.deepEqual(pickableSeats(room, null).map((s) => s.name), ["Ann", "Bo"]);
  assert.deepEqual(pickableSeats(room, 0), []);
  assert.deepEqual(pickableSeats({ ...room, status: "finished" }, null), []);
  assert.deepEqual(pickableSeats({ status: "waiting", seats: [] }, null), []);
  const now = Date.parse("2026-12-01T14:00:00Z");
  const requests = {
    seat_requests: [
      { id: "a", seat: 0, status: "pending", expires: "2026-12-01T14:10:00Z" },
      { id: "b", seat: 0, status: "pending", expires: "2026-12-01T13:59:00Z" }, // lapsed
      { id: "c", seat: 2, status: "waiting", expires: null, effective_at: "2026-12-01T14:05:00Z" },
    ],
  };
  assert.deepEqual(openRequests(requests, now).map((r) => r.id), ["a", "c"]);
  assert.deepEqual(openRequests({}, now), []);
});

test("who may answer a request", () => {
  assert.equal(mayAnswer({ seat: 0, answerable_by: [0] }, 0), true);
  assert.equal(mayAnswer({ seat: 0, answerable_by: [0] }, 1), false);
  assert.equal(mayAnswer({ seat: 0, answerable_by: [] }, 0), false);
  assert.equal(mayAnswer({ seat: 0, answerable_by: [1, 2] }, null), false);
  // A room body without the list (an older server): any other seated player.
  assert.equal(mayAnswer({ seat: 0 }, 1), true);
  assert.equal(mayAnswer({ seat: 0 }, 0), false);
});

test("what the holder, the table and the asker read", () => {
  const names = ["Ann", "Bo", "Cy"];
  const nameOf = (seat) => names[seat] || "";
  const pending = { id: "r", seat: 0, status: "pending", approvals: [], answerable_by: [0] };
  const waiting = { id: "r", seat: 0, status: "waiting", approvals: [1], effective_at: "2026-12-01T14:13:00Z", answerable_by: [0, 1] };
  assert.deepEqual(holderNotice(pending, nameOf), { kind: "ask", text: "Someone asks for your seat from another device. Is it you?" });
  assert.deepEqual(holderNotice(waiting, nameOf, { timeZone: "UTC" }), {
    kind: "waiting",
    text: "Bo approved moving your seat to another device; it moves at 14:13. Refuse if this was not you.",
  });
  assert.equal(requestWords(pending, nameOf, 2), "Someone asks for Ann's seat.");
  assert.equal(requestWords({ ...pending, approvals: [1] }, nameOf, 1), "Someone asks for Ann's seat. You approved; more players must approve too.");
  assert.equal(requestWords({ ...pending, approvals: [1, 2] }, nameOf, null), "Someone asks for Ann's seat; Bo and Cy approved.");
  assert.equal(
    requestWords(waiting, nameOf, 2, { timeZone: "UTC" }),
    "Bo approved moving Ann's seat to another device; it moves at 14:13 unless Ann refuses.",
  );
  assert.match(requestWords(waiting, nameOf, 1, { timeZone: "UTC" }), /^You approved moving Ann's seat/);
  const mine = { seat: 0, name: "Ann" };
  assert.equal(askerWords("pending", mine).text, "Asked for Ann's seat: waiting for Ann (or the table) to approve.");
  assert.equal(
    askerWords("waiting", mine, { listed: waiting, nameOf, timeZone: "UTC" }).text,
    "Approved by Bo: the seat moves to you at 14:13 unless Ann refuses.",
  );
  assert.equal(askerWords("waiting", { ...mine, effective_at: null }).text, "Approved: the seat moves to you soon unless Ann refuses.");
  assert.deepEqual(askerWords("refused", mine), { text: "Your request for Ann's seat was refused.", done: true, again: true });
  assert.equal(askerWords("expired", mine).again, true);
  assert.equal(askerWords("approved", mine).done, true);
});

test("a writer's name: a player's as given, a spectator's as the chat first showed it", () => {
  assert.equal(writerName("Bo", 1), "Bo");
  assert.equal(writerName("Cy (watching)"), "Cy (watching)");
  assert.equal(writerName("Spectator"), "Spectator");
  // A player who named themselves so is not a spectator.
  assert.equal(writerName("Spectator", 0), "Spectator");
  assert.equal(chatNoteWords(1, { name: "Cy (watching)", seat: null, text: "go" }).name, "Cy (watching)");
});
