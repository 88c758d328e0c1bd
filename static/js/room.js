// The room page: join or watch, the waiting room, then the game table, score pad and game end.

import { api, ApiError } from "./api.js";
import { RoomConnection } from "./connection.js";
import { dueSeat, heldSeats, mustPass, withLocal } from "./device.js";
import { fill, h } from "./dom.js";
import { moveProblem } from "./errors.js";
import { goalOf, goalWords, renderPanel, standingOf } from "./panels.js";
import { createPeople } from "./people.js";
import { initial } from "./people-kit.js";
import { ordinal, ranked, SummaryPanel } from "./round-summary.js";
import { loadTable, showTableError } from "./table-loader.js";
import { playerName, seats, setting, storageBlocked } from "./storage.js";
import { listWords } from "./words.js";

const root = document.getElementById("room");
const roomId = root.dataset.roomId;
const titles = JSON.parse(root.dataset.titles || "{}");
const $ = (id) => document.getElementById(id);

const page = {
  room: null,
  games: null,
  seat: null, // { seat, token, name } when this browser holds a seat here
  connection: null,
  table: null, // { game, renderer } once a game's table is mounted
  chatShown: null, // the mounted table redraws its log with the chat
  mounting: null,
  state: null,
  myTurn: false,
  sawStart: false,
  joinReason: null,
  moveErrorTimer: null,
  people: null, // the people parts (people.js): seat links, presence, clocks, chat, notifications
  // Around one device: a connection per local seat (page.seat / page.connection are the active
  // one's) and the pass-the-device cover (whether it is needed is the descriptor's `open_table`).
  device: { conns: new Map(), covered: false, passTo: null, ready: false },
};

// ---------------------------------------------------------------------------
// Small page services

function announce(text) {
  const region = $("announcer");
  region.textContent = "";
  // A fresh text node after a tick makes screen readers read repeated messages too.
  setTimeout(() => {
    region.textContent = text;
  }, 30);
}

function seatName(seat) {
  const entry = page.room?.seats?.find((s) => s.seat === seat);
  return entry?.name || `Seat ${seat + 1}`;
}

function gameTitle() {
  return titles[page.room?.game] || page.room?.game || "Game";
}

/** The descriptor `GET /api/games` serves for this room's game. */
function descriptor() {
  return page.games?.find((g) => g.id === page.room?.game) || null;
}

function showError(id, error) {
  const node = $(id);
  node.textContent = error ? error.message || String(error) : "";
  node.hidden = !error;
}

const soundSetting = setting("motable.sound");

const sound = {
  context: null,
  get on() {
    return soundSetting.on;
  },
  toggle() {
    soundSetting.on = !this.on;
    this.show();
    if (this.on) this.beep();
  },
  show() {
    $("sound-toggle").setAttribute("aria-pressed", String(this.on));
    $("sound-state").textContent = this.on ? "on" : "off";
  },
  beep() {
    if (!this.on) return;
    try {
      this.context ||= new AudioContext();
      const ctx = this.context;
      const now = ctx.currentTime;
      for (const [offset, freq] of [
        [0, 660],
        [0.13, 880],
      ]) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = "sine";
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, now + offset);
        gain.gain.exponentialRampToValueAtTime(0.18, now + offset + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.12);
        osc.connect(gain).connect(ctx.destination);
        osc.start(now + offset);
        osc.stop(now + offset + 0.14);
      }
    } catch {
      // Audio is a nicety: a browser that refuses it still shows the turn.
    }
  },
};

// ---------------------------------------------------------------------------
// Connection banner

