// The Moby Trick table: trump and value token, the trick, your hand by family, bonuses, rewards and the log.
// It reads the view and legal_actions only; every rule stays on the server.

import { fill, h } from "../dom.js";
import { tableKit } from "../table-kit.js";
import { listWords } from "../words.js";

// Each family has a symbol and a name on every card, so nothing depends on telling colours apart.
const FAMILY_ORDER = ["orca", "narwhal", "blue_whale", "sperm_whale"];
const SYMBOLS = { orca: "▲", narwhal: "◆", blue_whale: "●", sperm_whale: "■" };
// Families renamed in the card data still get a symbol of their own.
const SPARE_SYMBOLS = ["✚", "✖", "♥", "♣"];
const FIVE_SYMBOL = "★";

function symbolOf(family) {
  if (family === null || family === undefined) return FIVE_SYMBOL;
  if (SYMBOLS[family]) return SYMBOLS[family];
  const extra = Object.keys(SYMBOLS).length;
  SYMBOLS[family] = SPARE_SYMBOLS[(Object.keys(SYMBOLS).length - extra) % SPARE_SYMBOLS.length];
  return SYMBOLS[family];
}

function familyName(family) {
  return family ? family.replace(/_/g, " ") : "five";
}

function familyPlural(family) {
  return family ? `${familyName(family)}s` : "5s";
}

function familyClass(family) {
  return family ? `f-${family.replace(/_/g, "-")}` : "f-five";
}

function cardWords(card) {
  if (card.family === null || card.family === undefined) return `a ${card.value}`;
  const name = familyName(card.family);
  return `${/^[aeiou]/.test(name) ? "an" : "a"} ${name} ${card.value}`;
}

function pearlWords(count) {
  return `${count} pearl${count === 1 ? "" : "s"}`;
}

function tokenWords(token) {
  return token === 9 ? "9: highest wins" : "1: lowest wins";
}

/** What a bonus does, as a short instruction. */
function bonusWords(bonus) {
  switch (bonus?.kind) {
    case "flip":
      return "flip the token";
    case "trump":
      return `make ${familyPlural(bonus.family)} trump`;
    case "pearl":
      return "take 1 pearl";
    default:
      return "no bonus";
  }
}

/** The bonus as the log names it: "a flip-token bonus". */
function bonusKindWords(kind) {
  return { flip: "a flip-token bonus", trump: "a change-trump bonus", pearl: "a pearl bonus" }[kind] || "a bonus";
}

function cardLabel(card) {
  const bonus = card.bonus?.kind && card.bonus.kind !== "none" ? `, bonus: ${bonusWords(card.bonus)}` : "";
  const pearls = card.pearls ? `, ${pearlWords(card.pearls)}` : "";
  return `${card.family ? familyName(card.family) : "five"} ${card.value}${pearls}${bonus}`;
}

function pearlDots(count) {
  return Array.from({ length: count }, () => h("span", { class: "pearl" }));
}

function bonusBadge(bonus) {
  switch (bonus?.kind) {
    case "flip":
      return h("span", { class: "whale-bonus bonus-flip", title: "Bonus: flip the token" }, "1⇅9");
    case "trump":
      return h(
        "span",
        { class: "whale-bonus bonus-trump", title: `Bonus: ${bonusWords(bonus)}` },
        "⇒",
        h("b", { class: familyClass(bonus.family) }, symbolOf(bonus.family)),
      );
    case "pearl":
      return h("span", { class: "whale-bonus bonus-pearl", title: "Bonus: 1 pearl" }, "+", h("span", { class: "pearl" }));
    default:
      return null;
  }
}

