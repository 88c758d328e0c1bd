import assert from "node:assert/strict";
import { test } from "node:test";

import { moveProblem } from "../../static/js/errors.js";

const repr = "{'type': 'play', 'card': 34} is not a legal action now";

test("a move from a stale tab says the game moved on and asks for a refresh", () => {
  for (const code of ["illegal_action", "stale_version", "not_your_turn"]) {
    const said = moveProblem({ code, message: repr });
    assert.equal(said.refresh, true);
    assert.match(said.text, /game moved on/);
    assert.doesNotMatch(said.text, /[{}']type/);
  }
});

test("an unsent move says why and does not refresh", () => {
  const said = moveProblem({ code: "offline", message: "x" });
  assert.equal(said.refresh, false);
  assert.match(said.text, /not sent/);
});

test("an unknown code keeps the server's words", () => {
  assert.equal(moveProblem({ code: "invalid_request", message: "Mojo: “Play to”: enter a whole number" }).text, "Mojo: “Play to”: enter a whole number");
  assert.equal(moveProblem(null).text, "Something went wrong. Try again.");
});