function showConnection(status, detail) {
  const pill = $("conn-pill");
  const banner = $("conn-banner");
  pill.dataset.state = status;
  document.body.dataset.conn = status;
  const words = {
    connecting: "Connecting",
    open: page.seat ? "Live" : "Watching live",
    reconnecting: "Reconnecting",
    rejected: "Seat not recognised",
  };
  $("conn-text").textContent = words[status] || status;
  if (status === "reconnecting") {
    const seconds = Math.max(1, Math.round((detail?.wait || 0) / 1000));
    banner.textContent = `Connection lost. Reconnecting… (next try in ${seconds}s, attempt ${detail?.attempt || 1})`;
    banner.dataset.kind = "warn";
    banner.hidden = false;
  } else if (status === "open" && !banner.hidden) {
    banner.textContent = "Back online — the table is up to date.";
    banner.dataset.kind = "ok";
    setTimeout(() => {
      if (page.connection?.status === "open") banner.hidden = true;
    }, 2500);
  }
}

// ---------------------------------------------------------------------------
// Joining and watching

function freeSeatCount() {
  const game = descriptor();
  if (!game) return 1;
  return game.max_players - page.room.seats.length;
}

function joinIntro() {
  const names = page.room.seats.map((s) => s.name);
  return (
    page.joinReason ||
    `${listWords(names)} ${names.length === 1 ? "is" : "are"} waiting to play ${gameTitle()}. Take a seat, or just watch.`
  );
}

function showJoin() {
  $("join-panel").hidden = false;
  $("waiting-panel").hidden = true;
  $("game-panel").hidden = true;
  $("join-intro").textContent = joinIntro();
  const input = $("join-name");
  input.value ||= playerName.get();
  input.focus();
}

async function join(event) {
  event.preventDefault();
  const name = $("join-name").value.trim();
  if (!name) {
    showError("join-error", new Error("Type a name so the others know who you are."));
    $("join-name").focus();
    return;
  }
  $("join-button").disabled = true;
  try {
    const body = await api("POST", `/api/rooms/${roomId}/join`, { body: { name } });
    playerName.set(name);
    // The server may have cleaned the name or made it unique ("Bo (2)").
    seats.save(roomId, { seat: body.seat, token: body.token, name: body.name || name, game: page.room.game });
    page.seat = seats.get(roomId);
    page.joinReason = null;
    showError("join-error", null);
    $("join-panel").hidden = true;
    startLive();
    page.people.showSeatKeep();
  } catch (error) {
    showError("join-error", error);
    if (error instanceof ApiError && error.code === "already_started") {
      $("join-intro").textContent = "The game started without you, but you can still watch.";
    }
  } finally {
    $("join-button").disabled = false;
  }
}

function watch() {
  $("join-panel").hidden = true;
  render();
}

// ---------------------------------------------------------------------------
// Live play

/** A player whose browser keeps nothing loses the seat on reload: say so while it can be helped. */
function warnIfForgetful() {
  $("storage-warning").hidden = !(storageBlocked && page.seat);
}

function startLive() {
  warnIfForgetful();
  if (page.connection) page.connection.close();
  closeLocals();
  if (page.seat) page.seat = seats.get(roomId);
  const connection = new RoomConnection(roomId, page.seat?.token);
  page.connection = connection;
  connection.on("status", (status, detail) => {
    showConnection(status, detail);
    // Seats or status may have changed while the socket was down.
    if (status === "open") refreshRoom();
    if (status === "rejected" && page.seat && connection === page.connection) seatLost(page.seat);
  });
  const ownSeat = page.seat?.seat ?? null;
  connection.on("state", (state, previous) => onSeatState(ownSeat, state, previous));
  connection.on("room", (room) => setRoom(room));
  connection.on("chat", (message) => page.people.chat(message));
  connection.connect();
  if (page.seat) page.device.conns.set(page.seat.seat, connection);
  for (const local of heldSeats(page.seat).slice(1)) openLocal(local);
  render();
}

/**
 * The socket refused this browser's seat (closed with 1008): the seat moved to another device,
 * its player left or was removed, or the server does not know the token. The page forgets the
 * seat, watches, and shows why with the way back (people.js asks the server's seat check).
 */
