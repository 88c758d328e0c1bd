// A game without a table file (404) plays on the generic table; any other answer is an error the
// player is shown, never a silent fallback.
import assert from "node:assert/strict";
import { test } from "node:test";

import { hasTable, TableLoadError } from "../../static/js/table-loader.js";

const answering = (status) => async (url, init) => {
  assert.equal(init.method, "HEAD");
  return { status, ok: status >= 200 && status < 300 };
};

test("a renderer file that is there is loaded; one that is not (404) means the generic table", async () => {
  assert.equal(await hasTable("/static/js/games/mojo.js", answering(200)), true);
  assert.equal(await hasTable("/static/js/games/tiny.js", answering(404)), false);
});

test("any other answer is an error, not the generic table", async () => {
  await assert.rejects(hasTable("/static/js/games/mojo.js", answering(500)), /answered 500/);
  await assert.rejects(
    hasTable("/static/js/games/mojo.js", async () => {
      throw new TypeError("Failed to fetch");
    }),
    /Failed to fetch/,
  );
});

test("a table that failed to load says so in the player's words, keeping the cause", () => {
  const cause = new SyntaxError("Unexpected token '}'");
  const error = new TableLoadError("pebbles", cause);
  assert.equal(error.message, "This game's table failed to load: Unexpected token '}'");
  assert.equal(error.cause, cause);
  assert.equal(error.gameId, "pebbles");
});
