// Text that is part of a picture (a card's corner index, its symbol, its printed name) drawn by
// CSS from a data attribute instead of as text in the page. A button holding a card face is named
// by what it does ("Play red 7"); its visible text must be part of that name for speech control
// (WCAG 2.5.3), and a picture's repeated corner glyphs are not words anyone would say.

import { h } from "./dom.js";

/** `h(tag, attrs)` showing `text` through `[data-glyph]::before` (table-kit.css). */
export function glyph(tag, attrs, text) {
  return h(tag, { ...attrs, "data-glyph": String(text) });
}
