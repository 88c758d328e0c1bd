// The theme's choice without the DOM (static/js/theme.js): what a stored value means, the theme a
// choice gives, and how the choice is kept, also when storage fails.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { runInNewContext } from "node:vm";

import { memoryStore } from "../../static/js/storage.js";
import { BAR_COLOURS, THEME_KEY, choiceFrom, readChoice, saveChoice, themeFor } from "../../static/js/theme.js";

test("a stored value is light, dark or else auto", () => {
  assert.equal(choiceFrom("light"), "light");
  assert.equal(choiceFrom("dark"), "dark");
  for (const other of [null, "", "auto", "Dark", "purple"]) assert.equal(choiceFrom(other), "auto");
});

test("auto follows the system; light and dark override it both ways", () => {
  assert.equal(themeFor("auto", true), "dark");
  assert.equal(themeFor("auto", false), "light");
  assert.equal(themeFor("light", true), "light");
  assert.equal(themeFor("dark", false), "dark");
});

test("a choice is kept, and auto forgets it", () => {
  const store = memoryStore();
  assert.equal(readChoice(store), "auto");
  saveChoice(store, "dark");
  assert.equal(store.getItem(THEME_KEY), "dark");
  assert.equal(readChoice(store), "dark");
  saveChoice(store, "auto");
  assert.equal(store.getItem(THEME_KEY), null);
  assert.equal(readChoice(store), "auto");
});

test("storage that throws neither breaks reading nor saving", () => {
  const broken = {
    getItem() {
      throw new Error("blocked");
    },
    setItem() {
      throw new Error("blocked");
    },
    removeItem() {
      throw new Error("blocked");
    },
  };
  assert.equal(readChoice(broken), "auto");
  assert.doesNotThrow(() => saveChoice(broken, "dark"));
});

test("each theme has a bar colour", () => {
  assert.deepEqual(Object.keys(BAR_COLOURS).sort(), ["dark", "light"]);
});

// theme-boot.js is a classic script (it runs before the page is painted, where a module cannot):
// run it against a stand-in page to check it agrees with theme.js.
const BOOT = readFileSync(new URL("../../static/js/theme-boot.js", import.meta.url), "utf8");

function boot({ stored, systemDark, blocked = false }) {
  const root = { dataset: {} };
  const bar = { content: BAR_COLOURS.light };
  const localStorage = {
    getItem: (key) => {
      if (blocked) throw new Error("blocked");
      return key === THEME_KEY ? stored : null;
    },
  };
  const window = { localStorage, matchMedia: () => ({ matches: systemDark }) };
  const document = { documentElement: root, querySelector: () => bar };
  runInNewContext(BOOT, { window, document });
  return { theme: root.dataset.theme, bar: bar.content };
}

test("before the first paint the page gets the theme the switch would give it", () => {
  for (const stored of [null, "light", "dark", "junk"]) {
    for (const systemDark of [false, true]) {
      const theme = themeFor(choiceFrom(stored), systemDark);
      assert.deepEqual(boot({ stored, systemDark }), { theme, bar: BAR_COLOURS[theme] }, `${stored} ${systemDark}`);
    }
  }
  assert.deepEqual(boot({ stored: "light", systemDark: true, blocked: true }), {
    theme: "dark",
    bar: BAR_COLOURS.dark,
  });
});
