// A game's table by convention: `games/<id>.js` (else the generic table) and its stylesheet
// `css/games/<id>.css` when it has one, linked before the table is drawn. Used by the room and
// the replay page.

import { h } from "./dom.js";

export async function loadTable(gameId) {
  if (!/^[a-z][a-z0-9-]*$/.test(gameId)) throw new Error(`bad game id ${gameId}`);
  const href = `/static/css/games/${gameId}.css`;
  const styled = new Promise((resolve) => {
    if (document.querySelector(`link[href="${href}"]`)) return resolve();
    const link = h("link", { rel: "stylesheet", href });
    link.addEventListener("load", resolve);
    // A game without a stylesheet of its own is drawn with the table kit's styles alone.
    link.addEventListener("error", () => {
      link.remove();
      resolve();
    });
    document.head.append(link);
  });
  let module;
  try {
    module = await import(`/static/js/games/${gameId}.js`);
  } catch (error) {
    console.warn(`no renderer for ${gameId}, using the generic one`, error);
    module = await import("/static/js/games/generic.js");
  }
  await styled;
  return module;
}
