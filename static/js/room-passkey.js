// The seat menu's "Save this game to a passkey": the seat this page holds joins the player's passkey
// (a new one, or the one this browser used before), so signing in with it on any device brings the
// game back (passkeys.js, docs/people.md "Passkeys").

import { fill, h } from "./dom.js";
import { createPasskey, knowsPasskey, passkeyProblem, passkeysSupported, signIn } from "./passkeys.js";
import { seats } from "./storage.js";

export function startRoomPasskey(roomId, box) {
  if (!passkeysSupported() || !box) return;
  const status = h("p", { class: "passkey-status small", role: "status" });
  const button = h("button", { class: "button button-small", type: "button", id: "room-passkey-save" });

  function draw() {
    const entry = seats.get(roomId);
    box.hidden = !entry?.token;
    button.textContent = knowsPasskey() ? "Add this game to my passkey" : "Save this game to a passkey";
  }

  button.addEventListener("click", async () => {
    const entry = seats.get(roomId);
    if (!entry?.token) return;
    const held = [{ room_id: roomId, token: entry.token }];
    button.disabled = true;
    try {
      if (knowsPasskey()) await signIn({ keep: true, attach: held });
      else await createPasskey(held);
      status.textContent = "Saved: sign in with your passkey on any device's home page to play this game there.";
      status.dataset.kind = "ok";
    } catch (error) {
      status.textContent = passkeyProblem(error);
      status.dataset.kind = "error";
    } finally {
      button.disabled = false;
      draw();
    }
  });

  fill(box, h("p", { class: "muted small" }, "Or keep it with a passkey (your screen lock): no link to carry around."), button, status);
  draw();
  document.getElementById("seat-menu-button")?.addEventListener("click", draw);
}
