// The Mojo table: hands, discard piles, the Mojo card, Mojo Time, round results and the game log.
// It reads the view and legal_actions only; every rule stays on the server.

import { fill, h } from "../dom.js";
import { tableKit } from "../table-kit.js";
import { listWords } from "../words.js";

// A symbol per colour, so no card depends on telling colours apart.
const SYMBOLS = { blue: "●", green: "▲", yellow: "★", orange: "◆", red: "■" };

function article(colour) {
  return /^[aeiou]/.test(colour) ? "an" : "a";
}

export function cardWords(card) {
  return `${article(card.colour)} ${card.colour} ${card.value}`;
}

/** One card face. `tag` is "button" for a card that can be chosen. */
function cardFace(card, { tag = "div", size = "", attrs = {} } = {}) {
  const symbol = SYMBOLS[card.colour] || "?";
  return h(
    tag,
    {
      class: `card c-${card.colour}${size ? ` card-${size}` : ""}`,
      "aria-label": `${card.colour} ${card.value}`,
      ...(tag === "button" ? { type: "button" } : { role: "img" }),
      ...attrs,
    },
    h("span", { class: "card-corner tl", "aria-hidden": "true" }, h("b", {}, String(card.value)), h("i", {}, symbol)),
    h("span", { class: "card-middle", "aria-hidden": "true" }, h("span", { class: "card-value" }, String(card.value))),
    h("span", { class: "card-name", "aria-hidden": "true" }, `${symbol} ${card.colour}`),
  );
}

function cardBack(extra = "") {
  return h("div", { class: `card card-back${extra ? ` ${extra}` : ""}`, "aria-hidden": "true" }, h("span", { class: "back-mark" }, "M"));
}

function mojoCard(view) {
  const face = view.mojo?.face === "plus10" ? "+10" : "0";
  const clockwise = view.direction !== "counterclockwise";
  const holder = view.mojo?.holder;
  return h(
    "div",
    {
      class: `mojo-card face-${view.mojo?.face || "zero"}`,
      role: "img",
      "aria-label": `Mojo card showing ${face}; play goes ${clockwise ? "clockwise" : "counter-clockwise"}`,
    },
    h("span", { class: "mojo-arrow", "aria-hidden": "true" }, clockwise ? "↻" : "↺"),
    h("span", { class: "mojo-face", "aria-hidden": "true" }, face),
    h("span", { class: "mojo-label", "aria-hidden": "true" }, "MOJO"),
    holder !== null && holder !== undefined ? h("span", { class: "sr-only" }, " (held)") : null,
  );
}

/** The events as sentences, oldest first, each with the seq of its last event. */
export function describeEvents(events, name, piles) {
  const lines = [];
  let i = 0;
  while (i < events.length) {
    const event = events[i];
    if (event.type === "play" || event.type === "draw" || event.type === "mojo_time") {
      const seat = event.seat;
      const plays = [];
      const parts = [];
      let pile = null;
      while (i < events.length && events[i].seat === seat && ["play", "draw", "mojo_time"].includes(events[i].type)) {
        const e = events[i];
        if (e.type === "play") {
          if (parts.length) break; // a new turn of the same seat (e.g. two players, after a draw)
          plays.push(cardWords(e.card));
          pile = e.pile;
        } else if (e.type === "draw") {
          if (e.source === "pile") parts.push(`took ${cardWords(e.card)} from the other pile`);
          else if (e.source === "none") parts.push("had nothing left to draw");
          else parts.push(e.card ? `drew ${cardWords(e.card)}` : "drew a card");
        } else {
          parts.push(`hit Mojo Time with ${e.count} card${e.count === 1 ? "" : "s"} face down`);
        }
        i += 1;
      }
      if (plays.length) {
        const where = piles > 1 && pile !== null ? ` on pile ${pile + 1}` : "";
        parts.unshift(`played ${listWords(plays)}${where}`);
      }
      lines.push({ text: `${name(seat)} ${listWords(parts)}.`, seq: events[i - 1].seq, seat });
      continue;
    }
    if (event.type === "reveal") {
      lines.push({ text: `${name(event.seat)} revealed ${cardWords(event.card)}.`, seq: event.seq, seat: event.seat });
    } else if (event.type === "reshuffle") {
      lines.push({ text: `The discards were shuffled into a new draw pile of ${event.count} cards.`, seq: event.seq });
    } else if (event.type === "round_end") {
      const scores = event.scores.map((s, seat) => `${name(seat)} ${s}`).join(", ");
      const face = event.mojo_face === "plus10" ? "+10" : "0";
      lines.push({
        text: `Round ${event.round} is over: ${name(event.seat)} went out and ${name(event.seat) === "You" ? "take" : "takes"} the Mojo card (${face}). Points: ${scores}.`,
        seq: event.seq,
        kind: "round",
      });
    }
    i += 1;
  }
  return lines;
}

