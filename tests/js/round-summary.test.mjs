import assert from "node:assert/strict";
import { test } from "node:test";

import { gained, signed, newRoundEnd, ordinal, ranked, roundPoints, totalsAfter, winnerRule } from "../../static/js/round-summary.js";
import { roundSummary as mobySummary } from "../../static/js/games/moby-trick.js";

test("the newest round end after what was seen", () => {
  const events = [
    { seq: 3, type: "round_end", round: 1 },
    { seq: 4, type: "play" },
    { seq: 9, type: "round_end", round: 2 },
  ];
  assert.equal(newRoundEnd(events, 0).seq, 9);
  assert.equal(newRoundEnd(events, 3).seq, 9);
  assert.equal(newRoundEnd(events, 9), null);
  assert.equal(newRoundEnd([], null), null);
});

test("points come from scores or points", () => {
  assert.deepEqual(roundPoints({ scores: [1, 2] }), [1, 2]);
  assert.deepEqual(roundPoints({ points: [3, 4] }), [3, 4]);
});

test("running totals from the score pad, or its totals plus this round when the pad lags", () => {
  const pad = { rounds: [[5, 10], [2, 0]], totals: [7, 10] };
  assert.deepEqual(totalsAfter(pad, 2, [2, 0]), [7, 10]);
  assert.deepEqual(totalsAfter(pad, 1, [5, 10]), [5, 10]);
  assert.deepEqual(totalsAfter(pad, 3, [4, 4]), [11, 14]);
  assert.deepEqual(totalsAfter(null, 1, [4, 4]), [4, 4]);
});

test("ranks follow the winner rule and ties share a rank", () => {
  assert.deepEqual(
    ranked([30, 12, 30, 5], "lowest_total").map((r) => [r.seat, r.rank]),
    [[3, 1], [1, 2], [0, 3], [2, 3]],
  );
  assert.deepEqual(
    ranked([30, 12, 31], "highest_total").map((r) => [r.seat, r.rank]),
    [[2, 1], [0, 2], [1, 3]],
  );
  assert.equal(winnerRule("lowest_total"), "The lowest total wins.");
});

test("words: ordinals and signed round points", () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal), ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]);
  assert.equal(gained(12), "+12 points");
  assert.equal(gained(1), "+1 point");
  assert.equal(gained(0), "0 points");
});

test("Moby Trick says pearls and pairs of unused bonuses", () => {
  const said = mobySummary({ type: "round_end", round: 1, points: [6, 3], pearls: [5, 3], bonus_pairs: [1, 0] });
  assert.deepEqual(said.rows[0].why, ["5 pearls", "1 pair of unused bonuses: +1"]);
  assert.deepEqual(said.rows[1].why, ["3 pearls"]);
});

test("a round's points in its column carry their sign", () => {
  assert.equal(signed(12), "+12");
  assert.equal(signed(0), "0");
});

test("a stars tie broken by the youngest ranks the result's winner alone in first place", () => {
  // Mooki Island: Ann (seat 0) and Bo (seat 1) both have 3 stars; Bo, the youngest, wins.
  const broken = ranked([3, 3], "highest_total", { winners: [1], ties: "broken" });
  assert.deepEqual(broken.map((r) => [r.seat, r.rank]), [[1, 1], [0, 2]]);
  // A game whose ties are shared keeps one rank for equal totals.
  assert.deepEqual(ranked([3, 3], "highest_total", { winners: [0, 1] }).map((r) => r.rank), [1, 1]);
  assert.deepEqual(ranked([5, 3, 3], "highest_total", { winners: [0], ties: "broken" }).map((r) => [r.seat, r.rank]), [[0, 1], [1, 2], [2, 2]]);
});
