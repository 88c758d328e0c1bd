// The seat menu's "Save this game to a passkey": the seat this page holds joins the player's passkey
// (a new one, or the one this browser used before), so signing in with it on any device brings the
// game back (passkeys.js, docs/people.md "Passkeys").

import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { createPasskey, knowsPasskey, localhostAddress, localhostOffer, passkeyProblem, passkeysSupported, signIn } from "./passkeys.js";
import { seats } from "./storage.js";

export function startRoomPasskey(roomId, box) {
  if (!passkeysSupported() || !box) return;
  if (localhostAddress()) return offerLocalhost(roomId, box);
  const status = h("p", { class: "passkey-status small", role: "status" });
  const button = h("button", { class: "button button-small", type: "button", id: "room-passkey-save" });

  function draw() {
    const entry = seats.get(roomId);
    box.hidden = !entry?.token;
    button.textContent = knowsPasskey() ? t("Add this game to my passkey") : t("Save this game to a passkey");
  }

  button.addEventListener("click", async () => {
    const entry = seats.get(roomId);
    if (!entry?.token) return;
    const held = [{ room_id: roomId, token: entry.token }];
    button.disabled = true;
    try {
      if (knowsPasskey()) await signIn({ keep: true, attach: held });
      else await createPasskey(held);
      status.textContent = t("Saved: sign in with your passkey on any device's home page to play this game there.");
      status.dataset.kind = "ok";
    } catch (error) {
      status.textContent = passkeyProblem(error);
      status.dataset.kind = "error";
    } finally {
      button.disabled = false;
      draw();
    }
  });

  fill(box, h("p", { class: "muted small" }, t("Or keep it with a passkey (your screen lock): no link to carry around.")), button, status);
  draw();
  document.getElementById("seat-menu-button")?.addEventListener("click", draw);
}

/**
 * At 127.0.0.1 (a loopback IP address) the seat menu offers this game at localhost, where passkeys
 * work, with the seat in the link (a seat link, as the one above it: the page there takes the seat).
 */
function offerLocalhost(roomId, box) {
  const words = (away) => ({
    lead: t("Passkeys don't work at this address ({here}). They do at {there}: the same game, on this computer.", away),
    link: t("Open this game at {there}", away),
    note: t("Your seat comes along. Your other games stay at {here}: your browser keeps each address's games apart.", away),
  });
  const { node, link } = localhostOffer(localhostAddress(), words(localhostAddress()));

  function draw() {
    const entry = seats.get(roomId);
    box.hidden = !entry?.token;
    if (entry?.token) link.href = localhostAddress(window.location, `#seat=${entry.token}`).url;
  }

  fill(box, node);
  draw();
  document.getElementById("seat-menu-button")?.addEventListener("click", draw);
}
