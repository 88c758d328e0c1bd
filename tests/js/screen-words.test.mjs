import assert from "node:assert/strict";
import { test } from "node:test";

import { handOffered, handView, screenTurn } from "../../static/js/screen-words.js";

const names = ["Ann", "Bo", "Cy"];
const seatName = (seat) => names[seat];

test("one seat to act is named, or is 'Your turn' on its own phone", () => {
  const state = { status: "playing", to_act: [1], result: null };
  assert.deepEqual(screenTurn(state, {}, seatName), { seat: 1, text: "Bo's turn" });
  assert.deepEqual(screenTurn(state, {}, seatName, 1), { seat: 1, text: "Your turn" });
});

test("several seats to act are listed; a finished match says so", () => {
  const state = { status: "playing", to_act: [0, 2], result: null };
  assert.deepEqual(screenTurn(state, {}, seatName), { seat: null, text: "Waiting for Ann and Cy" });
  assert.deepEqual(screenTurn(state, {}, seatName, 2), { seat: null, text: "Waiting for Ann and you" });
  assert.equal(screenTurn({ status: "finished", to_act: [], result: { winners: [0] } }, {}, seatName).text, "Game over");
});

test("the hand view needs a table screen, a seat, a match in play, and the QR code or the player's choice", () => {
  const room = { screen: true, status: "playing" };
  const state = { status: "playing" };
  assert.equal(handView({ room, state, seat: 0, fromScreen: true }), true, "came from the screen's QR code");
  assert.equal(handView({ room, state, seat: 0, narrow: true }), false, "a remote friend keeps the table, on a phone too");
  assert.equal(handView({ room, state, seat: 0, narrow: true, choice: "hand" }), true, "a player at the table may choose it");
  assert.equal(handView({ room, state, seat: 0, choice: "hand" }), false, "a laptop is not offered it");
  assert.equal(handView({ room, state, seat: 0, fromScreen: true, choice: "table" }), false);
  assert.equal(handView({ room: { ...room, screen: false }, state, seat: 0, fromScreen: true }), false);
  assert.equal(handView({ room, state, seat: null, fromScreen: true }), false, "a spectator has no hand");
  assert.equal(handView({ room, state: { status: "waiting" }, seat: 0, fromScreen: true }), false);
  assert.equal(handView({ room: { ...room, status: "waiting" }, state, seat: 0, fromScreen: true }), true, "a stale room body");
  assert.equal(handOffered({ room, state, seat: 0, narrow: true }), true, "offered on every phone while a screen is open");
  assert.equal(handOffered({ room, state, seat: 0 }), false, "not on a laptop");
  assert.equal(handOffered({ room: { ...room, screen: false }, state, seat: 0, narrow: true }), false);
});

test("with a screen marked as the table, phones show their hands unless the player chose the table", () => {
  const room = { screen: true, table_screen: true, status: "playing" };
  const state = { status: "playing" };
  assert.equal(handView({ room, state, seat: 0, narrow: true }), true, "a seated phone around the marked table");
  assert.equal(handView({ room, state, seat: 0, narrow: true, choice: "table" }), false, "a remote friend chose the table");
  assert.equal(handView({ room, state, seat: 0 }), false, "a remote laptop keeps the table");
  assert.equal(handView({ room, state, seat: null, narrow: true }), false, "a spectator has no hand");
  assert.equal(handView({ room: { ...room, screen: false }, state, seat: 0, narrow: true }), false, "the marked screen is switched off");
});
