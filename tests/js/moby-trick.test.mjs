// Moby Trick's table in words (DOM-free): the legal moves by card, the trick's order, the hand by
// family, the status line, the trick that just ended, events as sentences.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  cardLabel,
  describeEvent,
  handGroups,
  lastTrickFrom,
  legalBy,
  statusText,
  trickNote,
  trickOrder,
} from "../../static/js/games/moby-trick/words.js";

const names = ["Ann", "Bo", "Cy"];
const seatName = (s) => names[s];
const name = (s) => (s === 0 ? "You" : names[s]);

describe("moby trick words", () => {
  it("sorts the legal actions by type and card", () => {
    const legal = legalBy({ legal_actions: [{ type: "play", card: 4 }, { type: "choose_leader", seat: 2 }, { type: "pass" }] });
    assert.equal(legal.play.get(4).card, 4);
    assert.equal(legal.choose_leader.get(2).seat, 2);
    assert.equal(legal.reward.size, 0);
  });

  it("orders the trick from its first card, else from who is due", () => {
    assert.deepEqual(trickOrder({ players: 3, trick: [{ seat: 2 }], turn: 0 }), [2, 0, 1]);
    assert.deepEqual(trickOrder({ players: 3, trick: [], turn: null, leader: 1 }), [1, 2, 0]);
  });

  it("groups the hand by family in the deck's order, 5s last", () => {
    const hand = [
      { id: 1, family: null, value: 5 },
      { id: 2, family: "narwhal", value: 3 },
      { id: 3, family: "orca", value: 7 },
      { id: 4, family: "squid", value: 2 },
    ];
    assert.deepEqual(handGroups(hand).map(([family]) => family), ["orca", "narwhal", "squid", null]);
  });

  it("says what the status line says", () => {
    const view = { phase: "play", trick: [], led_family: null, hand: [], turn: 1 };
    const legal = legalBy({ legal_actions: [] });
    const who = { me: 0, myTurn: false, name, seatName };
    assert.equal(statusText(view, { to_act: [1] }, legal, who), "Bo is playing…");
    const mine = legalBy({ legal_actions: [{ type: "use_bonus", card: 9 }] });
    assert.equal(statusText(view, { to_act: [0] }, mine, { ...who, myTurn: true }), "Your lead: play any card. You may use a bonus first.");
    const over = { result: { winners: [0], scores: [12, 3, 4] } };
    assert.equal(statusText(view, over, legal, who), "The game is over: You win with 12 points!");
    assert.equal(trickNote({ phase: "lead", turn: 2 }, 0, seatName), "Cy is naming the next leader.");
  });

  it("rebuilds the trick that just ended until the next one starts", () => {
    const events = [
      { type: "play", seat: 0, family: "orca", value: 3 },
      { type: "bonus", seat: 1 },
      { type: "play", seat: 1, family: "orca", value: 8 },
      { type: "trick", winner: 1, owner: 0, family: "orca", value: 3, points: 2 },
    ];
    const last = lastTrickFrom(events);
    assert.deepEqual(last.plays.map((p) => p.value), [3, 8]);
    assert.equal(last.index, 3);
    assert.equal(lastTrickFrom([...events, { type: "play", seat: 1 }]), null);
  });

  it("says cards and events in words", () => {
    assert.equal(cardLabel({ family: "blue_whale", value: 4, pearls: 1, bonus: { kind: "flip" } }), "blue whale 4, 1 pearl, bonus: flip the token");
    const line = describeEvent({ type: "play", seat: 2, family: "orca", value: 6 }, name);
    assert.equal(line.text, "Cy played an orca 6.");
    assert.equal(describeEvent({ type: "unknown" }, name), null);
  });
});
