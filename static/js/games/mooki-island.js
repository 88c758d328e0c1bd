// The Mooki Island table: two piles showing their top faces, the drawn card turned over for
// the drawer, both collections (top card and height only: the memory rule), the end as a
// sorting ceremony, then the poster of every Mookie each player befriended.
// It reads the view and legal_actions only; every rule stays on the server.

import { fill, h } from "../dom.js";
import { tableKit } from "../table-kit.js";
import { listWords } from "../words.js";

export const FAMILIES = ["sun", "moon", "fossil", "seashell", "leaf"];
const NAMES = { sun: "Sun", moon: "Moon", fossil: "Fossil", seashell: "Seashell", leaf: "Leaf" };
// Each family has a colour, a symbol and a badge shape, so a card reads without colour too.
const SYMBOL = { sun: "☀", moon: "☾", fossil: "◎", seashell: "◒", leaf: "❦" };
const SVG = "http://www.w3.org/2000/svg";

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child) node.append(child);
  }
  return node;
}

// ---------------------------------------------------------------------------
// Words

/** "the Sun Mooki", "the Legendary Leaf Mooki", "a Spider". */
export function faceWords(face, { article = "the" } = {}) {
  if (!face) return "a card";
  if (face.kind === "spider") return article === "the" ? "the Spider" : "a Spider";
  const legend = face.kind === "legendary" ? "Legendary " : "";
  return `${article === "the" ? "the" : "a"} ${legend}${NAMES[face.family]} Mooki`;
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The events as sentences, oldest first, each with its seq (and the seat that acted). Events
 * name no face (the memory rule); `tops` (each collection's top face, from the view) names the
 * face of the newest placement on each collection, which is still on top. */
export function describeEvents(events, name, tops = null) {
  const lines = [];
  const newest = {};
  for (const e of events) if (e.type === "place") newest[e.to] = e.seq;
  for (let i = 0; i < events.length; i += 1) {
    const e = events[i];
    if (e.type === "take") {
      const next = events[i + 1];
      const took = `${name(e.seat)} took the top card of pile ${e.pile + 1}`;
      if (next && next.type === "place" && next.seat === e.seat) continue; // said with the placement
      lines.push({ text: `${took} and is choosing a side.`, seq: e.seq, seat: e.seat });
    } else if (e.type === "place") {
      const before = events[i - 1];
      const pile = before && before.type === "take" && before.seat === e.seat ? ` from pile ${before.pile + 1}` : "";
      const face = tops && newest[e.to] === e.seq ? tops[e.to] : null;
      const text =
        e.to === e.seat
          ? `${name(e.seat)} took a card${pile} and kept ${face && face.kind !== "spider" ? faceWords(face) : "a Mooki"}.`
          : `${name(e.seat)} took a card${pile} and sent a Spider to ${name(e.to, true)}.`;
      lines.push({ text, seq: e.seq, seat: e.seat });
    } else if (e.type === "trophies") {
      const parts = FAMILIES.map((f) => {
        const owner = e.owners[f];
        return `${NAMES[f]} ${owner === null || owner === undefined ? "to nobody (a tie)" : `to ${name(owner, true)}`}`;
      });
      lines.push({ text: `The last card is placed. Trophies: ${listWords(parts)}.`, seq: e.seq, kind: "round" });
    } else if (e.type === "spider") {
      let text;
      if (e.seat === null || e.seat === undefined) text = `Spiders are tied ${e.spiders[0]}–${e.spiders[1]}: no trophy is lost.`;
      else if (e.returned) text = `${name(e.seat)} had more Spiders: the Spider ran off with the ${NAMES[e.returned]} trophy.`;
      else text = `${name(e.seat)} had more Spiders but no trophy for it to take.`;
      lines.push({ text, seq: e.seq, kind: "round" });
    } else if (e.type === "end") {
      const score = `${e.stars[e.winner]} stars to ${e.stars[1 - e.winner]}`;
      const tie = e.tie ? " (a tie: the youngest wins)" : "";
      lines.push({ text: `${name(e.winner)} ${name(e.winner) === "You" ? "win" : "wins"} with ${score}${tie}.`, seq: e.seq, kind: "round" });
    }
  }
  return lines;
}

/** The label of a "place" choice: "Keep the Sun Mooki" or "Send the Spider to Robin". */
export function choiceWords(face, opponentName) {
  if (face.kind === "spider") return `Send the Spider to ${opponentName}`;
  return `Keep ${faceWords(face)}`;
}

// ---------------------------------------------------------------------------
// Art

/** A Mooki: a round creature in its family's colour with its family's mark; a Spider is black with eight legs. */
export function faceArt(face, { small = false } = {}) {
  const size = small ? 44 : 80;
  if (face.kind === "spider") {
    const legs = [];
    for (const side of [-1, 1]) {
      for (const [i, y] of [28, 36, 44, 52].entries()) {
        const bend = 10 + i * 2;
        legs.push(s("path", { d: `M${40 + side * 8} ${y} q${side * bend} -10 ${side * 24} ${i * 4 - 2}`, class: "leg" }));
      }
    }
    return s(
      "svg",
      { viewBox: "0 0 80 80", width: size, height: size, class: "art art-spider", "aria-hidden": "true" },
      legs,
      s("ellipse", { cx: 40, cy: 44, rx: 14, ry: 16, class: "body" }),
      s("circle", { cx: 40, cy: 26, r: 9, class: "body" }),
      s("circle", { cx: 36, cy: 24, r: 2.6, class: "eye" }),
      s("circle", { cx: 44, cy: 24, r: 2.6, class: "eye" }),
      s("path", { d: "M34 50 l6 -6 l6 6 l-6 6 z", class: "mark" }),
    );
  }
  const family = face.family;
  const marks = {
    sun: () => [0, 45, 90, 135, 180, 225, 270, 315].map((a) => s("line", { x1: 40, y1: 6, x2: 40, y2: 14, transform: `rotate(${a} 40 44)`, class: "ray" })),
    moon: () => [s("path", { d: "M52 6 a10 10 0 1 0 8 16 a8 8 0 1 1 -8 -16z", class: "mark" })],
    fossil: () => [s("path", { d: "M40 16 m-8 0 a8 8 0 1 1 16 0 a6 6 0 1 1 -12 0 a4 4 0 1 1 8 0", class: "swirl" })],
    seashell: () => [s("path", { d: "M28 18 q12 -16 24 0 z M34 18 l6 -10 l6 10", class: "mark" })],
    leaf: () => [s("path", { d: "M40 4 q14 8 0 20 q-14 -12 0 -20 z", class: "mark" }), s("line", { x1: 40, y1: 6, x2: 40, y2: 22, class: "vein" })],
  };
  return s(
    "svg",
    { viewBox: "0 0 80 80", width: size, height: size, class: `art art-${family}${face.kind === "legendary" ? " art-legendary" : ""}`, "aria-hidden": "true" },
    face.kind === "legendary" ? s("circle", { cx: 40, cy: 46, r: 34, class: "halo" }) : null,
    (marks[family] || (() => []))(),
    s("ellipse", { cx: 40, cy: 50, rx: 24, ry: 22, class: "body" }),
    s("ellipse", { cx: 40, cy: 58, rx: 14, ry: 9, class: "belly" }),
    s("circle", { cx: 32, cy: 46, r: 5, class: "eye-white" }),
    s("circle", { cx: 48, cy: 46, r: 5, class: "eye-white" }),
    s("circle", { cx: 33, cy: 47, r: 2.4, class: "eye" }),
    s("circle", { cx: 49, cy: 47, r: 2.4, class: "eye" }),
    s("path", { d: "M35 56 q5 5 10 0", class: "smile" }),
    face.kind === "legendary" ? [s("path", { d: "M14 22 l2 5 l5 2 l-5 2 l-2 5 l-2 -5 l-5 -2 l5 -2z", class: "sparkle" }), s("path", { d: "M64 62 l1.5 4 l4 1.5 l-4 1.5 l-1.5 4 l-1.5 -4 l-4 -1.5 l4 -1.5z", class: "sparkle" })] : null,
  );
}

/** One face as a card. `tag: "button"` for a face that can be chosen. */
function card(face, { tag = "div", small = false, attrs = {}, note = "" } = {}) {
  const family = face.family || "spider";
  const label = capital(faceWords(face, { article: "a" }).replace(/^a /, "").replace(/^A /, ""));
  return h(
    tag,
    {
      class: `mk-card f-${family} k-${face.kind}${small ? " is-small" : ""}`,
      ...(tag === "button" ? { type: "button" } : { role: "img", "aria-label": `${label}${note}` }),
      "data-face": face.kind === "spider" ? "spider" : `${face.kind}-${face.family}`,
      ...attrs,
    },
    h("span", { class: "mk-badge", "aria-hidden": "true" }, face.kind === "spider" ? "✷" : SYMBOL[family]),
    faceArt(face, { small }),
    h("span", { class: "mk-name", "aria-hidden": "true" }, face.kind === "spider" ? "Spider" : `${face.kind === "legendary" ? "★ " : ""}${NAMES[family]}`),
  );
}

function cardBack({ small = false } = {}) {
  return h("div", { class: `mk-card mk-back${small ? " is-small" : ""}`, "aria-hidden": "true" }, h("span", { class: "mk-back-mark" }, "?"));
}

/** A pile of `count` cards with `top` (a face or null) on it, drawn as a small stack. */
function stack(top, count, { small = false } = {}) {
  const depth = Math.min(count - 1, 4);
  return h(
    "div",
    { class: "mk-stack", style: `--depth:${Math.max(depth, 0)}` },
    Array.from({ length: Math.max(depth, 0) }, (_, i) => h("span", { class: "mk-edge", style: `--i:${i + 1}`, "aria-hidden": "true" })),
    top ? card(top, { small }) : count ? cardBack({ small }) : h("div", { class: "mk-card mk-empty", "aria-hidden": "true" }),
  );
}

// ---------------------------------------------------------------------------
// The poster: every Mookie each player befriended, on an island.

export function poster(end, name) {
  const width = 360;
  const height = 230;
  const spots = [];
  // Each family lives in its own corner of the island.
  const homes = { sun: [180, 60], moon: [70, 95], fossil: [290, 95], seashell: [110, 170], leaf: [250, 170] };
  for (const side of end.sorted) {
    const friends = side.faces.filter((f) => f.kind !== "spider");
    friends.forEach((face, i) => {
      const [hx, hy] = homes[face.family];
      const angle = (i * 2.4 + side.seat * 1.2) % (Math.PI * 2);
      const r = 8 + (i % 4) * 7;
      spots.push({ face, seat: side.seat, x: hx + Math.cos(angle) * r * 1.6, y: hy + Math.sin(angle) * r });
    });
  }
  const creature = ({ face, seat, x, y }) =>
    s(
      "g",
      { transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`, class: `p-mooki f-${face.family} owner-${seat}${face.kind === "legendary" ? " is-legendary" : ""}` },
      face.kind === "legendary" ? s("circle", { r: 11, class: "halo" }) : null,
      s("ellipse", { rx: 7, ry: 6.5, class: "body" }),
      s("circle", { cx: -2.4, cy: -1.5, r: 1.2, class: "eye" }),
      s("circle", { cx: 2.4, cy: -1.5, r: 1.2, class: "eye" }),
      s("path", { d: "M-2 2 q2 2 4 0", class: "smile" }),
    );
  const counts = end.sorted.map((side) => side.faces.filter((f) => f.kind !== "spider").length);
  return s(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, class: "mk-poster", role: "img", "aria-label": `Mooki Island poster: ${end.sorted.map((side, i) => `${name(side.seat)} befriended ${counts[i]} Mookies`).join(", ")}` },
    s("rect", { x: 0, y: 0, width, height, class: "sea" }),
    s("path", { d: "M20 130 C 30 40, 120 20, 180 30 C 260 20, 350 50, 340 130 C 345 200, 250 220, 180 215 C 90 225, 10 200, 20 130 Z", class: "sand" }),
    s("path", { d: "M40 130 C 50 60, 130 45, 180 52 C 250 45, 325 70, 318 130 C 320 185, 245 200, 180 196 C 100 203, 35 185, 40 130 Z", class: "grass" }),
    s("path", { d: "M160 70 l20 -30 l20 30 z", class: "hill" }),
    spots.map(creature),
    s("text", { x: 12, y: 20, class: "poster-title" }, document.createTextNode("Mooki Island")),
  );
}

// ---------------------------------------------------------------------------
// The table

export function mount(root, ctx) {
  const els = {
    status: h("p", { class: "mk-status", id: "turn-status", "aria-live": "off" }),
    theirs: h("section", { class: "mk-collection is-theirs" }),
    piles: h("div", { class: "mk-piles", role: "group", "aria-label": "Draw piles" }),
    drawn: h("section", { class: "mk-drawn", hidden: true }),
    mine: h("section", { class: "mk-collection is-mine" }),
    end: h("section", { class: "mk-end", hidden: true }),
    log: h("ol", { class: "log-list", id: "game-log" }),
  };
  fill(
    root,
    h(
      "div",
      { class: "mooki" },
      h("div", { class: "mk-felt" }, els.theirs, els.status, els.piles, els.drawn, els.mine),
      els.end,
      h("section", { class: "panel log-panel" }, h("h2", {}, "What happened"), els.log),
    ),
  );
  let lastState = null;
  const kit = tableKit(root, ctx, { redraw: () => lastState && update(lastState) });
  const name = (seat, object = false) => kit.name(seat, object);
  const send = (action) => kit.send(action);

  function seatsOf(view) {
    const me = ctx.mySeat;
    const mine = me === null || me === undefined ? 0 : me;
    return { mine, theirs: 1 - mine, watching: me === null || me === undefined };
  }

  function renderCollection(node, view, seat, watching) {
    const info = view.collections[seat];
    const own = !watching && seat === ctx.mySeat;
    const title = own ? "Your collection" : `${ctx.seatName(seat)}'s collection`;
    const acting = view.current === seat && !view.end;
    const aid = own && view.aid;
    fill(
      node,
      h(
        "div",
        { class: "mk-collection-head" },
        h("h2", {}, title, view.youngest === seat ? h("span", { class: "mk-chip", title: "Starts and wins a tie" }, "youngest") : null),
        acting ? h("span", { class: `turn-flag${own ? " is-you" : ""}` }, own ? "your turn" : "playing") : null,
      ),
      h(
        "div",
        { class: "mk-collection-body" },
        stack(info.top, info.height, { small: true }),
        h(
          "p",
          { class: "mk-height", "data-seat": seat },
          h("b", {}, String(info.height)),
          info.height === 1 ? " card" : " cards",
          h("br"),
          h("small", { class: "muted" }, info.top ? "only the top one shows" : "none yet"),
        ),
        aid
          ? h(
              "ul",
              { class: "mk-aid", "aria-label": "Memory aid: your Mookies per family" },
              FAMILIES.map((f) => h("li", { class: `f-${f}` }, h("span", { "aria-hidden": "true" }, SYMBOL[f]), ` ${NAMES[f]} ${aid[f]}`)),
              h("li", { class: "f-spider" }, `Spiders ${aid.spiders}`),
            )
          : null,
      ),
    );
    node.classList.toggle("is-current", acting);
  }

  function renderPiles(view, state) {
    const takes = new Map((state.legal_actions || []).filter((a) => a.type === "take").map((a) => [a.pile, a]));
    fill(
      els.piles,
      view.piles.map((pile, index) => {
        const action = takes.get(index);
        const what = pile.top ? faceWords(pile.top, { article: "a" }) : "empty";
        return h(
          action ? "button" : "div",
          {
            class: `mk-pile${action ? " is-target" : ""}`,
            "data-pile": index,
            ...(action
              ? { type: "button", "data-action": "take", "data-key": `take-${index}`, onclick: () => send(action), "aria-label": `Take from pile ${index + 1}: ${what} on top, ${pile.count} cards` }
              : { role: "img", "aria-label": `Pile ${index + 1}: ${what} on top, ${pile.count} cards` }),
          },
          stack(pile.top, pile.count),
          h("span", { class: "mk-pile-label" }, action ? `Take · pile ${index + 1}` : `Pile ${index + 1}`, h("b", {}, ` ${pile.count}`)),
        );
      }),
    );
  }

  function renderDrawn(view, state) {
    const drawn = view.drawn;
    if (!drawn) {
      els.drawn.hidden = true;
      fill(els.drawn);
      return;
    }
    els.drawn.hidden = false;
    const places = new Map((state.legal_actions || []).filter((a) => a.type === "place").map((a) => [a.side, a]));
    const opponent = ctx.seatName(1 - drawn.seat);
    if (places.size && drawn.lower) {
      fill(
        els.drawn,
        h("h2", {}, "You drew this card: choose a side"),
        h(
          "div",
          { class: "mk-choices" },
          ["upper", "lower"].map((side) => {
            const face = drawn[side];
            const words = choiceWords(face, opponent);
            return h(
              "button",
              { type: "button", class: `mk-choice f-${face.family || "spider"}`, "data-action": "place", "data-side": side, "data-key": `place-${side}`, onclick: () => send(places.get(side)) },
              card(face),
              h("span", { class: "mk-choice-words" }, words),
              h("small", { class: "muted" }, side === "upper" ? "the side that was up" : "the other side"),
            );
          }),
        ),
      );
      return;
    }
    fill(
      els.drawn,
      h("h2", {}, `${ctx.seatName(drawn.seat)} is choosing…`),
      h(
        "div",
        { class: "mk-choices is-waiting" },
        h("div", { class: "mk-flip" }, card(drawn.upper), h("span", { class: "muted" }, "this side or…")),
        h("div", { class: "mk-flip" }, cardBack(), h("span", { class: "muted" }, "…the hidden side")),
      ),
    );
  }

  function statusText(view, state) {
    if (view.end) {
      if (view.end.spider.choosing) {
        return kit.myTurn(state)
          ? "You have more Spiders: choose the trophy the Spider takes away."
          : `${ctx.seatName(view.end.spider.seat)} has more Spiders and is choosing a trophy to give up…`;
      }
      return "The game is over: see the sorting below.";
    }
    if (!kit.myTurn(state)) {
      return view.current === null || view.current === undefined ? "" : `${ctx.seatName(view.current)} is playing…`;
    }
    if (view.phase === "take") return "Your turn: take the top card of a pile.";
    return "Look at both sides and choose one: a Mooki joins your collection, a Spider goes to your opponent's.";
  }

  let shownEnd = null;
  function renderEnd(view, state) {
    const end = view.end;
    if (!end) {
      els.end.hidden = true;
      shownEnd = null;
      return;
    }
    const key = JSON.stringify([end, state.legal_actions]);
    if (shownEnd === key) return;
    const first = shownEnd === null;
    shownEnd = key;
    els.end.hidden = false;
    els.end.classList.toggle("is-ceremony", first);
    const returns = (state.legal_actions || []).filter((a) => a.type === "return");
    const seats = end.sorted.map((side) => side.seat);
    const stars = view.trophy_stars;
    fill(
      els.end,
      h("h2", {}, "Sorting the collections"),
      h(
        "table",
        { class: "mk-sorting" },
        h("caption", { class: "sr-only" }, "Mookies per family (a Legendary counts for 2)"),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Family"), seats.map((seat) => h("th", { scope: "col" }, ctx.seatName(seat))), h("th", { scope: "col" }, "Trophy"))),
        h(
          "tbody",
          {},
          end.trophies.map((t, i) => {
            const taken = end.spider.returned === t.family;
            const winner = t.awarded;
            return h(
              "tr",
              { class: `f-${t.family}`, style: `--step:${i}` },
              h("th", { scope: "row" }, h("span", { class: "mk-badge", "aria-hidden": "true" }, SYMBOL[t.family]), ` ${NAMES[t.family]}`),
              t.counts.map((n, seat) => h("td", { class: winner === seat ? "is-most" : null }, String(n))),
              h(
                "td",
                { class: `mk-trophy${taken ? " is-taken" : ""}` },
                `${"★".repeat(t.stars)} `,
                winner === null ? "nobody (tie)" : taken ? `${ctx.seatName(winner)}: taken by the Spider` : ctx.seatName(winner),
                taken ? h("span", { class: "mk-scurry", "aria-hidden": "true" }, "✷") : null,
              ),
            );
          }),
          h(
            "tr",
            { class: "f-spider", style: `--step:${end.trophies.length}` },
            h("th", { scope: "row" }, h("span", { class: "mk-badge", "aria-hidden": "true" }, "✷"), " Spiders"),
            end.sorted.map((side) => h("td", {}, String(side.spiders))),
            h("td", {}, end.spider.seat === null ? "tied: no trophy lost" : end.spider.choosing ? `${ctx.seatName(end.spider.seat)} is choosing` : end.spider.returned ? `carried off the ${NAMES[end.spider.returned]} trophy` : "no trophy to take"),
          ),
        ),
      ),
      returns.length
        ? h(
            "div",
            { class: "mk-returns", role: "group", "aria-label": "Give up a trophy" },
            h("p", {}, "The Spider takes one of your trophies. Which one?"),
            returns.map((a) =>
              h("button", { type: "button", class: "button", "data-action": "return", "data-key": `return-${a.family}`, onclick: () => send(a) }, `Give up the ${NAMES[a.family]} trophy (${stars[a.family]}★)`),
            ),
          )
        : null,
      end.stars
        ? h(
            "div",
            { class: "mk-winner" },
            h("p", { class: "mk-final" }, seats.map((seat) => `${ctx.seatName(seat)} ${end.stars[seat]}★`).join(" · ")),
            h("p", { class: "mk-winner-line" }, `${name(end.winner)} ${name(end.winner) === "You" ? "win" : "wins"}!${end.stars[0] === end.stars[1] ? " (a tie goes to the youngest)" : ""}`),
          )
        : null,
      end.stars
        ? h(
            "section",
            { class: "mk-poster-wrap", "aria-label": "Poster" },
            h("h2", {}, "The poster: every Mookie you befriended"),
            poster(end, (seat) => ctx.seatName(seat)),
            h(
              "p",
              { class: "mk-legend" },
              seats.map((seat) => h("span", { class: `owner-${seat}` }, `${ctx.seatName(seat)}: ${seat === 0 ? "white" : "dark"} ring`)),
            ),
            h(
              "div",
              { class: "mk-befriended" },
              end.sorted.map((side) =>
                h("div", {}, h("h3", {}, ctx.seatName(side.seat)), h("div", { class: "mk-row" }, side.faces.map((f) => card(f, { small: true })))),
              ),
            ),
          )
        : null,
    );
  }

  function update(state) {
    lastState = state;
    const view = state.view;
    const news = kit.begin(state);
    if (!view || view.game !== "mooki-island") return;
    const { mine, theirs, watching } = seatsOf(view);
    // A placed face is named only while it is still the top of its collection (the memory rule).
    const tops = view.collections.map((c) => c.top);
    kit.keepFocus(() => {
      renderCollection(els.theirs, view, theirs, watching);
      renderCollection(els.mine, view, mine, watching);
      renderPiles(view, state);
      renderDrawn(view, state);
      els.status.textContent = statusText(view, state);
      els.status.classList.toggle("is-you", kit.myTurn(state));
      renderEnd(view, state);
      kit.renderLog(els.log, describeEvents(news.events, name, tops), "The piles are ready. Nothing taken yet.");
    });
    kit.announceMoves(describeEvents(news.fresh, name, tops), state, view.current);
  }

  return {
    update,
    destroy() {
      root.replaceChildren();
    },
  };
}