let seatRetried = false;
async function seatLost(dead) {
  // The socket was closed to revoke the seat, not lost: no "Reconnecting…"/"Back online" banner,
  // the way-back box says what happened.
  $("conn-banner").hidden = true;
  seats.forget(roomId);
  page.seat = null;
  page.joinReason = null;
  startLive();
  const why = await page.people.seatRefused(dead.token, { stored: true });
  if (why === "valid" && !seatRetried && !page.seat) {
    // The server says the token works after all (it was refused in passing): try it once more.
    seatRetried = true;
    seats.save(roomId, dead);
    page.seat = seats.get(roomId);
    startLive();
    return;
  }
  if (page.room?.status === "waiting" && freeSeatCount() > 0 && !page.seat) showJoin();
}

// ---------------------------------------------------------------------------
// Around one device: the page holds several seats and acts as whichever is due.

function openLocal(local) {
  if (page.device.conns.has(local.seat)) return;
  const connection = new RoomConnection(roomId, local.token);
  page.device.conns.set(local.seat, connection);
  connection.on("state", (state, previous) => onSeatState(local.seat, state, previous));
  connection.on("status", (status) => {
    if (status !== "rejected") return;
    // The server does not know this local seat any more: stop holding it.
    connection.close();
    page.device.conns.delete(local.seat);
    const entry = seats.get(roomId);
    if (entry) seats.save(roomId, { locals: (entry.locals || []).filter((l) => l.seat !== local.seat) });
  });
  connection.connect();
}

function closeLocals() {
  for (const connection of page.device.conns.values()) connection.close();
  page.device.conns.clear();
}

function onDevice() {
  return heldSeats(seats.get(roomId)).length > 1;
}

/** A state arrived on one held seat's connection: switch to the seat that is due, then show. */
function onSeatState(seat, state, previous) {
  const held = heldSeats(seats.get(roomId));
  const active = page.seat?.seat ?? null;
  if (held.length > 1 && active !== null) {
    const due = dueSeat(state.to_act, held, active);
    const dueState = page.device.conns.get(due)?.state;
    if (due !== active && dueState?.to_act?.includes(due)) {
      switchSeat(held.find((h) => h.seat === due), dueState);
      return;
    }
    if (due !== active && mustPass(active, due, descriptor())) {
      // The next local player is due, but their own state has not arrived yet: hide this
      // player's table already.
      cover(held.find((h) => h.seat === due));
      return;
    }
    if (due === active && page.device.covered && page.device.passTo?.seat !== active) {
      // The device was on its way to another player, but the game came back to this one.
      cover(held.find((h) => h.seat === active));
    }
  }
  if (seat === active) onState(state, previous);
}

function switchSeat(next, state) {
  const from = page.seat.seat;
  page.seat = { ...seats.get(roomId), seat: next.seat, token: next.token, name: next.name };
  page.connection = page.device.conns.get(next.seat);
  page.myTurn = false;
  if (mustPass(from, next.seat, descriptor())) cover(next);
  if (page.device.covered && page.device.ready && page.device.passTo?.seat === next.seat) {
    page.device.ready = false;
    page.device.covered = false;
    $("pass-screen").dataset.seat = "";
  }
  onState(state, null);
  showConnection(page.connection.status);
}

/** Take the table out of the page before anyone else can look at it, until `next` taps. */
function cover(next) {
  if (page.device.covered && page.device.passTo?.seat === next.seat) return;
  page.device.covered = true;
  page.device.passTo = next;
  page.device.ready = false;
  unmountTable();
  $("table").replaceChildren();
  render();
}

/** The pass-the-device screen: shown instead of the table until the next local player taps. */
function renderPassScreen() {
  let screen = $("pass-screen");
  if (!screen) {
    screen = h("section", { id: "pass-screen", class: "panel pass-screen", hidden: true, "aria-live": "assertive" });
    $("table").before(screen);
  }
  const next = page.device.passTo;
  const covered = page.device.covered && Boolean(next);
  screen.hidden = !covered;
  $("table").hidden = covered;
  if (!covered) return false;
  const name = next.name;
  if (screen.dataset.seat !== String(next.seat)) {
    screen.dataset.seat = String(next.seat);
    fill(
      screen,
      h("h2", { tabindex: "-1" }, `Pass the device to ${name}`),
      h("p", {}, `It is ${name}'s turn. Everyone else's cards are hidden; ${name}, tap when only you can see the screen.`),
      h("button", { class: "button button-primary pass-ready", type: "button", onclick: reveal }, `I'm ${name}: show my table`),
    );
    screen.querySelector("h2").focus();
    announce(`Pass the device to ${name}.`);
  }
  return true;
}

