// Your-turn notifications: the opt-in (in the seat dialog) and the notification itself, shown
// only while the page is hidden (`shouldNotify`, DOM-free, in people-kit.js).

import { shouldNotify } from "./people-kit.js";
import { t } from "./i18n.js";
import { $, say } from "./room-page.js";

export function notificationPermission() {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

/** ctx: { roomId, prefs (people-prefs.js), title() } */
export function createNotify(ctx) {
  const { prefs } = ctx;

  /** Whether the opt-in box shows as ticked: opted in, and the browser allows it. */
  function wanted() {
    return prefs.notify() && notificationPermission() === "granted";
  }

  async function toggled(event) {
    const box = event.currentTarget;
    if (!box.checked) {
      prefs.setNotify(false);
      return;
    }
    if (notificationPermission() === "unsupported") {
      box.checked = false;
      say($("seat-dialog-error"), new Error(t("This browser cannot show notifications.")));
      return;
    }
    const permission = notificationPermission() === "granted" ? "granted" : await Notification.requestPermission();
    box.checked = permission === "granted";
    prefs.setNotify(box.checked);
    if (!box.checked) say($("seat-dialog-error"), new Error(t("Notifications are blocked for this site in the browser's settings.")));
  }

  function turn(myTurn, wasMyTurn) {
    const shown = shouldNotify({
      myTurn,
      wasMyTurn,
      hidden: document.visibilityState === "hidden",
      permission: notificationPermission(),
      optedIn: prefs.notify(),
    });
    if (!shown) return false;
    try {
      const note = new Notification(t("Your turn · {game}", { game: ctx.title() }), { body: t("The table is waiting for you."), tag: `motable-${ctx.roomId}` });
      note.onclick = () => {
        window.focus();
        note.close();
      };
      return true;
    } catch {
      return false;
    }
  }

  function start() {
    $("notify-toggle").addEventListener("change", toggled);
  }

  return { start, wanted, turn };
}
