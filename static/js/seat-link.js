// Your seat on another device: the seat-link chip shown right after joining (the private link and
// its QR code, opened in place), and the seat dialog behind the table's "Your seat" button (the
// link again, notifications, forgetting this game here, leaving it).

import { api } from "./api.js";
import { t } from "./i18n.js";
import { $, say } from "./room-page.js";
import { seats } from "./storage.js";

/** ctx: { roomId, seat(), room(), post(path, body), notify (people-notify.js),
 *         justWatching(on) (put the way back away), forgotten() (this browser let go) } */
export function createSeatLink(ctx) {
  const { roomId } = ctx;
  let linkFor = null; // the token whose seat link is drawn

  async function draw(box) {
    const entry = ctx.seat();
    if (!entry || !box) return;
    if (box.dataset.token === entry.token) return;
    box.dataset.token = entry.token;
    try {
      const link = await api("GET", `/api/rooms/${roomId}/seat-link`, { token: entry.token });
      const url = box.querySelector(".seat-link-url");
      url.value = link.url;
      // The SVG is the server's own QR rendering of this URL; shown as an image (a data: URL, which
      // the Content-Security-Policy allows), never parsed as markup into the page.
      const img = box.querySelector("img.seat-qr");
      img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(link.qr_svg)}`;
      img.alt = t("QR code of {name}'s private seat link", { name: entry.name });
      linkFor = entry.token;
    } catch (error) {
      box.dataset.token = "";
      console.warn("seat link failed", error);
    }
  }

  // Right after joining: a one-line chip ("Your seat link") that opens the link and its QR code
  // in place, so the table is not pushed below the first screen on a phone.
  function showSeatKeep() {
    $("seat-keep").hidden = false;
    openSeatKeep(false);
  }

  function openSeatKeep(open) {
    const chip = $("seat-keep-chip");
    chip.setAttribute("aria-expanded", String(open));
    $("seat-keep-body").hidden = !open;
    if (open) draw($("seat-keep"));
  }

  function openSeatDialog() {
    const dialog = $("seat-dialog");
    const entry = ctx.seat();
    if (!entry) return;
    $("seat-dialog-who").textContent = t("You play as {name}.", { name: entry.name });
    $("forget-confirm").hidden = true;
    $("forget-button").hidden = false;
    const room = ctx.room();
    $("leave-button").hidden = room?.status !== "playing";
    $("notify-toggle").checked = ctx.notify.wanted();
    draw(dialog);
    dialog.showModal();
  }

  function forgetAsked() {
    const entry = ctx.seat();
    const words = $("forget-words");
    const name = entry?.name;
    if (ctx.room()?.status === "playing") {
      words.textContent = name
        ? t("This browser stops holding {name}'s seat. Unless you kept your seat link, only the other players can give it back to you, and the game waits for you meanwhile.", { name })
        : t("This browser stops holding your seat. Unless you kept your seat link, only the other players can give it back to you, and the game waits for you meanwhile.");
    } else {
      words.textContent = name
        ? t("This browser stops holding {name}'s seat. Unless you kept your seat link, only the other players can give it back to you, when you ask.", { name })
        : t("This browser stops holding your seat. Unless you kept your seat link, only the other players can give it back to you, when you ask.");
    }
    $("forget-confirm").hidden = false;
    $("forget-button").hidden = true;
    $("forget-yes").focus();
  }

  function forgetConfirmed() {
    // Let go on purpose: "Playing here? Pick your name" is not pressed on this page again.
    ctx.justWatching(true);
    seats.forget(roomId);
    $("seat-dialog").close();
    ctx.forgotten();
  }

  async function leaveGame(event) {
    const button = event.currentTarget;
    if (button.dataset.sure !== "yes") {
      button.dataset.sure = "yes";
      button.textContent = t("Leave for good: a bot takes your seat");
      return;
    }
    try {
      await ctx.post("leave", {});
      ctx.justWatching(true);
      seats.forget(roomId);
      $("seat-dialog").close();
      ctx.forgotten();
    } catch (error) {
      say($("seat-dialog-error"), error);
    }
  }

  /** The seat-link chip and "Your seat" belong to a seat held here; a page that lost it drops them. */
  function update() {
    $("seat-menu-button").hidden = !ctx.seat();
    if (!ctx.seat()) $("seat-keep").hidden = true;
  }

  /** Another seat is held here now: the drawn link is stale. */
  function forgetStale() {
    const entry = ctx.seat();
    if (entry && linkFor && linkFor !== entry.token) {
      $("seat-keep").dataset.token = "";
      $("seat-dialog").dataset.token = "";
    }
  }

  function start() {
    $("seat-menu-button").addEventListener("click", openSeatDialog);
    $("seat-dialog-close").addEventListener("click", () => $("seat-dialog").close());
    $("forget-button").addEventListener("click", forgetAsked);
    $("forget-yes").addEventListener("click", forgetConfirmed);
    $("forget-no").addEventListener("click", () => {
      $("forget-confirm").hidden = true;
      $("forget-button").hidden = false;
    });
    $("leave-button").addEventListener("click", leaveGame);
    $("seat-keep-close").addEventListener("click", () => {
      $("seat-keep").hidden = true;
    });
    $("seat-keep-chip").addEventListener("click", () => openSeatKeep($("seat-keep-body").hidden));
  }

  return { start, showSeatKeep, update, forgetStale };
}
