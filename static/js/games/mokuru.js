// The Mokuru table: Motable referees tricks the players perform with real Mokuru. It draws
// the belts board, the trick to perform (with a diagram of the movement), the tries left and
// big report buttons; every button is an element of legal_actions. It decides no rule.

import { fill, h } from "../dom.js";
import { tableKit } from "../table-kit.js";
import { listWords } from "../words.js";

const SVG = "http://www.w3.org/2000/svg";

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) if (child) node.append(child);
  return node;
}

const ACTION_NAMES = {
  duel: "Duel",
  immunity: "Immunity",
  darkness: "Darkness",
  mini_mokuru: "Mini Mokuru",
  positive_boost: "Positive Boost",
  swap: "Swap",
  negative_boost: "Negative Boost",
  the_doom: "The Doom",
  belt_steal: "Belt Steal",
  give_a_trick: "Give a Trick",
  steal_a_trick: "Steal a Trick",
  battle: "the Battle",
};

const TARGET_VERBS = {
  positive_boost: "Boost",
  negative_boost: "Knock down",
  swap: "Swap pawns with",
  belt_steal: "Steal a belt from",
  duel: "Duel",
  the_doom: "Doom",
  battle: "Battle",
};

/** Where each diagram's stops lie, in a 100 x 60 box. */
function shapePoints(shape, flips) {
  const n = Math.max(1, Math.min(flips || 1, 5));
  if (shape === "triangle" || shape === "triangle_back") return [[20, 50], [50, 10], [80, 50], [20, 50]];
  if (shape === "square" || shape === "square_back") return [[25, 52], [25, 12], [75, 12], [75, 52], [25, 52]];
  if (shape === "crossroad") return [[20, 30], [80, 30]];
  return Array.from({ length: n + 1 }, (_, i) => [12 + (76 * i) / n, 34]);
}

