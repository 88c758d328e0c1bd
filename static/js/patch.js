// RFC 6902 JSON Patch: the server sends the change from one state body to the next.
// Pure functions on plain JSON, so they run (and are tested) without a browser.

function unescapePointer(token) {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

function parsePointer(pointer) {
  if (pointer === "") return [];
  if (pointer[0] !== "/") throw new Error(`bad JSON pointer ${pointer}`);
  return pointer.slice(1).split("/").map(unescapePointer);
}

function arrayIndex(array, token, allowEnd) {
  if (token === "-" && allowEnd) return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`bad array index ${token}`);
  const index = Number(token);
  if (index > array.length || (!allowEnd && index === array.length)) throw new Error(`index ${token} out of range`);
  return index;
}

function parentOf(doc, path) {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return { parent: null, key: null };
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(node)) node = node[arrayIndex(node, token, false)];
    else if (node !== null && typeof node === "object" && Object.hasOwn(node, token)) node = node[token];
    else throw new Error(`path ${path} does not exist`);
  }
  if (node === null || typeof node !== "object") throw new Error(`path ${path} has no container`);
  return { parent: node, key: tokens[tokens.length - 1] };
}

function getAt(doc, path) {
  let node = doc;
  for (const token of parsePointer(path)) {
    if (Array.isArray(node)) node = node[arrayIndex(node, token, false)];
    else if (node !== null && typeof node === "object" && Object.hasOwn(node, token)) node = node[token];
    else throw new Error(`path ${path} does not exist`);
  }
  return node;
}

function clone(value) {
  return value === undefined ? undefined : structuredClone(value);
}

function addAt(doc, path, value) {
  const { parent, key } = parentOf(doc, path);
  if (parent === null) return value;
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, value);
  else parent[key] = value;
  return doc;
}

function removeAt(doc, path) {
  const { parent, key } = parentOf(doc, path);
  if (parent === null) throw new Error("cannot remove the whole document");
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false), 1);
  else if (Object.hasOwn(parent, key)) delete parent[key];
  else throw new Error(`path ${path} does not exist`);
  return doc;
}

/** JSON equality: object key order does not matter, array order does. */
export function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
}

/** Apply `ops` to `doc` (which is changed in place) and return the result.
 * Throws on any operation that does not apply, so the caller can resync. */
export function applyPatch(doc, ops) {
  let result = doc;
  for (const op of ops) {
    switch (op.op) {
      case "add":
        result = addAt(result, op.path, clone(op.value));
        break;
      case "remove":
        result = removeAt(result, op.path);
        break;
      case "replace":
        if (op.path === "") result = clone(op.value);
        else {
          getAt(result, op.path);
          const { parent, key } = parentOf(result, op.path);
          if (Array.isArray(parent)) parent[arrayIndex(parent, key, false)] = clone(op.value);
          else parent[key] = clone(op.value);
        }
        break;
      case "move": {
        const value = getAt(result, op.from);
        result = removeAt(result, op.from);
        result = addAt(result, op.path, value);
        break;
      }
      case "copy":
        result = addAt(result, op.path, clone(getAt(result, op.from)));
        break;
      case "test":
        if (!deepEqual(getAt(result, op.path), op.value)) throw new Error(`test failed at ${op.path}`);
        break;
      default:
        throw new Error(`unknown patch op ${op.op}`);
    }
  }
  return result;
}

