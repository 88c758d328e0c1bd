// The game table in play: the game's renderer mounted by convention (`table-loader.js`) and kept
// up to date, the round summary over it, the side panel the descriptor names, the game's end and
// the rematch.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { goalOf, goalWords, renderPanel, standingOf } from "./panels.js";
import { $, copyFrom, showMoveError } from "./room-page.js";
import { descriptorOf } from "./room-state.js";
import { ordinal, ranked, SummaryPanel } from "./round-summary.js";
import { loadTable, showTableError } from "./table-loader.js";
import { bringChoicesIntoView, createPhoneFirst, firstChoice } from "./phone-first.js";
import { playerName, seats, storageBlocked } from "./storage.js";
import { t, tp } from "./i18n.js";
import { askedLine } from "./takeback.js";
import { listWords } from "./words.js";

// A table that failed to load: the error stays on the page in its place, and the rest of the room
// (seats, chat, score pad, game end) goes on.
const NO_TABLE = { update() {}, destroy() {} };

// The side panel the game's descriptor asks for: a points score pad, stars or a progress track.
const PANEL_TITLES = { points: t("Score pad"), stars: t("Stars"), progress: t("Progress") };

/**
 * ctx: { rs, roomId, act(action), seatName(seat), announce(text), gameTitle(), onDevice(),
 *        renderPassScreen() (true while the device is being passed), chat() (the chat lines the
 *        table's log shows), held() (the seats this device holds) }
 */
