// Stepping through a replay: the first table and one patch per action, any step reached
// forward or back. DOM-free, so it runs under `node --test`.

import { applyPatch } from "./patch.js";

/** Every CHECKPOINT steps a full copy is kept, so going back never replays the whole match. */
const CHECKPOINT = 25;

export class ReplaySteps {
  constructor(first, steps) {
    this.steps = steps;
    this.saved = new Map([[0, structuredClone(first)]]);
    this.at = 0;
    this.state = structuredClone(first);
  }

  /** The number of actions; steps run from 0 (the deal) to `length`. */
  get length() {
    return this.steps.length;
  }

  /** The action that led to step `n` (null for the deal). */
  action(n) {
    return n > 0 ? this.steps[n - 1] : null;
  }

  /** The table at step `n` (clamped), as a fresh object the caller may keep. */
  go(n) {
    const target = Math.max(0, Math.min(this.length, Math.trunc(n)));
    if (target < this.at) {
      const base = Math.floor(target / CHECKPOINT) * CHECKPOINT;
      this.at = base;
      this.state = structuredClone(this.saved.get(base));
    }
    while (this.at < target) {
      this.state = applyPatch(this.state, this.steps[this.at].ops);
      this.at += 1;
      if (this.at % CHECKPOINT === 0 && !this.saved.has(this.at)) this.saved.set(this.at, structuredClone(this.state));
    }
    return structuredClone(this.state);
  }
}

/** The replay's address for sharing: viewpoint and step in the query string. */
export function replayAddress(path, viewpoint, step) {
  const query = new URLSearchParams({ seat: String(viewpoint), step: String(step) });
  return `${path}?${query}`;
}

/** Read `?seat=` and `?step=` back: the viewpoint (seat number, "all", "spectator") and step. */
export function readAddress(search, players) {
  const query = new URLSearchParams(search);
  const raw = query.get("seat");
  let viewpoint = "spectator";
  if (raw === "all") viewpoint = "all";
  else if (raw !== null && /^\d+$/.test(raw) && Number(raw) < players) viewpoint = Number(raw);
  const step = Number(query.get("step"));
  return { viewpoint, step: Number.isFinite(step) && step > 0 ? Math.trunc(step) : 0 };
}
