// Mokuru's words module without a DOM: the log's sentences, the move buttons' names (what a
// screen reader says and what a keyboard user presses) and the status line.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { actionLabel, beltName, eventWords, statusText } from "../../static/js/games/mokuru/words.js";

const names = ["You", "Bo", "Cy"];
const words = {
  name: (seat) => names[seat],
  whose: (seat) => (seat === 0 ? "your" : `${names[seat]}'s`),
  isMe: (seat) => seat === 0,
  isBot: (seat) => seat === 2,
  seatName: (seat) => ["Ann", "Bo", "Cy"][seat],
};
const view = {
  belts: ["white", "yellow", "orange"],
  grandmaster: 3,
  levels: { easy: { hand: "both hands", tries: 3 }, hard: { hand: "one hand", tries: 1 } },
  seats: [
    { seat: 0, belt: 0, imposed: [], darkness_due: false },
    { seat: 1, belt: 2, imposed: [], darkness_due: false },
  ],
  turn: 0,
  trick: { card: { name: "Blind Flip" }, performer: 1, players: [1], tries: [2], at: 0, current: 1, mode: "solo" },
  claim: { seat: 1, witnesses: [0], interested: [], neutral: true, disputed_by: null },
};

describe("the log", () => {
  it("names belts, with Grandmaster past the last one", () => {
    assert.equal(beltName(view, 1), "Yellow");
    assert.equal(beltName(view, 3), "Grandmaster");
    assert.equal(eventWords(view, { type: "belt", seat: 1, from: 1, to: 2 }, words), "Bo: Yellow → Orange.");
    assert.equal(eventWords(view, { type: "belt", seat: 1, from: 2, to: 2 }, words), "Bo stays on Orange.");
    assert.equal(eventWords(view, { type: "belt", seat: 0, from: 0, to: 0 }, words), "You stay on White.");
  });

  it("speaks of the page's own player as you", () => {
    assert.equal(eventWords(view, { type: "difficulty", seat: 0, level: "easy", tries: 3 }, words), "You play easy (3 tries).");
    assert.equal(eventWords(view, { type: "turn", seat: 0 }, words), "Your turn.");
    assert.equal(eventWords(view, { type: "darkness", seat: 0, card: "Blind Flip" }, words), "You are possessed and imposed Blind Flip on everyone else.");
  });

  it("says a bot's word on a person's claim proves nothing", () => {
    assert.equal(eventWords(view, { type: "witness", seat: 2, claimant: 1, verdict: "confirm" }, words), "Bo's success stands: no person could witness it.");
    assert.equal(eventWords(view, { type: "witness", seat: 0, claimant: 1, verdict: "dispute" }, words), "You disputed Bo's success.");
  });
});

describe("the move buttons say what they do", () => {
  it("reports, witness verdicts and the draw", () => {
    assert.equal(actionLabel(view, { type: "report", outcome: "landed" }, words), "Landed it");
    assert.equal(actionLabel(view, { type: "report", outcome: "missed" }, words), "Missed");
    assert.equal(actionLabel(view, { type: "witness", verdict: "confirm" }, words), "Confirm Bo's success");
    assert.equal(actionLabel(view, { type: "draw" }, words), "Draw a card");
    assert.equal(actionLabel({ ...view, turn: 1 }, { type: "draw" }, words), "Draw a master trick");
    assert.equal(actionLabel(view, { type: "difficulty", level: "hard" }, words), "Hard: one hand, 1 try");
  });

  it("steal and give name the trick and the player", () => {
    assert.equal(actionLabel(view, { type: "steal" }, words), "Steal Blind Flip from Bo");
    assert.equal(actionLabel(view, { type: "give", seat: 1 }, words), "Give Blind Flip to Bo");
    assert.equal(actionLabel({ ...view, pending: { action: "the_doom" } }, { type: "immunity" }, words), "Use Immunity: block The Doom");
  });
});

describe("the status line", () => {
  it("asks the witness, with the rule, and says the tries left", () => {
    const confirm = { ...view, phase: "confirm" };
    assert.equal(statusText({}, confirm, { ...words, mine: true }), "Did Bo land it? Confirm or dispute.");
    assert.equal(statusText({}, confirm, { ...words, mine: false }), "Waiting for a witness for Bo's try…");
    assert.equal(statusText({}, { ...view, phase: "perform" }, { ...words, mine: false }), "Bo: Blind Flip — 2 tries left");
  });

  it("names the Grandmaster and who is still choosing", () => {
    assert.equal(statusText({}, { ...view, winner: 0 }, { ...words, mine: false }), "You are Grandmaster!");
    assert.equal(statusText({ to_act: [1, 2] }, { ...view, phase: "difficulty" }, { ...words, mine: false }), "Waiting for Bo and Cy to choose a difficulty…");
  });
});
