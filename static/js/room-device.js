// Around one device: the page holds several seats (one connection each) and acts as whichever is
// due; between two players' turns it hides the table behind "Pass the device to Bo" unless the
// game's descriptor says `open_table: true`. Which seat is due is `device.js`'s (DOM-free).

import { api } from "./api.js";
import { RoomConnection } from "./connection.js";
import { dueSeat, heldSeats, mustPass, withLocal } from "./device.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { $, announce, showError, showMoveError } from "./room-page.js";
import { descriptorOf } from "./room-state.js";
import { seats } from "./storage.js";

/**
 * ctx: { rs (the room state), roomId, onState(state, previous) (the active seat's state arrived),
 *        unmountTable(), showConnection(status), commands: { render(), refreshRoom() } }
 */
export function createDevice(ctx) {
  const { rs, roomId, commands } = ctx;
  const device = () => rs.get().device;
  const setDevice = (patch) => rs.set({ device: { ...device(), ...patch } });

  function openLocal(local) {
    const conns = device().conns;
    if (conns.has(local.seat)) return;
    const connection = new RoomConnection(roomId, local.token);
    conns.set(local.seat, connection);
    connection.on("state", (state, previous) => onSeatState(local.seat, state, previous));
    connection.on("status", (status) => {
      if (status !== "rejected") return;
      // The server does not know this local seat any more: stop holding it.
      connection.close();
      conns.delete(local.seat);
      const entry = seats.get(roomId);
      if (entry) seats.save(roomId, { locals: (entry.locals || []).filter((l) => l.seat !== local.seat) });
    });
    connection.connect();
  }

  function closeLocals() {
    const conns = device().conns;
    for (const connection of conns.values()) connection.close();
    conns.clear();
  }

  /** The active seat's connection is one of the held seats' too. */
  function hold(seat, connection) {
    device().conns.set(seat, connection);
  }

  function onDevice() {
    return heldSeats(seats.get(roomId)).length > 1;
  }

  /** A state arrived on one held seat's connection: switch to the seat that is due, then show. */
  function onSeatState(seat, state, previous) {
    const held = heldSeats(seats.get(roomId));
    const active = rs.get().seat?.seat ?? null;
    const dev = device();
    if (held.length > 1 && active !== null) {
      const due = dueSeat(state.to_act, held, active);
      const dueState = dev.conns.get(due)?.state;
      if (due !== active && dueState?.to_act?.includes(due)) {
        switchSeat(held.find((s) => s.seat === due), dueState);
        return;
      }
      if (due !== active && mustPass(active, due, descriptorOf(rs.get()))) {
        // The next local player is due, but their own state has not arrived yet: hide this
        // player's table already.
        cover(held.find((s) => s.seat === due));
        return;
      }
      if (due === active && dev.covered && dev.passTo?.seat !== active) {
        // The device was on its way to another player, but the game came back to this one.
        cover(held.find((s) => s.seat === active));
      }
    }
    if (seat === active) ctx.onState(state, previous);
    else if (held.length > 1 && (state.legal_actions?.length || previous?.legal_actions?.length)) {
      // Another player here may act out of turn (or no longer may): the shared screen shows it.
      commands.render();
    }
  }

  /**
   * Around one device, the out-of-turn moves of the held seats other than the one shown: each
   * seat's own legal_actions while the game is not waiting for it (Mokuru's Steal a Trick,
   * Immunity), with `act(action)` sending it as that seat. Empty off a device.
   */
  function localOffers() {
    const held = heldSeats(seats.get(roomId));
    const active = rs.get().seat?.seat ?? null;
    if (held.length < 2) return [];
    const offers = [];
    for (const local of held) {
      const connection = device().conns.get(local.seat);
      const state = connection?.state;
      if (local.seat === active || !state?.legal_actions?.length || state.to_act?.includes(local.seat)) continue;
      const act = async (action) => {
        showMoveError(null);
        try {
          await connection.act(action);
        } catch (error) {
          showMoveError(error?.message || t("That move could not be made."));
          connection.resync();
        }
      };
      offers.push({ seat: local.seat, name: local.name, state, act });
    }
    return offers;
  }

  function switchSeat(next, state) {
    const from = rs.get().seat.seat;
    rs.set({
      seat: { ...seats.get(roomId), seat: next.seat, token: next.token, name: next.name },
      connection: device().conns.get(next.seat),
      myTurn: false,
    });
    if (mustPass(from, next.seat, descriptorOf(rs.get()))) cover(next);
    const dev = device();
    if (dev.covered && dev.ready && dev.passTo?.seat === next.seat) {
      setDevice({ ready: false, covered: false });
      $("pass-screen").dataset.seat = "";
    }
    ctx.onState(state, null);
    ctx.showConnection(rs.get().connection.status);
  }

  /** Take the table out of the page before anyone else can look at it, until `next` taps. */
  function cover(next) {
    const dev = device();
    if (dev.covered && dev.passTo?.seat === next.seat) return;
    setDevice({ covered: true, passTo: next, ready: false });
    ctx.unmountTable();
    $("table").replaceChildren();
    commands.render();
  }

  /** The pass-the-device screen: shown instead of the table until the next local player taps. */
  function renderPassScreen() {
    let screen = $("pass-screen");
    if (!screen) {
      screen = h("section", { id: "pass-screen", class: "panel pass-screen", hidden: true, "aria-live": "assertive" });
      $("table").before(screen);
    }
    const next = device().passTo;
    const covered = device().covered && Boolean(next);
    screen.hidden = !covered;
    $("table").hidden = covered;
    if (!covered) return false;
    const name = next.name;
    if (screen.dataset.seat !== String(next.seat)) {
      screen.dataset.seat = String(next.seat);
      fill(
        screen,
        h("h2", { tabindex: "-1" }, t("Pass the device to {name}", { name })),
        h("p", {}, t("It is {name}'s turn. Everyone else's cards are hidden; {name}, tap when only you can see the screen.", { name })),
        h("button", { class: "button button-primary pass-ready", type: "button", onclick: reveal }, t("I'm {name}: show my table", { name })),
      );
      screen.querySelector("h2").focus();
      announce(t("Pass the device to {name}.", { name }));
    }
    return true;
  }

  function reveal() {
    // Not before the next player's own table is here (their state arrives on their connection):
    // until then the tap is remembered, and switchSeat reveals.
    if (rs.get().seat?.seat !== device().passTo?.seat) {
      setDevice({ ready: true });
      return;
    }
    setDevice({ ready: false, covered: false });
    $("pass-screen").dataset.seat = "";
    commands.render();
  }

  /** The host's "players on this device" form, in the waiting room. */
  function renderLocalPlayers() {
    let box = $("device-players");
    if (!box) {
      const input = h("input", { id: "device-name", maxlength: "24", placeholder: t("e.g. Cy"), autocomplete: "off", "aria-label": t("Name of a player on this device") });
      box = h(
        "form",
        { id: "device-players", class: "device-players", onsubmit: addLocalPlayer },
        h("h3", {}, t("Players on this device")),
        h("p", { class: "muted small" }, t("Playing around one phone or tablet? Add each player here; the page hands the device to whoever is due.")),
        h("ul", { id: "device-list", class: "device-list" }),
        h("div", { class: "device-add" }, h("label", { class: "field" }, h("span", {}, t("Name")), input), h("button", { id: "device-add", class: "button", type: "submit" }, t("Add on this device"))),
        h("p", { id: "device-error", class: "form-error", role: "alert", hidden: true }),
      );
      $("host-tools").append(box);
    }
    const held = heldSeats(seats.get(roomId));
    fill($("device-list"), held.map((s) => h("li", {}, s.seat === held[0].seat ? t("{name} (you)", { name: s.name }) : s.name)));
  }

  async function addLocalPlayer(event) {
    event.preventDefault();
    const input = $("device-name");
    const name = input.value.trim();
    if (!name) {
      showError("device-error", new Error(t("Type the player's name.")));
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
      commands.refreshRoom();
    } catch (error) {
      showError("device-error", error);
    } finally {
      $("device-add").disabled = false;
    }
  }

  return { openLocal, closeLocals, hold, onDevice, onSeatState, localOffers, renderPassScreen, renderLocalPlayers };
}
