// Before the deal: taking a seat or watching (the join panel), the waiting room's seat list, and
// the host's tools (bots, who starts, start).

import { api, ApiError } from "./api.js";
import { fill, h } from "./dom.js";
import { heldSeats } from "./device.js";
import { $, showError } from "./room-page.js";
import { descriptorOf, freeSeats } from "./room-state.js";
import { seatAvatar } from "./seat-style.js";
import { playerName, seats } from "./storage.js";
import { t, tn } from "./i18n.js";
import { listWords } from "./words.js";

/**
 * ctx: { rs, roomId, gameTitle(), seatName(seat), renderLocalPlayers(),
 *        commands: { joined() (a seat was taken here), render(), setRoom(room), refreshRoom() } }
 */
export function createWaiting(ctx) {
  const { rs, roomId, commands } = ctx;

  function joinIntro() {
    const { room, joinReason } = rs.get();
    const names = room.seats.map((s) => s.name);
    return (
      joinReason ||
      tn("{names} is waiting to play {game}. Take a seat, or just watch.", "{names} are waiting to play {game}. Take a seat, or just watch.", names.length, {
        names: listWords(names),
        game: ctx.gameTitle(),
      })
    );
  }

  function showJoin() {
    $("join-panel").hidden = false;
    rs.set({ joining: true });
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
      showError("join-error", new Error(t("Type a name so the others know who you are.")));
      $("join-name").focus();
      return;
    }
    $("join-button").disabled = true;
    try {
      const body = await api("POST", `/api/rooms/${roomId}/join`, { body: { name } });
      playerName.set(name);
      // The server may have cleaned the name or made it unique ("Bo (2)").
      seats.save(roomId, { seat: body.seat, token: body.token, name: body.name || name, game: rs.get().room.game });
      rs.set({ seat: seats.get(roomId), joinReason: null, joining: false });
      showError("join-error", null);
      $("join-panel").hidden = true;
      commands.joined();
    } catch (error) {
      showError("join-error", error);
      if (error instanceof ApiError && error.code === "already_started") {
        $("join-intro").textContent = t("The game started without you, but you can still watch.");
      }
    } finally {
      $("join-button").disabled = false;
    }
  }

  function watch() {
    $("join-panel").hidden = true;
    rs.set({ joining: false });
    commands.render();
  }

  /** Keep the open join panel's words current, or close it once the game began: "open" while it
   * stays open, "closed" when the game's start closed it, "none" when it was not open. */
  function updateJoin(room) {
    if ($("join-panel").hidden) return "none";
    if (room.status === "waiting") {
      $("join-intro").textContent = joinIntro();
      return "open";
    }
    // The game began while this visitor was still deciding: watch it.
    $("join-panel").hidden = true;
    rs.set({ joining: false });
    return "closed";
  }

  function renderWaiting() {
    const { room, seat } = rs.get();
    const list = $("seat-list");
    const game = descriptorOf(rs.get());
    const max = game?.max_players ?? room.seats.length;
    fill(list,
      ...room.seats.map((s) =>
        h(
          "li",
          { class: `seat-item${s.seat === seat?.seat ? " is-you" : ""}` },
          seatAvatar(s.seat, s.name),
          h("span", { class: "seat-name", title: s.name }, s.name, s.seat === seat?.seat ? h("span", { class: "tag" }, t("you")) : null),
          s.seat === room.host_seat ? h("span", { class: "tag" }, t("host")) : null,
          h(
            "span",
            { class: `presence ${s.bot ? "is-bot" : s.connected ? "is-on" : "is-off"}` },
            s.bot ? t("bot") : s.connected ? t("here") : t("away"),
          ),
        ),
      ),
      max > room.seats.length
        ? h(
            "li",
            { class: "seat-item is-empty" },
            h("span", { class: "avatar", "aria-hidden": "true" }, "+"),
            h("span", { class: "seat-name" }, tn("{num} free seat", "{num} free seats", max - room.seats.length)),
          )
        : null,
    );
    const isHost = seat && seat.seat === room.host_seat;
    const min = game?.min_players ?? 2;
    const enough = room.seats.length >= min;
    $("host-tools").hidden = !isHost;
    $("start-button").disabled = !enough;
    $("bot-button").disabled = room.seats.length >= max;
    let note;
    if (isHost) {
      note = enough
        ? t("Everyone here? Start whenever you like.")
        : tn("Waiting for at least {num} player. Share the link, or add a bot.", "Waiting for at least {num} players. Share the link, or add a bot.", min);
    } else if (seat) {
      note = t("You're in. Waiting for {host} to start the game…", { host: ctx.seatName(room.host_seat) });
    } else {
      note = t("You are watching. The game begins when the host starts it.");
    }
    renderStarter(game, isHost);
    if (isHost) ctx.renderLocalPlayers();
    $("waiting-note").textContent = note;
    $("waiting-note").classList.toggle("is-pulsing", !isHost);
    if (!seat && freeSeats(rs.get()) > 0 && !$("waiting-note").querySelector("button")) {
      $("waiting-note").append(" ", h("button", { class: "link-button", type: "button", onclick: () => showJoin() }, t("Take a seat")));
    }
  }

  // Who starts is asked when the game starts, from the players actually seated (the game's
  // descriptor names the question); "Random" lets the deal decide.
  function renderStarter(game, isHost) {
    const field = $("starter-field");
    const starter = game?.starter;
    field.hidden = !isHost || !starter;
    if (field.hidden) return;
    $("starter-question").textContent = t(starter.question);
    const select = $("starter-choice");
    const { room, seat } = rs.get();
    const seatsHere = room.seats;
    const key = JSON.stringify(seatsHere.map((s) => [s.seat, s.name]));
    if (select.dataset.key === key) return;
    select.dataset.key = key;
    // Keep the host's pick while people join; start from the room's option if it names a seated player.
    const kept = select.value || String(room.options?.[starter.option] ?? "random");
    fill(
      select,
      h("option", { value: "random" }, t("Random")),
      seatsHere.map((s) => h("option", { value: String(s.seat) }, s.seat === seat?.seat ? t("{name} (you)", { name: s.name }) : s.name)),
    );
    select.value = [...select.options].some((o) => o.value === kept) ? kept : "random";
  }

  function startBody() {
    // Several players on this page: the game's one-device option values apply (Mokuru's witness off).
    const device = heldSeats(seats.get(roomId)).length > 1 ? { one_device: true } : {};
    if ($("starter-field").hidden) return device;
    const choice = $("starter-choice").value;
    return { ...device, starter: choice === "random" ? "random" : Number(choice) };
  }

  async function hostAction(path, button, body = {}) {
    button.disabled = true;
    try {
      const answer = await api("POST", `/api/rooms/${roomId}/${path}`, { body, token: rs.get().seat.token });
      showError("host-error", null);
      if (answer && answer.room_id) commands.setRoom(answer);
      else commands.refreshRoom();
    } catch (error) {
      showError("host-error", error);
    } finally {
      button.disabled = false;
    }
  }

  function start() {
    $("join-form").addEventListener("submit", join);
    $("watch-button").addEventListener("click", watch);
    $("bot-button").addEventListener("click", (e) => hostAction("bots", e.currentTarget));
    $("start-button").addEventListener("click", (e) => hostAction("start", e.currentTarget, startBody()));
  }

  return { start, showJoin, updateJoin, renderWaiting };
}