function reveal() {
  // Not before the next player's own table is here (their state arrives on their connection):
  // until then the tap is remembered, and switchSeat reveals.
  if (page.seat?.seat !== page.device.passTo?.seat) {
    page.device.ready = true;
    return;
  }
  page.device.ready = false;
  page.device.covered = false;
  $("pass-screen").dataset.seat = "";
  render();
}

/** The host's "players on this device" form, in the waiting room. */
function renderLocalPlayers() {
  let box = $("device-players");
  if (!box) {
    const input = h("input", { id: "device-name", maxlength: "24", placeholder: "e.g. Cy", autocomplete: "off", "aria-label": "Name of a player on this device" });
    box = h(
      "form",
      { id: "device-players", class: "device-players", onsubmit: addLocalPlayer },
      h("h3", {}, "Players on this device"),
      h("p", { class: "muted small" }, "Playing around one phone or tablet? Add each player here; the page hands the device to whoever is due."),
      h("ul", { id: "device-list", class: "device-list" }),
      h("div", { class: "device-add" }, h("label", { class: "field" }, h("span", {}, "Name"), input), h("button", { id: "device-add", class: "button", type: "submit" }, "Add on this device")),
      h("p", { id: "device-error", class: "form-error", role: "alert", hidden: true }),
    );
    $("host-tools").append(box);
  }
  const held = heldSeats(seats.get(roomId));
  fill($("device-list"), held.map((s) => h("li", {}, s.name, s.seat === held[0].seat ? " (you)" : "")));
}

async function addLocalPlayer(event) {
  event.preventDefault();
  const input = $("device-name");
  const name = input.value.trim();
  if (!name) {
    showError("device-error", new Error("Type the player's name."));
    return;
  }
  $("device-add").disabled = true;
  try {
    const body = await api("POST", `/api/rooms/${roomId}/join`, { body: { name } });
    const local = { seat: body.seat, token: body.token, name };
    seats.save(roomId, withLocal(seats.get(roomId), local));
    openLocal(local);
    input.value = "";
    showError("device-error", null);
    refreshRoom();
  } catch (error) {
    showError("device-error", error);
  } finally {
    $("device-add").disabled = false;
  }
}

async function refreshRoom() {
  try {
    setRoom(await api("GET", `/api/rooms/${roomId}`));
  } catch (error) {
    console.warn("room refresh failed", error);
  }
}

function setRoom(room) {
  page.room = room;
  if (page.seat) {
    // The name as seated: the server cleans names and makes them unique ("Bo (2)").
    const mine = room.seats.find((s) => s.seat === page.seat.seat && !s.bot);
    if (mine) page.seat.name = mine.name;
    seats.save(roomId, { game: room.game, status: room.status, ...(mine ? { name: mine.name } : {}) });
  }
  render();
  page.people?.update();
}

function onState(state, previous) {
  page.state = state;
  if (state.status === "waiting") page.sawStart = true;
  // Exposed for tests and debugging: which state version this page shows.
  document.body.dataset.version = String(state.version);
  const mySeat = state.seat;
  const myTurn = mySeat !== null && mySeat !== undefined && (state.to_act || []).includes(mySeat);
  if (myTurn && !page.myTurn) {
    announce("Your turn.");
    sound.beep();
  } else if (!myTurn && state.to_act?.length === 1 && previous && !sameSeats(previous.to_act, state.to_act)) {
    announce(`${seatName(state.to_act[0])}'s turn.`);
  }
  page.people.turn(myTurn, page.myTurn);
  page.myTurn = myTurn;
  render();
  page.people.update();
}

