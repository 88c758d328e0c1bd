// When the page scrolls to what you must do (static/js/phone-first.js): a new match, your turn
// coming, and around one device the device going to another player who has a move.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { createPhoneFirst, scrollTarget } from "../../static/js/phone-first.js";

let scrolls = 0;
beforeEach(() => {
  scrolls = 0;
  globalThis.requestAnimationFrame = () => {
    scrolls += 1; // the scroll itself runs after layout, in a browser
  };
});

const table = {};

test("a new match scrolls once, then only when a turn comes", () => {
  const first = createPhoneFirst();
  first.after(table, { key: "r:mojo", acting: false, seat: 0 });
  assert.equal(scrolls, 1);
  first.after(table, { key: "r:mojo", acting: false, seat: 0 });
  assert.equal(scrolls, 1);
  first.after(table, { key: "r:mojo", acting: true, seat: 0 });
  assert.equal(scrolls, 2);
  first.after(table, { key: "r:mojo", acting: true, seat: 0 }); // the same turn, redrawn
  assert.equal(scrolls, 2);
});

test("around one device, the next player with a move is a turn coming", () => {
  const first = createPhoneFirst();
  first.after(table, { key: "r:mokuru", acting: true, seat: 0 });
  assert.equal(scrolls, 1);
  first.after(table, { key: "r:mokuru", acting: true, seat: 1 }); // Ann chose; Bo chooses now
  assert.equal(scrolls, 2);
  first.after(table, { key: "r:mokuru", acting: true, seat: 1 });
  assert.equal(scrolls, 2);
});

test("nothing scrolls while the round summary is open; the new match scrolls once it is closed", () => {
  const first = createPhoneFirst();
  first.after(table, { key: "r:mojo", acting: false, seat: 0, blocked: true });
  assert.equal(scrolls, 0);
  first.after(table, { key: "r:mojo", acting: false, seat: 0 });
  assert.equal(scrolls, 1); // the new match, once the summary is closed
});

test("a turn that follows your own move comes into view: each new step with moves to make", () => {
  const first = createPhoneFirst();
  first.after(table, { key: "r:mokuru", acting: true, seat: 0, step: 4 }); // the match, new here
  assert.equal(scrolls, 1);
  first.after(table, { key: "r:mokuru", acting: true, seat: 0, step: 4 }); // redrawn (chat, a countdown)
  assert.equal(scrolls, 1);
  first.after(table, { key: "r:mokuru", acting: true, seat: 0, step: 5 }); // you drew: report your tries now
  assert.equal(scrolls, 2);
  first.after(table, { key: "r:mokuru", acting: true, seat: 0, step: 6 }); // you missed: the next try
  assert.equal(scrolls, 3);
  first.after(table, { key: "r:mokuru", acting: false, seat: 0, step: 7 }); // another's turn
  first.after(table, { key: "r:mokuru", acting: false, seat: 0, step: 8 });
  assert.equal(scrolls, 3);
  first.after(table, { key: "r:mokuru", acting: true, seat: 0, step: 9 }); // your verdict on their trick
  assert.equal(scrolls, 4);
  first.after(table, { key: "r:mokuru", acting: true, seat: 0, step: 9 });
  assert.equal(scrolls, 4);
});

test("a step made while the summary is open scrolls nothing, and the same step after it neither", () => {
  const first = createPhoneFirst();
  first.after(table, { key: "r:mojo", acting: true, seat: 0, step: 1 });
  first.after(table, { key: "r:mojo", acting: true, seat: 0, step: 2, blocked: true });
  assert.equal(scrolls, 1);
  first.after(table, { key: "r:mojo", acting: true, seat: 0, step: 2 });
  assert.equal(scrolls, 1);
});

test("moves that fit one screen come in whole, their end at the screen's end; in view, nothing moves", () => {
  const band = { top: 100, bottom: 900 };
  const core = { top: 1200, bottom: 1500 };
  assert.equal(scrollTarget({ core, wide: { top: 1000, bottom: 1500 }, band }), 700); // 1500 - 800
  assert.equal(scrollTarget({ core: { top: 200, bottom: 400 }, wide: null, band }), null);
});

test("a list taller than the screen starts under the header with the prompt just above it", () => {
  const band = { top: 100, bottom: 900 };
  const core = { top: 1200, bottom: 4000 }; // the Darkness chooser: every trick of the deck
  const prompt = { top: 1150, bottom: 1190 };
  const status = { top: 300, bottom: 340 }; // the table's status line, far above
  assert.equal(scrollTarget({ core, wide: { top: 300, bottom: 4000 }, leads: [status, prompt], band }), 1150);
  assert.equal(scrollTarget({ core, wide: null, leads: [], band }), 1200);
});
