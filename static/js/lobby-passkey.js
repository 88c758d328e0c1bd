// The home page's passkey box: "Save my games to a passkey" (or add them to the one this browser
// used) and "Sign in with a passkey" with "Keep my other device signed in". passkeys.js does the work.

import { fill, h } from "./dom.js";
import { t, tn } from "./i18n.js";
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

const LOST = { moved: t("moved to another device"), left: t("you left the game"), removed: t("the host removed you") };

const TITLE = t("Your games on every device");

export function startPasskeyBox(box, { changed }) {
  if (!passkeysSupported()) return;
  const away = localhostAddress();
  if (away) return offerLocalhost(box, away);
  const status = h("p", { class: "passkey-status", role: "status" });
  const keep = h("input", { type: "checkbox", id: "passkey-keep" });
  const save = h("button", { class: "button button-small", type: "button", id: "passkey-save" });
  const login = h("button", { class: "button button-small button-primary", type: "button", id: "passkey-login" }, t("Sign in with a passkey"));

  function say(text, kind = "") {
    status.textContent = text;
    status.dataset.kind = kind;
  }

  function draw() {
    const held = heldHere().length;
    save.hidden = held === 0;
    save.textContent = knowsPasskey() ? t("Add these games to my passkey") : t("Save my games to a passkey");
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
        say(tn("Your passkey holds {num} game now.", "Your passkey holds {num} games now.", answer.seats.length), "ok");
      } else {
        const made = await createPasskey(held);
        say(
          tn("Saved: sign in with this passkey on any device to play your {num} game there.", "Saved: sign in with this passkey on any device to play your {num} games there.", made.seats.length),
          "ok",
        );
      }
    }),
  );
  login.addEventListener("click", () =>
    busy(async () => {
      const answer = await signIn({ keep: keep.checked });
      const lost = answer.lost.map((l) => LOST[l.status]).filter(Boolean);
      const said = [tn("Signed in: {num} game is on this device now.", "Signed in: {num} games are on this device now.", answer.seats.length)];
      if (!keep.checked && answer.seats.length) said.push(t("Your other device no longer holds them."));
      // Translators: {reasons} lists why, as "moved to another device, the host removed you".
      if (lost.length) said.push(tn("{num} seat could not come back ({reasons}).", "{num} seats could not come back ({reasons}).", lost.length, { reasons: lost.join(", ") }));
      say(said.join(" "), "ok");
    }),
  );

  fill(
    box,
    h("h3", { class: "passkey-title" }, TITLE),
    h(
      "p",
      { class: "muted small" },
      t("Save your seats to a passkey (your phone's or computer's screen lock). On another device, sign in with it and your games come back. No password, no account."),
    ),
    h("div", { class: "passkey-actions" }, save, login),
    h("label", { class: "field field-check passkey-keep", for: "passkey-keep" }, keep, h("span", {}, t("Keep my other device signed in"))),
    status,
  );
  box.hidden = false;
  draw();
  return { draw };
}

/** At 127.0.0.1 (a loopback IP address) the box offers this page at localhost, where passkeys work. */
function offerLocalhost(box, away) {
  const { node } = localhostOffer(away, {
    lead: t("Passkeys don't work at this address ({here}). They do at {there}: the same Motable, on this computer.", away),
    link: t("Open {there}", away),
    note: t("Your browser keeps each address's games apart, so the games listed here stay at {here}. To take one along, open it and choose “Your seat”.", away),
  });
  fill(box, h("h3", { class: "passkey-title" }, TITLE), node);
  box.hidden = false;
  return { draw() {} };
}