function sameSeats(a, b) {
  return JSON.stringify(a || []) === JSON.stringify(b || []);
}

async function act(action) {
  showMoveError(null);
  try {
    await page.connection.act(action);
  } catch (error) {
    const problem = moveProblem(error);
    if (problem.refresh) {
      page.connection.resync();
      refreshRoom();
    }
    showMoveError(problem.text);
    throw error;
  }
}

// A refused or unsent move (or rematch) is said on screen, not only to screen readers: the
// player has to know the click did nothing. role="alert" reads it out too.
function showMoveError(text) {
  const node = $("move-error");
  clearTimeout(page.moveErrorTimer);
  node.hidden = !text;
  $("move-error-text").textContent = text || "";
  if (text) page.moveErrorTimer = setTimeout(() => showMoveError(null), 8000);
}

// ---------------------------------------------------------------------------
// Rendering

function render() {
  const room = page.room;
  if (!room) return;
  const playing = room.status !== "waiting" || (page.state && page.state.status !== "waiting");
  $("room-title").textContent = gameTitle();
  const statusWords = { waiting: "Waiting for players", playing: "In play", finished: "Finished" };
  const here = heldSeats(seats.get(roomId));
  const who = here.length > 1 ? `This device: ${listWords(here.map((s) => s.name))}` : page.seat ? `You are ${page.seat.name}` : "You are watching";
  $("room-sub").textContent = `${statusWords[room.status] || room.status} · ${who}`;
  document.body.dataset.status = room.status;

  if (!$("join-panel").hidden) {
    if (room.status === "waiting") {
      $("join-intro").textContent = joinIntro();
      return;
    }
    // The game began while this visitor was still deciding: watch it.
    $("join-panel").hidden = true;
    announce("The game has started; you are watching.");
  }
  if (!page.connection) return;
  $("waiting-panel").hidden = playing;
  $("game-panel").hidden = !playing;
  if (!playing) {
    renderWaiting();
    document.title = `${gameTitle()} · waiting · Motable`;
    return;
  }
  renderGame();
}

function renderWaiting() {
  const room = page.room;
  const list = $("seat-list");
  const game = descriptor();
  const max = game?.max_players ?? room.seats.length;
  fill(list, 
    ...room.seats.map((s) =>
      h(
        "li",
        { class: `seat-item${s.seat === page.seat?.seat ? " is-you" : ""}` },
        h("span", { class: "avatar", "aria-hidden": "true" }, initial(s.name)),
        h("span", { class: "seat-name" }, s.name, s.seat === page.seat?.seat ? h("span", { class: "tag" }, "you") : null),
        s.seat === room.host_seat ? h("span", { class: "tag" }, "host") : null,
        h(
          "span",
          { class: `presence ${s.bot ? "is-bot" : s.connected ? "is-on" : "is-off"}` },
          s.bot ? "bot" : s.connected ? "here" : "away",
        ),
      ),
    ),
    max > room.seats.length
      ? h(
          "li",
          { class: "seat-item is-empty" },
          h("span", { class: "avatar", "aria-hidden": "true" }, "+"),
          h("span", { class: "seat-name" }, max - room.seats.length === 1 ? "1 free seat" : `${max - room.seats.length} free seats`),
        )
      : null,
  );
  const isHost = page.seat && page.seat.seat === room.host_seat;
  const min = game?.min_players ?? 2;
  const enough = room.seats.length >= min;
  $("host-tools").hidden = !isHost;
  $("start-button").disabled = !enough;
  $("bot-button").disabled = room.seats.length >= max;
  let note;
  if (isHost) {
    note = enough
      ? "Everyone here? Start whenever you like."
      : `Waiting for at least ${min} players. Share the link, or add a bot.`;
  } else if (page.seat) {
    note = `You're in. Waiting for ${seatName(room.host_seat)} to start the game…`;
  } else {
    note = "You are watching. The game begins when the host starts it.";
  }
  renderStarter(game, isHost);
  if (isHost) renderLocalPlayers();
  $("waiting-note").textContent = note;
  $("waiting-note").classList.toggle("is-pulsing", !isHost);
  if (!page.seat && freeSeatCount() > 0 && !$("waiting-note").querySelector("button")) {
    $("waiting-note").append(" ", h("button", { class: "link-button", type: "button", onclick: () => showJoin() }, "Take a seat"));
  }
}

