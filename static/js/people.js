// The people parts of the room page, put together: your seat on another device (`seat-link.js`),
// the way back to a seat (`way-back.js`), seat requests seen from the table (`seat-requests.js`),
// presence and clocks "At the table" (`presence.js`), the table chat (`people-chat.js`) and
// your-turn notifications (`people-notify.js`); what this browser keeps about them is
// `people-prefs.js`'s. The room page calls `createPeople` once and tells it of every room body,
// state and chat message.

import { api } from "./api.js";
import { createAlertPrefs } from "./mail.js";
import { createPause } from "./pause.js";
import { createChat } from "./people-chat.js";
import { createNotify } from "./people-notify.js";
import { roomPrefs } from "./people-prefs.js";
import { createPresence } from "./presence.js";
import { createSeatLink } from "./seat-link.js";
import { createSeatRequests } from "./seat-requests.js";
import { store } from "./storage.js";
import { createWayBack } from "./way-back.js";

/**
 * ctx: { roomId, seat() (this browser's seat entry or null), room(), state(), title(),
 *        seatTaken(entry) (a seat came to this browser), forgotten() (this browser let go),
 *        announce(text), refreshRoom(), redraw(), chatShown() }
 */
export function createPeople(ctx) {
  const { roomId } = ctx;
  const prefs = roomPrefs(store, roomId);
  const mySeat = () => ctx.seat()?.seat ?? null;
  const token = () => ctx.seat()?.token ?? null;
  const post = (path, body, method = "POST") => api(method, `/api/rooms/${roomId}/${path}`, { body, token: token() });
  /** A seat's name as the room body has it ("Seat 3" if it is not listed, "" for no seat). */
  const seatNameOf = (seat) => {
    if (seat === null || seat === undefined) return "";
    return ctx.room()?.seats?.find((s) => s.seat === seat)?.name || `Seat ${seat + 1}`;
  };

  const chat = createChat({ roomId, prefs, mySeat, token, post, refreshRoom: ctx.refreshRoom, chatShown: ctx.chatShown });
  const notify = createNotify({ roomId, prefs, title: ctx.title });
  const wayBack = createWayBack({
    roomId,
    prefs,
    room: ctx.room,
    mySeat,
    seatNameOf,
    announce: ctx.announce,
    seatTaken: ctx.seatTaken,
    update: () => update(),
    redraw: ctx.redraw,
  });
  const requests = createSeatRequests({
    roomId,
    seat: ctx.seat,
    mySeat,
    token,
    seatNameOf,
    askingId: wayBack.askingId,
    handingOver: wayBack.handingOver,
    refreshRoom: ctx.refreshRoom,
  });
  const presence = createPresence({ roomId, prefs, room: ctx.room, mySeat, post, refreshRoom: ctx.refreshRoom, update: () => update(), drawChat: chat.draw });
  const seatLink = createSeatLink({
    roomId,
    seat: ctx.seat,
    room: ctx.room,
    post,
    notify,
    justWatching: prefs.setJustWatching,
    forgotten: ctx.forgotten,
  });

  // Pausing the game, and the seat menu's alerts away from the table (email, quiet hours).
  const pause = createPause({ room: ctx.room, mySeat, post, seatNameOf, refreshRoom: ctx.refreshRoom });
  const alertPrefs = createAlertPrefs({ mySeat, post, get: (path) => api("GET", `/api/rooms/${roomId}/${path}`, { token: token() }) });

  /** A new room body or state (or time passed): redraw what changed. */
  function update() {
    const room = ctx.room();
    if (!room) return;
    const now = Date.now();
    presence.drawList(room, ctx.state(), now);
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

  return {
    start,
    adoptSeatLink: wayBack.adoptSeatLink,
    seatRefused: wayBack.seatRefused,
    showSeatKeep: seatLink.showSeatKeep,
    update,
    chat: chat.chat,
    turn: notify.turn,
    loadChat: chat.load,
    shownMessages: chat.shownMessages,
  };
}
