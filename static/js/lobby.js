// The lobby: create a room with options built from the game's JSON Schema, and list this browser's rooms
// (lobby-games.js).

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { startYourGames } from "./lobby-games.js";
import { startPasskeyBox } from "./lobby-passkey.js";
import { t } from "./i18n.js";
import { CLOCKS } from "./people-kit.js";
import { playerName, seats, storageBlocked } from "./storage.js";
import { watchNameFields } from "./name-limit.js";

watchNameFields();

const games = JSON.parse(document.getElementById("games-data").textContent);
const form = document.getElementById("create-form");
const nameInput = document.getElementById("player-name");
const optionsBox = document.getElementById("options");
const optionsFields = document.getElementById("options-fields");
const errorBox = document.getElementById("create-error");
const clockChoice = document.getElementById("lobby-clock");

function words(key) {
  const spaced = key.replace(/[_-]+/g, " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

// A game's own words (an option's title, hint and choices) are English msgids the engines mark:
// the browser's catalogue holds them, so each is said in the reader's language as it is shown.
const said = (text) => t(String(text));

/** Resolve a local "$ref" such as "#/$defs/Thing" inside `schema`. */
function resolve(schema, node) {
  if (node && node.$ref && node.$ref.startsWith("#/")) {
    return node.$ref
      .slice(2)
      .split("/")
      .reduce((at, key) => (at ? at[key] : undefined), schema);
  }
  return node;
}

/** An option's one-line hint, and a link to the rules section that tells it in full. */
function optionHelp(game, prop, label) {
  const section = prop["x-motable-rules"];
  if (!prop.description && !section) return null;
  const hint = prop.description ? said(prop.description) : null;
  const rulesLabel = t("rules for {option}", { option: label });
  return h(
    "small",
    { class: "field-help" },
    hint ? h("span", { class: "field-hint" }, hint) : null,
    // As each game's line says it: "2–6 players · rules".
    section
      ? [
          prop.description ? " " : "",
          h(
            "span",
            { class: "field-rules" },
            prop.description ? "· " : "",
            h(
              "a",
              { href: `/rules/${game.id}#${encodeURIComponent(section)}`, target: "_blank", rel: "noopener", "aria-label": rulesLabel },
              t("rules"),
            ),
          ),
        ]
      : null,
  );
}

// One input per option, chosen by the schema's type; the server validates again.
function optionField(game, schema, key, raw) {
  const prop = resolve(schema, raw) || {};
  const id = `opt-${key}`;
  const label = prop.title ? said(prop.title) : words(key);
  const help = optionHelp(game, prop, label);
  // A choice's values are the game's codes: said in the game's words for them when it has some.
  const choiceWords = (choice) => said(prop["x-motable-choices"]?.[String(choice)] ?? String(choice));
  const choices = prop.enum || (prop.anyOf || []).map((p) => p.const).filter((v) => v !== undefined);
  if (prop.type === "boolean") {
    return h(
      "label",
      { class: "field field-check", for: id },
      h("input", { id, type: "checkbox", name: key, "data-kind": "boolean", checked: prop.default === true }),
      h("span", {}, label, help),
    );
  }
  if (choices.length) {
    return h(
      "label",
      { class: "field", for: id },
      h("span", {}, label),
      h(
        "select",
        { id, name: key, "data-kind": typeof choices[0] === "number" ? "number" : "string" },
        choices.map((choice) => h("option", { value: String(choice), selected: choice === prop.default }, choiceWords(choice))),
      ),
      help,
    );
  }
  if (prop.type === "integer" || prop.type === "number") {
    return h(
      "label",
      { class: "field", for: id },
      h("span", {}, label),
      h("input", {
        id,
        name: key,
        type: "number",
        inputmode: "numeric",
        "data-kind": "number",
        min: prop.minimum ?? prop.exclusiveMinimum,
        max: prop.maximum ?? prop.exclusiveMaximum,
        step: prop.type === "integer" ? 1 : "any",
        value: prop.default ?? "",
      }),
      help,
    );
  }
  return h(
    "label",
    { class: "field", for: id },
    h("span", {}, label),
    h("input", { id, name: key, "data-kind": "string", value: prop.default ?? "" }),
    help,
  );
}

function selectedGame() {
  const choice = form.querySelector('input[name="game"]:checked');
  return choice ? games.find((g) => g.id === choice.value) : null;
}

function showOptions() {
  const game = selectedGame();
  const schema = game?.options_schema;
  // Who starts is asked on the start screen, from the players actually seated; a seat
  // option (a number the API speaks) is not a question for the room's creator.
  const asked = game?.starter?.option;
  const properties = Object.entries(schema?.properties || {}).filter(
    ([key, prop]) => key !== asked && resolve(schema, prop)?.["x-motable-widget"] !== "seat",
  );
  optionsBox.hidden = !properties.length;
  fill(optionsFields, ...properties.map(([key, prop]) => optionField(game, schema, key, prop)));
  for (const label of form.querySelectorAll(".game-choice")) {
    label.classList.toggle("is-chosen", label.dataset.game === game?.id);
  }
}

function readOptions() {
  const options = {};
  for (const input of optionsFields.querySelectorAll("[data-kind]")) {
    if (input.dataset.kind === "boolean") options[input.name] = input.checked;
    else if (input.value === "") continue;
    else if (input.dataset.kind === "number") options[input.name] = Number(input.value);
    else options[input.name] = input.value;
  }
  return options;
}

async function create(event) {
  event.preventDefault();
  const name = nameInput.value.trim();
  const game = selectedGame();
  errorBox.hidden = true;
  if (!name) {
    errorBox.textContent = t("Type your name first, so your friends know who invited them.");
    errorBox.hidden = false;
    nameInput.focus();
    return;
  }
  if (!game) return;
  const button = document.getElementById("create-button");
  button.disabled = true;
  try {
    const clock = clockChoice.value ? Number(clockChoice.value) : null;
    const room = await api("POST", "/api/rooms", { body: { game: game.id, name, options: readOptions(), clock } });
    playerName.set(name);
    seats.save(room.room_id, { seat: room.seat, token: room.token, name, game: game.id, status: "waiting" });
    // A browser that keeps nothing carries the seat to the room page in the link's fragment
    // (never sent to the server; the room page takes it out of the address bar at once).
    location.assign(storageBlocked ? `${room.join_url}#seat=${room.token}` : room.join_url);
  } catch (error) {
    errorBox.textContent = error.message;
    errorBox.hidden = false;
    button.disabled = false;
  }
}

nameInput.value = playerName.get();
form.addEventListener("change", (event) => {
  if (event.target.name === "game") showOptions();
});
form.addEventListener("submit", create);
fill(clockChoice, ...CLOCKS.map(([value, label]) => h("option", { value: value === null ? "" : String(value) }, label)));
showOptions();
const yourGames = startYourGames(games);
const passkeyBox = startPasskeyBox(document.getElementById("passkey-box"), { changed: () => yourGames.refresh() });
window.addEventListener("storage", () => passkeyBox?.draw());
