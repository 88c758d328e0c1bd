// Passkeys that hold this browser's seats (docs/people.md, "Passkeys"): attach one to the seats held
// here, or sign in with one to take its seats onto this device. The browser's own WebAuthn prompt
// does the rest: no password, no account form.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seats, store } from "./storage.js";

// Set once this browser made or used a passkey: attaching more games then signs in with it.
const KNOWN_KEY = "motable.passkey";

export function passkeysSupported() {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

// A loopback IP address as the browser writes a page's host name: 127.x.x.x, [::1], or an IPv4 one
// inside IPv6 ([::ffff:7f00:1]).
const LOOPBACK_IP = /^(?:127(?:\.\d{1,3}){3}|\[::1\]|\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\])$/i;

/**
 * The page was reached at a loopback IP address (`make run` at http://127.0.0.1:8000), where passkeys
 * cannot work: an IP address names no site to hold one. The same server answers at localhost, where
 * they do. Returns { here, there, url } (`url`: this page at localhost, `hash` appended), else null.
 */
export function localhostAddress(where = window.location, hash = "") {
  if (!LOOPBACK_IP.test(where.hostname)) return null;
  const there = `localhost${where.port ? `:${where.port}` : ""}`;
  return { here: where.host, there, url: `${where.protocol}//${there}${where.pathname}${where.search}${hash}` };
}

/**
 * What the passkey parts show at a loopback IP address instead of buttons that cannot work: why, a
 * link to the same page at localhost, and that the browser keeps each address's games apart.
 * `words` = { lead, link, note } (strings); returns { node, link } (the <a>, its href to set).
 */
export function localhostOffer(away, words) {
  const link = h("a", { class: "button button-small button-primary passkey-elsewhere-link", href: away.url }, words.link);
  const node = h(
    "div",
    { class: "passkey-elsewhere" },
    h("p", { class: "passkey-elsewhere-lead" }, words.lead),
    link,
    h("p", { class: "passkey-elsewhere-note small" }, words.note),
  );
  return { node, link };
}

export function knowsPasskey() {
  return store.getItem(KNOWN_KEY) === "yes";
}

function rememberPasskey() {
  try {
    store.setItem(KNOWN_KEY, "yes");
  } catch {
    // Nothing is remembered: the next attach makes another passkey, which works as well.
  }
}

export function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=");
  const raw = atob(base64);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes.buffer;
}

export function toBase64url(buffer) {
  if (!buffer) return null;
  const bytes = new Uint8Array(buffer);
  let raw = "";
  for (const byte of bytes) raw += String.fromCharCode(byte);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function creationOptions(json) {
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: (json.excludeCredentials || []).map((c) => ({ ...c, id: fromBase64url(c.id) })),
  };
}

function requestOptions(json) {
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    allowCredentials: (json.allowCredentials || []).map((c) => ({ ...c, id: fromBase64url(c.id) })),
  };
}

/** A PublicKeyCredential as the JSON the server checks (the browser's toJSON where it has one). */
function credentialJSON(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const r = credential.response;
  const response = { clientDataJSON: toBase64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toBase64url(r.attestationObject);
    response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    response.authenticatorData = toBase64url(r.authenticatorData);
    response.signature = toBase64url(r.signature);
    response.userHandle = toBase64url(r.userHandle);
  }
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response,
    clientExtensionResults: credential.getClientExtensionResults?.() || {},
    authenticatorAttachment: credential.authenticatorAttachment ?? null,
  };
}

/** The seats this browser holds, as the passkey endpoints take them. */
export function heldHere() {
  return Object.values(seats.all())
    .filter((entry) => entry?.room_id && entry.token)
    .map((entry) => ({ room_id: entry.room_id, token: entry.token }));
}

/** Make a new passkey holding the given seats. Returns the server's answer ({seats}). */
export async function createPasskey(held) {
  const { challenge_id, options } = await api("POST", "/api/passkeys/register/options", { body: { seats: held } });
  const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  const made = await api("POST", "/api/passkeys/register", {
    body: { challenge_id, credential: credentialJSON(credential), seats: held },
  });
  rememberPasskey();
  return made;
}

/**
 * Sign in with a passkey: `attach` seats held here are added to it first; every seat it holds comes
 * to this browser (stored like a seat link). Returns the server's answer ({seats, lost}).
 */
export async function signIn({ keep = false, attach = [] } = {}) {
  const { challenge_id, options } = await api("POST", "/api/passkeys/login/options", { body: {} });
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  const answer = await api("POST", "/api/passkeys/login", {
    body: { challenge_id, credential: credentialJSON(credential), keep_other_devices: keep, attach },
  });
  rememberPasskey();
  for (const seat of answer.seats) {
    seats.save(seat.room_id, { seat: seat.seat, token: seat.token, name: seat.name, game: seat.game, status: seat.status });
  }
  return answer;
}

/** A WebAuthn failure in words (the player closed the prompt, or no passkey was there). */
export function passkeyProblem(error) {
  if (error?.name === "NotAllowedError") return t("No passkey was used (the prompt was closed or timed out).");
  if (error?.name === "InvalidStateError") return t("This device already has a passkey for these games.");
  if (error?.name === "SecurityError") return t("Passkeys need this site's secure address (https, or localhost).");
  return error?.message || String(error);
}
