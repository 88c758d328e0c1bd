// The host's "Use a screen as the table": the TV or laptop in the middle of the table opens the
// room's screen address and shows a four-digit code; the host types it here and that screen becomes
// the table (the room body's `table_screen`): seated phones show their hands, and the screen may
// start the match and open the rematch. "Stop using it" takes the mark away. In the waiting room it
// sits with the host's tools, in play beside the table.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { $, showError } from "./room-page.js";

/** ctx: { rs, roomId, commands: { setRoom(room) } } */
export function createScreenMark(ctx) {
  const { rs, roomId } = ctx;
  const box = $("screen-mark");
  const form = $("screen-mark-form");
  const input = $("screen-mark-code");

  async function send(method, body) {
    const { seat } = rs.get();
    try {
      const room = await api(method, `/api/rooms/${roomId}/table-screen`, { token: seat.token, body });
      showError("screen-mark-error", null);
      input.value = "";
      ctx.commands.setRoom(room);
    } catch (error) {
      showError("screen-mark-error", error);
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const code = input.value.replace(/\s+/g, "");
    if (!/^[0-9]{4}$/.test(code)) {
      showError("screen-mark-error", new Error(t("Type the four digits the screen shows.")));
      input.focus();
      return;
    }
    send("POST", { code });
  });
  $("screen-unmark").addEventListener("click", () => send("DELETE"));

  function update() {
    const { room, seat } = rs.get();
    const isHost = Boolean(room && seat && seat.seat === room.host_seat);
    box.hidden = !isHost;
    if (!isHost) return;
    // Where the host looks: with the start button while waiting, beside the table in play.
    const home = room.status === "waiting" ? $("host-tools") : document.querySelector("#game-panel .side");
    if (box.parentElement !== home) {
      if (room.status === "waiting") home.append(box);
      else home.querySelector(".invite-later").before(box);
    }
    const marked = Boolean(room.table_screen);
    form.hidden = marked;
    $("screen-mark-how").hidden = marked;
    $("screen-mark-done").hidden = !marked;
    $("screen-mark-summary").textContent = marked ? t("Table screen: on") : t("Use a screen as the table");
  }

  return { update };
}
