// Taking back a misclick (docs/playing.md, "Takeback"): after your own move, "Take back" while the
// server says it may be (the state body's `can_take_back`), then "Withdraw" while the table answers;
// for the others, "Ann asks to take back their last move: Allow / Refuse" while a takeback is
// pending (`takeback`). What to show is worked out by `takebackPanel` and `takebackOutcome`,
// DOM-free so they run under `node --test`.

import { api } from "./api.js";
import { cardPhraseOf } from "./card-phrases.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { cardName, cardsIn, doneWords } from "./move-words.js";
import { listWords } from "./words.js";

/** The move a pending takeback asks about, in the game's words ("played a blue whale 6"), read
 *  from the takeback's `action` (as everyone may read it) and the cards `view` shows; null when
 *  the server named no action or the game has no words for it. `cardPhrase(card)` is the game's
 *  words for a card (card-phrases.js). */
export function askedMoveWords(pending, words, view, nameOf, cardPhrase = cardName) {
  const action = pending?.action;
  if (!action || typeof action !== "object" || !words || !Object.hasOwn(words, action.type)) return null;
  return doneWords(words[action.type], action, { cards: cardsIn(view), name: nameOf, cardPhrase });
}

/** Sentences one after the other, the empty ones left out. */
function sentences(...texts) {
  return texts.filter(Boolean).join(" ");
}

/**
 * What the takeback strip shows for a state body: null (nothing), or `{ kind, text, buttons }` with
 * kind "offer" (you may ask), "asking" (you asked), "answer" (you are asked) or "info" (someone
 * asked, you have answered or watch), and buttons among "take-back", "withdraw", "allow", "refuse";
 * `as` is the seat the buttons act for.
 */
export function takebackPanel(state, nameOf, held = [], localStates = [], words = null, cardPhrase = cardName) {
  if (!state || state.status !== "playing") return null;
  const me = state.seat;
  const pending = state.takeback;
  if (!pending) {
    if (state.can_take_back) {
      return { kind: "offer", text: t("Misclicked?"), buttons: ["take-back"], as: me, version: state.version };
    }
    // Around one device the page shows the next player once a local player has moved: the one
    // who moved may still take it back, by name.
    const mover = localStates.find((other) => other?.can_take_back && other.version === state.version);
    if (mover) {
      const text = t("{name}: misclicked?", { name: nameOf(mover.seat) });
      return { kind: "offer", text, buttons: ["take-back"], as: mover.seat, version: mover.version };
    }
    return null;
  }
  const waiting = (pending.waiting_for || []).filter((seat) => seat !== me);
  const waitingWords = waiting.length ? t("Waiting for {names}.", { names: listWords(waiting.map(nameOf)) }) : "";
  // The move itself, when the server names it: "(played a blue whale 6)".
  const move = askedMoveWords(pending, words, state.view, nameOf, cardPhrase);
  const asker = nameOf(pending.seat);
  // Translators: {move} is the game's words for the move, as "played a red 5".
  const youAsked = move ? t("You asked to take back your last move ({move}).", { move }) : t("You asked to take back your last move.");
  const theyAsked = move
    ? t("{name} asked to take back their last move ({move}).", { name: asker, move })
    : t("{name} asked to take back their last move.", { name: asker });
  const theyAsk = move
    ? t("{name} asks to take back their last move ({move}).", { name: asker, move })
    : t("{name} asks to take back their last move.", { name: asker });
  if (pending.seat === me) {
    return { kind: "asking", text: sentences(youAsked, waitingWords), buttons: ["withdraw"], as: me };
  }
  if (held.includes(pending.seat) && !held.some((seat) => seat !== pending.seat && (pending.waiting_for || []).includes(seat))) {
    return { kind: "asking", text: sentences(theyAsked, waitingWords), buttons: ["withdraw"], as: pending.seat };
  }
  if ((pending.waiting_for || []).includes(me)) {
    return { kind: "answer", text: sentences(theyAsk, t("Answer before you play on:")), buttons: ["allow", "refuse"], as: me };
  }
  // Around one device, another player here may be the one asked: the buttons answer for them.
  const local = held.find((seat) => seat !== pending.seat && (pending.waiting_for || []).includes(seat));
  if (local !== undefined) {
    const question = t("{name}, do you allow it?", { name: nameOf(local) });
    return { kind: "answer", text: sentences(theyAsk, question), buttons: ["allow", "refuse"], as: local };
  }
  return { kind: "info", text: sentences(theyAsk, waitingWords), buttons: [] };
}

/** The table's own status line while this page must answer a takeback before play goes on:
 *  "Cy asked to take back a move — answer below before you play on" (around one device, the
 *  player here who is asked is named); null when nothing waits for an answer from here. */
export function askedLine(state, nameOf, held = []) {
  const panel = takebackPanel(state, nameOf, held);
  if (panel?.kind !== "answer") return null;
  const name = nameOf(state.takeback.seat);
  if (panel.as === state.seat) return t("{name} asked to take back a move — answer below before you play on", { name });
  return t("{name} asked to take back a move — {player}, answer below before you play on", { name, player: nameOf(panel.as) });
}

