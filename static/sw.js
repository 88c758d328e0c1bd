// Motable's service worker (served at /sw.js, scope "/"): shows the alerts the server pushes (what
// they hold is in docs/people.md "Alerts": public facts of the room, never a card), opens or focuses
// the room on a click, and answers page loads with the offline page when the network fails.

const CACHE = "motable-offline-1";
const OFFLINE = "/offline";
const ICON = "/static/icons/icon-192.png";

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const response = await fetch(OFFLINE, { cache: "no-store" });
      if (!response.ok) throw new Error(`the offline page answered ${response.status}`);
      const html = await response.clone().text();
      await cache.put(OFFLINE, response);
      // The page's own styles (content-addressed URLs), so it looks like the site without a network.
      const files = [...html.matchAll(/(?:href|src)="(\/static\/[^"]+)"/g)].map((m) => m[1].replaceAll("&amp;", "&"));
      await cache.addAll([...new Set([...files, ICON])]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(async () => (await caches.match(OFFLINE)) || Response.error()));
    return;
  }
  const url = new URL(request.url);
  if (url.origin === self.location.origin && url.pathname.startsWith("/static/")) {
    // The network first (the server names its files by content); the offline page's files from the cache.
    event.respondWith(fetch(request).catch(async () => (await caches.match(request)) || Response.error()));
  }
});

/** A path on this site, or the home page: a pushed link never leads elsewhere. */
function sitePath(value) {
  return typeof value === "string" && value.startsWith("/") && !value.startsWith("//") ? value : "/";
}

function text(value, fallback) {
  return typeof value === "string" && value ? value.slice(0, 200) : fallback;
}

async function showBadge() {
  if (!("setAppBadge" in self.navigator)) return;
  const waiting = new Set((await self.registration.getNotifications()).map((n) => n.data && n.data.room));
  try {
    if (waiting.size) await self.navigator.setAppBadge(waiting.size);
    else await self.navigator.clearAppBadge();
  } catch {
    // Badging is a nicety: a platform that refuses it changes nothing else.
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const room = typeof data.room === "string" ? data.room : "";
  const url = sitePath(data.url);
  event.waitUntil(
    (async () => {
      await self.registration.showNotification(text(data.title, "Motable"), {
        body: text(data.body, "Your game waits for you."),
        // One notification per room: a newer alert replaces the one before.
        tag: room ? `motable-${room}` : "motable",
        renotify: true,
        icon: ICON,
        data: { url, room, event: text(data.event, "") },
      });
      await showBadge();
    })(),
  );
});

/** The room's window focused if one is open, else a new one: the click on an alert. */
async function openRoom(data) {
  const target = new URL(sitePath(data && data.url), self.location.origin);
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).pathname === target.pathname);
  if (open) await open.focus();
  else await self.clients.openWindow(target.href);
  await showBadge();
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const opening = openRoom(event.notification.data);
  // A click the browser made (always, outside tests) keeps the worker alive until the room opens.
  if (event.isTrusted) event.waitUntil(opening);
});
