// Mooki Island's card faces: the creature art (SVG), a card, a card back and a small stack.

import { h } from "../../dom.js";
import { glyph } from "../../glyph.js";
import { SYMBOL, capital, faceWords, familyName } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child) node.append(child);
  }
  return node;
}

/** A Mooki: a round creature in its family's colour with its family's mark; a Spider is black with eight legs. */
export function faceArt(face, { small = false } = {}) {
  const size = small ? 44 : 80;
  if (face.kind === "spider") {
    const legs = [];
    for (const side of [-1, 1]) {
      for (const [i, y] of [28, 36, 44, 52].entries()) {
        const bend = 10 + i * 2;
        legs.push(s("path", { d: `M${40 + side * 8} ${y} q${side * bend} -10 ${side * 24} ${i * 4 - 2}`, class: "leg" }));
      }
    }
    return s(
      "svg",
      { viewBox: "0 0 80 80", width: size, height: size, class: "art art-spider", "aria-hidden": "true" },
      legs,
      s("ellipse", { cx: 40, cy: 44, rx: 14, ry: 16, class: "body" }),
      s("circle", { cx: 40, cy: 26, r: 9, class: "body" }),
      s("circle", { cx: 36, cy: 24, r: 2.6, class: "eye" }),
      s("circle", { cx: 44, cy: 24, r: 2.6, class: "eye" }),
      s("path", { d: "M34 50 l6 -6 l6 6 l-6 6 z", class: "mark" }),
    );
  }
  const family = face.family;
  const marks = {
    sun: () => [0, 45, 90, 135, 180, 225, 270, 315].map((a) => s("line", { x1: 40, y1: 6, x2: 40, y2: 14, transform: `rotate(${a} 40 44)`, class: "ray" })),
    moon: () => [s("path", { d: "M52 6 a10 10 0 1 0 8 16 a8 8 0 1 1 -8 -16z", class: "mark" })],
    fossil: () => [s("path", { d: "M40 16 m-8 0 a8 8 0 1 1 16 0 a6 6 0 1 1 -12 0 a4 4 0 1 1 8 0", class: "swirl" })],
    seashell: () => [s("path", { d: "M28 18 q12 -16 24 0 z M34 18 l6 -10 l6 10", class: "mark" })],
    leaf: () => [s("path", { d: "M40 4 q14 8 0 20 q-14 -12 0 -20 z", class: "mark" }), s("line", { x1: 40, y1: 6, x2: 40, y2: 22, class: "vein" })],
  };
  return s(
    "svg",
    { viewBox: "0 0 80 80", width: size, height: size, class: `art art-${family}${face.kind === "legendary" ? " art-legendary" : ""}`, "aria-hidden": "true" },
    face.kind === "legendary" ? s("circle", { cx: 40, cy: 46, r: 34, class: "halo" }) : null,
    (marks[family] || (() => []))(),
    s("ellipse", { cx: 40, cy: 50, rx: 24, ry: 22, class: "body" }),
    s("ellipse", { cx: 40, cy: 58, rx: 14, ry: 9, class: "belly" }),
    s("circle", { cx: 32, cy: 46, r: 5, class: "eye-white" }),
    s("circle", { cx: 48, cy: 46, r: 5, class: "eye-white" }),
    s("circle", { cx: 33, cy: 47, r: 2.4, class: "eye" }),
    s("circle", { cx: 49, cy: 47, r: 2.4, class: "eye" }),
    s("path", { d: "M35 56 q5 5 10 0", class: "smile" }),
    face.kind === "legendary" ? [s("path", { d: "M14 22 l2 5 l5 2 l-5 2 l-2 5 l-2 -5 l-5 -2 l5 -2z", class: "sparkle" }), s("path", { d: "M64 62 l1.5 4 l4 1.5 l-4 1.5 l-1.5 4 l-1.5 -4 l-4 -1.5 l4 -1.5z", class: "sparkle" })] : null,
  );
}

/** The name printed on a face's card: "Sun", "★ Moon" (a Legendary), "Spider". */
export function printedName(face) {
  return face.kind === "spider" ? faceWords(face, { article: "bare" }) : `${face.kind === "legendary" ? "★ " : ""}${familyName(face.family || "spider")}`;
}

/** One face as a card. `tag: "button"` for a face that can be chosen. */
export function card(face, { tag = "div", small = false, attrs = {}, note = "" } = {}) {
  const family = face.family || "spider";
  const label = capital(faceWords(face, { article: "bare" }));
  // The name printed on the card, set smaller the longer it is, so it fits the card (its length is
  // the stylesheet's --len: "Seashell" on a small card, "Coquillage").
  const printed = printedName(face);
  const letters = [...printed].length;
  return h(
    tag,
    {
      class: `mooki-card f-${family} k-${face.kind}${small ? " is-small" : ""}`,
      ...(tag === "button" ? { type: "button" } : { role: "img", "aria-label": `${label}${note}` }),
      "data-face": face.kind === "spider" ? "spider" : `${face.kind}-${face.family}`,
      ...attrs,
    },
    glyph("span", { class: "mooki-badge", "aria-hidden": "true" }, face.kind === "spider" ? "✷" : SYMBOL[family]),
    faceArt(face, { small }),
    withVars(glyph("span", { class: `mooki-name${letters > 8 ? " is-long" : ""}`, "aria-hidden": "true" }, printed), { len: letters }),
  );
}

export function cardBack({ small = false } = {}) {
  return h("div", { class: `mooki-card mooki-back${small ? " is-small" : ""}`, "aria-hidden": "true" }, glyph("span", { class: "mooki-back-mark" }, "?"));
}

/** `node` with CSS custom properties set through the CSSOM: the page's Content-Security-Policy
 *  (style-src 'self') blocks `style` attributes, but not properties set from a script. */
export function withVars(node, vars) {
  for (const [name, value] of Object.entries(vars)) node.style.setProperty(`--${name}`, String(value));
  return node;
}

/** A pile of `count` cards with `top` (a face or null) on it, drawn as a small stack. */
export function stack(top, count, { small = false } = {}) {
  const depth = Math.min(count - 1, 4);
  const edges = Array.from({ length: Math.max(depth, 0) }, (_, i) => withVars(h("span", { class: "mooki-edge", "aria-hidden": "true" }), { i: i + 1 }));
  return withVars(
    h(
      "div",
      { class: "mooki-stack" },
      edges,
      // An empty place is the size of the card that will fill it (a collection's small one).
      top ? card(top, { small }) : count ? cardBack({ small }) : h("div", { class: `mooki-card mooki-empty${small ? " is-small" : ""}`, "aria-hidden": "true" }),
    ),
    { depth: Math.max(depth, 0) },
  );
}
