// Alerts on this device when the page is closed (Web Push): the "Tell me when it's my turn" switch in
// the seat menu, the offer made once when the player leaves the tab during a game, and the app badge
// (how many of this browser's games wait for it). The server decides when an alert goes out
// (docs/people.md "Alerts"); the service worker (static/sw.js) shows it.
//
// The DOM-free parts (exported) are tested in tests/js/push.test.mjs.

import { t } from "./i18n.js";

export const PUSH_KEY = "motable.push"; // { roomId: endpoint } of the rooms this browser asked alerts for
export const OFFERED_KEY = "motable.push-offered";
export const WAITING_KEY = "motable.waiting"; // { roomId: true } of the rooms waiting for this browser

function readJson(storage, key) {
  try {
    const value = JSON.parse(storage.getItem(key));
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

/** Why alerts could not be turned on or off, in words with what to do: never the browser's own
 *  message ("Registration failed - permission denied"). DOM-free. */
export function alertTrouble(error, on = true) {
  const said = `${error?.name || ""} ${error?.message || error || ""}`.toLowerCase();
  if (!on) return t("Alerts could not be turned off just now. Try again in a moment.");
  if (said.includes("notallowed") || said.includes("permission") || said.includes("denied")) {
    return BLOCKED();
  }
  if (said.includes("abort") || said.includes("push service") || said.includes("network")) {
    return t("Your browser's alert service could not be reached. Try again in a moment; email alerts work meanwhile.");
  }
  return t("Alerts could not be turned on here. Try again, or use email alerts instead.");
}

const BLOCKED = () =>
  t("Your browser is set to refuse alerts from this site. To allow them, open the site's settings (the icon next to the address) and allow notifications, then tick the box again.");

/** The server's base64url public key as the bytes `applicationServerKey` takes. */
export function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** What the browser can do here: "ok", or why alerts cannot be offered. */
export function support(env) {
  if (!env.serviceWorker || !env.pushManager || !env.notification) return "unsupported";
  if (!env.secure) return "insecure";
  if (env.permission === "denied") return "blocked";
  return "ok";
}

/** Whether to offer alerts as the tab is left: once per browser, a player of a game in play, not
 * subscribed already, where the browser can. */
export function shouldOffer({ hidden, playing, seated, subscribed, offered, supported }) {
  return hidden && playing && seated && !subscribed && !offered && supported === "ok";
}

/** The waiting rooms after this room's news, kept only for rooms this browser still holds a seat in. */
export function nextWaiting(waiting, roomId, waits, heldRooms) {
  const next = {};
  for (const id of Object.keys(waiting)) if (heldRooms.includes(id) && waiting[id] === true) next[id] = true;
  if (waits && heldRooms.includes(roomId)) next[roomId] = true;
  else delete next[roomId];
  return next;
}

export function badgeCount(waiting) {
  return Object.values(waiting).filter((v) => v === true).length;
}

/** The pieces of the page push.js needs: ctx = { roomId, seat(), api, store, heldRooms(), el(id) } */
export function createPush(ctx) {
  const { roomId, store, el } = ctx;
  const nav = globalThis.navigator;
  let playing = false;
  let busy = false;

  function env() {
    return {
      serviceWorker: Boolean(nav && "serviceWorker" in nav),
      pushManager: typeof PushManager !== "undefined",
      notification: typeof Notification !== "undefined",
      secure: Boolean(globalThis.isSecureContext),
      permission: typeof Notification === "undefined" ? "default" : Notification.permission,
    };
  }

  const subscribedHere = () => Boolean(readJson(store, PUSH_KEY)[roomId]);

  function remember(endpoint) {
    const all = readJson(store, PUSH_KEY);
    if (endpoint) all[roomId] = endpoint;
    else delete all[roomId];
    store.setItem(PUSH_KEY, JSON.stringify(all));
  }

  function status(text) {
    const line = el("push-status");
    if (line) line.textContent = text;
  }

  function render() {
    const box = el("push-toggle");
    const setting = el("push-setting");
    if (!box || !setting) return;
    const can = support(env());
    setting.hidden = !ctx.seat();
    // While a change is under way the box shows what was asked for; then what is true.
    if (!busy) box.checked = subscribedHere() && env().permission === "granted";
    box.disabled = busy || (can !== "ok" && !box.checked);
    if (can === "unsupported") status(t("This browser cannot show alerts from a closed page."));
    else if (can === "insecure") status(t("Alerts need the site's https:// address."));
    else if (can === "blocked") status(BLOCKED());
    else if (!busy) status(box.checked ? t("On: this device is alerted for this game.") : "");
  }

  async function subscribe() {
    const seat = ctx.seat();
    if (!seat) return false;
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      status(permission === "denied" ? BLOCKED() : t("Alerts stay off: the browser was not allowed to show them. Tick the box again to be asked once more."));
      return false;
    }
    const registration = await nav.serviceWorker.register("/sw.js", { scope: "/" });
    await nav.serviceWorker.ready;
    let subscription = await registration.pushManager.getSubscription();
    if (!subscription) {
      const { public_key: key } = await ctx.api("GET", "/api/push/key");
      subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    }
    const body = subscription.toJSON();
    await ctx.api("POST", `/api/rooms/${roomId}/push`, { body, token: seat.token });
    remember(body.endpoint);
    return true;
  }

  async function unsubscribe() {
    const seat = ctx.seat();
    const endpoint = readJson(store, PUSH_KEY)[roomId];
    remember(null);
    // This room only: the browser's subscription stays for the other games that asked for alerts.
    if (seat && endpoint) await ctx.api("DELETE", `/api/rooms/${roomId}/push`, { body: { endpoint }, token: seat.token });
  }

  async function set(on) {
    busy = true;
    status(on ? t("Turning alerts on…") : t("Turning alerts off…"));
    render();
    try {
      if (on) await subscribe();
      else await unsubscribe();
      busy = false;
      render();
    } catch (error) {
      busy = false;
      render();
      status(alertTrouble(error, on));
    }
  }

  function offer() {
    const box = el("push-offer");
    if (!box) return;
    store.setItem(OFFERED_KEY, "1");
    box.hidden = false;
  }

  function onVisibility() {
    const want = shouldOffer({
      hidden: document.visibilityState === "hidden",
      playing,
      seated: Boolean(ctx.seat()),
      subscribed: subscribedHere(),
      offered: store.getItem(OFFERED_KEY) === "1",
      supported: support(env()),
    });
    // Shown while the tab is away, so it is there when the player comes back.
    if (want) offer();
  }

  function badge(myTurn) {
    const held = ctx.heldRooms();
    const waiting = nextWaiting(readJson(store, WAITING_KEY), roomId, myTurn && playing, held);
    store.setItem(WAITING_KEY, JSON.stringify(waiting));
    if (!nav || !("setAppBadge" in nav)) return;
    const count = badgeCount(waiting);
    (count ? nav.setAppBadge(count) : nav.clearAppBadge()).catch(() => {});
  }

  /** The match moved: whether it is in play and the seat's turn (for the offer and the badge). */
  function state({ inPlay, myTurn }) {
    playing = inPlay;
    badge(myTurn);
    render();
  }

  function start() {
    el("push-toggle")?.addEventListener("change", (event) => set(event.currentTarget.checked));
    el("push-offer-yes")?.addEventListener("click", async () => {
      el("push-offer").hidden = true;
      await set(true);
    });
    el("push-offer-no")?.addEventListener("click", () => {
      el("push-offer").hidden = true;
    });
    document.addEventListener("visibilitychange", onVisibility);
    render();
  }

  return { start, state, render, offer };
}
