// The people parts of the room page, put together: your seat on another device (`seat-link.js`),
// the way back to a seat (`way-back.js`), seat requests seen from the table (`seat-requests.js`),
// presence and clocks "At the table" (`presence.js`), the table chat (`people-chat.js`) and
// your-turn notifications (`people-notify.js`); what this browser keeps about them is
// `people-prefs.js`'s. The room page calls `createPeople` once with its room state (`room-state.js`):
// the parts redraw when the room body or the state body changes (`follow`), and are told of every
// chat message.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { createAlertPrefs } from "./mail.js";
import { createPause } from "./pause.js";
import { createChat } from "./people-chat.js";
import { createNotify } from "./people-notify.js";
import { roomPrefs } from "./people-prefs.js";
import { createPresence } from "./presence.js";
import { watch } from "./room-state.js";
import { createSeatLink } from "./seat-link.js";
import { createSeatRequests } from "./seat-requests.js";
import { store } from "./storage.js";
import { createWayBack } from "./way-back.js";

// The room state's keys the people parts draw from.
const DRAWN_FROM = ["room", "state", "seat", "joining"];

/**
 * ctx: { rs (the room state), roomId, title(), announce(text), chatShown(),
 *        commands: { takeSeat(entry) (a seat came to this browser), letGo() (this browser let go),
 *                    refreshRoom(), render() } }
 */
export function createPeople(ctx) {
  const { rs, roomId, commands } = ctx;
  const seat = () => rs.get().seat;
  const room = () => rs.get().room;
  const prefs = roomPrefs(store, roomId);
  const mySeat = () => seat()?.seat ?? null;
  const token = () => seat()?.token ?? null;
  const post = (path, body, method = "POST") => api(method, `/api/rooms/${roomId}/${path}`, { body, token: token() });
  /** A seat's name as the room body has it ("Seat 3" if it is not listed, "" for no seat). */
  const seatNameOf = (seat) => {
    if (seat === null || seat === undefined) return "";
    return room()?.seats?.find((s) => s.seat === seat)?.name || t("Seat {num}", { num: seat + 1 });
  };

  const chat = createChat({ roomId, prefs, mySeat, token, post, refreshRoom: commands.refreshRoom, chatShown: ctx.chatShown });
  const notify = createNotify({ roomId, prefs, title: ctx.title });
  const wayBack = createWayBack({
    roomId,
    prefs,
    room,
    mySeat,
    joining: () => rs.get().joining,
    seatNameOf,
    announce: ctx.announce,
    seatTaken: commands.takeSeat,
    update: () => update(),
    redraw: commands.render,
  });
  const requests = createSeatRequests({
    roomId,
    seat,
    mySeat,
    token,
    seatNameOf,
    askingId: wayBack.askingId,
    handingOver: wayBack.handingOver,
    refreshRoom: commands.refreshRoom,
  });
  const presence = createPresence({ roomId, prefs, room, mySeat, post, refreshRoom: commands.refreshRoom, update: () => update(), drawChat: chat.draw });
  const seatLink = createSeatLink({
    roomId,
    seat,
    room,
    post,
    notify,
    justWatching: prefs.setJustWatching,
    forgotten: commands.letGo,
  });

  // Pausing the game, and the seat menu's alerts away from the table (email, quiet hours).
  const pause = createPause({ room, mySeat, post, seatNameOf, refreshRoom: commands.refreshRoom });
  const alertPrefs = createAlertPrefs({ mySeat, post, get: (path) => api("GET", `/api/rooms/${roomId}/${path}`, { token: token() }) });

  /** A new room body or state (or time passed): redraw what changed. */
  function update() {
    const { room, state } = rs.get();
    if (!room) return;
    const now = Date.now();
    presence.drawList(room, state, now);
    requests.drawList(room, now);
    requests.drawAlert(room);
    wayBack.sync(room);
    wayBack.draw();
    wayBack.drawPickAgain();
    presence.drawClock(room);
    seatLink.update();
    presence.updateClockChoice(room);
    chat.updateForm(room);
    chat.place(room);
    presence.placeRequests(room);
    seatLink.forgetStale();
    pause.draw();
  }

  function start() {
    seatLink.start();
    notify.start();
    wayBack.start();
    presence.start();
    chat.start();
    wayBack.resume();
    pause.start();
    alertPrefs.start();
  }

  /** From now on (this page's seat is known), redraw whenever the room body, the state or the seat
   * changes. */
  let following = null;
  function follow() {
    following ||= watch(rs, DRAWN_FROM, () => update());
    update();
  }

  return {
    start,
    follow,
    adoptSeatLink: wayBack.adoptSeatLink,
    seatRefused: wayBack.seatRefused,
    showSeatKeep: seatLink.showSeatKeep,
    chat: chat.chat,
    turn: notify.turn,
    loadChat: chat.load,
    shownMessages: chat.shownMessages,
  };
}
