// The table screen (`/r/{id}/screen`): the room on a TV, laptop or tablet in the middle of the
// table, read from the sofa. It is a spectator (no token: the public view, never a hand) whose
// socket says it is a screen, so the room body tells the players' phones to show their hand view.
// It draws each game with the game's own renderer, the score pad, whose turn it is, the last moves
// in words and the move clock; one large QR code of the room's link (a phone that scans it picks a
// free seat, or its player's name); it keeps the display awake and follows the players into a
// rematch. In play the table is fitted to the screen (`fitTable`): as large as the screen allows.

import { api } from "./api.js";
import { RoomConnection } from "./connection.js";
import { fill, h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { goalOf, goalWords, renderPanel, standingOf } from "./panels.js";
import { countdownWords, initial } from "./people-kit.js";
import { createRoomState, descriptorOf, seatNameIn, setRoom, watch } from "./room-state.js";
import { ordinal, ranked, SummaryPanel } from "./round-summary.js";
import { createTableMark } from "./screen-table.js";
import { screenTurn } from "./screen-words.js";
import { loadTable, showTableError } from "./table-loader.js";
import { listWords } from "./words.js";

const root = document.getElementById("screen");
const roomId = root.dataset.roomId;
const titles = JSON.parse(root.dataset.titles || "{}");
const shortUrl = root.dataset.shortUrl;
const $ = (id) => document.getElementById(id);

const PANEL_TITLES = { points: t("Score pad"), stars: t("Stars"), progress: t("Progress") };
// How many of the last moves the screen keeps in large type above the table.
const LATEST_KEPT = 1;
// How long the final scores stay over the table before the result shows under them.
const FINAL_SUMMARY_MS = 15_000;

// The server's word that the room's table-screen codes changed is a short frame of its own.
const SCREENS_FRAME_MAX = 64;

/** The room's socket with `?screen=1`: still a spectator's, counted by the server as the table screen. */
class ScreenConnection extends RoomConnection {
  url() {
    return `${super.url()}?screen=1`;
  }

  receive(raw) {
    // Codes gave way to newer ones: is this screen's still good? (Only short frames are looked at
    // twice; everything else goes on as for any spectator.)
    if (typeof raw === "string" && raw.length <= SCREENS_FRAME_MAX) {
      try {
        if (JSON.parse(raw).type === "screens") {
          table.check();
          return;
        }
      } catch {
        // Not JSON: the connection's own receive ignores it too.
      }
    }
    super.receive(raw);
  }
}

// The room body, its state body and the games' descriptors, in a store made like the room page's
// (room-state.js): each part below draws when a key it draws from changes.
const store = createRoomState({ room: null, games: null, state: null });
// What only this page keeps: the mounted table, the round summary, the last line said.
const page = { table: null, mounting: null, summary: null, latest: [], finalTimer: null, following: null };
const seatName = (seat) => seatNameIn(store.get().room, seat);
// Whether the host made this screen the table, and what it may then do (static/js/screen-table.js).
const table = createTableMark({ roomId, changed: () => redraw() });
const game = () => descriptorOf(store.get());

/** Whether the room is in play (a state body may say so before the room body does). */
const inPlay = ({ room, state }) => room.status !== "waiting" || Boolean(state && state.status !== "waiting");

// ---------------------------------------------------------------------------
// Waiting: who is here, the seats still free, and the one way in for every phone

/** The room's QR code (the share link with `?hand`), drawn once on the server. */
function qrCode() {
  return $("screen-qr").content.firstElementChild.cloneNode(true);
}

function openSeat(seat) {
  return h(
    "li",
    { class: "screen-seat is-open", "data-open-seat": seat },
    h("span", { class: "screen-avatar", "aria-hidden": "true" }, "+"),
    h("span", { class: "screen-seat-name" }, t("Free")),
    h("span", { class: "screen-seat-note" }, t("seat {num}", { num: seat + 1 })),
  );
}

function seatToken(seat, name, { bot = false, away = false } = {}) {
  return h(
    "li",
    { class: `screen-seat seat-c${seat % 6}${away ? " is-away" : ""}`, "data-seat": seat },
    h("span", { class: "screen-avatar", "aria-hidden": "true" }, initial(name)),
    h("span", { class: "screen-seat-name" }, name),
    bot ? h("span", { class: "screen-seat-note" }, t("bot")) : null,
  );
}

function renderWaiting({ room }) {
  const spec = game();
  const open = spec ? Math.max(0, spec.max_players - room.seats.length) : 0;
  const short = Math.max(0, (spec?.min_players || 0) - room.seats.length);
  $("screen-waiting-note").textContent = waitingNote(room, short);
  $("screen-seats").classList.toggle("is-many", room.seats.length + open > 5);
  fill(
    $("screen-seats"),
    room.seats.map((s) => seatToken(s.seat, s.name, { bot: s.bot })),
    Array.from({ length: open }, (_, i) => openSeat(room.seats.length + i)),
  );
  // One code for the whole table: the same link takes any free seat, or a seated player's name.
  if (!$("screen-door-qr").firstElementChild) $("screen-door-qr").append(qrCode());
  $("screen-waiting-title").textContent = open ? t("Scan to take a seat") : t("The table is full");
  renderHostTools(open, short);
}

/** Who is here and how many more the game needs, or that everyone can play. */
function waitingNote(room, short) {
  if (!short) {
    return table.marked
      ? t("Everyone can play: start the game here, or from the host's phone.")
      : t("Everyone can play: the host starts the game from their phone.");
  }
  const names = listWords(room.seats.map((s) => s.name));
  const here = tn("{names} is here.", "{names} are here.", room.seats.length, { names });
  const more = tn("One more player to start.", "{num} more players to start.", short);
  // Translators: {here} is who is here ("Ann and Bo are here."), {more} how many more ("One more player to start.").
  return t("{here} {more}", { here, more });
}

/** The marked screen does the host's part from the sofa: seat a bot, start the match. */
function renderHostTools(open, short) {
  $("screen-host").hidden = !table.marked;
  if (!table.marked) return;
  $("screen-bot").hidden = open === 0;
  $("screen-start").disabled = short > 0;
}

function rematchButton() {
  return h("button", { class: "button button-primary screen-button", type: "button", onclick: (event) => hostAction(event.currentTarget, "POST", "/rematch") }, t("Rematch"));
}

async function hostAction(button, method, path, body) {
  button.disabled = true;
  const error = $("screen-error");
  try {
    await table.host(method, path, body);
    error.hidden = true;
  } catch (failure) {
    error.textContent = failure.message;
    error.hidden = false;
  } finally {
    button.disabled = false;
    redraw();
  }
}

/** Not (yet) the table: the code for the host to type, in a corner. The marked screen says so. */
function renderMark(playing) {
  const code = !table.marked ? table.code : null;
  // Under the seats while waiting; in the rail under the table in play.
  const home = playing ? $("screen-side") : $("screen-waiting-pair");
  if ($("screen-pair").parentElement !== home) home.append($("screen-pair"));
  $("screen-pair").hidden = !code;
  $("screen-code").textContent = code || "";
  $("screen-badge").hidden = !table.marked;
}

/** In play: a seat whose player is not connected can be picked up from a phone ("Pick your name"). */
function renderJoin({ room, state }) {
  const free = room.seats.filter((s) => !s.bot && !s.connected);
  const box = $("screen-join");
  box.hidden = !free.length || Boolean(state?.result);
  if (box.hidden) return;
  const key = JSON.stringify(free.map((s) => s.seat));
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const names = listWords(free.map((s) => s.name));
  const freeTitle = tn("{names}: your seat is free", "{names}: your seats are free", free.length, { names });
  fill(
    box,
    qrCode(),
    h(
      "div",
      { class: "screen-join-words" },
      h("p", { class: "screen-join-title" }, freeTitle),
      h("p", {}, t("Scan, then pick your name.")),
      h("p", { class: "screen-link" }, shortUrl),
    ),
  );
  fitSoon();
}

// ---------------------------------------------------------------------------
// The table fitted to the screen: as large as the space above the rail allows

// The fit is a CSS zoom on the game's own table, so each renderer lays itself out as on the room
// page, only wider or narrower: the largest zoom at which it fits the space in both directions.
const FIT_MIN = 0.45;
const FIT_MAX = 3;
// A table that grew or shrank by less than this keeps its zoom: cards do not breathe with each move.
const FIT_SLACK = 0.06;
// Only a screen lying on its side is fitted; an upright tablet scrolls, as the room page does.
const FITTED = window.matchMedia("(min-width: 900px) and (min-aspect-ratio: 1/1)");

function fits(box, node, zoom, room) {
  node.style.zoom = String(zoom);
  const rect = node.getBoundingClientRect();
  return rect.height <= room && node.scrollWidth <= node.clientWidth + 1 && rect.width <= box.clientWidth + 1;
}

function fitTable() {
  const node = $("screen-table");
  const box = node.parentElement;
  if (!page.table || $("screen-game").hidden) return;
  // The size it was fitted for (the browser tests wait on it after resizing the window).
  node.dataset.fitFor = `${innerWidth}x${innerHeight}`;
  if (!FITTED.matches) {
    node.style.zoom = "";
    return;
  }
  // From the table's top (under the result, once there is one) to the foot of its space.
  const room = box.getBoundingClientRect().bottom - node.getBoundingClientRect().top;
  const now = Number(node.style.zoom) || 1;
  let low = FIT_MIN;
  let high = FIT_MAX;
  for (let i = 0; i < 8; i += 1) {
    const mid = (low + high) / 2;
    if (fits(box, node, mid, room)) low = mid;
    else high = mid;
  }
  const best = Math.round(low * 100) / 100;
  // Keep the zoom it had while it still fits and is not far below what would fit.
  const keep = now <= best && now >= best * (1 - FIT_SLACK);
  node.style.zoom = String(keep ? now : best);
  node.dataset.fit = node.style.zoom;
}

let fitQueued = false;
function fitSoon() {
  if (fitQueued) return;
  fitQueued = true;
  requestAnimationFrame(() => {
    fitQueued = false;
    fitTable();
  });
}

// ---------------------------------------------------------------------------
// In play: the game's own table, large

async function mountTable(gameId) {
  let module;
  try {
    module = await loadTable(gameId);
  } catch (error) {
    showTableError($("screen-table"), error);
    page.table = { game: gameId, renderer: { update() {}, destroy() {} } };
    return;
  }
  page.table?.renderer.destroy?.();
  const renderer = module.mount($("screen-table"), {
    act: () => Promise.reject(new Error(t("the table screen does not play"))),
    seatName,
    // The renderers say the others' moves in words: the screen shows the newest in large type.
    announce: (text) => said(text),
    mySeat: null,
    onDevice: false,
    sawStart: false,
  });
  // The renderer's "What happened" log goes in the rail under the table, after the score pad.
  const log = $("screen-table").querySelector(".log-panel");
  if (log) $("screen-side").insertBefore(log, $("screen-join"));
  page.table = { game: gameId, renderer };
  page.summary = new SummaryPanel($("round-summary"), {
    seatName,
    mySeat: null,
    get winner() {
      return game()?.winner;
    },
    describe: module.roundSummary || null,
    // The marked screen offers the rematch in the final list too (it is the table's host).
    finalKey: () => [table.marked, store.get().room?.rematch ?? null],
    finalActions: () => (table.marked && !store.get().room?.rematch ? rematchButton() : null),
    afterClose() {},
  });
}

function said(text) {
  $("announcer").textContent = text;
  page.latest = [text, ...page.latest].slice(0, LATEST_KEPT);
  const line = $("screen-latest");
  line.textContent = page.latest[0];
  line.classList.remove("is-fresh");
  void line.offsetWidth; // restart the highlight for every new line
  line.classList.add("is-fresh");
}

function renderTurn({ state, room }) {
  const turn = screenTurn(state, room, seatName);
  const node = $("screen-turn");
  fill(
    node,
    turn.seat !== null ? h("span", { class: `screen-avatar seat-c${turn.seat % 6}`, "aria-hidden": "true" }, initial(seatName(turn.seat))) : null,
    h("span", { class: "screen-turn-text" }, turn.text),
  );
  node.dataset.seat = turn.seat ?? "";
  renderClock();
}

function renderClock() {
  const { room, state } = store.get();
  const clock = $("screen-clock");
  const due = room?.deadline && !state?.result && room.status === "playing" ? Date.parse(room.deadline) : null;
  clock.hidden = due === null;
  if (due === null) return;
  const left = due - Date.now();
  clock.textContent = `⏱ ${countdownWords(left)}`;
  clock.classList.toggle("is-short", left < 10_000);
}

function renderSide({ room, state }) {
  const spec = game();
  const panel = spec?.panel || "points";
  const goal = goalOf(spec, state?.view);
  $("screen-pad-title").textContent = PANEL_TITLES[panel] || PANEL_TITLES.points;
  const words = goalWords(spec, goal);
  $("screen-goal").hidden = !words;
  $("screen-goal").textContent = words || "";
  renderPanel(panel, $("scorepad"), room, state, seatName, { winner: spec?.winner, goal, live: standingOf(spec, state?.view) });
}

function renderOver({ state, room }) {
  const panel = $("screen-over");
  const result = state?.result;
  panel.hidden = !result;
  if (!result) return;
  const key = JSON.stringify([result, room.rematch, table.marked]);
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  const winners = result.winners.map(seatName);
  const headline = tn("{names} wins!", "{names} win!", winners.length, { names: listWords(winners) });
  fill(
    panel,
    h("p", { class: "trophy", "aria-hidden": "true" }, "★"),
    h("h2", {}, headline),
    h(
      "ol",
      { class: "screen-final" },
      ranked(result.scores, game()?.winner).map(({ seat, total, rank }) =>
        h("li", { class: `seat-c${seat % 6}` }, h("span", {}, `${ordinal(rank)} ${seatName(seat)}`), h("b", {}, String(total))),
      ),
    ),
    room.rematch
      ? h("p", { class: "screen-note" }, t("Off to the rematch…"))
      : table.marked
        ? h(
            "p",
            { class: "screen-over-actions" },
            rematchButton(),
            h("span", { class: "screen-note" }, t("or press Rematch on a phone: the host keeps their seat.")),
          )
        : h("p", { class: "screen-note" }, t("Press Rematch on a phone to play again: this screen follows.")),
  );
}

// ---------------------------------------------------------------------------
// Who draws what: each part hears of the keys it draws from

const parts = [];

/** `draw(state)` runs whenever one of `keys` changes (once the room body is known). */
function draws(keys, draw) {
  parts.push(draw);
  watch(store, keys, (now) => {
    if (now.room) draw(now);
  });
}

/** Everything again: the table mark changed, or a host action ended. */
function redraw() {
  const now = store.get();
  if (now.room) for (const draw of parts) draw(now);
}

// Waiting or in play, and the corner code.
draws(["room", "state"], (now) => {
  const playing = inPlay(now);
  $("screen-waiting").hidden = playing;
  $("screen-game").hidden = !playing;
  document.body.dataset.status = now.room.status;
  document.body.dataset.table = table.marked ? "marked" : "no";
  renderMark(playing);
});

// The seats, a QR code for each open one, the host's tools.
draws(["room", "games"], (now) => {
  if (!inPlay(now)) renderWaiting(now);
});

// The game's own table and the round summary over it.
draws(["state", "room"], async (now) => {
  if (!inPlay(now)) return;
  const gameId = now.room.game;
  if (page.table?.game !== gameId) {
    page.mounting ||= mountTable(gameId).finally(() => {
      page.mounting = null;
    });
    await page.mounting;
  }
  // The newest bodies: more may have come while the table was mounting.
  const { state, room } = store.get();
  if (!state) return;
  page.table.renderer.update(state, room);
  document.body.dataset.version = String(state.version);
  page.summary?.update(state, room);
  fitSoon();
  // Nobody taps the screen: the final list gives way to the result after a while.
  if (page.summary?.shown?.final && !page.finalTimer) {
    page.finalTimer = setTimeout(() => page.summary.close(), FINAL_SUMMARY_MS);
  }
});

// Whose turn it is and the move clock.
draws(["state", "room"], (now) => {
  if (inPlay(now)) return renderTurn(now);
  fill($("screen-turn"), h("span", { class: "screen-turn-text" }, t("Waiting for players")));
  $("screen-clock").hidden = true;
});

// Beside the table: the score pad (the room body's) and the goal (the state's); the result; the
// seats a player may pick up again.
draws(["room", "state", "games"], (now) => {
  if (!inPlay(now)) return;
  renderSide(now);
  renderOver(now);
  renderJoin(now);
  fitSoon();
});

// ---------------------------------------------------------------------------
// The room's life: the socket, a rematch, the display kept awake

// Exposed for tests and debugging: which state version the screen shows. In play it is set once the
// game's table has drawn it (above: the table may still be loading), before that when it arrives.
store.subscribe(({ room, state }, changed) => {
  const drawnByTheTable = room && inPlay({ room, state });
  if (changed.includes("state") && !drawnByTheTable) document.body.dataset.version = String(state.version);
  if (!changed.includes("room")) return;
  table.roomChanged(room);
  // Everyone moved on to the rematch: the table goes with them.
  if (room.rematch && !page.following) {
    page.following = room.rematch;
    table.carryTo(room.rematch);
    setTimeout(() => location.assign(`/r/${room.rematch}/screen`), 1500);
  }
});

let wakeLock = null;
async function keepAwake() {
  if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || wakeLock) return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    document.body.dataset.awake = "yes";
    wakeLock.addEventListener("release", () => {
      wakeLock = null;
      document.body.dataset.awake = "no";
    });
  } catch (error) {
    // Refused (battery saver, no user gesture on some browsers): the screen may dim, nothing else.
    console.info("the screen cannot be kept awake:", error.message);
  }
}

