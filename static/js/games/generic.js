// Fallback table for a game whose renderer is not written yet: whose turn it is and its legal moves.

import { fill, h } from "../dom.js";

function describe(action) {
  return Object.entries(action)
    .map(([key, value]) => (key === "type" ? String(value) : `${key} ${JSON.stringify(value)}`))
    .join(" · ");
}

export function mount(root, ctx) {
  const status = h("p", { class: "mojo-status", id: "turn-status" });
  const moves = h("div", { class: "button-row" });
  fill(root, 
    h("div", { class: "felt generic-table" }, h("p", { class: "muted" }, "This game's table is still being built; its moves are listed plainly."), status, moves),
  );
  return {
    update(state) {
      const waiting = (state.to_act || []).map((seat) => (seat === ctx.mySeat ? "you" : ctx.seatName(seat)));
      status.textContent = state.result ? "The game is over." : waiting.length ? `Waiting for ${waiting.join(", ")}.` : "";
      fill(moves, 
        ...(state.legal_actions || []).map((action) =>
          h("button", { class: "button", type: "button", onclick: () => ctx.act(action).catch(() => {}) }, describe(action)),
        ),
      );
    },
    destroy() {
      root.replaceChildren();
    },
  };
}
