// Every page registers the service worker (static/sw.js at /sw.js, scope "/"): it keeps the offline
// page, shows the turn alerts, and makes the site installable on a phone. Where the browser says
// the site can be installed (its `beforeinstallprompt` event), the footer offers to install it.

export function registerWorker(nav = globalThis.navigator) {
  if (!nav || !("serviceWorker" in nav)) return Promise.resolve(null);
  return nav.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
}

/** Keeps the browser's install prompt for the footer's button; the button shows only while the
 *  browser offers one, and goes once Motable is installed. */
export function offerInstall(win = globalThis.window) {
  const doc = win?.document;
  const offer = doc?.getElementById("install-offer");
  const button = doc?.getElementById("install-button");
  if (!offer || !button) return;
  let prompt = null;
  win.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    prompt = event;
    offer.hidden = false;
  });
  button.addEventListener("click", async () => {
    if (!prompt) return;
    const asked = prompt;
    prompt = null;
    offer.hidden = true;
    await asked.prompt();
  });
  win.addEventListener("appinstalled", () => {
    prompt = null;
    offer.hidden = true;
  });
}

registerWorker();
if (globalThis.document) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => offerInstall());
  else offerInstall();
}
