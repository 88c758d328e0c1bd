// The home page's "Your games": every room this browser holds a seat in, with whose turn it is, the
// move clock and the last move, kept live by one small request (`POST /api/my-games`) every few
// seconds while the page is in view. The words are my-games.js's.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { clockWords, gameLines, lostWords } from "./my-games.js";
import { floatRequests } from "./request-layer.js";
import { createSeatAsks } from "./seat-asks.js";
import { lastSeen, seats } from "./storage.js";

// Seconds between refreshes while the page is in view (a hidden page asks nothing).
const REFRESH_MS = 10000;

/** games: GET /api/games as the page embeds it (titles, and the words of each game's moves). */
export function startYourGames(games) {
  const active = document.getElementById("your-games");
  const history = document.getElementById("history-list");
  const title = (id) => games.find((g) => g.id === id)?.title || id;
  const words = (id) => games.find((g) => g.id === id)?.action_words || {};
  let timer = null;
  let asking = false;
  // The last answer per room, kept so a failed refresh leaves the list as it was.
  let known = new Map();
  // Someone asks for one of these seats from another device: asked here too, over the page.
  const layer = document.getElementById("request-layer");
  floatRequests(layer);
  const asks = createSeatAsks(document.getElementById("seat-asks"), { title, answered: () => refresh() });

  function entries() {
    return Object.values(seats.all())
      .filter((entry) => entry?.room_id && entry.token)
      .sort((a, b) => (b.saved_at || 0) - (a.saved_at || 0));
  }

  function item(entry, summary) {
    const lost = summary && !summary.found;
    const lines = summary?.found ? gameLines(summary, { title, words }) : null;
    const mine = lines?.turn.mine;
    const finished = summary?.status === "finished";
    const gameName = title(summary?.game || entry.game);
    const openWord = finished ? t("View") : mine ? t("Play") : t("Open");
    const replayLabel = t("Replay this {game} match", { game: gameName });
    const forgetLabel = t("Forget this {game} room on this device", { game: gameName });
    const asWho = t("as {name}", { name: entry.name });
    return h(
      "li",
      { class: `room-item game-row${mine ? " is-your-turn" : ""}${lost ? " is-lost" : ""}`, "data-room": entry.room_id },
      h(
        "div",
        { class: "room-item-text" },
        h(
          "div",
          { class: "game-row-head" },
          h("strong", { class: "game-row-title" }, gameName),
          lines ? h("span", { class: "game-row-players" }, ` ${lines.players}`) : null,
        ),
        lines
          ? h(
              "div",
              { class: "game-row-status" },
              h("span", { class: `turn-badge${mine ? " is-mine" : ""}` }, lines.turn.text),
              lines.clock
                ? h(
                    "span",
                    { class: "game-row-clock", "data-deadline": summary.deadline, title: t("Time left for this move") },
                    lines.clock,
                  )
                : null,
            )
          : null,
        lines?.last
          ? h("p", { class: "game-row-last" }, lines.last.text, h("span", { class: "game-row-ago" }, ` · ${lines.last.ago}`))
          : null,
        h(
          "p",
          { class: "game-row-meta" },
          lost
            ? `${asWho} · ${lostWords(summary.seat_status)}`
            : [lines?.you || asWho, lines?.totals ? ` · ${lines.totals}` : ""].join(""),
        ),
      ),
      h(
        "div",
        { class: "game-row-actions" },
        lost
          ? null
          : h(
              "a",
              { class: `button button-small${mine ? " button-primary" : ""}`, href: `/r/${entry.room_id}` },
              openWord,
            ),
        finished
          ? h("a", { class: "button button-small", href: `/r/${entry.room_id}/replay`, "aria-label": replayLabel }, t("Replay"))
          : null,
        h(
          "button",
          {
            class: "icon-button",
            type: "button",
            "aria-label": forgetLabel,
            title: t("Forget on this device"),
            onclick: (event) => askToForget(event.currentTarget, entry, summary),
          },
          "✕",
        ),
      ),
    );
  }

  /** "Forget this game" asks first, saying what is lost (people: docs/people.md). */
  function askToForget(button, entry, summary) {
    const row = button.closest(".room-item");
    if (row.querySelector(".forget-confirm")) return;
    // The newest answer (a refresh may have come since the row was drawn). None yet (the first
    // answer is on its way): the seat is taken to work, so the warning is never too mild.
    const now = known.get(entry.room_id) || summary;
    const inPlay = now?.found && now.status !== "finished";
    let lost;
    if (now && !now.found) lost = t("This seat no longer works here; forgetting only tidies this list.");
    else if (inPlay) {
      lost = t(
        "This device stops holding your seat as {name}. Unless you kept your seat link or a passkey, only the other players can give it back, and the game waits for you meanwhile.",
        { name: entry.name },
      );
    } else {
      lost = t(
        "This device stops holding your seat as {name}. Unless you kept your seat link or a passkey, only the other players can give it back.",
        { name: entry.name },
      );
    }
    const box = h(
      "div",
      { class: "forget-confirm", role: "alertdialog", "aria-label": t("Forget this game?") },
      h("p", {}, lost),
      h(
        "div",
        { class: "button-row" },
        h("button", { class: "button button-small button-danger", type: "button", onclick: () => { seats.forget(entry.room_id); lastSeen.forget(entry.room_id); draw(); } }, t("Forget it")),
        h("button", { class: "button button-small", type: "button", onclick: () => { box.remove(); button.focus(); } }, t("Keep it")),
      ),
    );
    row.append(box);
    box.querySelector("button").focus();
  }

  function draw() {
    const held = entries();
    const rows = held.map((entry) => ({ entry, summary: known.get(entry.room_id) || null }));
    const done = rows.filter((r) => r.summary?.found && r.summary.status === "finished");
    const current = rows.filter((r) => !done.includes(r));
    // Games waiting for this player first, then the others as they were last opened.
    current.sort((a, b) => Number(Boolean(b.summary?.your_turn)) - Number(Boolean(a.summary?.your_turn)));
    fill(active, ...current.map((r) => item(r.entry, r.summary)));
    fill(history, ...done.map((r) => item(r.entry, r.summary)));
    document.getElementById("your-games-empty").hidden = current.length > 0;
    document.getElementById("history").hidden = done.length === 0;
    const waiting = current.filter((r) => r.summary?.your_turn).length;
    // Translators: the page's title while games wait for the reader; {num} is how many.
    document.title = waiting ? t("({num}) Motable · your turn", { num: waiting }) : t("Motable · play card games with friends");
  }

  async function refresh() {
    const held = entries();
    if (asking) return;
    if (!held.length) {
      known = new Map();
      asks.draw([]);
      draw();
      return;
    }
    asking = true;
    try {
      const answer = await api("POST", "/api/my-games", {
        body: { seats: held.map((entry) => ({ room_id: entry.room_id, token: entry.token })) },
      });
      known = new Map(answer.games.map((summary) => [summary.room_id, summary]));
      asks.draw(answer.games);
      for (const summary of answer.games) {
        if (summary.found) seats.keep(summary.room_id, { game: summary.game, status: summary.status });
      }
    } catch {
      // Offline or the server restarting: keep what was shown and try again at the next tick.
    } finally {
      asking = false;
    }
    // A "Forget this game?" question stays open: the list is redrawn at the next refresh.
    if (!document.querySelector("#your-games .forget-confirm, #history-list .forget-confirm")) draw();
  }

  /** The clocks tick between refreshes. */
  function tick() {
    for (const clock of document.querySelectorAll("[data-deadline]")) {
      clock.textContent = clockWords(clock.dataset.deadline) || "";
    }
  }

  function schedule() {
    clearInterval(timer);
    timer = null;
    if (document.visibilityState === "hidden") return;
    timer = setInterval(refresh, REFRESH_MS);
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
    schedule();
  });
  // Another tab took or forgot a seat (or signed in with a passkey).
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key === "motable.seats") refresh();
  });
  setInterval(tick, 1000);
  draw();
  refresh();
  schedule();
  return { refresh };
}