function showConnection(status) {
  const pill = $("screen-conn");
  pill.dataset.state = status;
  pill.textContent = { connecting: t("Connecting"), open: t("Live"), reconnecting: t("Reconnecting…") }[status] || status;
}

async function init() {
  let loaded;
  try {
    loaded = await Promise.all([api("GET", `/api/rooms/${roomId}`), api("GET", "/api/games")]);
  } catch (error) {
    const why = t("The room cannot be loaded: {reason}", { reason: error.message });
    fill($("screen-turn"), h("span", {}, why));
    return;
  }
  const [room, games] = loaded;
  $("screen-title").textContent = titles[room.game] || room.game;
  store.set({ room, games });
  const connection = new ScreenConnection(roomId, null);
  let reopened = false;
  connection.on("status", (status) => {
    showConnection(status);
    if (status !== "open") return;
    api("GET", `/api/rooms/${roomId}`).then((room) => setRoom(store, room), () => {});
    // A code may have given way while the socket was down (the first look is the page's own).
    if (reopened) table.check();
    reopened = true;
  });
  connection.on("state", (state) => store.set({ state }));
  connection.on("room", (room) => setRoom(store, room));
  connection.connect();
  $("screen-bot").addEventListener("click", (event) => hostAction(event.currentTarget, "POST", "/bots", {}));
  $("screen-start").addEventListener("click", (event) => hostAction(event.currentTarget, "POST", "/start"));
  keepAwake();
  document.addEventListener("visibilitychange", keepAwake);
  // Some browsers grant the lock only after a touch or a click on the page.
  document.addEventListener("click", keepAwake);
  setInterval(renderClock, 1000);
  // The space the table has changes with the window, the rail and the result over the table.
  new ResizeObserver(fitSoon).observe(document.querySelector(".screen-main"));
  new ResizeObserver(fitSoon).observe($("screen-side"));
  window.addEventListener("resize", fitSoon);
  FITTED.addEventListener("change", fitSoon);
  document.fonts?.ready.then(fitSoon);
}

init();
