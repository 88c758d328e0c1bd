import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

// A game's stylesheet (static/css/games/<id>.css) is its own: no class it defines is another game's,
// and the shared stylesheets (static/css/*.css) style no game. Otherwise two games' looks would mix
// on a page that shows both, and a new game would need lines in the shared files.

const CSS = new URL("../../static/css/", import.meta.url);

/** Every class name in a stylesheet's selectors (comments and declarations left out). */
function classesOf(path) {
  const text = readFileSync(path, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  const found = new Set();
  for (const [, selector] of text.matchAll(/([^{};]+)\{/g)) {
    if (selector.trim().startsWith("@")) continue;
    for (const [, name] of selector.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) found.add(name);
  }
  return found;
}

const shared = new Set(
  readdirSync(CSS)
    .filter((name) => name.endsWith(".css"))
    .flatMap((name) => [...classesOf(new URL(name, CSS))]),
);
const games = new Map(
  readdirSync(new URL("games/", CSS))
    .filter((name) => name.endsWith(".css"))
    .map((name) => [name.slice(0, -4), classesOf(new URL(`games/${name}`, CSS))]),
);

test("no class is defined by two games' stylesheets, unless the shared ones define it", () => {
  assert.ok(games.size >= 2);
  const ids = [...games.keys()];
  for (const [i, a] of ids.entries()) {
    for (const b of ids.slice(i + 1)) {
      // A state modifier (`is-taken`) marks a game's own element; it is never styled alone.
      const both = [...games.get(a)].filter((name) => games.get(b).has(name) && !shared.has(name) && !name.startsWith("is-"));
      assert.deepEqual(both, [], `${a}.css and ${b}.css both define ${both.join(", ")}`);
    }
  }
});

test("the shared stylesheets style no game: a game's classes, named after it, are in its own file", () => {
  for (const id of games.keys()) {
    const word = id.split("-")[0];
    const named = [...shared].filter((name) => name === word || name.startsWith(`${word}-`));
    assert.deepEqual(named, [], `static/css/*.css style ${id}: ${named.join(", ")}`);
  }
});
