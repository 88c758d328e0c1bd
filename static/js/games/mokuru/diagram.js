// The diagram of a Mokuru trick's movement (SVG): the stops, the path, and marks for the extras.

import { t } from "../../i18n.js";
import { cardTitle } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";

export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) if (child) node.append(child);
  return node;
}

/** Where each diagram's stops lie, in a 100 x 60 box. */
function shapePoints(shape, flips) {
  const n = Math.max(1, Math.min(flips || 1, 5));
  if (shape === "triangle" || shape === "triangle_back") return [[20, 50], [50, 10], [80, 50], [20, 50]];
  if (shape === "square" || shape === "square_back") return [[25, 52], [25, 12], [75, 12], [75, 52], [25, 52]];
  if (shape === "crossroad") return [[20, 30], [80, 30]];
  return Array.from({ length: n + 1 }, (_, i) => [12 + (76 * i) / n, 34]);
}

/** An SVG drawing of the movement: the stops, the path, and marks for the extras. */
export function diagram(card) {
  const box = s("svg", { viewBox: "0 0 100 64", class: "mokuru-diagram", role: "img", "aria-label": t("Diagram: {trick}", { trick: cardTitle(card) }) });
  if (card.shape === "relay") {
    for (let i = 0; i < 4; i += 1) {
      box.append(s("circle", { cx: 16 + i * 23, cy: 22, r: 7, class: "mokuru-person" }));
      box.append(s("rect", { x: 11 + i * 23, y: 31, width: 10, height: 18, rx: 3, class: "mokuru-person" }));
      if (i < 3) box.append(s("path", { d: `M${22 + i * 23} 50 q6 -10 12 0`, class: "mokuru-path" }));
    }
    return box;
  }
  const points = shapePoints(card.shape, card.flips);
  box.append(s("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "mokuru-path" }));
  const back = /back/.test(card.shape) || card.shape === "crossroad";
  if (back) {
    const reversed = points.slice().reverse().map(([x, y]) => `${x},${y + 6}`);
    box.append(s("polyline", { points: reversed.join(" "), class: "mokuru-path mokuru-back" }));
  }
  points.forEach(([x, y], i) => {
    if (i === points.length - 1 && points.length > 2 && points[0][0] === x && points[0][1] === y) return;
    box.append(s("rect", { x: x - 3, y: y - 7, width: 6, height: 14, rx: 2, class: i === 0 ? "mokuru-block mokuru-start" : "mokuru-block" }));
    if (card.extras.includes("twin")) box.append(s("rect", { x: x + 4, y: y - 7, width: 6, height: 14, rx: 2, class: "mokuru-block" }));
  });
  const marks = [];
  if (card.extras.includes("hold")) marks.push(t("on hand"));
  if (card.extras.includes("catch")) marks.push(t("catch"));
  if (card.extras.includes("kiss")) marks.push(t("kiss"));
  if (card.extras.includes("blind")) marks.push(t("eyes shut"));
  if (card.extras.includes("both_hands")) marks.push(t("both hands"));
  if (card.extras.includes("three_in_a_row")) marks.push(t("x3 in a row"));
  if (marks.length) box.append(s("text", { x: 50, y: 62, "text-anchor": "middle", class: "mokuru-mark" }, document.createTextNode(marks.join(" · "))));
  return box;
}
