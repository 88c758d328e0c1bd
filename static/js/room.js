// The room page: keeps the room in sync with the server (the active seat's connection, the room
// body, the seat's state) in the observable room state (`room-state.js`) and hands the drawing to
// one module per concept: the join panel and waiting room (`room-waiting.js`), the table
// (`room-table.js`), one-device passing (`room-device.js`) and the people parts (`people.js`).

import { api, ApiError } from "./api.js";
import { RoomConnection } from "./connection.js";
import { heldSeats } from "./device.js";
import { moveProblem } from "./errors.js";
import { createPeople } from "./people.js";
import { createPush } from "./push.js";
import { floatRequests } from "./request-layer.js";
import { pollSeatAsks } from "./seat-asks.js";
import { createDevice } from "./room-device.js";
import { createHandView } from "./room-hand.js";
import { $, announce, copyFrom, showMoveError } from "./room-page.js";
import { startRoomPasskey } from "./room-passkey.js";
import { createScreenMark } from "./room-screen-mark.js";
import { createRoomState, descriptorOf, freeSeats, isTurnOf, seatNameIn, setRoom, watch } from "./room-state.js";
import { createTable } from "./room-table.js";
import { createWaiting } from "./room-waiting.js";
import { createSinceYouLeft } from "./since-you-left.js";
import { sound } from "./sound.js";
import { seats, storageBlocked, store } from "./storage.js";
import { createTakeback } from "./takeback.js";
import { t } from "./i18n.js";
import { listWords } from "./words.js";
import { watchNameFields } from "./name-limit.js";

// A full name field says so (the browser stops at 24 characters without a word).
watchNameFields();

const root = document.getElementById("room");
const roomId = root.dataset.roomId;
const titles = JSON.parse(root.dataset.titles || "{}");
const rs = createRoomState();

// Exposed for tests and debugging: which state version this page shows, set once it is drawn (by
// `render` below), not when it arrives: a game's table may still be loading its module and
// stylesheet, and what is read or measured then is a page no player sees.
function shown(state) {
  if (state) document.body.dataset.version = String(state.version);
}

const seatName = (seat) => seatNameIn(rs.get().room, seat);
const gameTitle = () => titles[rs.get().room?.game] || rs.get().room?.game || "Game";

// ---------------------------------------------------------------------------
// Connection banner

function showConnection(status, detail) {
  const pill = $("conn-pill");
  const banner = $("conn-banner");
  pill.dataset.state = status;
  document.body.dataset.conn = status;
  const words = {
    connecting: t("Connecting"),
    open: rs.get().seat ? t("Live") : t("Watching live"),
    reconnecting: t("Reconnecting"),
    rejected: t("Seat not recognised"),
  };
  $("conn-text").textContent = words[status] || status;
  if (status === "reconnecting") {
    const seconds = Math.max(1, Math.round((detail?.wait || 0) / 1000));
    banner.textContent = t("Connection lost. Reconnecting… (next try in {seconds} s, attempt {attempt})", {
      seconds,
      attempt: detail?.attempt || 1,
    });
    banner.dataset.kind = "warn";
    banner.hidden = false;
  } else if (status === "open" && !banner.hidden) {
    banner.textContent = t("Back online — the table is up to date.");
    banner.dataset.kind = "ok";
    setTimeout(() => {
      if (rs.get().connection?.status === "open") banner.hidden = true;
    }, 2500);
  }
}

// ---------------------------------------------------------------------------
// Live play

/** A player whose browser keeps nothing loses the seat on reload: say so while it can be helped. */
function warnIfForgetful() {
  $("storage-warning").hidden = !(storageBlocked && rs.get().seat);
}

function startLive() {
  warnIfForgetful();
  rs.get().connection?.close();
  device.closeLocals();
  if (rs.get().seat) rs.set({ seat: seats.get(roomId) });
  const seat = rs.get().seat;
  const connection = new RoomConnection(roomId, seat?.token);
  connection.on("status", (status, detail) => {
    showConnection(status, detail);
    // Seats or status may have changed while the socket was down.
    if (status === "open") refreshRoom();
    const now = rs.get().seat;
    if (status === "rejected" && now && connection === rs.get().connection) seatLost(now);
  });
  const ownSeat = seat?.seat ?? null;
  connection.on("state", (state, previous) => device.onSeatState(ownSeat, state, previous));
  connection.on("room", (room) => roomArrived(room));
  connection.on("chat", (message) => people.chat(message));
  if (seat) device.hold(seat.seat, connection);
  for (const local of heldSeats(seat).slice(1)) device.openLocal(local);
  // One draw (the page watches `connection`), with the seats held around this device already.
  rs.set({ connection });
  connection.connect();
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
  rs.set({ seat: null, joinReason: null });
  startLive();
  const why = await people.seatRefused(dead.token, { stored: true });
  if (why === "valid" && !seatRetried && !rs.get().seat) {
    // The server says the token works after all (it was refused in passing): try it once more.
    seatRetried = true;
    seats.save(roomId, dead);
    rs.set({ seat: seats.get(roomId) });
    startLive();
    return;
  }
  if (rs.get().room?.status === "waiting" && freeSeats(rs.get()) > 0 && !rs.get().seat) waiting.showJoin();
}