const COLOUR_WORDS = { blue: "Blue", green: "Green", yellow: "Yellow", orange: "Orange", red: "Red" };

/** The round summary's Mojo lines: per player each colour's highest card (what counts) and the
 * Mojo card; the cards each player held, face-down ones included, are shown with them. */
export function roundSummary(event, view, name) {
  const plus = event.mojo_face === "plus10";
  const ender = name(event.seat);
  const you = ender === "You";
  const intro = plus
    ? `${ender} went out first but did not have the lowest count, so the Mojo card adds 10 to ${you ? "your" : "their"} round.`
    : `${ender} went out first with the lowest count: the Mojo card shows 0 and ${you ? "your" : "their"} round counts nothing.`;
  const held = view.last_round?.round === event.round ? view.last_round.counted : null;
  const rows = (event.best || []).map((best, seat) => {
    const sum = best.map((card) => `${COLOUR_WORDS[card.colour] || card.colour} ${card.value}`).join(" + ");
    const why = [best.length ? `Highest of each colour: ${sum} = ${event.raw?.[seat] ?? 0}` : "No cards left: 0"];
    if (seat === event.seat) {
      why.push(plus ? `Mojo card: ${event.raw?.[seat] ?? 0} + 10 = ${event.scores[seat]}` : "Mojo card: this round counts 0");
    }
    return { seat, why, cards: held?.[seat]?.map((card) => cardFace(card, { size: "tiny" })) || [] };
  });
  return { intro, rows };
}

