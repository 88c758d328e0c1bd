// The theme switch in every page's footer ("Theme: Auto · Light · Dark"): sets the page's theme at
// once and keeps the choice in this browser, where theme-boot.js reads it before the next page is
// painted. Auto follows the system, also when it changes while the page is open. With storage
// blocked the choice holds for as long as the page is open.

import { store } from "./storage.js";
import { BAR_COLOURS, choiceFrom, readChoice, saveChoice, themeFor } from "./theme.js";

const root = document.documentElement;
const system = window.matchMedia("(prefers-color-scheme: dark)");
let choice = readChoice(store);

function apply() {
  const theme = themeFor(choice, system.matches);
  root.dataset.theme = theme;
  const bar = document.querySelector('meta[name="theme-color"]');
  if (bar) bar.content = BAR_COLOURS[theme];
  for (const button of document.querySelectorAll("[data-theme-choice]")) {
    button.setAttribute("aria-pressed", String(button.dataset.themeChoice === choice));
  }
}

const group = document.getElementById("theme-switch");
if (group) {
  group.hidden = false;
  group.addEventListener("click", (event) => {
    const button = event.target.closest("[data-theme-choice]");
    if (!button) return;
    choice = choiceFrom(button.dataset.themeChoice);
    saveChoice(store, choice);
    apply();
  });
}
system.addEventListener("change", apply);
apply();