async function refreshRoom() {
  try {
    roomArrived(await api("GET", `/api/rooms/${roomId}`));
  } catch (error) {
    console.warn("room refresh failed", error);
  }
}

/** A room body came (socket, read, or an action's answer): kept when newest. The page, the people
 * parts and "Since you left" hear of it from the room state and draw it. */
function roomArrived(room) {
  if (!setRoom(rs, room)) return;
  const seat = rs.get().seat;
  if (seat) {
    // The name as seated: the server cleans names and makes them unique ("Bo (2)").
    const mine = room.seats.find((s) => s.seat === seat.seat && !s.bot);
    if (mine && mine.name !== seat.name) rs.set({ seat: { ...seat, name: mine.name } });
    seats.save(roomId, { game: room.game, status: room.status, ...(mine ? { name: mine.name } : {}) });
  }
}

function onState(state, previous) {
  const wasMyTurn = rs.get().myTurn;
  const myTurn = isTurnOf(state, state.seat);
  if (myTurn && !wasMyTurn) {
    announce(t("Your turn."));
    sound.beep();
  } else if (!myTurn && state.to_act?.length === 1 && previous && !sameSeats(previous.to_act, state.to_act)) {
    announce(t("{name}'s turn.", { name: seatName(state.to_act[0]) }));
  }
  people.turn(myTurn, wasMyTurn);
  push.state({ inPlay: state.status === "playing", myTurn });
  // One change of the room state, after the turn notice: the table then draws the move and says it
  // in words, so the move is the announcer's last word (a screen reader hears what happened).
  rs.set({ state, myTurn, ...(state.status === "waiting" ? { sawStart: true } : {}) });
  takeback.update(state, previous);
}

function sameSeats(a, b) {
  return JSON.stringify(a || []) === JSON.stringify(b || []);
}

async function act(action) {
  showMoveError(null);
  const connection = rs.get().connection;
  try {
    await connection.act(action);
  } catch (error) {
    const problem = moveProblem(error);
    if (problem.refresh) {
      rs.get().connection.resync();
      refreshRoom();
    }
    showMoveError(problem.text);
    throw error;
  }
}

// ---------------------------------------------------------------------------
// Rendering

/** What the page draws from: a change of any of these redraws it (a change only the page sees,
 * such as a panel closed or the device covered, asks through `commands.render`). */
const DRAWN_FROM = ["room", "state", "seat", "connection"];

async function render() {
  await draw();
  shown(rs.get().state);
}

async function draw() {
  const { room, state, seat } = rs.get();
  if (!room) return;
  const playing = room.status !== "waiting" || (state && state.status !== "waiting");
  $("room-title").textContent = gameTitle();
  const statusWords = { waiting: t("Waiting for players"), playing: t("In play"), finished: t("Finished") };
  const here = heldSeats(seats.get(roomId));
  const who =
    here.length > 1
      ? t("This device: {names}", { names: listWords(here.map((s) => s.name)) })
      : seat
        ? t("You are {name}", { name: seat.name })
        : t("You are watching");
  $("room-sub").textContent = `${statusWords[room.status] || room.status} · ${who}`;
  document.body.dataset.status = room.status;

  const join = waiting.updateJoin(room);
  if (join === "open") return;
  if (join === "closed") announce(t("The game has started; you are watching."));
  if (!rs.get().connection) return;
  $("waiting-panel").hidden = playing;
  $("game-panel").hidden = !playing;
  screenMark.update();
  if (!playing) {
    waiting.renderWaiting();
    document.title = t("{game} · waiting · Motable", { game: gameTitle() });
    return;
  }
  await table.renderGame();
  hand.update();
}

// ---------------------------------------------------------------------------
// The parts

