// The takeback strip's words and buttons (static/js/takeback.js), from state bodies alone.
import assert from "node:assert/strict";
import { test } from "node:test";

import { takebackOutcome, takebackPanel } from "../../static/js/takeback.js";

const names = ["Ann", "Bo", "Cy"];
const nameOf = (seat) => names[seat];
const body = (seat, extra = {}) => ({ version: 5, status: "playing", seat, takeback: null, can_take_back: false, ...extra });
const pending = (extra = {}) => ({ id: "t1", seat: 0, version: 5, approvals: [], waiting_for: [1, 2], ...extra });

test("after your own move, Take back only when the server says it may be", () => {
  assert.deepEqual(takebackPanel(body(0, { can_take_back: true }), nameOf).buttons, ["take-back"]);
  assert.equal(takebackPanel(body(0), nameOf), null);
  assert.equal(takebackPanel(body(0, { can_take_back: true, status: "finished" }), nameOf), null);
});

test("the others are asked by name, with Allow and Refuse", () => {
  const panel = takebackPanel(body(1, { takeback: pending() }), nameOf);
  assert.equal(panel.kind, "answer");
  assert.equal(panel.text, "Ann asks to take back their last move. Answer before you play on:");
  assert.deepEqual(panel.buttons, ["allow", "refuse"]);
  assert.equal(panel.as, 1);
});

test("the move asked about is named in the game's words, with the card the table shows", () => {
  const words = { play: { done: "played {card}", otherwise: "played a card", params: { card: "card" } } };
  const view = { trick: [{ id: 17, family: "blue_whale", value: 6 }] };
  const asked = pending({ action: { type: "play", card: 17 } });
  const panel = takebackPanel(body(1, { takeback: asked, view }), nameOf, [], [], words);
  assert.equal(panel.text, "Ann asks to take back their last move (played a blue whale 6). Answer before you play on:");
  const mine = takebackPanel(body(0, { takeback: asked, view }), nameOf, [], [], words);
  assert.equal(mine.text, "You asked to take back your last move (played a blue whale 6). Waiting for Bo and Cy.");
  // A card the view no longer shows is said by the words' otherwise; an unknown type not at all.
  assert.match(takebackPanel(body(1, { takeback: asked, view: {} }), nameOf, [], [], words).text, /\(played a card\)/);
  const odd = pending({ action: { type: "shuffle" } });
  assert.equal(takebackPanel(body(1, { takeback: odd, view }), nameOf, [], [], words).text, "Ann asks to take back their last move. Answer before you play on:");
});

test("the asker and those who answered see whom it waits for", () => {
  const asking = takebackPanel(body(0, { takeback: pending() }), nameOf);
  assert.equal(asking.text, "You asked to take back your last move. Waiting for Bo and Cy.");
  // The asker may withdraw while the table answers; the others may not.
  assert.deepEqual(asking.buttons, ["withdraw"]);
  assert.equal(asking.as, 0);
  const answered = takebackPanel(body(1, { takeback: pending({ approvals: [1], waiting_for: [2] }) }), nameOf);
  assert.equal(answered.kind, "info");
  assert.deepEqual(answered.buttons, []);
  assert.equal(answered.text, "Ann asks to take back their last move. Waiting for Cy.");
  assert.equal(takebackPanel(body(null, { takeback: pending() }), nameOf).kind, "info");
});

test("around one device, a local player who is asked answers by name", () => {
  const panel = takebackPanel(body(0, { takeback: pending({ waiting_for: [2] }) }), nameOf, [0, 2]);
  assert.equal(panel.kind, "asking");
  assert.deepEqual(panel.buttons, ["withdraw"]);
  const forCy = takebackPanel(body(1, { takeback: pending({ waiting_for: [2] }) }), nameOf, [1, 2]);
  assert.equal(forCy.as, 2);
  assert.match(forCy.text, /Cy, do you allow it\?/);
});

test("the asker hears how it ended", () => {
  const asked = body(0, { takeback: pending() });
  assert.equal(takebackOutcome(asked, body(0, { version: 6 })), "taken back");
  // Refused, withdrawn or lapsed: the move stands.
  assert.equal(takebackOutcome(asked, body(0)), "stands");
  assert.equal(takebackOutcome(asked, body(0, { version: 7 })), null);
  assert.equal(takebackOutcome(body(1, { takeback: pending() }), body(1, { version: 6 })), null);
  assert.equal(takebackOutcome(asked, body(0, { takeback: pending() })), null);
});

test("around one device, the player who just moved may take it back while the next is shown", () => {
  const ann = body(0, { can_take_back: true });
  const panel = takebackPanel(body(1), nameOf, [0, 1], [ann]);
  assert.equal(panel.kind, "offer");
  assert.equal(panel.as, 0);
  assert.match(panel.text, /^Ann: misclicked\?/);
  // A state of another version is not this move's.
  assert.equal(takebackPanel(body(1), nameOf, [0, 1], [{ ...ann, version: 4 }]), null);
  // Ann asked, Bo (here too) is asked by name; Ann alone asking while Cy (away) answers is said as such.
  assert.equal(takebackPanel(body(1, { takeback: pending({ waiting_for: [1] }) }), nameOf, [0, 1]).as, 1);
  const alone = takebackPanel(body(1, { takeback: pending({ waiting_for: [2] }) }), nameOf, [0, 1]);
  assert.equal(alone.text, "Ann asked to take back their last move. Waiting for Cy.");
  assert.deepEqual(alone.buttons, ["withdraw"]);
  assert.equal(alone.as, 0);
});

test("the table's status line says a takeback waits for your answer, and only then", async () => {
  const { askedLine } = await import("../../static/js/takeback.js");
  assert.equal(askedLine(body(1, { takeback: pending({ seat: 2, waiting_for: [0, 1] }) }), nameOf), "Cy asked to take back a move — answer below before you play on");
  assert.equal(askedLine(body(2, { takeback: pending({ seat: 2, waiting_for: [0, 1] }) }), nameOf), null); // the asker
  assert.equal(askedLine(body(1, { takeback: pending({ waiting_for: [2] }) }), nameOf), null); // answered
  assert.equal(askedLine(body(1), nameOf), null);
  // Around one device: Bo's seat is shown, Cy (here too) is asked.
  assert.equal(askedLine(body(1, { takeback: pending({ waiting_for: [2] }) }), nameOf, [1, 2]), "Ann asked to take back a move — Cy, answer below before you play on");
});
