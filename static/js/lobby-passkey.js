// The home page's passkey box: "Save my games to a passkey" (or add them to the one this browser
// used) and "Sign in with a passkey" with "Keep my other device signed in". passkeys.js does the work.

import { fill, h } from "./dom.js";
import {
  createPasskey,
  heldHere,
  knowsPasskey,
  localhostAddress,
  localhostOffer,
  passkeyProblem,
  passkeysSupported,
  signIn,
} from "./passkeys.js";
import { counted } from "./words.js";

const LOST = { moved: "moved to another device", left: "you left the game", removed: "the host removed you" };

const TITLE = "Your games on every device";

export function startPasskeyBox(box, { changed }) {
  if (!passkeysSupported()) return;
  const away = localhostAddress();
  if (away) return offerLocalhost(box, away);
  const status = h("p", { class: "passkey-status", role: "status" });
  const keep = h("input", { type: "checkbox", id: "passkey-keep" });
  const save = h("button", { class: "button button-small", type: "button", id: "passkey-save" });
  const login = h("button", { class: "button button-small button-primary", type: "button", id: "passkey-login" }, "Sign in with a passkey");

  function say(text, kind = "") {
    status.textContent = text;
    status.dataset.kind = kind;
  }

  function draw() {
    const held = heldHere().length;
    save.hidden = held === 0;
    save.textContent = knowsPasskey() ? "Add these games to my passkey" : "Save my games to a passkey";
  }

  async function busy(work) {
    save.disabled = login.disabled = true;
    try {
      await work();
    } catch (error) {
      say(passkeyProblem(error), "error");
    } finally {
      save.disabled = login.disabled = false;
      draw();
      changed();
    }
  }

  save.addEventListener("click", () =>
    busy(async () => {
      const held = heldHere();
      if (knowsPasskey()) {
        // Adding games to the passkey this browser has: sign in with it, this device keeps every seat.
        const answer = await signIn({ keep: true, attach: held });
        say(`Your passkey holds ${counted(answer.seats.length, "game")} now.`, "ok");
      } else {
        const made = await createPasskey(held);
        say(`Saved: sign in with this passkey on any device to play your ${counted(made.seats.length, "game")} there.`, "ok");
      }
    }),
  );
  login.addEventListener("click", () =>
    busy(async () => {
      const answer = await signIn({ keep: keep.checked });
      const lost = answer.lost.map((l) => LOST[l.status]).filter(Boolean);
      say(
        `Signed in: ${counted(answer.seats.length, "game")} ${answer.seats.length === 1 ? "is" : "are"} on this device now.` +
          (keep.checked || !answer.seats.length ? "" : " Your other device no longer holds them.") +
          (lost.length ? ` ${counted(lost.length, "seat")} could not come back (${lost.join(", ")}).` : ""),
        "ok",
      );
    }),
  );

  fill(
    box,
    h("h3", { class: "passkey-title" }, TITLE),
    h(
      "p",
      { class: "muted small" },
      "Save your seats to a passkey (your phone's or computer's screen lock). On another device, sign in with it and your games come back. No password, no account.",
    ),
    h("div", { class: "passkey-actions" }, save, login),
    h("label", { class: "field field-check passkey-keep", for: "passkey-keep" }, keep, h("span", {}, "Keep my other device signed in")),
    status,
  );
  box.hidden = false;
  draw();
  return { draw };
}

/** At 127.0.0.1 (a loopback IP address) the box offers this page at localhost, where passkeys work. */
function offerLocalhost(box, away) {
  const { node } = localhostOffer(away, {
    lead: `Passkeys don't work at this address (${away.here}). They do at ${away.there}: the same Motable, on this computer.`,
    link: `Open ${away.there}`,
    note: `Your browser keeps each address's games apart, so the games listed here stay at ${away.here}. To take one along, open it and choose “Your seat”.`,
  });
  fill(box, h("h3", { class: "passkey-title" }, TITLE), node);
  box.hidden = false;
  return { draw() {} };
}
