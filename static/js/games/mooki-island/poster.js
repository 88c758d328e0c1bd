// The poster at the end of a Mooki Island game: every Mooki each player befriended, on an island.

import { t, tn } from "../../i18n.js";
import { s } from "./cards.js";

export function poster(end, name) {
  const width = 360;
  const height = 230;
  const spots = [];
  // Each family lives in its own corner of the island.
  const homes = { sun: [180, 60], moon: [70, 95], fossil: [290, 95], seashell: [110, 170], leaf: [250, 170] };
  for (const side of end.sorted) {
    const friends = side.faces.filter((f) => f.kind !== "spider");
    friends.forEach((face, i) => {
      const [hx, hy] = homes[face.family];
      const angle = (i * 2.4 + side.seat * 1.2) % (Math.PI * 2);
      const r = 8 + (i % 4) * 7;
      spots.push({ face, seat: side.seat, x: hx + Math.cos(angle) * r * 1.6, y: hy + Math.sin(angle) * r });
    });
  }
  const creature = ({ face, seat, x, y }) =>
    s(
      "g",
      { transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`, class: `p-mooki f-${face.family} owner-${seat}${face.kind === "legendary" ? " is-legendary" : ""}` },
      face.kind === "legendary" ? s("circle", { r: 11, class: "halo" }) : null,
      s("ellipse", { rx: 7, ry: 6.5, class: "body" }),
      s("circle", { cx: -2.4, cy: -1.5, r: 1.2, class: "eye" }),
      s("circle", { cx: 2.4, cy: -1.5, r: 1.2, class: "eye" }),
      s("path", { d: "M-2 2 q2 2 4 0", class: "smile" }),
    );
  const counts = end.sorted.map((side) => side.faces.filter((f) => f.kind !== "spider").length);
  const friends = end.sorted.map((side, i) => tn("{name} befriended {num} Mooki", "{name} befriended {num} Mookies", counts[i], { name: name(side.seat) }));
  const label = t("Mooki Island poster: {friends}", { friends: friends.join(", ") });
  return s(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, class: "mooki-poster", role: "img", "aria-label": label },
    s("rect", { x: 0, y: 0, width, height, class: "sea" }),
    s("path", { d: "M20 130 C 30 40, 120 20, 180 30 C 260 20, 350 50, 340 130 C 345 200, 250 220, 180 215 C 90 225, 10 200, 20 130 Z", class: "sand" }),
    s("path", { d: "M40 130 C 50 60, 130 45, 180 52 C 250 45, 325 70, 318 130 C 320 185, 245 200, 180 196 C 100 203, 35 185, 40 130 Z", class: "grass" }),
    s("path", { d: "M160 70 l20 -30 l20 30 z", class: "hill" }),
    spots.map(creature),
    s("text", { x: 12, y: 20, class: "poster-title" }, document.createTextNode("Mooki Island")),
  );
}