// Who starts is asked when the game starts, from the players actually seated (the game's
// descriptor names the question); "Random" lets the deal decide.
function renderStarter(game, isHost) {
  const field = $("starter-field");
  const starter = game?.starter;
  field.hidden = !isHost || !starter;
  if (field.hidden) return;
  $("starter-question").textContent = starter.question;
  const select = $("starter-choice");
  const seatsHere = page.room.seats;
  const key = JSON.stringify(seatsHere.map((s) => [s.seat, s.name]));
  if (select.dataset.key === key) return;
  select.dataset.key = key;
  // Keep the host's pick while people join; start from the room's option if it names a seated player.
  const kept = select.value || String(page.room.options?.[starter.option] ?? "random");
  fill(
    select,
    h("option", { value: "random" }, "Random"),
    seatsHere.map((s) => h("option", { value: String(s.seat) }, s.seat === page.seat?.seat ? `${s.name} (you)` : s.name)),
  );
  select.value = [...select.options].some((o) => o.value === kept) ? kept : "random";
}

function startBody() {
  if ($("starter-field").hidden) return {};
  const choice = $("starter-choice").value;
  return { starter: choice === "random" ? "random" : Number(choice) };
}

async function hostAction(path, button, body = {}) {
  button.disabled = true;
  try {
    const answer = await api("POST", `/api/rooms/${roomId}/${path}`, { body, token: page.seat.token });
    showError("host-error", null);
    if (answer && answer.room_id) setRoom(answer);
    else refreshRoom();
  } catch (error) {
    showError("host-error", error);
  } finally {
    button.disabled = false;
  }
}

function unmountTable() {
  page.table?.renderer.destroy?.();
  page.table = null;
  page.chatShown = null;
}

// A table that failed to load: the error stays on the page in its place, and the rest of the room
// (seats, chat, score pad, game end) goes on.
const NO_TABLE = { update() {}, destroy() {} };

async function mountTable(gameId) {
  let module;
  try {
    module = await loadTable(gameId);
  } catch (error) {
    if (page.room?.game !== gameId) return;
    unmountTable();
    showTableError($("table"), error);
    page.table = { game: gameId, renderer: NO_TABLE };
    mountSummary({});
    return;
  }
  if (page.room?.game !== gameId) return;
  unmountTable();
  const renderer = module.mount($("table"), {
    act,
    seatName,
    announce,
    // Several players share this page (around one device): tables may show who is due in large.
    get onDevice() {
      return onDevice();
    },
    get mySeat() {
      return page.seat ? page.seat.seat : null;
    },
    // This page saw the room before the deal, so everything the match has logged is news to it.
    get sawStart() {
      return page.sawStart;
    },
    // The table chat's messages for the log, and a call when they change.
    chat: () => page.people.shownMessages(),
    onChat(redraw) {
      page.chatShown = redraw;
    },
  });
  page.table = { game: gameId, renderer };
  mountSummary(module);
}

// ---------------------------------------------------------------------------
// Round summaries (shared by every game; the renderer's `roundSummary` gives its lines)

function mountSummary(module) {
  page.summary?.close();
  page.summary = new SummaryPanel($("round-summary"), {
    seatName,
    get mySeat() {
      return page.seat ? page.seat.seat : null;
    },
    get winner() {
      return descriptor()?.winner;
    },
    describe: module.roundSummary || null,
    afterClose(final) {
      const target = final
        ? $("game-over").querySelector("h2")
        : $("table").querySelector("[data-action]:not([disabled])");
      target?.focus({ preventScroll: !final });
    },
  });
}

