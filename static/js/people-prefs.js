// What this browser keeps about the people of one room (DOM-free): whom the reader muted, whether
// they chose to just watch, the seat request they are waiting on, and the your-turn notification
// opt-in. Every value lives in `store` (the page's `storage.js` store, or a memory one in tests).

export const MUTED_KEY = "motable.muted";
export const NOTIFY_KEY = "motable.notify";
export const ASKED_KEY = "motable.asked";
export const WATCHING_KEY = "motable.watching";

export function readJson(storage, key, fallback) {
  try {
    return JSON.parse(storage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

/** One room's entry of a per-room map kept under `key`: `undefined` deletes it. */
function writeRoom(storage, key, roomId, value) {
  const all = readJson(storage, key, {});
  if (value === undefined) delete all[roomId];
  else all[roomId] = value;
  storage.setItem(key, JSON.stringify(all));
}

export function roomPrefs(storage, roomId) {
  return {
    /** The muted: seat numbers for players, shown names for spectators. */
    muted: () => readJson(storage, MUTED_KEY, {})[roomId] || [],
    setMuted: (list) => writeRoom(storage, MUTED_KEY, roomId, list),
    justWatching: () => Boolean(readJson(storage, WATCHING_KEY, {})[roomId]),
    setJustWatching: (on) => writeRoom(storage, WATCHING_KEY, roomId, on ? true : undefined),
    /** The seat request this browser is waiting on here, or null. */
    asked: () => readJson(storage, ASKED_KEY, {})[roomId] || null,
    setAsked: (request) => writeRoom(storage, ASKED_KEY, roomId, request || undefined),
    /** Whether the reader opted in to your-turn notifications (every room). */
    notify: () => storage.getItem(NOTIFY_KEY) === "on",
    setNotify: (on) => storage.setItem(NOTIFY_KEY, on ? "on" : "off"),
  };
}
