// A game's table by convention: `games/<id>.js` (else the generic table) and its stylesheet
// `css/games/<id>.css` when it has one, linked before the table is drawn. Used by the room and
// the replay page.
//
// A game without a table of its own (its file answers 404) is played on the generic table: that
// is the convention, not an error. A table that exists but fails to load (a syntax error, an
// import of a missing module, an exception while its module runs) is an error the player is shown:
// `loadTable` rejects with a TableLoadError, never falling back to the generic table in silence.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export class TableLoadError extends Error {
  constructor(gameId, cause) {
    super(t("This game's table failed to load: {reason}", { reason: cause?.message || cause }));
    this.name = "TableLoadError";
    this.gameId = gameId;
    this.cause = cause;
  }
}

/** Whether the game has a renderer file: true, false on 404, and an error for any other answer. */
export async function hasTable(url, fetcher = fetch) {
  const answer = await fetcher(url, { method: "HEAD", cache: "no-cache" });
  if (answer.status === 404) return false;
  if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
  return true;
}

export async function loadTable(gameId) {
  if (!/^[a-z][a-z0-9-]*$/.test(gameId)) throw new Error(`bad game id ${gameId}`);
  const href = `/static/css/games/${gameId}.css`;
  const styled = (async () => {
    if (document.querySelector(`link[href="${href}"]`)) return;
    // A game without a stylesheet of its own is drawn with the table kit's styles alone. Asked
    // first (HEAD): a <link> to a missing file logs a refused-stylesheet error in the console.
    let present;
    try {
      present = await hasTable(href);
    } catch {
      present = false;
    }
    if (!present) return;
    await new Promise((resolve) => {
      const link = h("link", { rel: "stylesheet", href });
      link.addEventListener("load", resolve);
      link.addEventListener("error", () => {
        link.remove();
        resolve();
      });
      document.head.append(link);
    });
  })();
  const url = `/static/js/games/${gameId}.js`;
  let module;
  try {
    module = (await hasTable(url)) ? await import(url) : await import("/static/js/games/generic.js");
    if (typeof module.mount !== "function") throw new Error(`${url} exports no mount(root, ctx)`);
  } catch (error) {
    throw new TableLoadError(gameId, error);
  }
  await styled;
  return module;
}

/** Draw a table that failed to load in its place, for the player to see (and say it in the console). */
export function showTableError(root, error) {
  console.error(error.message, error.cause || error);
  root.replaceChildren(h("p", { class: "table-error", role: "alert" }, error.message));
}