function renderSummary() {
  if (page.state && page.summary) page.summary.update(page.state, page.room, { sawStart: page.sawStart });
}

async function renderGame() {
  const room = page.room;
  if (renderPassScreen()) return;
  if (page.table?.game !== room.game) {
    page.mounting ||= mountTable(room.game).finally(() => {
      page.mounting = null;
    });
    await page.mounting;
    if (page.table?.game !== room.game) return;
  }
  if (page.state) page.table.renderer.update(page.state, room);
  renderSummary();
  renderSide();
  renderGameOver();
  const turnMark = page.myTurn ? "● Your turn · " : "";
  document.title = `${turnMark}${gameTitle()} · Motable`;
}

// The side panel the game's descriptor asks for: a points score pad, stars or a progress track.
const PANEL_TITLES = { points: "Score pad", stars: "Stars", progress: "Progress" };

function renderSide() {
  const game = descriptor();
  // Every fact of the panel is the descriptor's: the "leading" mark follows its winner rule, the
  // goal line is read off the view where its `goal` says, and a game whose standing moves within a
  // round (Mokuru's belts) is read live where its `standing` says; others show the score pad's totals.
  const winner = game?.winner;
  const goal = goalOf(game, page.state?.view);
  const live = standingOf(game, page.state?.view);
  const panel = game?.panel || "points";
  $("scorepad-title").textContent = PANEL_TITLES[panel] || PANEL_TITLES.points;
  const words = goalWords(game, goal);
  $("scorepad-goal").hidden = !words;
  $("scorepad-goal").textContent = words || "";
  renderPanel(panel, $("scorepad"), page.room, page.state, seatName, { winner, goal, live });
}

function renderGameOver() {
  const panel = $("game-over");
  const result = page.state?.result;
  if (!result) {
    panel.hidden = true;
    return;
  }
  // Around one device every player is named: "You" would mean whoever held the device last.
  const winners = result.winners.map((s) => (s === page.seat?.seat && !onDevice() ? "You" : seatName(s)));
  const youWon = page.seat && result.winners.includes(page.seat.seat);
  const verb = winners.length === 1 && winners[0] !== "You" ? "wins" : "win";
  const rematch = page.room.rematch;
  const key = JSON.stringify([result, rematch, Boolean(page.seat)]);
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  const appearing = panel.hidden;
  panel.hidden = false;
  fill(panel,
    h("p", { class: `trophy${youWon ? " is-yours" : ""}`, "aria-hidden": "true" }, "★"),
    h("h2", { tabindex: "-1" }, `${listWords(winners)} ${verb}!`),
    h(
      "p",
      { class: "muted" },
      "Final scores: ",
      ranked(result.scores, descriptor()?.winner)
        .map(({ seat, total, rank }) => `${ordinal(rank)} ${seat === page.seat?.seat ? "You" : seatName(seat)} ${total}`)
        .join(" · "),
    ),
    h("p", { class: "replay-link" }, h("a", { class: "button", href: `/r/${roomId}/replay` }, "Watch the replay")),
    rematchPanel(rematch),
  );
  // The last move took the focused card away: land on the result (and scroll to it on a
  // phone, where it heads the page) rather than leaving focus nowhere.
  const active = document.activeElement;
  if (appearing && (!active || active === document.body || active.disabled)) panel.querySelector("h2").focus();
}

// The room body names the rematch once any player opened it, so every page offers the same room.
function rematchPanel(rematch) {
  if (!page.seat) {
    return rematch
      ? h("p", {}, h("a", { class: "button", href: `/r/${rematch}` }, "Watch the rematch"))
      : null;
  }
  if (!rematch) {
    return h(
      "div",
      { class: "rematch" },
      h("button", { class: "button button-primary", type: "button", onclick: openRematch }, "Rematch"),
      h("p", { class: "muted small" }, "Same game and options; the others are offered a seat."),
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
        ? h("a", { class: "button button-primary", href: `/r/${rematch}` }, "Go to the rematch")
        : h("button", { class: "button button-primary", type: "button", onclick: openRematch }, "Join the rematch"),
    ),
    h(
      "div",
      { class: "share-row" },
      h("input", { class: "share-url", value: new URL(`/r/${rematch}`, location.href).href, readonly: true, "aria-label": "Rematch link" }),
      h("button", { class: "button", type: "button", onclick: copyFrom }, "Copy"),
    ),
  );
}

