// The request layer (`#request-layer`): what asks something of you now (a request for your seat, a
// pause, a takeback, a refused move) floats at the foot of the screen over whatever part of the
// page is scrolled into view, so it is seen where you are looking and never pushes the table
// around. The page keeps room at its end for it (`--request-layer` on the document), so nothing
// is left hidden under it once scrolled to the bottom.

/** Keeps `--request-layer` at the height the layer covers (0 when all its parts are hidden). */
export function floatRequests(layer) {
  if (!layer) return;
  const root = document.documentElement;
  const measure = () => root.style.setProperty("--request-layer", `${Math.ceil(layer.getBoundingClientRect().height)}px`);
  if (typeof ResizeObserver === "function") new ResizeObserver(measure).observe(layer);
  measure();
}
