// Small services every part of the room page shares: the element lookup, the screen-reader
// announcer, an error under a form, the move-error box and "Copy" next to a link.

import { t } from "./i18n.js";

export const $ = (id) => document.getElementById(id);

export function announce(text) {
  const region = $("announcer");
  region.textContent = "";
  // A fresh text node after a tick makes screen readers read repeated messages too.
  setTimeout(() => {
    region.textContent = text;
  }, 30);
}

export function showError(id, error) {
  const node = $(id);
  node.textContent = error ? error.message || String(error) : "";
  node.hidden = !error;
}

// A refused or unsent move (or rematch) is said on screen, not only to screen readers: the
// player has to know the click did nothing. role="alert" reads it out too.
let moveErrorTimer = null;
export function showMoveError(text) {
  const node = $("move-error");
  clearTimeout(moveErrorTimer);
  node.hidden = !text;
  $("move-error-text").textContent = text || "";
  if (text) moveErrorTimer = setTimeout(() => showMoveError(null), 8000);
}

/** Copy the link in the input next to the clicked button. */
export async function copyFrom(event) {
  const button = event.currentTarget;
  const input = button.parentElement.querySelector("input");
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(input.value);
    button.textContent = t("Copied!");
  } catch {
    input.select();
    button.textContent = t("Press Ctrl+C");
  }
  setTimeout(() => {
    button.textContent = label;
  }, 1800);
}

/** An error (or nothing) in the node that says it. */
export function say(node, error) {
  node.textContent = error ? error.message || String(error) : "";
  node.hidden = !error;
}