export function createTable(ctx) {
  const { rs, roomId, seatName } = ctx;
  let table = null; // { game, renderer } once a game's table is mounted
  let chatShown = null; // the mounted table redraws its log with the chat
  let mounting = null;
  let summary = null;
  // A round summary closed by keyboard while no move was on offer (another player's turn): the
  // focus goes to the first move of the player's next turn, unless they took it elsewhere meanwhile.
  let focusNextMove = false;
  const phoneFirst = createPhoneFirst(); // the hand and the choices scrolled into view
  const mySeat = () => rs.get().seat?.seat ?? null;
  // While a takeback waits for this page's answer, the game's own status line says so instead of
  // the move to make (takeback.js's askedLine). The table redraws that line on its own too (a
  // chat line, a refused move), so it is put back whenever the table changes.
  let asked = null;
  function keepAskedLine() {
    const status = $("table").querySelector("#turn-status");
    if (!status) return;
    status.classList.toggle("is-asked", Boolean(asked));
    if (asked && status.textContent !== asked) status.textContent = asked;
  }
  if (typeof MutationObserver === "function") {
    new MutationObserver(() => asked && keepAskedLine()).observe($("table"), { subtree: true, childList: true, characterData: true });
  }

  function unmountTable() {
    table?.renderer.destroy?.();
    table = null;
    chatShown = null;
  }

  async function mountTable(gameId) {
    let module;
    try {
      module = await loadTable(gameId);
    } catch (error) {
      if (rs.get().room?.game !== gameId) return;
      unmountTable();
      showTableError($("table"), error);
      table = { game: gameId, renderer: NO_TABLE };
      mountSummary({});
      return;
    }
    if (rs.get().room?.game !== gameId) return;
    unmountTable();
    const renderer = module.mount($("table"), {
      act: ctx.act,
      seatName,
      announce: ctx.announce,
      // Several players share this page (around one device): tables may show who is due in large.
      get onDevice() {
        return ctx.onDevice();
      },
      get mySeat() {
        return mySeat();
      },
      // Around one device: the other players' out-of-turn moves, each sent as its own seat.
      localOffers: () => ctx.localOffers?.() || [],
      // This page saw the room before the deal, so everything the match has logged is news to it.
      get sawStart() {
        return rs.get().sawStart;
      },
      // The table chat's messages for the log, and a call when they change.
      chat: () => ctx.chat(),
      onChat(redraw) {
        chatShown = redraw;
      },
    });
    table = { game: gameId, renderer };
    mountSummary(module);
  }

  // Round summaries (shared by every game; the renderer's `roundSummary` gives its lines).
  function mountSummary(module) {
    summary?.close();
    summary = new SummaryPanel($("round-summary"), {
      seatName,
      get mySeat() {
        return mySeat();
      },
      get winner() {
        return descriptorOf(rs.get())?.winner;
      },
      get ties() {
        return descriptorOf(rs.get())?.ties;
      },
      describe: module.roundSummary || null,
      // The rematch offered inside the game-over list too, not only under it.
      finalKey: () => [rs.get().room?.rematch ?? null, Boolean(rs.get().seat)],
      finalActions: () => rematchButton(rs.get().room?.rematch),
      afterClose(final) {
        const target = final ? $("game-over").querySelector("h2") : firstChoice($("table"));
        target?.focus({ preventScroll: !final });
        focusNextMove = !final && !target;
        if (!final) bringChoicesIntoView($("table"));
      },
    });
  }

  function renderSummary() {
    const { state, room, sawStart } = rs.get();
    if (state && summary) summary.update(state, room, { sawStart });
  }

  async function renderGame() {
    const room = rs.get().room;
    if (ctx.renderPassScreen()) return;
    if (table?.game !== room.game) {
      mounting ||= mountTable(room.game).finally(() => {
        mounting = null;
      });
      await mounting;
      if (table?.game !== room.game) return;
    }
    const { state } = rs.get();
    if (state) {
      table.renderer.update(state, room);
      asked = askedLine(state, seatName, ctx.held?.() || []);
      keepAskedLine();
      ctx.drawn?.(state);
      if (focusNextMove) giveFocusToTheMove();
    }
    renderSummary();
    renderSide();
    renderGameOver();
    if (rs.get().seat && !state?.result) {
      phoneFirst.after($("table"), {
        key: `${roomId}:${room.game}`,
        acting: Boolean(firstChoice($("table"))),
        seat: mySeat(),
        step: state?.version ?? null,
        blocked: !$("round-summary").hidden,
      });
    }
    document.title = rs.get().myTurn
      ? t("● Your turn · {game} · Motable", { game: ctx.gameTitle() })
      : t("{game} · Motable", { game: ctx.gameTitle() });
  }

  function giveFocusToTheMove() {
    const active = document.activeElement;
    if (active && active !== document.body && !$("table").contains(active)) {
      focusNextMove = false; // the player moved the focus themselves: leave it there
      return;
    }
    const move = firstChoice($("table"));
    if (!move || !$("round-summary").hidden) return;
    move.focus({ preventScroll: true });
    focusNextMove = false;
  }

  function renderSide() {
    const { room, state } = rs.get();
    const game = descriptorOf(rs.get());
    // Every fact of the panel is the descriptor's: the "leading" mark follows its winner rule, the
    // goal line is read off the view where its `goal` says, and a game whose standing moves within a
    // round (Mokuru's belts) is read live where its `standing` says; others show the score pad's totals.
    const winner = game?.winner;
    const goal = goalOf(game, state?.view);
    const live = standingOf(game, state?.view);
    const panel = game?.panel || "points";
    $("scorepad-title").textContent = PANEL_TITLES[panel] || PANEL_TITLES.points;
    const words = goalWords(game, goal);
    $("scorepad-goal").hidden = !words;
    $("scorepad-goal").textContent = words || "";
    renderPanel(panel, $("scorepad"), room, state, seatName, { winner, goal, live, ties: game?.ties });
  }

  function renderGameOver() {
    const panel = $("game-over");
    const { state, room, seat } = rs.get();
    const result = state?.result;
    if (!result) {
      panel.hidden = true;
      return;
    }
    // Around one device every player is named: "You" would mean whoever held the device last.
    const mine = (s) => s === seat?.seat && !ctx.onDevice();
    const others = result.winners.filter((s) => !mine(s)).map(seatName);
    const youWon = seat && result.winners.includes(seat.seat);
    let heading;
    if (result.winners.some(mine)) heading = others.length ? t("You and {names} win!", { names: listWords(others) }) : t("You win!");
    else heading = others.length === 1 ? t("{name} wins!", { name: others[0] }) : t("{names} win!", { names: listWords(others) });
    const rematch = room.rematch;
    const key = JSON.stringify([result, rematch, Boolean(seat)]);
    if (panel.dataset.key === key) return;
    panel.dataset.key = key;
    const appearing = panel.hidden;
    panel.hidden = false;
    fill(panel,
      h("p", { class: `trophy${youWon ? " is-yours" : ""}`, "aria-hidden": "true" }, "★"),
      h("h2", { tabindex: "-1" }, heading),
      h("p", { class: "muted" }, t("Final scores: {scores}", { scores: finalScores(result, seat) })),
      h("p", { class: "replay-link" }, h("a", { class: "button", href: `/r/${roomId}/replay` }, t("Watch the replay"))),
      rematchPanel(rematch),
    );
    // The last move took the focused card away: land on the result (and scroll to it on a
    // phone, where it heads the page) rather than leaving focus nowhere.
    const active = document.activeElement;
    if (appearing && (!active || active === document.body || active.disabled)) panel.querySelector("h2").focus();
  }

  /** "1st You 12 · 2nd Bo 30": the final list in one line, this page's seat as "You". */
  function finalScores(result, seat) {
    const game = descriptorOf(rs.get());
    const you = tp("final scores", "You");
    return ranked(result.scores, game?.winner, { winners: result.winners, ties: game?.ties })
      .map(({ seat: s, total, rank }) => t("{rank} {name} {total}", { rank: ordinal(rank), name: s === seat?.seat ? you : seatName(s), total }))
      .join(" · ");
  }

  // The room body names the rematch once any player opened it, so every page offers the same room.
  function rematchPanel(rematch) {
    if (!rs.get().seat) {
      return rematch
        ? h("p", {}, h("a", { class: "button", href: `/r/${rematch}` }, t("Watch the rematch")))
        : null;
    }
    if (!rematch) {
      return h(
        "div",
        { class: "rematch" },
        h("button", { class: "button button-primary", type: "button", onclick: openRematch }, t("Rematch")),
        h("p", { class: "muted small" }, t("Same game and options; the others are offered a seat.")),
      );
    }
    const mine = seats.get(rematch);
    return h(
      "div",
      { class: "rematch" },
      h(
        "p",
        {},
        mine
          ? h("a", { class: "button button-primary", href: `/r/${rematch}` }, t("Go to the rematch"))
          : h("button", { class: "button button-primary", type: "button", onclick: openRematch }, t("Join the rematch")),
      ),
      h(
        "div",
        { class: "share-row" },
        h("input", { class: "share-url", value: new URL(`/r/${rematch}`, location.href).href, readonly: true, "aria-label": t("Rematch link") }),
        h("button", { class: "button", type: "button", onclick: copyFrom }, t("Copy")),
      ),
    );
  }

  /** The one rematch button of the game-over list: open it, join it, or go to it. */
  function rematchButton(rematch) {
    if (!rs.get().seat) return rematch ? h("a", { class: "button button-primary", href: `/r/${rematch}` }, t("Watch the rematch")) : null;
    if (rematch && seats.get(rematch)) return h("a", { class: "button button-primary", href: `/r/${rematch}` }, t("Go to the rematch"));
    return h("button", { class: "button button-primary", type: "button", onclick: openRematch }, rematch ? t("Join the rematch") : t("Rematch"));
  }

  /** Open the rematch (the first to ask hosts it) or take a seat in the one already open, then go there. */
  async function openRematch(event) {
    event.currentTarget.disabled = true;
    const { seat: entry, room } = rs.get();
    const name = entry.name || playerName.get();
    try {
      const made = await api("POST", `/api/rooms/${roomId}/rematch`, { token: entry.token });
      let seat = made.token ? made : null;
      if (!seat && !seats.get(made.room_id)) {
        seat = await api("POST", `/api/rooms/${made.room_id}/join`, { body: { name } });
      }
      if (seat) seats.save(made.room_id, { seat: seat.seat, token: seat.token, name, game: room.game });
      // A browser that keeps nothing carries the seat to the next page in the link's fragment.
      const carried = storageBlocked && seat ? `#seat=${seat.token}` : "";
      location.assign(`/r/${made.room_id}${carried}`);
    } catch (error) {
      event.target.disabled = false;
      showMoveError(error.message);
    }
  }

  return { renderGame, unmountTable, chatShown: () => chatShown?.() };
}
