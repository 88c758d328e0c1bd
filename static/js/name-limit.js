// A name field says when it is full: the browser stops a name at its maxlength (24) without a
// word, so a longer name would be cut without the player knowing. The note shows once the field
// is full and is read out politely.

import { t } from "./i18n.js";

export function watchNameLimit(input) {
  if (!input || !input.maxLength || input.maxLength < 0 || input.dataset.limitWatched) return;
  input.dataset.limitWatched = "yes";
  const note = document.createElement("small");
  note.className = "name-limit muted";
  note.setAttribute("aria-live", "polite");
  note.hidden = true;
  input.insertAdjacentElement("afterend", note);
  const check = () => {
    const full = input.value.length >= input.maxLength;
    note.hidden = !full;
    note.textContent = full ? t("Names keep to {num} characters.", { num: input.maxLength }) : "";
  };
  input.addEventListener("input", check);
  check();
}

/** Every name field of the page (the join form, the lobby, around one device). */
export function watchNameFields(root = document) {
  for (const input of root.querySelectorAll("input[autocomplete=nickname][maxlength], #player-name, #device-name")) watchNameLimit(input);
}
