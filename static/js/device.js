// Around one device: several seats of one room played from one page. The page keeps each local
// seat's token (storage.js) and acts as whichever of them the game is waiting for. Pure logic,
// no DOM: room.js draws the "players on this device" form and the pass-the-device screen.

/** Every seat this page holds in a room: the entry's own seat first, then its local players. */
export function heldSeats(entry) {
  if (!entry || !Number.isInteger(entry.seat)) return [];
  const held = [{ seat: entry.seat, token: entry.token, name: entry.name }];
  for (const local of entry.locals || []) {
    if (Number.isInteger(local?.seat) && local.token && !held.some((h) => h.seat === local.seat)) {
      held.push({ seat: local.seat, token: local.token, name: local.name });
    }
  }
  return held;
}

/**
 * The seat the page should act as now. The current seat stays while the game waits for it (or
 * for none of the page's seats); otherwise the first held seat the game waits for, counted from
 * the seat after the current one, so the device goes round the table in turn order.
 */
export function dueSeat(toAct, held, current) {
  const waiting = new Set(toAct || []);
  const seatsHere = held.map((h) => h.seat);
  if (!seatsHere.length) return null;
  if (waiting.has(current)) return current;
  const after = [...seatsHere].sort((a, b) => a - b);
  const start = Number.isInteger(current) ? after.findIndex((s) => s > current) : 0;
  const order = start < 0 ? after : [...after.slice(start), ...after.slice(0, start)];
  const due = order.find((s) => waiting.has(s));
  if (due !== undefined) return due;
  return seatsHere.includes(current) ? current : seatsHere[0];
}

/**
 * Whether handing the device from one seat to another must hide the table until the next
 * player taps: always, unless the game's descriptor (`GET /api/games`) says its table is open
 * (`open_table`: nothing is hidden, or only from seats while they are not to act). Without a
 * descriptor the table is covered.
 */
export function mustPass(from, to, game) {
  return game?.open_table !== true && from !== null && from !== undefined && from !== to;
}

/** The entry with one more local player (a seat joined from this page). */
export function withLocal(entry, local) {
  const fresh = { seat: local.seat, token: local.token, name: local.name };
  const locals = entry.locals || [];
  const known = locals.some((l) => l.seat === local.seat);
  return { ...entry, locals: known ? locals.map((l) => (l.seat === local.seat ? fresh : l)) : [...locals, fresh] };
}
