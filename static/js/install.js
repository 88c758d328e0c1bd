// Every page registers the service worker (static/sw.js at /sw.js, scope "/"): it keeps the offline
// page, shows the turn alerts, and makes the site installable on a phone.

export function registerWorker(nav = globalThis.navigator) {
  if (!nav || !("serviceWorker" in nav)) return Promise.resolve(null);
  return nav.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
}

registerWorker();
