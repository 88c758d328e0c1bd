// The seat menu's "Alerts away from the table" block (docs/people.md "Email alerts", "Quiet hours"):
// "Email me when it's my turn" with an address field (shown only when the server sends email), and
// quiet hours in this browser's time zone. The server never gives the address back: the page shows
// only its state (waiting for confirmation, on, unsubscribed).

import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { $, say } from "./room-page.js";

const WORDS = {
  pending: t("Check your inbox: confirm from the email we just sent. Nothing else is sent before that."),
  confirmed: t("Emails are on: one when it's your turn and you're away, at most one an hour, never a card."),
  unsubscribed: t("You unsubscribed. Add an address again to get emails (it needs a new confirmation)."),
};

/** The browser's IANA time zone ("Europe/Paris"), or UTC when it cannot say. */
export function browserZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** ctx: { mySeat(), post(path, body, method), get(path) } */
export function createAlertPrefs(ctx) {
  let prefs = null;

  async function load() {
    if (ctx.mySeat() === null) return;
    try {
      prefs = await ctx.get("alerts");
      draw();
    } catch {
      prefs = null;
      draw();
    }
  }

  async function addEmail(event) {
    event.preventDefault();
    const input = $("alerts-email");
    const error = $("alerts-error");
    try {
      await ctx.post("email", { email: input.value.trim() });
      input.value = "";
      say(error, null);
      await load();
    } catch (failure) {
      say(error, failure);
    }
  }

  async function stopEmail() {
    try {
      await ctx.post("email", undefined, "DELETE");
      say($("alerts-error"), null);
      await load();
    } catch (failure) {
      say($("alerts-error"), failure);
    }
  }

  async function saveQuiet() {
    const on = $("quiet-toggle").checked;
    const quiet = on ? { from: $("quiet-from").value || "22:00", to: $("quiet-to").value || "08:00", tz: browserZone() } : null;
    try {
      prefs = await ctx.post("alerts", { quiet }, "PUT");
      say($("alerts-error"), null);
      draw();
    } catch (failure) {
      say($("alerts-error"), failure);
    }
  }

  function emailPart() {
    if (!prefs || prefs.email === null || prefs.email === undefined) return null;
    const state = prefs.email;
    const on = state === "pending" || state === "confirmed";
    return h(
      "div",
      { class: "alerts-email" },
      h(
        "form",
        { id: "alerts-email-form", class: "alerts-email-form", novalidate: true, onsubmit: addEmail },
        h("label", { for: "alerts-email", class: "alerts-label" }, t("Email me when it's my turn")),
        h(
          "div",
          { class: "alerts-row" },
          h("input", { id: "alerts-email", type: "email", autocomplete: "email", inputmode: "email", maxlength: "254", placeholder: on ? t("A new address") : "you@example.org", required: true }),
          h("button", { class: "button", type: "submit" }, on ? t("Change") : t("Send confirmation")),
        ),
      ),
      WORDS[state] ? h("p", { id: "alerts-email-state", class: `small alerts-state is-${state}`, role: "status" }, WORDS[state]) : null,
      on ? h("button", { class: "link-button small", type: "button", onclick: stopEmail }, t("Stop emails and forget my address")) : null,
    );
  }

  function quietPart() {
    const quiet = prefs?.quiet || null;
    const time = (id, value) => h("input", { id, type: "time", value, step: "60", onchange: () => $("quiet-toggle").checked && saveQuiet() });
    return h(
      "div",
      { class: "alerts-quiet" },
      h("label", { class: "check" }, h("input", { id: "quiet-toggle", type: "checkbox", checked: Boolean(quiet), onchange: saveQuiet }), " ", t("Quiet hours: send nothing")),
      h(
        "div",
        { class: "alerts-row alerts-times" },
        h("span", { class: "alerts-time" }, // Translators: "Quiet hours: send nothing from [22:00] to [08:00]", each word labels its time.
        h("label", { for: "quiet-from" }, t("from")), time("quiet-from", quiet?.from || "22:00")),
        h("span", { class: "alerts-time" }, h("label", { for: "quiet-to" }, t("to")), time("quiet-to", quiet?.to || "08:00")),
      ),
      h("p", { class: "muted small" }, t("Your time: {zone}.", { zone: quiet?.tz || browserZone() })),
    );
  }

  function draw() {
    const box = $("alerts-prefs");
    if (!box) return;
    if (ctx.mySeat() === null || !prefs) {
      box.hidden = true;
      return;
    }
    fill(box, h("h3", { class: "alerts-title" }, t("Alerts away from the table")), emailPart(), quietPart(), h("p", { id: "alerts-error", class: "form-error", role: "alert", hidden: true }));
    box.hidden = false;
  }

  function start() {
    $("seat-menu-button")?.addEventListener("click", load);
  }

  return { start, load };
}