export function mount(root, ctx) {
  const els = {
    status: h("p", { class: "table-status", id: "turn-status" }),
    opponents: h("div", { class: "table-seats", role: "list", "aria-label": "Players" }),
    center: h("div", { class: "mojo-center" }),
    mine: h("section", { class: "table-mine mojo-mine", "aria-label": "Your cards" }),
    faceDown: h("div", { class: "my-facedown" }),
    hand: h("div", { class: "hand", id: "hand", role: "group", "aria-label": "Your hand" }),
    log: h("ol", { class: "log-list", id: "game-log" }),
  };
  const felt = h("div", { class: "felt" }, els.opponents, els.center, els.status, els.mine);
  els.mine.append(h("div", { class: "mine-head" }), els.faceDown, els.hand);
  fill(root, 
    h("div", { class: "mojo" }, felt, h("section", { class: "panel log-panel" }, h("h2", {}, "What happened"), els.log)),
  );

  const handNodes = new Map();
  let selected = null; // a card chosen while its pile is still to be picked (double discard)
  let lastState = null;
  let currentLegal = { plays: new Map(), reveals: new Map(), draws: new Map() };
  const kit = tableKit(root, ctx, { redraw: () => lastState && update(lastState) });
  const name = (seat) => kit.name(seat);

  function send(action) {
    selected = null;
    return kit.send(action);
  }

  function legalBy(state) {
    const plays = new Map();
    const reveals = new Map();
    const draws = new Map();
    for (const action of state.legal_actions || []) {
      if (action.type === "play") {
        if (!plays.has(action.card)) plays.set(action.card, []);
        plays.get(action.card).push(action);
      } else if (action.type === "reveal") reveals.set(action.card, action);
      else if (action.type === "draw") draws.set(action.source, action);
    }
    return { plays, reveals, draws };
  }

  function renderSeats(view, state) {
    const others = kit.others(view.seats.map((s) => s.seat));
    const freshSeats = new Set(state._freshSeats || []);
    els.opponents.dataset.direction = view.direction;
    fill(els.opponents, 
      ...others.map((seat) => {
        const info = view.seats[seat];
        const current = view.current === seat;
        // At the game's end every card is shown, face-down ones too, and Mojo Time is over.
        const over = Boolean(state.result);
        const held = over && view.last_round ? view.last_round.counted[seat] || [] : null;
        const backs = Math.min(info.hand_count, 10);
        return h(
          "div",
          {
            class: `seat-panel${current ? " is-current" : ""}${freshSeats.has(seat) ? " is-acting" : ""}${info.mojo_time && !over ? " is-mojo-time" : ""}`,
            role: "listitem",
            "data-seat": seat,
            "aria-label": `${ctx.seatName(seat)}: ${info.hand_count} cards in hand${info.face_down_count ? `, ${info.face_down_count} face down` : ""}${current ? ", playing now" : ""}`,
          },
          h(
            "div",
            { class: "seat-head" },
            kit.avatar(seat),
            h("span", { class: "seat-title" }, ctx.seatName(seat)),
            current ? h("span", { class: "turn-flag" }, "playing") : null,
            view.mojo?.holder === seat ? h("span", { class: "chip chip-mojo", title: "Holds the Mojo card" }, "Mojo") : null,
          ),
          h(
            "div",
            { class: "seat-cards" },
            h(
              "div",
              { class: "mini-hand", "aria-hidden": "true" },
              Array.from({ length: backs }, () => h("span", { class: "mini-back" })),
            ),
            h("span", { class: "count" }, `${info.hand_count}`, h("small", {}, info.hand_count === 1 ? " card" : " cards")),
          ),
          held
            ? h(
                "div",
                { class: "seat-held", "aria-label": `${ctx.seatName(seat)} held ${held.map(cardWords).join(", ") || "no cards"}` },
                held.map((card) => cardFace(card, { size: "tiny" })),
              )
            : null,
          info.mojo_time && !over
            ? h(
                "div",
                { class: "seat-mojo-time" },
                h("span", { class: "chip chip-time" }, "Mojo Time"),
                Array.from({ length: info.face_down_count }, () => cardBack("card-tiny")),
                info.revealed.map((card) => cardFace(card, { size: "tiny" })),
              )
            : null,
        );
      }),
    );
  }

  function renderCenter(view, state, legal) {
    const myTurn = kit.myTurn(state);
    const deckDraw = legal.draws.get("deck");
    const pileDraw = legal.draws.get("pile");
    const drawPile = h(
      deckDraw ? "button" : "div",
      {
        class: `pile draw-pile${deckDraw ? " is-target" : ""}`,
        ...(deckDraw ? { type: "button", "data-action": "draw-deck", "data-key": "draw-deck", onclick: () => send(deckDraw) } : {}),
        "aria-label": `${deckDraw ? "Draw from the draw pile: " : "Draw pile: "}${view.draw_pile} cards`,
      },
      h("div", { class: "stack" }, view.draw_pile > 0 ? [cardBack("stack-2"), cardBack("stack-1"), cardBack()] : h("div", { class: "card card-empty" })),
      h("span", { class: "pile-label" }, deckDraw ? "Draw" : "Draw pile", h("b", {}, ` ${view.draw_pile}`)),
    );
    const piles = view.discard_piles.map((pile, index) => {
      const choices = selected !== null ? legal.plays.get(selected) || [] : [];
      const playHere = choices.find((a) => a.pile === index);
      const takeHere = pileDraw && view.turn?.pile !== null && view.turn?.pile !== index ? pileDraw : null;
      const action = playHere || takeHere;
      const top = pile.top;
      const fresh = top && state._landed === `${index}:${top.id}`;
      const labelWords = top ? `${top.colour} ${top.value}` : "empty";
      const label = view.discard_piles.length > 1 ? `Pile ${index + 1}` : "Discard";
      return h(
        action ? "button" : "div",
        {
          class: `pile discard-pile${action ? " is-target" : ""}${view.turn?.pile === index ? " is-active" : ""}`,
          "data-pile": index,
          ...(action
            ? { type: "button", "data-action": playHere ? "play-on-pile" : "draw-pile", "data-key": `pile-${index}`, onclick: () => send(action) }
            : {}),
          "aria-label": `${playHere ? "Play here: " : takeHere ? "Take the top card: " : ""}${label}, ${labelWords}, ${pile.count} cards`,
        },
        h(
          "div",
          { class: "stack" },
          pile.count > 1 ? h("div", { class: "card card-under", "aria-hidden": "true" }) : null,
          top ? cardFace(top, { attrs: { class: `card c-${top.colour}${fresh ? " is-landing" : ""}` } }) : h("div", { class: "card card-empty" }),
        ),
        h("span", { class: "pile-label" }, playHere ? "Play here" : takeHere ? "Take it" : label, h("b", {}, ` ${pile.count}`)),
      );
    });
    fill(els.center, 
      drawPile,
      ...piles,
      h(
        "div",
        { class: "mojo-slot" },
        mojoCard(view),
        h("span", { class: "pile-label" }, `Round ${view.round}`, h("b", {}, ` · to ${view.target}`)),
      ),
    );
    els.center.classList.toggle("is-my-turn", myTurn);
  }

  function statusText(view, state, legal) {
    if (state.result || state.status === "finished") return "The game is over.";
    const myTurn = kit.myTurn(state);
    if (!myTurn) {
      if (view.current === null || view.current === undefined) return "";
      const who = ctx.seatName(view.current);
      if (view.turn?.chain) return `${who} played an equal value and plays again…`;
      return `${who} is playing…`;
    }
    if (legal.draws.size) return "Your turn: you played higher, so draw — from the draw pile or the other discard pile.";
    if (legal.reveals.size) return "Your turn: Mojo Time! Reveal one of your face-down cards.";
    if (view.turn?.chain) return "Same value! You must play another card.";
    if (selected !== null) return "Now choose the discard pile to play it on.";
    if (view.discard_piles.length > 1 && view.turn?.pile === null) return "Your turn: pick a card, then a discard pile.";
    return "Your turn: play a card. Lower ends your turn, higher draws a card, equal plays again.";
  }

  function renderMine(view, state, legal, first) {
    const me = ctx.mySeat;
    if (me === null || me === undefined) {
      els.mine.hidden = true;
      return;
    }
    els.mine.hidden = false;
    const info = view.seats[me];
    const myTurn = kit.myTurn(state);
    const head = els.mine.querySelector(".mine-head");
    fill(head, 
      kit.avatar(me),
      h("span", { class: "seat-title" }, `${ctx.seatName(me)} (you)`),
      myTurn ? h("span", { class: "turn-flag is-you" }, "your turn") : null,
      info?.mojo_time && !state.result ? h("span", { class: "chip chip-time" }, "Mojo Time") : null,
      view.mojo?.holder === me ? h("span", { class: "chip chip-mojo" }, "Mojo") : null,
      h("span", { class: "count" }, `${view.hand.length} in hand`),
    );
    els.mine.classList.toggle("is-current", myTurn);

    // Face-down and revealed cards (Mojo Time). You know your own face-down cards.
    const revealedCards = info?.revealed || [];
    els.faceDown.hidden = !view.face_down.length && !revealedCards.length;
    fill(els.faceDown, 
      view.face_down.length ? h("span", { class: "facedown-label" }, "Face down:") : null,
      ...view.face_down.map((card) => {
        const reveal = legal.reveals.get(card.id);
        return cardFace(card, {
          tag: reveal ? "button" : "div",
          size: "small",
          attrs: {
            class: `card card-small c-${card.colour} is-facedown${reveal ? " is-legal" : ""}`,
            "data-card-id": card.id,
            "aria-label": `${reveal ? "Reveal " : "Face down: "}${card.colour} ${card.value}`,
            ...(reveal ? { "data-action": "reveal", "data-key": `reveal-${card.id}`, onclick: () => send(reveal) } : {}),
          },
        });
      }),
      revealedCards.length ? h("span", { class: "facedown-label" }, "Revealed:") : null,
      ...revealedCards.map((card) => cardFace(card, { size: "small" })),
    );

    // The hand: one button per card, kept across updates so keyboard focus stays put.
    const before = new Set(handNodes.keys());
    const top = view.discard_piles[view.turn?.pile ?? 0]?.top;
    const wanted = view.hand.map((card) => {
      let node = handNodes.get(card.id);
      if (!node) {
        node = cardFace(card, { tag: "button", attrs: { "data-card-id": card.id, "data-key": `card-${card.id}` } });
        const id = card.id;
        node.addEventListener("click", () => {
          const actions = currentLegal.plays.get(id) || [];
          if (actions.length === 1) send(actions[0]);
          else if (actions.length > 1) {
            selected = selected === id ? null : id;
            update(lastState);
          }
        });
        if (!first) node.classList.add("is-drawn");
        handNodes.set(card.id, node);
      }
      before.delete(card.id);
      const actions = legal.plays.get(card.id) || [];
      node.disabled = !actions.length;
      if (actions.length) node.dataset.action = "play";
      else delete node.dataset.action;
      node.classList.toggle("is-legal", actions.length > 0);
      node.classList.toggle("is-selected", selected === card.id);
      // Only a card that still needs a pile choice is a toggle.
      if (actions.length > 1) node.setAttribute("aria-pressed", String(selected === card.id));
      else node.removeAttribute("aria-pressed");
      if (top && actions.length && view.discard_piles.length === 1) {
        node.dataset.compare = card.value < top.value ? "lower" : card.value > top.value ? "higher" : "equal";
      } else delete node.dataset.compare;
      node.setAttribute("aria-label", `${card.colour} ${card.value}${actions.length ? "" : " (not playable now)"}`);
      return node;
    });
    for (const gone of before) handNodes.delete(gone);
    wanted.forEach((node, index) => {
      if (els.hand.children[index] !== node) els.hand.insertBefore(node, els.hand.children[index] || null);
    });
    while (els.hand.children.length > wanted.length) els.hand.lastElementChild.remove();
    if (!view.hand.length) {
      // "Your cards are face down" only while some still are; once all are revealed it would mislead.
      els.hand.dataset.empty = view.face_down.length ? "mojo" : "none";
    } else delete els.hand.dataset.empty;
    setTimeout(() => {
      for (const node of wanted) node.classList.remove("is-drawn");
    }, 600);
  }

  function update(state) {
    lastState = state;
    const view = state.view;
    const news = kit.begin(state);
    if (!view || view.game !== "mojo") return;
    const legal = legalBy(state);
    currentLegal = legal;
    if (selected !== null && !legal.plays.has(selected)) selected = null;

    const landed = [...news.fresh].reverse().find((e) => e.type === "play");
    const decorated = {
      ...state,
      _freshSeats: news.fresh.map((e) => e.seat).filter((s) => s !== undefined),
      _landed: null,
    };
    if (landed) {
      const top = view.discard_piles[landed.pile]?.top;
      if (top) decorated._landed = `${landed.pile}:${top.id}`;
    }

    const piles = view.discard_piles.length;
    kit.keepFocus(() => {
      renderSeats(view, decorated);
      renderCenter(view, decorated, legal);
      els.status.textContent = statusText(view, state, legal);
      els.status.classList.toggle("is-you", kit.myTurn(state));
      renderMine(view, state, legal, news.first);
      kit.renderLog(els.log, describeEvents(news.events, name, piles), "The cards are dealt. Nothing played yet.");
    });

    // Say what the others did, in words, and whose turn it is now: the felt alone tells
    // a screen reader nothing. The page already says "Your turn." when nothing else is new.
    kit.announceMoves(describeEvents(news.fresh, name, piles), state, view.current);
  }

  return {
    update,
    destroy() {
      root.replaceChildren();
    },
  };
}