/** One card face. `tag` is "button" for a card that can be chosen. Pearls run down the left edge as printed. */
function cardFace(card, { tag = "div", size = "", extraClass = "", attrs = {} } = {}) {
  const button = tag === "button";
  return h(
    tag,
    {
      class: `card whale ${familyClass(card.family)}${size ? ` card-${size}` : ""}${extraClass ? ` ${extraClass}` : ""}`,
      "aria-label": cardLabel(card),
      ...(button ? { type: "button" } : { role: "img" }),
      ...(card.id !== undefined ? { "data-card-id": card.id } : {}),
      ...attrs,
    },
    h("span", { class: "whale-value", "aria-hidden": "true" }, String(card.value)),
    card.pearls ? h("span", { class: "whale-pearls", "aria-hidden": "true" }, pearlDots(card.pearls)) : null,
    h("span", { class: "whale-mark", "aria-hidden": "true" }, symbolOf(card.family)),
    h("span", { class: "whale-corner", "aria-hidden": "true" }, bonusBadge(card.bonus)),
    h("span", { class: "whale-name", "aria-hidden": "true" }, card.family ? familyName(card.family) : "any family"),
  );
}

function familyChip(family, extra = "") {
  return h(
    "span",
    { class: `family-chip ${familyClass(family)}${extra ? ` ${extra}` : ""}` },
    h("span", { class: "chip-symbol", "aria-hidden": "true" }, symbolOf(family)),
    " ",
    familyName(family),
  );
}

/** "Bo keeps" but "You keep". */
function agree(subject, singular, plural) {
  return `${subject} ${subject === "You" ? plural : singular}`;
}

/** One event as a sentence, or null for events shown some other way. */
export function describeEvent(event, name) {
  switch (event.type) {
    case "round_start":
      return {
        text: `Round ${event.round}: ${cardWords(event.drawn)} was drawn, so ${familyPlural(event.trump)} are trump and the token shows ${tokenWords(event.token)}. ${agree(name(event.leader), "leads", "lead")}.`,
        kind: "round",
      };
    case "set_aside":
      return { text: `${name(event.seat)} set aside ${cardWords(event)} as a first bonus.` };
    case "bonus": {
      let effect = "";
      if (event.kind === "trump") effect = `: ${familyPlural(event.trump)} are trump now`;
      else if (event.kind === "flip") effect = `: the token shows ${tokenWords(event.token)}`;
      else if (event.kind === "pearl") effect = ": +1 pearl";
      return { text: `${name(event.seat)} used ${bonusKindWords(event.kind)} (${cardWords(event)})${effect}.`, kind: "bonus" };
    }
    case "play":
      return { text: `${name(event.seat)} played ${cardWords(event)}.` };
    case "trick": {
      const owner = name(event.owner);
      const whose = event.owner === event.winner ? (owner === "You" ? "your own" : "their own") : owner === "You" ? "your" : `${owner}'s`;
      const keeps = event.family ? ` ${agree(name(event.owner), "keeps", "keep")} it as a bonus.` : "";
      const extra = event.from_discard ? ` (${event.from_discard} from the discard pile)` : "";
      return {
        text: `${name(event.winner)} won the trick and took ${whose} ${cardWords(event).replace(/^an? /, "")}: ${pearlWords(event.points)}${extra}.${keeps}`,
        kind: "trick",
      };
    }
    case "leader":
      if (event.seat === event.chooser) return { text: `${name(event.chooser)} chose to lead the next trick.` };
      return { text: `${name(event.chooser)} chose ${name(event.seat, true)} to lead the next trick.` };
    case "round_end":
      return {
        text: `Round ${event.round} is over. Points: ${event.points.map((p, seat) => `${name(seat)} ${p}`).join(", ")}.`,
        kind: "round",
      };
    case "tie":
      return { text: `${listWords(event.seats.map((s) => name(s)))} share the lead, so one more round is played.`, kind: "round" };
    case "game_end":
      return { text: `The game is over: ${listWords(event.winners.map((s) => name(s)))} won!`, kind: "round" };
    default:
      return null;
  }
}

