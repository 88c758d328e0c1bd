// Seat requests seen from the table (`#seat-alert` and `#seat-requests`): the holder of a seat
// someone asks for is asked first ("Is it you?"), around one device each held seat by name; a
// request this page may answer for someone else's seat is asked there too; the rest are listed
// as text under "At the table". Who may answer is the room body's (`mayAnswer`, people-kit.js).

import { api } from "./api.js";
import { heldSeats } from "./device.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { holderNotice, mayAnswer, openRequests, requestWords } from "./people-kit.js";
import { $, say } from "./room-page.js";
import { seats } from "./storage.js";

/** ctx: { roomId, seat(), mySeat(), token(), seatNameOf(seat), askingId() (this page's own
 *         request), handingOver() (this page approved moving its own seat), refreshRoom() } */
export function createSeatRequests(ctx) {
  const { roomId, seatNameOf } = ctx;

  /** The seats this page holds: its own, and around one device the other local players'. */
  function heldHere() {
    const active = ctx.seat();
    if (!active) return [];
    const held = heldSeats(seats.get(roomId) || active);
    if (!held.some((s) => s.seat === active.seat)) held.unshift({ seat: active.seat, token: active.token, name: active.name });
    return held;
  }

  /** Requests on other seats this page may still answer (asked at the top, not in the list). */
  function toAnswer(room, held) {
    const me = ctx.mySeat();
    return openRequests(room).filter(
      (r) => !held.some((s) => s.seat === r.seat) && mayAnswer(r, me) && (r.status === "waiting" || !(r.approvals || []).includes(me)),
    );
  }

  // `as`: the held seat that answers (its token), the active one unless named.
  async function answer(request, approve, errorNode, as = null) {
    try {
      const path = `/api/rooms/${roomId}/seat-requests/${request.id}/${approve ? "approve" : "refuse"}`;
      await api("POST", path, { body: {}, token: as?.token || ctx.token() });
      // Approving a request for one's own seat hands it to the other device: this page is
      // about to lose the seat, and says so calmly.
      if (approve && request.seat === ctx.mySeat()) ctx.handingOver();
      if (errorNode) say(errorNode, null);
      ctx.refreshRoom();
    } catch (error) {
      say(errorNode || $("people-error"), error);
      // The request may have been answered elsewhere or lapsed: show the room as it is now.
      ctx.refreshRoom();
    }
  }

  // A request for another player's seat, as the table sees it (one this page may answer is
  // asked at the top of the page instead).
  function requestRow(request) {
    return h("li", { class: `seat-request is-${request.status || "pending"}`, "data-request": request.id }, requestWords(request, seatNameOf, ctx.mySeat()));
  }

  /** The list under "At the table". A request nobody answered lapses at `expires` (the room body
   * is not sent again for that). The holder's own seat is asked about at the top of the page; the
   * asker's own request is followed in the way-back banner. */
  function drawList(room, now) {
    const open = openRequests(room, now);
    const heldList = heldHere();
    const held = heldList.map((s) => s.seat);
    const atTop = new Set(toAnswer(room, heldList).map((r) => r.id));
    const others = open.filter((r) => !held.includes(r.seat) && !atTop.has(r.id) && r.id !== ctx.askingId());
    const listKey = JSON.stringify([ctx.mySeat(), held, others]);
    if ($("seat-requests").dataset.key !== listKey) {
      $("seat-requests").dataset.key = listKey;
      $("seat-requests").hidden = others.length === 0;
      fill($("seat-requests"), others.map((r) => requestRow(r)));
    }
  }

  // At the top of the page: the holder of a seat asked for (or approved by others) is told first,
  // and a player who may answer for someone else's seat sees it there too.
  function drawAlert(room) {
    const box = $("seat-alert");
    const held = heldHere();
    const several = held.length > 1;
    const mine = openRequests(room).filter((r) => held.some((s) => s.seat === r.seat));
    const others = toAnswer(room, held);
    const fields = (r) => [r.id, r.seat, r.status, r.effective_at, r.approvals, r.answerable_by];
    const key = JSON.stringify([held.map((s) => s.seat), mine.map(fields), others.map(fields), room.seats.map((s) => s.name)]);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.hidden = mine.length + others.length === 0;
    const item = (request, kind, who, text, buttons, error) =>
      h(
        "div",
        { class: `seat-alert-item is-${kind}`, "data-request": request.id, ...(buttons.length ? { "data-asks": `seat-${request.id}-${request.status}` } : {}) },
        who ? h("p", { class: "seat-alert-who small" }, who) : null,
        h("p", { class: "seat-alert-text" }, text),
        buttons.length ? h("p", { class: "seat-alert-buttons" }, buttons) : null,
        error,
      );
    fill(
      box,
      mine.map((request) => {
        const as = held.find((s) => s.seat === request.seat);
        const notice = holderNotice(request, seatNameOf);
        const error = h("p", { class: "form-error", role: "alert", hidden: true });
        const buttons = [];
        if (notice.kind === "ask" && mayAnswer(request, as.seat)) {
          buttons.push(h("button", { class: "button button-small button-primary", type: "button", onclick: () => answer(request, true, error, as) }, t("Yes, it's me (approve)")));
        }
        if (notice.kind === "waiting" || mayAnswer(request, as.seat)) {
          buttons.push(h("button", { class: "button button-small button-danger", type: "button", onclick: () => answer(request, false, error, as) }, t("No, refuse")));
        }
        const text = buttons.length ? notice.text : [notice.text, " ", h("span", { class: "small" }, t("If it is not you, ask the others to refuse."))];
        // Around one device, say whose seat it is: "your" would not tell who.
        return item(request, notice.kind, several ? t("For {name}:", { name: as.name }) : null, text, buttons, error);
      }),
      others.map((request) => {
        const error = h("p", { class: "form-error", role: "alert", hidden: true });
        const buttons = [];
        if (request.status !== "waiting") {
          buttons.push(h("button", { class: "button button-small button-primary", type: "button", onclick: () => answer(request, true, error) }, t("Approve")));
        }
        buttons.push(h("button", { class: "button button-small", type: "button", onclick: () => answer(request, false, error) }, t("Refuse")));
        const hint = request.status === "waiting" ? "" : " " + t("Approve only if you know it is {name}.", { name: seatNameOf(request.seat) });
        return item(request, "other", null, requestWords(request, seatNameOf, ctx.mySeat()) + hint, buttons, error);
      }),
    );
  }

  return { drawList, drawAlert };
}
