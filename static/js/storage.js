// What this browser remembers: the seats it holds (the token is the only proof of a seat,
// so reopening a room's link returns to the same seat) and the name last typed.

const SEATS_KEY = "motable.seats";
const NAME_KEY = "motable.name";

function readSeats() {
  try {
    const seats = JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
    return seats && typeof seats === "object" ? seats : {};
  } catch {
    return {};
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
    localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  },
  forget(roomId) {
    const all = readSeats();
    delete all[roomId];
    localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  },
};

export const playerName = {
  get() {
    return localStorage.getItem(NAME_KEY) || "";
  },
  set(name) {
    localStorage.setItem(NAME_KEY, name);
  },
};