// What a part may ask of the page: a move, a seat taken or let go, a room body to keep or read
// again, a redraw after a change only the page sees (a panel closed, the device covered). What the
// parts draw they read from the room state `rs`, and the ones below that draw on every room body or
// state subscribe to it.
const commands = {
  act,
  refreshRoom,
  setRoom: (room) => roomArrived(room),
  render,
  /** This page joined from the waiting room. */
  joined() {
    startLive();
    people.showSeatKeep();
  },
  /** A seat came to this browser (a name picked, a seat link). */
  takeSeat(entry) {
    rs.set({ seat: entry, joinReason: null, joining: false });
    $("join-panel").hidden = true;
    startLive();
  },
  /** This browser let go of its seat. */
  letGo() {
    rs.set({ seat: null, joinReason: null });
    startLive();
    if (rs.get().room?.status === "waiting" && freeSeats(rs.get()) > 0) waiting.showJoin();
  },
};

const device = createDevice({
  rs,
  roomId,
  commands,
  onState,
  unmountTable: () => table.unmountTable(),
  showConnection,
});

const table = createTable({
  rs,
  roomId,
  act: commands.act,
  seatName,
  announce,
  gameTitle,
  onDevice: () => device.onDevice(),
  localOffers: () => device.localOffers(),
  renderPassScreen: () => device.renderPassScreen(),
  chat: () => people.shownMessages(),
  held: () => heldSeats(seats.get(roomId)).map((s) => s.seat),
  // The table drew anew: what "Since you left" marks on it is put back.
  drawn: (state) => since?.drawn(state),
});

// The phone as a hand while a table screen shows the table.
const hand = createHandView({ rs, roomId, seatName });
// The host's way to make a TV or laptop the table.
const screenMark = createScreenMark({ rs, roomId, commands });

const waiting = createWaiting({
  rs,
  roomId,
  commands,
  gameTitle,
  seatName,
  renderLocalPlayers: () => device.renderLocalPlayers(),
});

const takeback = createTakeback({
  rs,
  roomId,
  held: () => heldSeats(seats.get(roomId)).map((s) => s.seat),
  tokenOf: (seat) => heldSeats(seats.get(roomId)).find((s) => s.seat === seat)?.token || rs.get().seat?.token,
  nameOf: seatName,
  words: () => descriptorOf(rs.get())?.action_words,
  announce,
});

const people = createPeople({
  rs,
  roomId,
  commands,
  title: gameTitle,
  announce,
  chatShown: () => table.chatShown(),
});

const since = createSinceYouLeft({ rs, roomId, box: $("since-you-left"), seatName, announce });

// Alerts on this device when the page is closed (Web Push), and the app badge.
const push = createPush({
  roomId,
  seat: () => rs.get().seat,
  api,
  store,
  heldRooms: () => Object.keys(seats.all()),
  el: (id) => document.getElementById(id),
});

// ---------------------------------------------------------------------------
// Start

async function init() {
  floatRequests($("request-layer"), { chime: () => sound.chime() });
  pollSeatAsks($("seat-asks"), { title: (game) => titles[game] || game, exceptRoom: roomId });
  people.start();
  startRoomPasskey(roomId, $("room-passkey"));
  push.start();
  waiting.start();
  sound.show();
  $("sound-toggle").addEventListener("click", () => sound.toggle());
  $("move-error-close").addEventListener("click", () => showMoveError(null));
  for (const button of document.querySelectorAll("#copy-button, .copy-again")) {
    button.addEventListener("click", copyFrom);
  }

  try {
    const [room, games] = await Promise.all([api("GET", `/api/rooms/${roomId}`), api("GET", "/api/games")]);
    rs.set({ room, games });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      $("room-title").textContent = t("Room not found");
      $("missing-panel").hidden = false;
      $("conn-pill").hidden = true;
      return;
    }
    $("room-title").textContent = t("The server cannot be reached");
    $("room-sub").textContent = t("Reload the page in a moment.");
    return;
  }
  // A private seat link (`#seat=<token>`) opened on this device takes the seat here.
  await people.adoptSeatLink();
  rs.set({ seat: seats.get(roomId) });
  // The seat is known: from now on the page (title, status line, the waiting room or the table) and
  // the people parts draw whenever what they show changes.
  watch(rs, DRAWN_FROM, render);
  people.follow();
  const wantsToWatch = new URLSearchParams(location.search).has("watch");
  const room = rs.get().room;
  if (rs.get().seat || wantsToWatch) {
    startLive();
  } else if (room.status === "waiting" && freeSeats(rs.get()) > 0) {
    // Watch live while deciding, so the seat list is current and a start is noticed.
    startLive();
    waiting.showJoin();
  } else {
    startLive();
    announce(t("This game is already under way; you are watching."));
  }
}

init();
