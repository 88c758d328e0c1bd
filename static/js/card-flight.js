// Cards that travel (FLIP): a table measures where its cards are before it redraws, then each card
// that now lies somewhere else is drawn at its old place and slides to its new one. A card that
// came from a seat whose hand is hidden starts at that seat; a trick that is taken flies, as a
// copy, to whoever won it. Only transforms and opacity move (through the Web Animations API, which
// the page's Content-Security-Policy allows); nothing waits for an animation, so a player can act
// while a card is still moving. Skipped under `prefers-reduced-motion` and in a hidden tab.

const DURATION = 260;
const EASING = "cubic-bezier(0.2, 0.7, 0.3, 1)";

export function motionAllowed() {
  if (typeof document === "undefined" || document.hidden) return false;
  return !window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

function rectsOf(root, selector) {
  const out = new Map();
  for (const node of root.querySelectorAll(selector)) {
    const box = node.getBoundingClientRect();
    if (box.width && box.height) out.set(node.dataset.cardId, box);
  }
  return out;
}

function slide(node, from, to, { fade = false } = {}) {
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return null;
  const scale = from.width && to.width ? from.width / to.width : 1;
  return node.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: fade ? 0.4 : 1 },
      { transform: "none", opacity: 1 },
    ],
    { duration: DURATION, easing: EASING },
  );
}

/** Slides `node` from the page box `from` (a DOMRect measured before the redraw) to where it is
 *  now, when motion is allowed; true when it moves. For a card whose journey no id tells. */
export function travel(node, from) {
  if (!node || !from || !motionAllowed()) return false;
  const to = node.getBoundingClientRect();
  return Boolean(to.width && slide(node, from, to, { fade: true }));
}

/**
 * `createFlight(root)` → { before(), after({ origins, taken }) }.
 * `before()` measures every `[data-card-id]` of `root`; `after()` runs after the redraw:
 * - a card with the same id now elsewhere slides from its old place;
 * - `origins`: Map(card id → element) for cards new on the table that came from that element
 *   (another player's seat);
 * - `taken`: { ids: [card id], to: element } sends copies of those cards (as they were before
 *   the redraw) to the trick's winner.
 * Returns how many cards moved (0 when motion is off).
 */
export function createFlight(root, { selector = "[data-card-id]" } = {}) {
  let old = new Map();
  let copies = new Map();
  return {
    before() {
      if (!motionAllowed()) {
        old = new Map();
        copies = new Map();
        return;
      }
      old = rectsOf(root, selector);
      copies = new Map();
      for (const node of root.querySelectorAll(selector)) copies.set(node.dataset.cardId, node);
    },
    after({ origins = new Map(), taken = null } = {}) {
      if (!motionAllowed() || (!old.size && !origins.size)) return 0;
      let moved = 0;
      for (const node of root.querySelectorAll(selector)) {
        const id = node.dataset.cardId;
        const to = node.getBoundingClientRect();
        if (!to.width) continue;
        const from = old.get(id) || origins.get(id)?.getBoundingClientRect();
        if (from && slide(node, from, to, { fade: !old.has(id) })) moved += 1;
      }
      if (taken?.to) {
        const target = taken.to.getBoundingClientRect();
        for (const id of taken.ids) {
          const from = old.get(String(id));
          const source = copies.get(String(id));
          if (!from || !source || root.contains(source)) continue;
          moved += flyCopy(root, source, from, target);
        }
      }
      old = new Map();
      copies = new Map();
      return moved;
    },
  };
}

/** A copy of `source` drawn at `from` flies to the middle of `target` and fades there (drawn
 *  inside `host`, so the table's own card styles still apply to it). */
function flyCopy(host, source, from, target) {
  const ghost = source.cloneNode(true);
  ghost.removeAttribute("id");
  ghost.removeAttribute("data-card-id");
  ghost.removeAttribute("data-action");
  ghost.setAttribute("aria-hidden", "true");
  ghost.classList.add("card-in-flight");
  ghost.querySelectorAll("[id]").forEach((n) => n.removeAttribute("id"));
  if (ghost.tagName === "BUTTON") ghost.tabIndex = -1;
  // Positioned through the CSSOM (allowed by the CSP, unlike a style attribute).
  Object.assign(ghost.style, { left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`, height: `${from.height}px` });
  host.append(ghost);
  const dx = target.left + target.width / 2 - (from.left + from.width / 2);
  const dy = target.top + target.height / 2 - (from.top + from.height / 2);
  const flight = ghost.animate(
    [
      { transform: "none", opacity: 1 },
      { transform: `translate(${dx}px, ${dy}px) scale(0.45)`, opacity: 0 },
    ],
    { duration: DURATION + 120, easing: EASING, delay: 120 },
  );
  const done = () => ghost.remove();
  flight.onfinish = done;
  flight.oncancel = done;
  setTimeout(done, DURATION + 800); // never left behind
  return 1;
}
