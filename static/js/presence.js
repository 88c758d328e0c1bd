// "At the table" (`#people-list`): each seat's presence ("here", "gone 3 min"), the clock of the
// seat to act, letting a bot play for an absent player, "I'm back", the host's "Remove", and
// muting a player; the host's clock choice; the one-second tick that keeps times current.

import { heldSeats } from "./device.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { CLOCKS, countdownWords, mayRemove, mayStandIn, openRequests, presenceWords, toggleMuted } from "./people-kit.js";
import { $, say } from "./room-page.js";
import { seatAvatar } from "./seat-style.js";
import { seats as storedSeats } from "./storage.js";

/** The room's move clock as the host's choice says it: "1 minute a move", "45 s a move". */
export function clockWords(seconds) {
  const named = CLOCKS.find(([value]) => value === seconds);
  if (named) return named[1];
  const span = seconds < 120 ? t("{num} s", { num: seconds }) : t("{num} min", { num: Math.round(seconds / 60) });
  return t("{span} a move", { span });
}

/** ctx: { roomId, prefs (people-prefs.js), room(), mySeat(), post(path, body, method), refreshRoom(),
 *         update() (redraw the people parts), drawChat() } */
export function createPresence(ctx) {
  const { prefs } = ctx;

  async function seatAction(path, method = "POST") {
    try {
      await ctx.post(path, undefined, method);
      say($("people-error"), null);
      ctx.refreshRoom();
    } catch (error) {
      say($("people-error"), error);
    }
  }

  function seatRow(seat, room, state) {
    const me = ctx.mySeat();
    const now = Date.now();
    const presence = presenceWords(seat, now);
    const acting = room.status === "playing" && (state?.to_act || []).includes(seat.seat);
    const clock = acting && room.deadline ? h("span", { class: "countdown", "data-deadline": room.deadline }, countdownWords(Date.parse(room.deadline) - now)) : null;
    const isMuted = prefs.muted().includes(seat.seat);
    const buttons = [];
    if (mayStandIn(room, state, seat, me, now)) {
      buttons.push(h("button", { class: "button button-small", type: "button", onclick: () => seatAction(`seats/${seat.seat}/bot`) }, t("Let a bot play")));
    }
    if (seat.stand_in && seat.seat === me) {
      buttons.push(h("button", { class: "button button-small button-primary", type: "button", onclick: () => seatAction(`seats/${seat.seat}/bot`, "DELETE") }, t("I'm back: play myself")));
    }
    if (mayRemove(room, seat, me, now)) {
      buttons.push(h("button", { class: "button button-small", type: "button", onclick: () => seatAction(`seats/${seat.seat}/remove`) }, t("Remove")));
    }
    // Muting is for someone else's chat: not for a bot, nor for a player sharing this device.
    const here = heldSeats(storedSeats.get(ctx.roomId)).some((held) => held.seat === seat.seat);
    if (seat.seat !== me && !seat.bot && !here) {
      buttons.push(
        h(
          "button",
          {
            class: "link-button mute-button",
            type: "button",
            "aria-pressed": String(isMuted),
            onclick: () => {
              prefs.setMuted(toggleMuted(prefs.muted(), seat.seat));
              ctx.update();
              ctx.drawChat();
            },
          },
          isMuted ? t("Unmute") : t("Mute"),
        ),
      );
    }
    return h(
      "li",
      { class: `people-row${acting ? " is-acting" : ""}${seat.seat === me ? " is-you" : ""}`, "data-seat": seat.seat },
      seatAvatar(seat.seat, seat.name),
      h(
        "span",
        { class: "people-name", title: seat.name },
        seat.name,
        seat.seat === me ? h("span", { class: "tag" }, t("you")) : null,
        seat.seat === room.host_seat ? h("span", { class: "tag" }, t("host")) : null,
      ),
      h("span", { class: `presence is-${presence.kind}` }, presence.words),
      clock,
      buttons.length ? h("span", { class: "people-buttons" }, buttons) : null,
    );
  }

  /** The seat rows, redrawn only when something shown changed (a redraw would take the focus off
   * a button). */
  function drawList(room, state, now) {
    const list = $("people-list");
    const me = ctx.mySeat();
    const key = JSON.stringify([
      room.seats.map((s) => [s.name, presenceWords(s, now).words, mayStandIn(room, state, s, me, now), mayRemove(room, s, me, now)]),
      room.host_seat,
      room.status,
      room.deadline,
      state?.to_act,
      me,
      prefs.muted(),
    ]);
    if (list.dataset.key !== key) {
      list.dataset.key = key;
      fill(list, room.seats.map((s) => seatRow(s, room, state)));
    }
  }

  function drawClock(room) {
    $("people-clock").textContent = room.clock ? t("Clock: {clock}", { clock: clockWords(room.clock) }) : "";
  }

  function updateClockChoice(room) {
    const field = $("clock-field");
    const me = ctx.mySeat();
    const isHost = me !== null && me === room.host_seat;
    field.hidden = !isHost || room.status !== "waiting";
    if (field.hidden) return;
    const select = $("clock-choice");
    if (!select.options.length) {
      fill(select, CLOCKS.map(([value, words]) => h("option", { value: value === null ? "" : String(value) }, words)));
    }
    const value = room.clock === null || room.clock === undefined ? "" : String(room.clock);
    if (![...select.options].some((o) => o.value === value)) {
      select.append(h("option", { value }, clockWords(room.clock)));
    }
    if (document.activeElement !== select) select.value = value;
  }

  async function clockChosen(event) {
    const value = event.currentTarget.value;
    try {
      await ctx.post("clock", { seconds: value === "" ? null : Number(value) });
      ctx.refreshRoom();
    } catch (error) {
      say($("people-error"), error);
    }
  }

  // Seat requests and errors live with whichever seat list is on
  // screen: the waiting room's before the start, the table's people panel after it.
  function placeRequests(room) {
    const list = room.status === "waiting" ? $("seat-list") : $("people-list");
    const nodes = ["seat-requests", "people-error", "pick-again"].map($);
    if (nodes[0].previousElementSibling !== list) list.after(...nodes);
  }

  let ticks = 0;
  let lastTick = Date.now();
  function tick() {
    const now = Date.now();
    // "gone 3 min" and what the others may do change with time alone.
    ticks += 1;
    if (ticks % 5 === 0) ctx.update();
    // Who may answer a request changes once its seat's player has been gone long enough (the
    // room's "gone" time, or a day in a room of two): the server is asked again at that moment.
    const room = ctx.room();
    if (room && ctx.mySeat() !== null) {
      const crossings = openRequests(room, now).flatMap((request) => {
        const seat = room.seats.find((s) => s.seat === request.seat);
        if (!seat?.away_since || seat.connected) return [];
        const since = Date.parse(seat.away_since);
        return [since + (room.gone_after ?? 120) * 1000, since + 86_400_000];
      });
      if (crossings.some((at) => at + 500 > lastTick && at + 500 <= now)) ctx.refreshRoom();
    }
    lastTick = now;
    for (const node of document.querySelectorAll(".countdown[data-deadline]")) {
      const left = Date.parse(node.dataset.deadline) - now;
      node.textContent = left > 0 ? countdownWords(left) : t("time's up");
      node.classList.toggle("is-late", left <= 0);
      node.classList.toggle("is-short", left > 0 && left < 15000);
    }
  }

  function start() {
    $("clock-choice").addEventListener("change", clockChosen);
    setInterval(tick, 1000);
  }

  return { start, drawList, drawClock, updateClockChoice, placeRequests };
}