/** Open the rematch (the first to ask hosts it) or take a seat in the one already open, then go there. */
async function openRematch(event) {
  event.currentTarget.disabled = true;
  const name = page.seat.name || playerName.get();
  try {
    const made = await api("POST", `/api/rooms/${roomId}/rematch`, { token: page.seat.token });
    let seat = made.token ? made : null;
    if (!seat && !seats.get(made.room_id)) {
      seat = await api("POST", `/api/rooms/${made.room_id}/join`, { body: { name } });
    }
    if (seat) seats.save(made.room_id, { seat: seat.seat, token: seat.token, name, game: page.room.game });
    // A browser that keeps nothing carries the seat to the next page in the link's fragment.
    const carried = storageBlocked && seat ? `#seat=${seat.token}` : "";
    location.assign(`/r/${made.room_id}${carried}`);
  } catch (error) {
    event.target.disabled = false;
    showMoveError(error.message);
  }
}

/** Copy the link in the input next to the clicked button. */
async function copyFrom(event) {
  const button = event.currentTarget;
  const input = button.parentElement.querySelector("input");
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(input.value);
    button.textContent = "Copied!";
  } catch {
    input.select();
    button.textContent = "Press Ctrl+C";
  }
  setTimeout(() => {
    button.textContent = label;
  }, 1800);
}

// ---------------------------------------------------------------------------
// Start

function peopleContext() {
  return {
    roomId,
    seat: () => page.seat,
    room: () => page.room,
    state: () => page.state,
    title: gameTitle,
    announce,
    refreshRoom,
    redraw: render,
    chatShown: () => page.chatShown?.(),
    seatTaken(entry) {
      page.seat = entry;
      page.joinReason = null;
      $("join-panel").hidden = true;
      startLive();
    },
    forgotten() {
      page.seat = null;
      page.joinReason = null;
      startLive();
      if (page.room?.status === "waiting" && freeSeatCount() > 0) showJoin();
    },
  };
}

async function init() {
  page.people = createPeople(peopleContext());
  page.people.start();
  sound.show();
  $("sound-toggle").addEventListener("click", () => sound.toggle());
  $("join-form").addEventListener("submit", join);
  $("watch-button").addEventListener("click", watch);
  $("move-error-close").addEventListener("click", () => showMoveError(null));
  $("bot-button").addEventListener("click", (e) => hostAction("bots", e.currentTarget));
  $("start-button").addEventListener("click", (e) => hostAction("start", e.currentTarget, startBody()));
  for (const button of document.querySelectorAll("#copy-button, .copy-again")) {
    button.addEventListener("click", copyFrom);
  }

  try {
    [page.room, page.games] = await Promise.all([api("GET", `/api/rooms/${roomId}`), api("GET", "/api/games")]);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      $("room-title").textContent = "Room not found";
      $("missing-panel").hidden = false;
      $("conn-pill").hidden = true;
      return;
    }
    $("room-title").textContent = "The server cannot be reached";
    $("room-sub").textContent = "Reload the page in a moment.";
    return;
  }
  // A private seat link (`#seat=<token>`) opened on this device takes the seat here.
  await page.people.adoptSeatLink();
  page.seat = seats.get(roomId);
  page.people.update();
  const wantsToWatch = new URLSearchParams(location.search).has("watch");
  if (page.seat || wantsToWatch) {
    startLive();
  } else if (page.room.status === "waiting" && freeSeatCount() > 0) {
    // Watch live while deciding, so the seat list is current and a start is noticed.
    startLive();
    showJoin();
  } else {
    startLive();
    announce("This game is already under way; you are watching.");
  }
}

init();
