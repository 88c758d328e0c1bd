// The replay page: a finished match step by step, with the table as it was, from any seat's
// place or with every hand open; forward, back, or played at a chosen speed. The tables come
// from the server (GET /api/rooms/{id}/replay), which refuses them until the match is over.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { readAddress, ReplaySteps, replayAddress } from "./replay-steps.js";
import { loadTable } from "./table-loader.js";

const root = document.getElementById("replay");
const roomId = root.dataset.roomId;
const $ = (id) => document.getElementById(id);

const page = { room: null, module: null, steps: null, viewpoint: "spectator", step: 0, timer: null, tables: [] };

function seatName(seat) {
  return page.room?.seats?.find((s) => s.seat === seat)?.name || `Seat ${seat + 1}`;
}

function viewpointWords(viewpoint) {
  if (viewpoint === "all") return "every hand open";
  if (viewpoint === "spectator") return "a spectator's seat";
  return `${seatName(viewpoint)}'s seat`;
}

/** One mounted table per hand shown: the chosen seat's, or every seat's side by side. */
function mountTables() {
  for (const table of page.tables) table.renderer.destroy?.();
  const seatsShown = page.viewpoint === "all" ? page.room.seats.map((s) => s.seat) : [page.viewpoint === "spectator" ? null : page.viewpoint];
  const holder = $("replay-tables");
  holder.classList.toggle("is-all", page.viewpoint === "all");
  page.tables = seatsShown.map((seat) => {
    const node = h("div", { class: "table-area replay-table", "data-seat": seat ?? "spectator" });
    const frame = h(
      "section",
      { class: "replay-frame", "aria-label": seat === null ? "The table" : `${seatName(seat)}'s view` },
      page.viewpoint === "all" ? h("h2", { class: "replay-frame-title" }, `${seatName(seat)}'s hand`) : null,
      node,
    );
    holder.append(frame);
    const renderer = page.module.mount(node, {
      act: () => Promise.reject(new Error("a replay cannot be played")),
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
  const step = page.steps.action(page.step);
  // A takeback is a log entry of its own, `{"takeback": seq}` (docs/playing.md, "Takeback").
  const undone = step && Number.isInteger(step.action?.takeback);
  const who = !step ? "The cards are dealt" : undone ? `${seatName(step.seat)} took back their move` : `${seatName(step.seat)} moved`;
  $("replay-where").textContent = `Move ${page.step} of ${page.steps.length} · ${who} · seen from ${viewpointWords(page.viewpoint)}`;
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
  $("replay-play").textContent = "Pause";
  $("replay-play").setAttribute("aria-pressed", "true");
}

function pause() {
  clearInterval(page.timer);
  page.timer = null;
  $("replay-play").textContent = "Play";
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
    h("option", { value: "spectator" }, "A spectator (no hands)"),
    page.room.seats.map((s) => h("option", { value: String(s.seat) }, `${s.name}'s seat`)),
    h("option", { value: "all" }, "Every hand open"),
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
      button.textContent = "Copied!";
    } catch {
      $("replay-link").select();
      button.textContent = "Press Ctrl+C";
    }
    setTimeout(() => {
      button.textContent = "Copy link";
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
  $("replay-where").textContent = `The replay could not be loaded: ${error.message}`;
});
