// What this browser remembers: the seats it holds (the token is the only proof of a seat,
// so reopening a room's link returns to the same seat), the name last typed and small settings.
//
// A browser may block site storage (privacy settings, some embedded views): then reading
// `localStorage` throws. The page must still work: values live in memory for as long as the
// page is open, and `storageBlocked` lets the page warn a player that a reload loses the seat.

const SEATS_KEY = "motable.seats";
const NAME_KEY = "motable.name";
const SEEN_KEY = "motable.seen";

/** A Storage-like object that keeps values in memory only. */
export function memoryStore() {
  const values = new Map();
  return {
    getItem: (key) => (values.has(key) ? values.get(key) : null),
    setItem: (key, value) => values.set(key, String(value)),
    removeItem: (key) => values.delete(key),
  };
}

/** The browser's localStorage when it can be used, else null. */
function probe(win) {
  try {
    const store = win.localStorage;
    const key = "motable.probe";
    store.setItem(key, "1");
    store.removeItem(key);
    return store;
  } catch {
    return null;
  }
}

const real = typeof window === "undefined" ? null : probe(window);

/** True when this browser will not remember anything after the page closes. */
export const storageBlocked = real === null;

/** Where values are kept: the real storage, or memory when it is blocked. Never throws. */
export const store = real ?? memoryStore();

function readSeats() {
  try {
    const seats = JSON.parse(store.getItem(SEATS_KEY) || "{}");
    return seats && typeof seats === "object" ? seats : {};
  } catch {
    return {};
  }
}

function write(key, value) {
  try {
    store.setItem(key, value);
  } catch {
    // Quota exceeded or storage withdrawn while the page was open: keep playing; nothing is remembered.
  }
}

export const seats = {
  all() {
    return readSeats();
  },
  get(roomId) {
    return readSeats()[roomId] || null;
  },
  save(roomId, entry) {
    const all = readSeats();
    all[roomId] = { ...all[roomId], ...entry, room_id: roomId, saved_at: Date.now() };
    write(SEATS_KEY, JSON.stringify(all));
  },
  /** Update what is known of a held seat's room (its game, status) without reordering the list. */
  keep(roomId, facts) {
    const all = readSeats();
    if (!all[roomId]) return;
    all[roomId] = { ...all[roomId], ...facts, room_id: roomId };
    write(SEATS_KEY, JSON.stringify(all));
  },
  forget(roomId) {
    const all = readSeats();
    delete all[roomId];
    write(SEATS_KEY, JSON.stringify(all));
  },
};

function readSeen() {
  try {
    const seen = JSON.parse(store.getItem(SEEN_KEY) || "{}");
    return seen && typeof seen === "object" ? seen : {};
  } catch {
    return {};
  }
}

/** The last version of each room this browser showed its player, with the totals then
 * (since-you-left.js): `{version, totals, at}` per room id. */
export const lastSeen = {
  get(roomId) {
    return readSeen()[roomId] || null;
  },
  save(roomId, { version, totals }) {
    const all = readSeen();
    if (all[roomId]?.version === version) return;
    all[roomId] = { version, totals, at: Date.now() };
    write(SEEN_KEY, JSON.stringify(all));
  },
  forget(roomId) {
    const all = readSeen();
    delete all[roomId];
    write(SEEN_KEY, JSON.stringify(all));
  },
};

export const playerName = {
  get() {
    return store.getItem(NAME_KEY) || "";
  },
  set(name) {
    write(NAME_KEY, name);
  },
};

/** A small on/off setting kept with the rest (e.g. the turn sound). */
export function setting(key) {
  return {
    get on() {
      return store.getItem(key) === "on";
    },
    set on(value) {
      write(key, value ? "on" : "off");
    },
  };
}
