// The client's shared modules in one import, for renderers written before they were split
// by concern (api.js, storage.js, patch.js, connection.js, dom.js, words.js, table-kit.js).
// New code imports the module it needs.

export { ApiError, api } from "./api.js";
export { RoomConnection } from "./connection.js";
export { fill, h } from "./dom.js";
export { applyPatch } from "./patch.js";
export { playerName, seats } from "./storage.js";
export { listWords } from "./words.js";
