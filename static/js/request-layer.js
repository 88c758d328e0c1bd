// The request layer (`#request-layer`): what asks something of you now (a request for your seat, a
// pause, a takeback, a refused move) floats at the foot of the screen over whatever part of the
// page is scrolled into view, so it is seen where you are looking and never pushes the table
// around. The page keeps room at its end for it (`--request-layer` on the document), so nothing
// is left hidden under it once scrolled to the bottom. A part that asks you to answer marks itself
// `data-asks="<what is asked>"`; each new one shown sounds the request chime once.

/** The keys of the questions to you now shown in `layer` (its `[data-asks]` parts not hidden). */
export function shownAsks(layer) {
  return new Set([...layer.querySelectorAll("[data-asks]")].filter((node) => !node.closest("[hidden]")).map((node) => node.dataset.asks));
}

/** Keeps `--request-layer` at the height the layer covers (0 when all its parts are hidden), and
 *  calls `chime()` when a new question to you shows in it (not for those there as the page opens). */
export function floatRequests(layer, { chime = null } = {}) {
  if (!layer) return;
  const root = document.documentElement;
  const measure = () => root.style.setProperty("--request-layer", `${Math.ceil(layer.getBoundingClientRect().height)}px`);
  if (typeof ResizeObserver === "function") new ResizeObserver(measure).observe(layer);
  measure();
  if (!chime || typeof MutationObserver !== "function") return;
  let heard = shownAsks(layer);
  new MutationObserver(() => {
    const now = shownAsks(layer);
    if ([...now].some((key) => !heard.has(key))) chime();
    heard = now;
  }).observe(layer, { subtree: true, childList: true, attributes: true, attributeFilter: ["hidden", "data-asks"] });
}
