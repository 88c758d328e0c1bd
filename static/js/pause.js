// "Pause the game" (docs/people.md "Pause"): a button under "At the table" for a seated player, and a
// banner above the table while a pause is asked (Agree / Refuse for the players it waits for) or while
// the game is paused (Resume). The room body says it all (`paused`, `pause_request`); every answer
// is pushed to every socket, so the banner follows without polling.

import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { $, say } from "./room-page.js";

/** ctx: { room(), mySeat(), post(path, body), seatNameOf(seat), refreshRoom() } */
export function createPause(ctx) {
  let busy = false;

  async function send(path) {
    if (busy) return;
    busy = true;
    try {
      await ctx.post(path, {});
      say($("pause-error"), null);
    } catch (error) {
      say($("pause-error"), error);
    } finally {
      busy = false;
      ctx.refreshRoom();
    }
  }

  const button = (label, path, primary = false) =>
    h("button", { class: `button button-small${primary ? " button-primary" : ""}`, type: "button", onclick: () => send(path) }, label);

  function draw() {
    const room = ctx.room();
    const banner = $("pause-banner");
    const tools = $("pause-tools");
    if (!room || !banner || !tools) return;
    const me = ctx.mySeat();
    const seated = me !== null && room.seats?.some((s) => s.seat === me && !s.bot);
    const playing = room.status === "playing";
    const request = playing ? room.pause_request : null;
    const paused = playing && room.paused;
    tools.hidden = !(seated && playing && !paused && !request);
    if (paused) {
      banner.className = "pause-banner is-paused";
      delete banner.dataset.asks;
      fill(
        banner,
        h("p", { class: "pause-text" }, h("strong", {}, t("The game is paused.")), " ", t("No clock runs and no alerts are sent until someone resumes. Moves still count.")),
        seated ? h("div", { class: "pause-buttons" }, button(t("Resume the game"), "resume", true)) : null,
      );
      banner.hidden = false;
      return;
    }
    if (request) {
      const waiting = request.waiting_for || [];
      const names = waiting.map(ctx.seatNameOf).join(", ");
      const asked = request.by === me ? t("You asked to pause the game.") : t("{name} asks to pause the game.", { name: ctx.seatNameOf(request.by) });
      const mine = waiting.includes(me);
      banner.className = "pause-banner is-asked";
      if (mine) banner.dataset.asks = `pause-${request.by}-${request.at ?? ""}`;
      else delete banner.dataset.asks;
      fill(
        banner,
        h("p", { class: "pause-text" }, h("strong", {}, asked), " ", mine ? t("Do you agree? Clocks and alerts stop until someone resumes.") : t("Waiting for {names}.", { names })),
        mine ? h("div", { class: "pause-buttons" }, button(t("Agree to pause"), "pause/approve", true), button(t("Refuse"), "pause/refuse")) : null,
      );
      banner.hidden = false;
      return;
    }
    banner.hidden = true;
    delete banner.dataset.asks;
    fill(banner);
  }

  function start() {
    $("pause-button")?.addEventListener("click", () => send("pause"));
  }

  return { start, draw };
}