/** The cards of the trick that just ended, rebuilt from the events (the view clears the trick once it is taken). */
function lastTrickFrom(events) {
  const end = events.map((e) => e.type).lastIndexOf("trick");
  if (end < 0) return null;
  const plays = [];
  for (let i = end - 1; i >= 0; i -= 1) {
    const kind = events[i].type;
    if (kind === "play") plays.unshift(events[i]);
    else if (kind !== "bonus") break;
  }
  const trickEvent = events[end];
  const after = events.slice(end + 1);
  // Once a new trick or round has begun, the old trick is no longer the news.
  if (after.some((e) => e.type === "play" || e.type === "round_start")) return null;
  return { plays, taken: trickEvent, index: end };
}

/** The round summary's Moby Trick lines: each player's pearls and the pairs of unused bonuses. */
export function roundSummary(event) {
  const rows = (event.points || []).map((_, seat) => {
    const pearls = event.pearls?.[seat] ?? event.points[seat];
    const pairs = event.bonus_pairs?.[seat] ?? 0;
    const why = [`${pearls} ${pearls === 1 ? "pearl" : "pearls"}`];
    if (pairs) why.push(`${pairs} ${pairs === 1 ? "pair" : "pairs"} of unused bonuses: +${pairs}`);
    return { seat, why };
  });
  return { intro: "Each pearl is a point, and each pair of bonuses left unused is one more.", rows };
}

