import assert from "node:assert/strict";
import { test } from "node:test";

import { readAddress, ReplaySteps, replayAddress } from "../../static/js/replay-steps.js";

function counting(n) {
  const steps = [];
  for (let i = 1; i <= n; i += 1) steps.push({ seat: 0, action: { type: "add" }, ops: [{ op: "replace", path: "/count", value: i }] });
  return new ReplaySteps({ count: 0, other: [1] }, steps);
}

test("steps go forward and back to exactly the table of that step", () => {
  const replay = counting(80);
  assert.equal(replay.length, 80);
  assert.equal(replay.go(60).count, 60);
  assert.equal(replay.go(3).count, 3);
  assert.equal(replay.go(26).count, 26);
  assert.equal(replay.go(25).count, 25);
  assert.equal(replay.go(0).count, 0);
  assert.equal(replay.go(500).count, 80);
  assert.equal(replay.go(-4).count, 0);
});

test("a table handed out is never changed by later steps", () => {
  const replay = counting(10);
  const kept = replay.go(2);
  replay.go(9);
  assert.equal(kept.count, 2);
  assert.equal(replay.action(0), null);
  assert.deepEqual(replay.action(1).action, { type: "add" });
});

test("the address carries the viewpoint and the step, and reads back", () => {
  const address = replayAddress("/r/abc/replay", "all", 12);
  assert.equal(address, "/r/abc/replay?seat=all&step=12");
  assert.deepEqual(readAddress("?seat=all&step=12", 3), { viewpoint: "all", step: 12 });
  assert.deepEqual(readAddress("?seat=2&step=x", 3), { viewpoint: 2, step: 0 });
  assert.deepEqual(readAddress("?seat=7", 3), { viewpoint: "spectator", step: 0 });
});
