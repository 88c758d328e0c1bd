// The replay page: a finished match step by step, with the table as it was, from any seat's
// place or with every hand open; forward, back, or played at a chosen speed. The tables come
// from the server (GET /api/rooms/{id}/replay), which refuses them until the match is over.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { readAddress, ReplaySteps, replayAddress } from "./replay-steps.js";
import { loadTable } from "./table-loader.js";

const root = document.getElementById("replay");
const roomId = root.dataset.roomId;
const $ = (id) => document.getElementById(id);

const page = { room: null, module: null, steps: null, viewpoint: "spectator", step: 0, timer: null, tables: [] };

function seatName(seat) {
  return page.room?.seats?.find((s) => s.seat === seat)?.name || t("Seat {num}", { num: seat + 1 });
}

/** Where the table is seen from, as the end of the line under the controls. */
function viewpointWords(viewpoint) {
  if (viewpoint === "all") return t("seen from every hand open");
  if (viewpoint === "spectator") return t("seen from a spectator's seat");
  return t("seen from {name}'s seat", { name: seatName(viewpoint) });
}

/** Who made step `step`'s move. */
function moverWords(step) {
  if (!step) return t("The cards are dealt");
  // A takeback is a log entry of its own, `{"takeback": seq}` (docs/playing.md, "Takeback").
  if (Number.isInteger(step.action?.takeback)) return t("{name} took back their move", { name: seatName(step.seat) });
  return t("{name} moved", { name: seatName(step.seat) });
}

/** One mounted table per hand shown: the chosen seat's, or every seat's side by side. */
function mountTables() {
  for (const table of page.tables) table.renderer.destroy?.();
  const seatsShown = page.viewpoint === "all" ? page.room.seats.map((s) => s.seat) : [page.viewpoint === "spectator" ? null : page.viewpoint];
  const holder = $("replay-tables");
  holder.classList.toggle("is-all", page.viewpoint === "all");
  page.tables = seatsShown.map((seat) => {
    const node = h("div", { class: "table-area replay-table", "data-seat": seat ?? "spectator" });
    const frameLabel = seat === null ? t("The table") : t("{name}'s view", { name: seatName(seat) });
    const handTitle = seat === null ? null : t("{name}'s hand", { name: seatName(seat) });
    const frame = h(
      "section",
      { class: "replay-frame", "aria-label": frameLabel },
      page.viewpoint === "all" ? h("h2", { class: "replay-frame-title" }, handTitle) : null,
      node,
    );
    holder.append(frame);
    const renderer = page.module.mount(node, {
      act: () => Promise.reject(new Error(t("a replay cannot be played"))),
      seatName,
      announce: () => {},
      mySeat: seat,
      sawStart: false,
    });
    return { seat, renderer, frame };
  });
  fill(holder, page.tables.map((t) => t.frame));
}

function draw() {
  const state = page.steps.go(page.step);
  for (const table of page.tables) {
    const shown =
      page.viewpoint === "all" ? { ...state, seat: table.seat, view: state.views[table.seat] } : state;
    table.renderer.update(shown, page.room);
  }
  $("replay-slider").max = String(page.steps.length);
  $("replay-slider").value = String(page.step);
  const who = moverWords(page.steps.action(page.step));
  const seen = viewpointWords(page.viewpoint);
  // Translators: {who} is who moved ("Bo moved"), {seen} where the table is seen from.
  $("replay-where").textContent = t("Move {step} of {total} · {who} · {seen}", { step: page.step, total: page.steps.length, who, seen });
  const address = replayAddress(location.pathname, page.viewpoint, page.step);
  history.replaceState(null, "", address);
  $("replay-link").value = new URL(address, location.href).href;
  $("replay-back").disabled = $("replay-first").disabled = page.step === 0;
  $("replay-forward").disabled = $("replay-last").disabled = page.step === page.steps.length;
  document.body.dataset.step = String(page.step);
}

function go(step) {
  page.step = Math.max(0, Math.min(page.steps.length, step));
  draw();
  if (page.step === page.steps.length) pause();
}

function play() {
  if (page.step === page.steps.length) page.step = 0;
  clearInterval(page.timer);
  page.timer = setInterval(() => go(page.step + 1), Number($("replay-speed").value));
  $("replay-play").textContent = t("Pause");
  $("replay-play").setAttribute("aria-pressed", "true");
}

function pause() {
  clearInterval(page.timer);
  page.timer = null;
  $("replay-play").textContent = t("Play");
  $("replay-play").setAttribute("aria-pressed", "false");
}

async function load(viewpoint, step) {
  const body = await api("GET", `/api/rooms/${roomId}/replay?seat=${encodeURIComponent(viewpoint)}`);
  page.viewpoint = viewpoint;
  page.steps = new ReplaySteps(body.first, body.steps);
  page.step = Math.min(step, page.steps.length);
  mountTables();
  draw();
}

async function init() {
  if (root.dataset.finished !== "true") return;
  page.room = await api("GET", `/api/rooms/${roomId}`);
  page.module = await loadTable(page.room.game);
  const chosen = readAddress(location.search, page.room.seats.length);
  const select = $("replay-viewpoint");
  fill(
    select,
    h("option", { value: "spectator" }, t("A spectator (no hands)")),
    page.room.seats.map((s) => h("option", { value: String(s.seat) }, t("{name}'s seat", { name: s.name }))),
    h("option", { value: "all" }, t("Every hand open")),
  );
  select.value = String(chosen.viewpoint);
  select.addEventListener("change", () => {
    const value = select.value;
    load(value === "all" || value === "spectator" ? value : Number(value), page.step);
  });
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-back").addEventListener("click", () => go(page.step - 1));
  $("replay-forward").addEventListener("click", () => go(page.step + 1));
  $("replay-last").addEventListener("click", () => go(page.steps.length));
  $("replay-play").addEventListener("click", () => (page.timer ? pause() : play()));
  $("replay-speed").addEventListener("change", () => page.timer && play());
  $("replay-slider").addEventListener("input", (event) => go(Number(event.target.value)));
  $("replay-copy").addEventListener("click", async (event) => {
    const button = event.currentTarget;
    try {
      await navigator.clipboard.writeText($("replay-link").value);
      button.textContent = t("Copied!");
    } catch {
      $("replay-link").select();
      button.textContent = t("Press Ctrl+C");
    }
    setTimeout(() => {
      button.textContent = t("Copy link");
    }, 1800);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest?.("select, input")) return;
    if (event.key === "ArrowRight") go(page.step + 1);
    else if (event.key === "ArrowLeft") go(page.step - 1);
  });
  await load(chosen.viewpoint, chosen.step);
}

init().catch((error) => {
  $("replay-where").textContent = t("The replay could not be loaded: {reason}", { reason: error.message });
});