export function mount(root, ctx) {
  const els = {
    seats: h("div", { class: "table-seats", role: "list", "aria-label": "Other players" }),
    compass: h("section", { class: "moby-compass", "aria-label": "Trump and value token" }),
    trick: h("section", { class: "moby-trick", "aria-label": "The trick" }),
    status: h("p", { class: "table-status", id: "turn-status" }),
    choice: h("section", { class: "moby-choice", hidden: true }),
    mine: h("section", { class: "table-mine moby-mine", "aria-label": "Your cards" }),
    log: h("ol", { class: "log-list", id: "game-log" }),
  };
  const felt = h(
    "div",
    { class: "felt moby-felt" },
    els.seats,
    h("div", { class: "moby-center" }, els.compass, els.trick),
    els.status,
    els.choice,
    els.mine,
  );
  const table = h("div", { class: "moby" }, felt, h("section", { class: "panel log-panel" }, h("h2", {}, "What happened"), els.log));
  fill(root, table);

  let lastState = null;
  const kit = tableKit(root, ctx, { redraw: () => lastState && update(lastState) });
  const send = (action) => kit.send(action);
  const me = () => ctx.mySeat;
  const name = (seat, object = false) => kit.name(seat, object);

  function actionButtonAttrs(action, key) {
    return { "data-action": action.type, "data-key": key, onclick: () => send(action) };
  }

  function legalBy(state) {
    const byType = { set_aside: new Map(), use_bonus: new Map(), play: new Map(), reward: new Map(), choose_leader: new Map() };
    for (const action of state.legal_actions || []) {
      const table = byType[action.type];
      if (!table) continue;
      table.set(action.type === "choose_leader" ? action.seat : action.card, action);
    }
    return byType;
  }

  // ---- other players ------------------------------------------------------

  function renderSeats(view, state, freshSeats) {
    const others = kit.others(view.seats.map((s) => s.seat));
    fill(
      els.seats,
      others.map((seat) => {
        const info = view.seats[seat];
        const acting = (state.to_act || []).includes(seat);
        const choosing = view.phase === "set_aside";
        const flag = acting ? (choosing ? "choosing" : view.phase === "reward" ? "taking" : view.phase === "lead" ? "naming" : "playing") : null;
        return h(
          "div",
          {
            class: `seat-panel moby-seat${acting && !choosing ? " is-current" : ""}${freshSeats.has(seat) ? " is-acting" : ""}`,
            role: "listitem",
            "data-seat": seat,
            "aria-label": `${ctx.seatName(seat)}: ${info.hand_count} cards in hand, ${pearlWords(info.pearl_count)}, ${info.bonuses.length} bonus${info.bonuses.length === 1 ? "" : "es"}${acting ? `, ${flag} now` : ""}`,
          },
          h(
            "div",
            { class: "seat-head" },
            kit.avatar(seat),
            h("span", { class: "seat-title" }, ctx.seatName(seat)),
            flag ? h("span", { class: `turn-flag${choosing ? " is-quiet" : ""}` }, flag) : null,
            choosing && info.has_set_aside ? h("span", { class: "chip chip-ready" }, "bonus chosen") : null,
          ),
          h(
            "div",
            { class: "seat-cards" },
            h(
              "div",
              { class: "mini-hand", "aria-hidden": "true" },
              Array.from({ length: Math.min(info.hand_count, 9) }, () => h("span", { class: "mini-back" })),
            ),
            h("span", { class: "count" }, String(info.hand_count), h("small", {}, info.hand_count === 1 ? " card" : " cards")),
            h("span", { class: "pearl-count", title: "Pearls this round" }, h("span", { class: "pearl" }), ` ${info.pearl_count}`),
          ),
          info.bonuses.length
            ? h("div", { class: "seat-bonuses" }, h("span", { class: "mini-label" }, "Bonuses"), info.bonuses.map((card) => cardFace(card, { size: "tiny" })))
            : null,
          info.known_voids.length
            ? h("p", { class: "seat-voids" }, "Out of ", listWords(info.known_voids.map((f) => `${symbolOf(f)} ${familyPlural(f)}`)))
            : null,
        );
      }),
    );
  }

  // ---- trump, token and round ------------------------------------------------

  function renderCompass(view, fresh) {
    const changed = (kind) => fresh.some((e) => e.type === "bonus" && e.kind === kind) || fresh.some((e) => e.type === "round_start");
    fill(
      els.compass,
      h(
        "div",
        { class: `trump ${familyClass(view.trump)}${changed("trump") ? " is-changed" : ""}`, id: "trump" },
        h("span", { class: "compass-label" }, "Trump"),
        h("span", { class: "trump-symbol", "aria-hidden": "true" }, symbolOf(view.trump)),
        h("span", { class: "trump-name" }, familyPlural(view.trump)),
      ),
      h(
        "div",
        { class: `token token-${view.token}${changed("flip") ? " is-changed" : ""}`, id: "token" },
        h("span", { class: "compass-label" }, "Token"),
        h("span", { class: "token-disc", "aria-hidden": "true" }, String(view.token)),
        h("span", { class: "token-words" }, view.token === 9 ? "highest wins" : "lowest wins"),
        h("span", { class: "sr-only" }, `Token side ${tokenWords(view.token)}`),
      ),
      h(
        "p",
        { class: "round-line" },
        `Round ${view.round}`,
        view.trick_number ? ` · trick ${Math.min(view.trick_number, view.tricks_per_round)} of ${view.tricks_per_round}` : "",
        ` · first to ${view.target} points`,
      ),
    );
  }

  // ---- the trick ----------------------------------------------------------------

  function trickOrder(view) {
    const n = view.players;
    const played = view.trick.map((t) => t.seat);
    const first = played.length ? played[0] : view.turn ?? view.leader;
    return Array.from({ length: n }, (_, i) => (first + i) % n);
  }

  function renderTrick(view, state, legal, events, fresh) {
    const freshPlays = new Set(fresh.filter((e) => e.type === "play").map((e) => `${e.seat}:${e.family}:${e.value}`));
    const rewarding = view.phase === "reward";
    // Empty places only make sense while a trick is being played; between tricks they would be noise.
    const seatsShown = view.trick.length || view.phase === "play" ? trickOrder(view) : [];
    const slots = seatsShown.map((seat) => {
      const played = view.trick.find((t) => t.seat === seat);
      const card = played?.card;
      const reward = card ? legal.reward.get(card.id) : null;
      const isWinner = rewarding && view.turn === seat;
      const landing = card && freshPlays.has(`${seat}:${card.family}:${card.value}`);
      let face;
      if (!card) {
        face = h("div", { class: `card card-empty${view.turn === seat && view.phase === "play" ? " is-next" : ""}`, "aria-hidden": "true" });
      } else if (reward) {
        face = cardFace(card, {
          tag: "button",
          extraClass: `is-legal is-reward${landing ? " is-landing" : ""}`,
          attrs: {
            ...actionButtonAttrs(reward, `reward-${card.id}`),
            "aria-label": `Take ${pearlWords(card.pearls)}: ${ctx.seatName(seat)}'s ${cardLabel(card)}`,
          },
        });
      } else {
        face = cardFace(card, { extraClass: landing ? "is-landing" : "" });
      }
      return h(
        "div",
        { class: `trick-slot${isWinner ? " is-winner" : ""}${card ? "" : " is-open"}`, "data-seat": seat },
        face,
        h(
          "span",
          { class: "slot-name" },
          isWinner ? h("span", { class: "crown", "aria-hidden": "true" }, "♛ ") : null,
          seat === me() ? "You" : ctx.seatName(seat),
        ),
        reward ? h("span", { class: "take-label" }, "Take ", h("span", { class: "pearl" }), ` ${card.pearls}`) : null,
      );
    });
    const led = view.led_family;
    const lastTrick = !view.trick.length ? lastTrickFrom(events) : null;
    fill(
      els.trick,
      h(
        "div",
        { class: "trick-head" },
        h("span", { class: "compass-label" }, view.trick.length || view.phase === "play" ? `Trick ${view.trick_number || 1}` : "Trick"),
        led ? h("span", { class: "led" }, "Follow ", familyChip(led)) : view.trick.length ? h("span", { class: "led" }, "A 5 leads: the next whale sets the family") : null,
      ),
      h(
        "div",
        { class: "trick-row", role: "group", "aria-label": rewarding && legal.reward.size ? "Choose your reward" : "Cards in the trick" },
        slots.length ? slots : h("p", { class: "trick-note" }, trickNote(view)),
      ),
      lastTrick ? renderLastTrick(lastTrick, view, fresh) : null,
    );
  }

  function trickNote(view) {
    if (view.phase === "set_aside") return "The first trick starts once everyone has chosen a first bonus.";
    if (view.phase === "lead") return view.turn === me() ? "Choose who leads the next trick." : `${ctx.seatName(view.turn)} is naming the next leader.`;
    if (view.phase === "over") return "No more tricks: the game is over.";
    return "";
  }

  function renderLastTrick(last, view, fresh) {
    const just = fresh.some((e) => e.seq === last.taken.seq);
    return h(
      "div",
      { class: `last-trick${just ? " is-just-taken" : ""}` },
      h("span", { class: "mini-label" }, "Last trick"),
      h(
        "span",
        { class: "last-cards" },
        last.plays.map((play) =>
          h(
            "span",
            {
              class: `last-card${play.seat === last.taken.owner && play.family === last.taken.family && play.value === last.taken.value ? " is-taken" : ""}`,
            },
            cardFace({ family: play.family, value: play.value }, { size: "tiny" }),
            h("small", {}, name(play.seat)),
          ),
        ),
      ),
      h("span", { class: "last-words" }, `${name(last.taken.winner)} took ${pearlWords(last.taken.points)}`),
    );
  }

  // ---- status and choices ---------------------------------------------------------

  function statusText(view, state, legal) {
    if (state.result) {
      const winners = state.result.winners.map((seat) => name(seat));
      const top = state.result.scores[state.result.winners[0]];
      const verb = winners.length === 1 && winners[0] !== "You" ? "wins" : "win";
      return `The game is over: ${listWords(winners)} ${verb} with ${top} points!`;
    }
    if (view.phase === "over") return "The game is over.";
    const mine = me();
    const myTurn = kit.myTurn(state);
    const waiting = (state.to_act || []).filter((s) => s !== mine).map((s) => ctx.seatName(s));
    if (view.phase === "set_aside") {
      if (myTurn) return "Choose your first bonus: set aside one card of your hand to keep its bonus for this round.";
      return waiting.length ? `Waiting for ${listWords(waiting)} to choose a first bonus…` : "";
    }
    if (!myTurn) {
      const who = view.turn === null || view.turn === undefined ? "" : ctx.seatName(view.turn);
      if (view.phase === "reward") return `${who} won the trick and is choosing a reward…`;
      if (view.phase === "lead") return `${who} played the first 5 and is choosing who leads next…`;
      return who ? `${who} is playing…` : "";
    }
    if (view.phase === "reward") return "You won the trick! Take the pearls of one of the other cards.";
    if (view.phase === "lead") return "Your 5 decides: who leads the next trick?";
    const bonus = legal.use_bonus.size ? " You may use a bonus first." : "";
    const led = view.led_family;
    if (!view.trick.length) return `Your lead: play any card.${bonus}`;
    if (led && [...legal.play.values()].every((a) => cardById(view, a.card)?.family === led || cardById(view, a.card)?.value === 5)) {
      return `Your turn: follow with ${familyPlural(led)} (or a 5).${bonus}`;
    }
    return `Your turn: play any card.${bonus}`;
  }

  function cardById(view, id) {
    return view.hand.find((c) => c.id === id) || null;
  }

  function renderChoice(view, legal) {
    if (!legal.choose_leader.size) {
      els.choice.hidden = true;
      els.choice.replaceChildren();
      return;
    }
    els.choice.hidden = false;
    fill(
      els.choice,
      h("h2", { class: "choice-title" }, "Who leads the next trick?"),
      h(
        "div",
        { class: "button-row" },
        [...legal.choose_leader.entries()].map(([seat, action]) =>
          h(
            "button",
            { class: "button leader-button", type: "button", ...actionButtonAttrs(action, `leader-${seat}`) },
            kit.avatar(seat),
            seat === me() ? `${ctx.seatName(seat)} (you)` : ctx.seatName(seat),
          ),
        ),
      ),
    );
  }

  // ---- your cards ------------------------------------------------------------------

  function renderMine(view, state, legal, dealt) {
    const mine = me();
    if (mine === null || mine === undefined) {
      els.mine.hidden = true;
      return;
    }
    els.mine.hidden = false;
    const info = view.seats[mine];
    const myTurn = kit.myTurn(state);
    els.mine.classList.toggle("is-current", myTurn);
    const head = h(
      "div",
      { class: "mine-head" },
      kit.avatar(mine),
      h("span", { class: "seat-title", title: `${ctx.seatName(mine)} (you)` }, `${ctx.seatName(mine)} (you)`),
      myTurn ? h("span", { class: "turn-flag is-you" }, view.phase === "set_aside" ? "choose a bonus" : "your turn") : null,
      h(
        "span",
        { class: "pearl-count mine-pearls", title: "Pearls this round" },
        h("span", { class: "pearl" }),
        ` ${pearlWords(info.pearl_count)}`,
        h("small", {}, ` · ${info.round_points} point${info.round_points === 1 ? "" : "s"} this round`),
      ),
    );

    const bonusCards = [...info.bonuses];
    const pending = view.set_aside;
    const bonusRow = h(
      "div",
      { class: "my-bonuses", role: "group", "aria-label": "Your bonuses" },
      h("span", { class: "row-label" }, "Bonuses"),
      !bonusCards.length && !pending ? h("span", { class: "muted-note" }, "None yet. Cards of yours that win someone pearls come back to you as bonuses.") : null,
      pending
        ? h(
            "div",
            { class: "bonus-item is-pending" },
            cardFace(pending, { size: "small" }),
            h("span", { class: "bonus-words" }, bonusWords(pending.bonus), h("small", {}, "shown when all have chosen")),
          )
        : null,
      bonusCards.map((card) => {
        const use = legal.use_bonus.get(card.id);
        return h(
          "div",
          { class: `bonus-item${use ? " is-usable" : ""}` },
          cardFace(card, { size: "small", extraClass: use ? "is-lit" : "" }),
          use
            ? h(
                "button",
                { class: "button button-small use-button", type: "button", ...actionButtonAttrs(use, `use-${card.id}`), "aria-label": `Use bonus: ${bonusWords(card.bonus)} (${cardLabel(card)})` },
                `Use: ${bonusWords(card.bonus)}`,
              )
            : h(
                "span",
                { class: "bonus-words" },
                bonusWords(card.bonus),
                card.bonus?.kind === "trump" && card.bonus.family === view.trump ? h("small", {}, "already trump") : null,
              ),
        );
      }),
    );

    const groups = new Map();
    for (const family of FAMILY_ORDER) groups.set(family, []);
    for (const card of view.hand) {
      const key = card.family ?? null;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(card);
    }
    // The 5s belong to no family, so they come last in a group of their own.
    if (groups.has(null)) {
      const fives = groups.get(null);
      groups.delete(null);
      groups.set(null, fives);
    }
    const handGroups = [...groups.entries()]
      .filter(([, cards]) => cards.length)
      .map(([family, cards]) =>
        h(
          "div",
          { class: `family-group ${familyClass(family)}${family === view.trump ? " is-trump" : ""}`, role: "group", "aria-label": family ? familyPlural(family) : "fives" },
          h(
            "span",
            { class: "group-label" },
            h("span", { class: "chip-symbol", "aria-hidden": "true" }, symbolOf(family)),
            h("span", { class: "group-name" }, family ? familyPlural(family) : "5s (any family)"),
            family === view.trump ? h("span", { class: "trump-tag" }, "trump") : null,
          ),
          h(
            "div",
            { class: "group-cards" },
            cards.map((card) => {
              const action = legal.set_aside.get(card.id) || legal.play.get(card.id);
              const verb = action?.type === "set_aside" ? "Set aside as your first bonus" : "Play";
              return cardFace(card, {
                tag: "button",
                extraClass: `${action ? "is-legal" : ""}${dealt ? " is-dealt" : ""}`,
                attrs: action
                  ? { ...actionButtonAttrs(action, `hand-${card.id}`), "aria-label": `${verb}: ${cardLabel(card)}` }
                  : { disabled: true, "data-key": `hand-${card.id}`, "aria-label": `${cardLabel(card)} (not playable now)` },
              });
            }),
          ),
        ),
      );
    fill(
      els.mine,
      head,
      bonusRow,
      h(
        "div",
        { class: `hand moby-hand${handGroups.length ? "" : " is-empty"}`, id: "hand", role: "group", "aria-label": "Your hand" },
        handGroups.length ? handGroups : h("p", { class: "muted-note" }, "No cards in hand."),
      ),
    );
  }

  // ---- the log ----------------------------------------------------------------------

  // ---- putting it together ------------------------------------------------------------

  function update(state) {
    lastState = state;
    const view = state.view;
    const news = kit.begin(state);
    if (!view || !Array.isArray(view.seats) || view.trump === undefined) return;
    const legal = legalBy(state);
    const { events, fresh } = news;
    const freshSeats = new Set(fresh.map((e) => e.seat).filter((s) => s !== undefined));
    const dealt = !news.first && fresh.some((e) => e.type === "round_start");

    root.dataset.phase = view.phase;
    root.dataset.myTurn = String(kit.myTurn(state));
    kit.keepFocus(() => {
      renderSeats(view, state, freshSeats);
      renderCompass(view, fresh);
      renderTrick(view, state, legal, events, fresh);
      els.status.textContent = statusText(view, state, legal);
      els.status.classList.toggle("is-you", kit.myTurn(state));
      renderChoice(view, legal);
      renderMine(view, state, legal, dealt);
      const lines = events.map((event) => ({ ...describeEvent(event, name), seq: event.seq })).filter((line) => line.text);
      kit.renderLog(els.log, lines, "The cards are dealt. Nothing played yet.");
    });

    // Say what the others did, in words, and whose turn it is now.
    const said = fresh
      .filter((e) => e.seat === undefined || e.seat !== me())
      .map((e) => describeEvent(e, name))
      .filter(Boolean)
      .map((line) => line.text);
    kit.announceMoves(said, state, view.phase === "over" ? null : view.turn);
  }

  return {
    update,
    destroy() {
      root.replaceChildren();
    },
  };
}