/** An SVG drawing of the movement: the stops, the path, and marks for the extras. */
export function diagram(card) {
  const box = s("svg", { viewBox: "0 0 100 64", class: "mk-diagram", role: "img", "aria-label": `Diagram: ${card.name}` });
  if (card.shape === "relay") {
    for (let i = 0; i < 4; i += 1) {
      box.append(s("circle", { cx: 16 + i * 23, cy: 22, r: 7, class: "mk-person" }));
      box.append(s("rect", { x: 11 + i * 23, y: 31, width: 10, height: 18, rx: 3, class: "mk-person" }));
      if (i < 3) box.append(s("path", { d: `M${22 + i * 23} 50 q6 -10 12 0`, class: "mk-path" }));
    }
    return box;
  }
  const points = shapePoints(card.shape, card.flips);
  box.append(s("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "mk-path" }));
  const back = /back/.test(card.shape) || card.shape === "crossroad";
  if (back) {
    const reversed = points.slice().reverse().map(([x, y]) => `${x},${y + 6}`);
    box.append(s("polyline", { points: reversed.join(" "), class: "mk-path mk-back" }));
  }
  points.forEach(([x, y], i) => {
    if (i === points.length - 1 && points.length > 2 && points[0][0] === x && points[0][1] === y) return;
    box.append(s("rect", { x: x - 3, y: y - 7, width: 6, height: 14, rx: 2, class: i === 0 ? "mk-block mk-start" : "mk-block" }));
    if (card.extras.includes("twin")) box.append(s("rect", { x: x + 4, y: y - 7, width: 6, height: 14, rx: 2, class: "mk-block" }));
  });
  const marks = [];
  if (card.extras.includes("hold")) marks.push("on hand");
  if (card.extras.includes("catch")) marks.push("catch");
  if (card.extras.includes("kiss")) marks.push("kiss");
  if (card.extras.includes("blind")) marks.push("eyes shut");
  if (card.extras.includes("both_hands")) marks.push("both hands");
  if (card.extras.includes("three_in_a_row")) marks.push("x3 in a row");
  if (marks.length) box.append(s("text", { x: 50, y: 62, "text-anchor": "middle", class: "mk-mark" }, document.createTextNode(marks.join(" · "))));
  return box;
}

function capital(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

// Around one device the page needs no pass-the-device screen: the descriptor says `open_table`
// (Darkness's deck is shown only to the possessed player, while they choose). Its goal (the
// Grandmaster) and its live standing (the belts) are the descriptor's too.

/** The glanceable line for the player due around one device: "Ann: 3 Flips back — 3 tries". */
export function deviceLine(view, seat, seatName) {
  const who = seatName(seat);
  const trick = view.trick;
  if (view.phase === "difficulty") return { who, what: "Choose your difficulty" };
  if (view.phase === "confirm") return { who, what: `Did ${seatName(view.claim.seat)} land it?` };
  if (trick && view.phase === "battle") return { who, what: `Battle: ${trick.card.name} — go!` };
  if (trick && ["perform", "spent"].includes(view.phase)) {
    const at = trick.players.indexOf(seat);
    const tries = at >= 0 ? trick.tries[at] : 0;
    if (view.phase === "spent") return { who, what: `${trick.card.name} — no tries left` };
    return { who, what: `${trick.card.name} — ${tries} ${tries === 1 ? "try" : "tries"}` };
  }
  if (view.phase === "darkness") return { who, what: "Possessed: choose a trick for the others" };
  if (view.phase === "target") return { who, what: `Choose who ${ACTION_NAMES[view.choosing?.action] || "it"} aims at` };
  return { who, what: "Your turn: draw" };
}

/** The Marathon line-up in turn order from the drawer: everyone, each marked in, out or current;
 * the line shrinks as players drop out. */
export function lineup(trick, players) {
  const seats = Array.from({ length: players }, (_, k) => (trick.performer + k) % players);
  const current = trick.players[trick.at];
  return seats.map((seat) => ({ seat, out: !trick.players.includes(seat), current: seat === current }));
}

/** The two sides of a Duel or Battle, from the trick and (for a Battle, whose racers drop out of
 * `players`) the event that named the opponent. Each side: seat, tries left (Duel) and whether out. */
export function contestSides(view) {
  const trick = view.trick;
  let seats = trick.players.slice(0, 2);
  if (trick.mode === "battle" && view.phase !== "target") {
    const named = [...(view.events || [])].reverse().find((e) => e.type === "target" && e.action === "battle" && e.seat === trick.performer);
    if (named) seats = [named.seat, named.target];
  }
  return seats.map((seat) => {
    const at = trick.players.indexOf(seat);
    return { seat, tries: at >= 0 ? trick.tries[at] : 0, out: at < 0, current: view.phase !== "battle" && at === trick.at };
  });
}

export function mount(root, ctx) {
  const els = {
    status: h("p", { class: "table-status mk-status", id: "turn-status" }),
    device: h("div", { class: "mk-device-screen", hidden: true, "aria-live": "polite" }),
    board: h("ol", { class: "mk-board", "aria-label": "Belts board" }),
    seats: h("ul", { class: "mk-seats" }),
    trick: h("section", { class: "mk-trick", "aria-live": "polite" }),
    moves: h("div", { class: "mk-moves", role: "group", "aria-label": "Your moves" }),
    extra: h("div", { class: "mk-extra", role: "group", "aria-label": "Out of turn" }),
    celebration: h("div", { class: "mk-celebration", hidden: true }),
    log: h("ol", { class: "log-list", id: "game-log" }),
  };
  fill(
    root,
    h(
      "div",
      { class: "mokuru" },
      h("div", { class: "felt mk-table" }, els.status, els.celebration, els.device, els.board, els.trick, els.moves, els.extra, els.seats),
      h("section", { class: "panel log-panel" }, h("h2", {}, "What happened"), els.log),
    ),
  );
  let last = null;
  const kit = tableKit(root, ctx, { redraw: () => last && update(last) });
  const name = (seat) => kit.name(seat);
  // Around one device the page speaks of every player by name: "you" would change hands.
  const isMe = (seat) => seat === ctx.mySeat && !ctx.onDevice;
  const whose = (seat) => (isMe(seat) ? "your" : `${name(seat)}'s`);
  const beltName = (view, index) => (index >= view.grandmaster ? "Grandmaster" : capital(view.belts[index]));

  function eventWords(view, e) {
    const who = Number.isInteger(e.seat) ? name(e.seat) : "";
    switch (e.type) {
      case "difficulty": return `${who} ${who === "You" ? "play" : "plays"} ${e.level} (${e.tries} ${e.tries === 1 ? "try" : "tries"}).`;
      case "turn": return `${capital(whose(e.seat))} turn.`;
      case "action": return `${who} drew ${e.card}.`;
      case "discarded": return `${e.card} is discarded.`;
      case "trick": return `${who} ${who === "You" ? "perform" : "performs"} ${e.card} (${e.category})${e.source === "darkness" ? ", imposed by Darkness" : e.source === "given" ? ", a given trick" : e.source === "stolen" ? ", a stolen trick" : ""}.`;
      case "target": return `${who} aimed ${ACTION_NAMES[e.action] || e.action} at ${name(e.target)}.`;
      case "belt": return e.from === e.to ? `${who} stays on ${beltName(view, e.to)}.` : `${who}: ${beltName(view, e.from)} → ${beltName(view, e.to)}.`;
      case "report": return `${who}: ${e.outcome === "landed" ? "landed it" : e.outcome === "done" ? "done!" : "missed"}.`;
      case "witness": return `${who} ${e.verdict === "confirm" ? "confirmed" : "disputed"} ${whose(e.claimant)} success.`;
      case "miss": return `${who} did not land the trick.`;
      case "success": return `${who} landed ${e.card}!`;
      case "winner": return Number.isInteger(e.seat) ? `${who} won the ${e.mode}.` : `Nobody won the ${e.mode}.`;
      case "out": return `${who} ${who === "You" ? "are" : "is"} out of the ${e.mode}.`;
      case "immunity": return `${who} used Immunity${e.against ? ` against ${ACTION_NAMES[e.against]}` : " to win the trick"}.`;
      case "give": return `${who} gave ${e.card} to ${name(e.target)}.`;
      case "steal": return `${who} stole ${e.card} from ${name(e.victim)}.`;
      case "darkness": return e.card ? `${who} ${who === "You" ? "are" : "is"} possessed and imposed ${e.card} on everyone else.` : `${who} ${who === "You" ? "are" : "is"} possessed.`;
      case "swap": return `${who} swapped pawns with ${name(e.target)}.`;
      case "shuffle": return `The ${e.deck === "masters" ? "master tricks" : "tricks"} deck was reshuffled.`;
      case "no_trick": return `No trick left to draw for ${who}.`;
      case "no_target": return `${ACTION_NAMES[e.action]}: nobody to aim at.`;
      case "grandmaster": return `${who} ${who === "You" ? "are" : "is"} Grandmaster!`;
      default: return `${who} ${e.type}.`;
    }
  }

  function actionLabel(view, action) {
    const trickName = view.trick?.card?.name;
    switch (action.type) {
      case "difficulty": {
        const level = view.levels[action.level];
        return `${capital(action.level)}: ${level.hand}, ${level.tries} ${level.tries === 1 ? "try" : "tries"}`;
      }
      case "draw": {
        const me = view.seats[view.turn];
        if (me.darkness_due) return "Take the Darkness trick";
        if (me.imposed.length) return "Take your received trick";
        if (me.belt >= view.belts.length - 1) return "Draw a master trick";
        return "Draw a card";
      }
      case "report":
        return action.outcome === "landed" ? "Landed it" : action.outcome === "done" ? "Done!" : "Missed";
      case "witness":
        return action.verdict === "confirm" ? `Confirm ${whose(view.claim.seat)} success` : "Dispute";
      case "immunity":
        if (view.pending) return `Use Immunity: block ${ACTION_NAMES[view.pending.action]}`;
        return "Use Immunity: count it landed";
      case "accept_miss":
        return "Accept the miss";
      case "target":
        return `${TARGET_VERBS[view.choosing?.action] || "Choose"} ${name(action.seat)}`;
      case "give":
        return `Give ${trickName} to ${name(action.seat)}`;
      case "steal":
        return `Steal ${trickName} from ${name(view.trick.performer)}`;
      case "impose": {
        const card = (view.darkness_deck || []).find((c) => c.id === action.card);
        return card ? `${card.name} (${card.category})` : `Trick ${action.card}`;
      }
      default:
        return capital(action.type);
    }
  }

  function moveButton(view, action, big = false) {
    const kind = action.type === "report" ? `report-${action.outcome}` : action.type === "witness" ? `witness-${action.verdict}` : action.type;
    return h(
      "button",
      {
        class: `button mk-move mk-${kind}${big ? " mk-big" : ""}`,
        type: "button",
        "data-action": kind,
        "data-key": JSON.stringify(action),
        onclick: () => kit.send(action),
      },
      actionLabel(view, action),
    );
  }

  function statusText(state, view) {
    if (view.winner !== null && view.winner !== undefined) return `${name(view.winner)} ${isMe(view.winner) ? "are" : "is"} Grandmaster!`;
    const acting = state.to_act || [];
    const mine = kit.myTurn(state);
    if (view.phase === "difficulty") return mine ? "Choose your difficulty." : `Waiting for ${listWords(acting.map(name))} to choose a difficulty…`;
    if (view.phase === "confirm") return mine ? `Did ${name(view.claim.seat)} land it? Confirm or dispute.` : `Waiting for a witness for ${name(view.claim.seat)}…`;
    if (view.phase === "battle") return mine ? "Battle! Perform now; press Done! when you finish." : `Battle between ${listWords(view.trick.players.map(name))}…`;
    if (view.trick && ["perform", "spent"].includes(view.phase)) {
      const card = view.trick.card;
      const at = view.trick.current;
      const tries = view.trick.tries[view.trick.at];
      const triesText = view.trick.mode === "marathon" ? "" : ` — ${tries} ${tries === 1 ? "try" : "tries"} left`;
      return `${name(at)}: ${card.name}${triesText}`;
    }
    if (mine) return view.phase === "darkness" ? "You are possessed: choose a trick for everyone else." : view.phase === "target" ? `Choose who ${ACTION_NAMES[view.choosing.action]} aims at.` : "Your turn: draw.";
    return acting.length ? `Waiting for ${listWords(acting.map(name))}…` : "";
  }

  function renderBoard(view) {
    const columns = [...view.belts.map((b, i) => ({ key: b, label: capital(b), index: i })), { key: "grandmaster", label: "Grandmaster", index: view.grandmaster }];
    fill(
      els.board,
      columns
        .slice()
        .reverse()
        .map((column) =>
          h(
            "li",
            { class: `mk-belt belt-${column.key}`, "data-belt": column.index },
            h("span", { class: "belt-chip" }),
            h("span", { class: "mk-belt-name" }, column.label),
            h(
              "span",
              { class: "mk-pawns" },
              view.seats.filter((seat) => seat.belt === column.index).map((seat) => h("span", { class: `mk-pawn${seat.seat === view.turn && view.phase !== "difficulty" ? " is-turn" : ""}`, title: name(seat.seat) }, kit.avatar(seat.seat), h("span", { class: "sr-only" }, name(seat.seat)))),
            ),
          ),
        ),
    );
  }

  function renderSeats(view) {
    fill(
      els.seats,
      view.seats.map((seat) =>
        h(
          "li",
          { class: `seat-panel mk-seat${seat.seat === view.turn && view.phase !== "difficulty" ? " is-current" : ""}`, "data-seat": seat.seat },
          h("strong", {}, name(seat.seat)),
          h("span", { class: `belt-chip belt-${seat.belt >= view.grandmaster ? "grandmaster" : view.belts[seat.belt]}` }),
          h("span", { class: "mk-belt-label" }, seat.belt_name === "grandmaster" ? "Grandmaster" : `${capital(seat.belt_name)} belt`),
          seat.difficulty ? h("span", { class: "muted small" }, `${capital(seat.difficulty)} · ${seat.hand} · ${seat.tries_per_trick} ${seat.tries_per_trick === 1 ? "try" : "tries"}`) : h("span", { class: "muted small" }, "choosing…"),
          seat.kept.length ? h("span", { class: "mk-kept" }, seat.kept.map((card) => h("span", { class: "mk-chip" }, card.name))) : null,
          seat.imposed.length ? h("span", { class: "mk-kept" }, seat.imposed.map((r) => h("span", { class: "mk-chip mk-imposed" }, `${r.source === "given" ? "Given" : "Stolen"}: ${r.card.name}`))) : null,
          seat.darkness_due ? h("span", { class: "mk-chip mk-dark" }, "Darkness trick next") : null,
          seat.mini_next ? h("span", { class: "mk-chip" }, "Mini Mokuru next") : null,
        ),
      ),
    );
  }

  function tryDots(total, left) {
    return h("span", { class: "mk-dots", "aria-label": `${left} of ${total} tries left` }, Array.from({ length: total }, (_, i) => h("span", { class: i < left ? "mk-dot is-left" : "mk-dot" })));
  }

  function renderTrick(view) {
    const trick = view.trick;
    if (!trick) {
      const darkness = view.darkness.length ? h("p", { class: "mk-dark" }, `On the table (Darkness): ${view.darkness.map((d) => d.card.name).join(", ")}`) : null;
      fill(els.trick, h("p", { class: "muted" }, `Tricks deck: ${view.deck_count} cards · Master tricks: ${view.master_count}`), darkness);
      return;
    }
    const card = trick.card;
    const markers = [];
    if (trick.mini) markers.push(h("span", { class: "mk-chip" }, "Mini Mokuru"));
    if (trick.source === "darkness") markers.push(h("span", { class: "mk-chip mk-dark" }, "Darkness"));
    if (trick.source === "given" || trick.source === "stolen") markers.push(h("span", { class: "mk-chip mk-imposed" }, capital(trick.source)));
    if (trick.mode === "duel" || trick.mode === "doom") markers.push(h("span", { class: "mk-chip" }, trick.mode === "duel" ? "Duel" : "The Doom"));
    let performers;
    if (trick.mode === "marathon") {
      const line = lineup(trick, view.players);
      performers = h(
        "div",
        { class: "mk-marathon" },
        h("p", { class: "mk-lineup-count" }, `${trick.players.length} of ${line.length} still in`),
        h(
          "ol",
          { class: "mk-lineup", "aria-label": "Marathon line-up" },
          line.map((p) => h("li", { class: `${p.current ? "is-current" : ""}${p.out ? " is-out" : ""}`, "data-seat": p.seat }, name(p.seat), p.out ? h("span", { class: "mk-out" }, " out") : null)),
        ),
      );
    } else if (trick.mode === "duel" || trick.mode === "battle") {
      const sides = contestSides(view);
      const side = (p) =>
        h(
          "div",
          { class: `mk-side${p.current ? " is-current" : ""}${p.out ? " is-out" : ""}`, "data-seat": p.seat },
          kit.avatar(p.seat),
          h("strong", { class: "mk-side-name" }, name(p.seat)),
          trick.mode === "duel"
            ? tryDots(view.seats[p.seat].tries_per_trick, p.tries)
            : h("span", { class: "mk-side-state" }, p.out ? "out" : view.phase === "battle" ? "racing" : ""),
        );
      performers = h(
        "div",
        { class: "mk-versus mk-performers", "aria-label": `${trick.mode === "duel" ? "Duel" : "Battle"}: ${sides.map((p) => name(p.seat)).join(" against ")}` },
        side(sides[0]),
        h("span", { class: "mk-vs", "aria-hidden": "true" }, "vs"),
        sides[1] ? side(sides[1]) : h("div", { class: "mk-side is-open" }, h("strong", { class: "mk-side-name" }, "?"), h("span", { class: "mk-side-state" }, "to be chosen")),
      );
    } else {
      performers = h(
        "ul",
        { class: "mk-performers" },
        trick.players.map((seat, i) =>
          h(
            "li",
            { class: view.phase !== "battle" && i === trick.at ? "is-current" : "" },
            h("span", {}, name(seat)),
            trick.mode === "battle" ? null : tryDots(trick.mode === "doom" ? 1 : view.seats[seat].tries_per_trick, trick.tries[i]),
          ),
        ),
      );
    }
    fill(
      els.trick,
      h(
        "article",
        { class: `mk-card mk-${(card.category || "").toLowerCase()}`, "data-card-id": card.id },
        h("header", {}, h("h2", { class: "mk-card-name" }, card.name), h("span", { class: "mk-category" }, `${card.category} · ${card.mokuru} Mokuru`)),
        markers.length ? h("p", { class: "mk-markers" }, markers) : null,
        diagram(card),
        h("p", { class: "mk-description" }, card.description),
        performers,
      ),
    );
  }

  /** The possessed player's chooser: the deck's tricks by category, hardest categories last. */
  function darknessChooser(view, actions) {
    const deck = new Map((view.darkness_deck || []).map((c) => [c.id, c]));
    const groups = new Map();
    for (const action of actions) {
      const category = deck.get(action.card)?.category || "Other";
      if (!groups.has(category)) groups.set(category, []);
      groups.get(category).push(action);
    }
    const order = ["Basic", "Advanced", "Battle", "Challenge", "Other"];
    return h(
      "div",
      { class: "mk-darkness-chooser" },
      h("p", { class: "mk-dark" }, "Pick the trick every other player must perform on their next turn."),
      order
        .filter((c) => groups.has(c))
        .map((c) => h("section", { class: "mk-dark-group" }, h("h3", {}, `${c} (${groups.get(c).length})`), h("div", { class: "mk-dark-moves" }, groups.get(c).map((a) => moveButton(view, a))))),
    );
  }

  function update(state) {
    last = state;
    const view = state.view || {};
    const news = kit.begin(state);
    if (!view.seats) return;
    kit.keepFocus(() => {
      els.status.textContent = statusText(state, view);
      els.status.classList.toggle("is-you", kit.myTurn(state));
      renderBoard(view);
      renderTrick(view);
      renderSeats(view);
      const actions = state.legal_actions || [];
      const mine = kit.myTurn(state);
      // A seat the game waits for gets its moves as the big buttons; any other seat may only
      // have optional moves (Immunity against a pending effect, Steal a Trick), shown apart.
      const waited = mine ? actions : [];
      const optional = mine ? [] : actions;
      const device = Boolean(ctx.onDevice) && mine;
      els.device.hidden = !device;
      if (device) {
        const line = deviceLine(view, ctx.mySeat, ctx.seatName);
        fill(els.device, h("p", { class: "mk-device-who" }, line.who), h("p", { class: "mk-device-what" }, line.what));
      }
      els.moves.classList.toggle("is-device", device);
      // Around one device the big buttons sit right under the big line, above the board.
      const anchor = device ? els.device : els.trick;
      if (anchor.nextSibling !== els.moves) anchor.after(els.moves);
      const big = device || ["perform", "battle", "spent", "confirm", "draw"].includes(view.phase);
      if (view.phase === "darkness" && mine) fill(els.moves, darknessChooser(view, waited));
      else fill(els.moves, waited.map((a) => moveButton(view, a, big)));
      els.moves.hidden = !waited.length;
      fill(els.extra, optional.length ? [h("p", { class: "small" }, "You may act now, out of turn:"), optional.map((a) => moveButton(view, a))] : []);
      els.extra.hidden = !optional.length;
      const over = view.winner !== null && view.winner !== undefined;
      els.celebration.hidden = !over;
      if (over) fill(els.celebration, h("p", { class: "mk-grandmaster" }, "★ ", `${name(view.winner)} ${isMe(view.winner) ? "are" : "is"} Grandmaster!`));
      kit.renderLog(els.log, news.events.map((e) => ({ text: eventWords(view, e), seq: e.seq })));
    });
    const said = news.fresh.filter((e) => e.seat !== ctx.mySeat && e.type !== "turn").map((e) => eventWords(view, e));
    kit.announceMoves(said, state);
  }

  return {
    update,
    destroy() {
      root.replaceChildren();
    },
  };
}
