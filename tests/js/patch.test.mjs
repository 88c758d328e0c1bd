// The JSON Patch applier the room connection uses: RFC 6902's operations, and a refusal
// (an exception, so the connection resyncs) for any operation that does not fit.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { applyPatch } from "../../static/js/patch.js";

const state = () => ({ version: 3, to_act: [1], view: { hand: [{ id: 4 }, { id: 9 }], "a/b": 1, "m~n": 2 } });

describe("applyPatch", () => {
  it("adds, replaces and removes object members and array items", () => {
    const doc = applyPatch(state(), [
      { op: "replace", path: "/version", value: 4 },
      { op: "add", path: "/view/hand/1", value: { id: 7 } },
      { op: "add", path: "/view/hand/-", value: { id: 12 } },
      { op: "remove", path: "/view/hand/0" },
      { op: "add", path: "/result", value: null },
      { op: "remove", path: "/to_act/0" },
    ]);
    assert.deepEqual(doc, {
      version: 4,
      to_act: [],
      view: { hand: [{ id: 7 }, { id: 9 }, { id: 12 }], "a/b": 1, "m~n": 2 },
      result: null,
    });
  });

  it("reads ~1 as / and ~0 as ~ in a path", () => {
    const doc = applyPatch(state(), [
      { op: "replace", path: "/view/a~1b", value: 5 },
      { op: "replace", path: "/view/m~0n", value: 6 },
    ]);
    assert.equal(doc.view["a/b"], 5);
    assert.equal(doc.view["m~n"], 6);
  });

  it("moves and copies values, the copy independent of its source", () => {
    const doc = applyPatch(state(), [
      { op: "copy", from: "/view/hand/0", path: "/kept" },
      { op: "move", from: "/view/hand/1", path: "/view/hand/0" },
      { op: "replace", path: "/kept/id", value: 40 },
    ]);
    assert.deepEqual(doc.view.hand, [{ id: 9 }, { id: 4 }]);
    assert.deepEqual(doc.kept, { id: 40 });
  });

  it("replaces the whole document at the empty path", () => {
    assert.deepEqual(applyPatch(state(), [{ op: "replace", path: "", value: { fresh: true } }]), { fresh: true });
  });

  it("does not share added values with the patch", () => {
    const value = { id: 1, tags: ["a"] };
    const doc = applyPatch(state(), [{ op: "add", path: "/extra", value }]);
    value.tags.push("b");
    assert.deepEqual(doc.extra.tags, ["a"]);
  });

  it("passes a test op by JSON equality whatever the key order", () => {
    const doc = applyPatch(state(), [{ op: "test", path: "/view/hand/0", value: { id: 4 } }]);
    assert.equal(doc.version, 3);
    applyPatch({ a: { x: 1, y: [1, 2] } }, [{ op: "test", path: "/a", value: { y: [1, 2], x: 1 } }]);
  });

  for (const [what, ops] of [
    ["a failed test", [{ op: "test", path: "/version", value: 2 }]],
    ["a test that tells an array from an object", [{ op: "test", path: "/to_act", value: { 0: 1 } }]],
    ["a replace of a missing member", [{ op: "replace", path: "/missing", value: 1 }]],
    ["a remove of a missing member", [{ op: "remove", path: "/view/nothing" }]],
    ["an index past the end", [{ op: "add", path: "/view/hand/3", value: 1 }]],
    ["a replace at the end marker", [{ op: "replace", path: "/view/hand/-", value: 1 }]],
    ["an index with a leading zero", [{ op: "remove", path: "/view/hand/01" }]],
    ["a path through a missing parent", [{ op: "add", path: "/nope/deeper", value: 1 }]],
    ["a path without its leading slash", [{ op: "add", path: "version", value: 1 }]],
    ["an unknown op", [{ op: "merge", path: "/version", value: 1 }]],
  ]) {
    it(`refuses ${what}`, () => {
      assert.throws(() => applyPatch(state(), ops));
    });
  }
});
