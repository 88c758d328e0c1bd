// Around one device: which local seat the page acts as, and when the device must be passed.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { dueSeat, heldSeats, mustPass, withLocal } from "../../static/js/device.js";

const entry = withLocal(withLocal({ seat: 0, token: "a", name: "Ann" }, { seat: 2, token: "c", name: "Cy" }), {
  seat: 3,
  token: "d",
  name: "Di",
});
const held = heldSeats(entry);

describe("held seats", () => {
  it("lists the page's own seat first, then its local players, each once", () => {
    assert.deepEqual(held.map((h) => h.seat), [0, 2, 3]);
    const again = withLocal(entry, { seat: 2, token: "c2", name: "Cy" });
    assert.deepEqual(heldSeats(again).map((h) => [h.seat, h.token]), [[0, "a"], [2, "c2"], [3, "d"]]);
  });
  it("holds nothing without a seat, and skips broken local entries", () => {
    assert.deepEqual(heldSeats(null), []);
    assert.deepEqual(heldSeats({ seat: 1, token: "b", locals: [{ seat: 4 }, null] }).map((h) => h.seat), [1]);
  });
});

describe("the due seat", () => {
  it("keeps the current seat while the game waits for it", () => {
    assert.equal(dueSeat([0, 2], held, 2), 2);
  });
  it("moves to the next local seat the game waits for, in turn order", () => {
    assert.equal(dueSeat([2], held, 0), 2);
    assert.equal(dueSeat([0, 3], held, 2), 3);
    assert.equal(dueSeat([0, 2], held, 3), 0);
  });
  it("stays put while the game waits only for remote seats or bots", () => {
    assert.equal(dueSeat([1], held, 3), 3);
    assert.equal(dueSeat([], held, 2), 2);
  });
  it("never picks a seat the page does not hold", () => {
    assert.equal(dueSeat([1, 4], held, 0), 0);
    assert.equal(dueSeat([1], held, 5), 0);
    assert.equal(dueSeat([1], [], 0), null);
  });
});

describe("passing the device", () => {
  const secret = { id: "mojo", hides_information: true, open_table: false };
  it("hides the table between two different seats of a game with secrets", () => {
    assert.equal(mustPass(0, 2, secret), true);
    assert.equal(mustPass(2, 2, secret), false);
    assert.equal(mustPass(null, 2, secret), false);
  });
  it("never for a game whose descriptor says its table is open", () => {
    assert.equal(mustPass(0, 2, { id: "mokuru", hides_information: true, open_table: true }), false);
    assert.equal(mustPass(0, 2, { id: "bells", hides_information: false, open_table: true }), false);
  });
  it("covers the table when there is no descriptor to say otherwise", () => {
    assert.equal(mustPass(0, 2, null), true);
    assert.equal(mustPass(0, 2, { id: "x" }), true);
  });
});