/** A takeback that ended between two state bodies, as its asker hears it: "taken back", "stands"
 * (not taken back: refused, withdrawn, or it lapsed, its time being up or those asked having left)
 * or null. A new move cancels one too, which needs no words. */
export function takebackOutcome(previous, state) {
  const asked = previous?.takeback;
  if (!asked || state?.takeback || asked.seat !== state?.seat) return null;
  if (state.version === asked.version + 1) return "taken back";
  if (state.version === asked.version) return "stands";
  return null;
}

const BUTTONS = {
  "take-back": { label: t("Take back"), primary: true },
  withdraw: { label: t("Withdraw"), primary: false },
  allow: { label: t("Allow"), primary: true },
  refuse: { label: t("Refuse"), primary: false },
};

/** ctx: { rs (the room state: the active seat's state body, and around one device the other held
 *        seats' connections), roomId, tokenOf(seat), held() (the seats this device holds),
 *        nameOf(seat), words() (the game's action words, to name the move asked about),
 *        announce(text) } */
export function createTakeback(ctx) {
  const { rs } = ctx;
  /** Around one device, the state bodies of the held seats other than the one shown. */
  const localStates = () => {
    const { device, seat } = rs.get();
    return [...(device?.conns?.entries() || [])].filter(([held]) => held !== seat?.seat).map(([, c]) => c.state);
  };
  const box = () => document.getElementById("takeback");
  // The game's words for a card, to name the move asked about.
  const phrase = () => cardPhraseOf(rs.get().room?.game);
  let problem = null;
  let note = null;
  let busy = false;
  // The takeback this page withdrew: its end is then said as the asker's own choice.
  let withdrawn = null;

  async function press(name, as, version) {
    const { state } = rs.get();
    if (!state || busy) return;
    const path = `/api/rooms/${ctx.roomId}/takeback`;
    busy = true;
    problem = null;
    try {
      if (name === "take-back") {
        await api("POST", path, { body: { version }, token: ctx.tokenOf(as) });
      } else if (name === "withdraw") {
        // Noted before the answer: the socket may bring the body without the takeback first.
        withdrawn = state.takeback.id;
        await api("POST", `${path}/${withdrawn}/withdraw`, { body: {}, token: ctx.tokenOf(as) });
      } else {
        await api("POST", `${path}/${state.takeback.id}/${name === "allow" ? "approve" : "refuse"}`, { body: {}, token: ctx.tokenOf(as) });
      }
    } catch (error) {
      // A refusal from the server is said in its words (someone acted since, it showed a card...).
      problem = error.message || String(error);
      if (name === "withdraw") withdrawn = null;
    } finally {
      busy = false;
      draw();
    }
  }

  function draw() {
    const node = box();
    if (!node) return;
    const panel = takebackPanel(rs.get().state, ctx.nameOf, ctx.held(), localStates(), ctx.words?.(), phrase());
    const text = panel ? panel.text : note;
    node.hidden = !text && !problem;
    node.dataset.kind = panel ? panel.kind : "note";
    // A question to this page (request-layer.js sounds it once).
    if (panel?.kind === "answer") node.dataset.asks = `takeback-${rs.get().state.takeback.id}-${panel.as}`;
    else delete node.dataset.asks;
    fill(
      node,
      text ? h("p", { class: "takeback-text" }, text) : null,
      panel?.buttons.length
        ? h(
            "p",
            { class: "takeback-buttons" },
            panel.buttons.map((name) =>
              h(
                "button",
                {
                  class: `button button-small${BUTTONS[name].primary ? " button-primary" : ""}`,
                  type: "button",
                  "data-takeback": name,
                  disabled: busy,
                  onclick: () => press(name, panel.as, panel.version),
                },
                BUTTONS[name].label,
              ),
            ),
          )
        : null,
      problem ? h("p", { class: "form-error takeback-problem", role: "alert" }, problem) : null,
    );
  }

  /** A new state body arrived (a move, or a takeback asked or answered). */
  function update(state, previous) {
    const outcome = takebackOutcome(previous, state);
    if (outcome === "taken back") note = t("Your move was taken back: play again.");
    else if (outcome === "stands" && previous.takeback.id === withdrawn) note = t("You withdrew your request: your move stands.");
    else if (outcome === "stands") note = t("Not taken back: your move stands.");
    else if (previous && state && state.version !== previous.version) note = null;
    if (outcome) ctx.announce(note);
    if (previous && state && (state.version !== previous.version || state.takeback?.id !== previous.takeback?.id)) problem = null;
    const before = previous?.takeback;
    if (state?.takeback && state.takeback.id !== before?.id && state.takeback.seat !== state.seat) {
      ctx.announce(takebackPanel(state, ctx.nameOf, ctx.held(), localStates(), ctx.words?.(), phrase())?.text || "");
    }
    draw();
  }

  return { update, draw };
}
