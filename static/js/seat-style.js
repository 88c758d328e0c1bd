// Each seat's one look, used everywhere a seat is drawn: its avatar on the table and the lists,
// its line, legend and marker in the score pad, its mark in the log. A colour AND a shape (and a
// dash for chart lines): players who tell colours apart poorly (red-green, blue-yellow) or see the
// page in greyscale still tell the seats apart by the shape. Eight looks: Mojo seats eight.

import { h } from "./dom.js";
import { initial } from "./people-kit.js";

const SVG = "http://www.w3.org/2000/svg";

export const SEAT_STYLES = [
  { colour: "#f4d35e", dash: "", marker: "circle", name: "circle" },
  { colour: "#7cc6fe", dash: "6 4", marker: "square", name: "square" },
  { colour: "#ff8fa3", dash: "2 4", marker: "diamond", name: "diamond" },
  { colour: "#b8f2a6", dash: "10 4 2 4", marker: "triangle", name: "triangle" },
  { colour: "#e0b1ff", dash: "1 3", marker: "cross", name: "cross" },
  { colour: "#ffffff", dash: "12 3", marker: "star", name: "star" },
  { colour: "#ffb26b", dash: "4 2", marker: "down", name: "down triangle" },
  { colour: "#6fe3d4", dash: "8 2 1 2", marker: "plus", name: "plus" },
];

/** The look of `seat` (seat numbers from 0; more seats than looks wrap round). */
export function seatStyle(seat) {
  const n = Number.isInteger(seat) && seat >= 0 ? seat : 0;
  return { ...SEAT_STYLES[n % SEAT_STYLES.length], index: n % SEAT_STYLES.length };
}

export function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/** The marker `kind` centred on (x, y), about 2r wide, filled (or stroked) with `colour`. */
export function marker(kind, x, y, colour, r = 3.4) {
  switch (kind) {
    case "square":
      return svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: colour });
    case "diamond":
      return svg("path", { d: `M${x} ${y - r - 1}L${x + r + 1} ${y}L${x} ${y + r + 1}L${x - r - 1} ${y}Z`, fill: colour });
    case "triangle":
      return svg("path", { d: `M${x} ${y - r - 1}L${x + r + 1} ${y + r}L${x - r - 1} ${y + r}Z`, fill: colour });
    case "down":
      return svg("path", { d: `M${x} ${y + r + 1}L${x + r + 1} ${y - r}L${x - r - 1} ${y - r}Z`, fill: colour });
    case "cross":
      return svg("path", {
        d: `M${x - r} ${y - r}L${x + r} ${y + r}M${x - r} ${y + r}L${x + r} ${y - r}`,
        stroke: colour,
        "stroke-width": Math.max(2, r * 0.6),
      });
    case "plus":
      return svg("path", {
        d: `M${x - r - 0.5} ${y}L${x + r + 0.5} ${y}M${x} ${y - r - 0.5}L${x} ${y + r + 0.5}`,
        stroke: colour,
        "stroke-width": Math.max(2, r * 0.6),
      });
    case "star": {
      const points = Array.from({ length: 10 }, (_, i) => {
        const a = (Math.PI / 5) * i - Math.PI / 2;
        const d = i % 2 ? r * 0.5 : r + 1;
        return `${(x + d * Math.cos(a)).toFixed(2)} ${(y + d * Math.sin(a)).toFixed(2)}`;
      });
      return svg("path", { d: `M${points.join("L")}Z`, fill: colour });
    }
    default:
      return svg("circle", { cx: x, cy: y, r, fill: colour });
  }
}

/** The seat's shape alone, small (the corner of an avatar, a log line). */
export function seatMark(seat, { size = 12, colour = null } = {}) {
  const style = seatStyle(seat);
  const root = svg("svg", { viewBox: "0 0 12 12", width: size, height: size, class: `seat-mark seat-c${style.index}`, "aria-hidden": "true", focusable: "false" });
  root.append(marker(style.marker, 6, 6, colour || "currentColor", 3.6));
  return root;
}

/** A seat's avatar: its initial on the seat's colour, with the seat's shape in the corner. Two
 *  players with the same initial ("Ada", "Ann") still differ by colour and shape. */
export function seatAvatar(seat, name, { letter = null } = {}) {
  const style = seatStyle(seat);
  return h(
    "span",
    { class: `avatar seat-c${style.index}`, "aria-hidden": "true", "data-mark": style.marker },
    letter ?? initial(name),
    seatMark(seat, { size: 13 }),
  );
}
