// The room connection without a browser: a fake socket stands in for the server.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { RoomConnection, backoff } from "../../static/js/connection.js";

class FakeSocket {
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    this.listeners = {};
    this.closedWith = null;
  }
  addEventListener(name, fn) {
    (this.listeners[name] ||= []).push(fn);
  }
  fire(name, event = {}) {
    for (const fn of this.listeners[name] || []) fn(event);
  }
  open() {
    this.readyState = 1;
    this.fire("open");
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close(code = 1000, reason = "") {
    this.closedWith = code;
    this.readyState = 3;
    this.fire("close", { code, reason });
  }
  server(message) {
    this.fire("message", { data: JSON.stringify(message) });
  }
}

function connect(token = null) {
  const sockets = [];
  const connection = new RoomConnection("r1", token, {
    openSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    origin: { protocol: "http:", host: "example.test" },
  });
  const states = [];
  connection.on("state", (state, previous) => states.push([state, previous]));
  connection.connect();
  sockets[0].open();
  return { connection, sockets, states };
}

const body = (version, more = {}) => ({ version, status: "playing", seat: null, to_act: [0], view: { n: version }, ...more });

describe("RoomConnection", () => {
  it("applies patches to a copy, so states handed out never change", () => {
    const { connection, sockets, states } = connect();
    sockets[0].server({ type: "snapshot", version: 1, state: body(1) });
    sockets[0].server({ type: "patch", version: 2, ops: [{ op: "replace", path: "/view/n", value: 2 }] });
    assert.equal(states.length, 2);
    const [[first], [second, previous]] = states;
    assert.equal(previous, first);
    assert.deepEqual(first.view, { n: 1 });
    assert.deepEqual(second.view, { n: 2 });
    assert.equal(connection.version, 2);
    assert.equal(connection.status, "open");
  });

  it("resyncs from a fresh snapshot when a patch does not apply", () => {
    const { sockets, states } = connect();
    sockets[0].server({ type: "snapshot", version: 1, state: body(1) });
    const warn = console.warn;
    console.warn = () => {};
    try {
      sockets[0].server({ type: "patch", version: 2, ops: [{ op: "remove", path: "/view/missing" }] });
    } finally {
      console.warn = warn;
    }
    assert.equal(states.length, 1);
    assert.equal(sockets[0].closedWith, 4000);
    assert.equal(sockets.length, 2, "it reconnects straight away");
  });

  it("resolves a move on its ack and rejects it with the server's code", async () => {
    const { connection, sockets } = connect();
    sockets[0].server({ type: "snapshot", version: 7, state: body(7) });
    const accepted = connection.act({ type: "play", card: 3 });
    const refused = connection.act({ type: "play", card: 4 });
    const [first, second] = sockets[0].sent;
    assert.deepEqual([first.type, first.version, first.action], ["action", 7, { type: "play", card: 3 }]);
    sockets[0].server({ type: "ack", id: first.id });
    sockets[0].server({ type: "error", id: second.id, error: { code: "illegal_action", message: "no" } });
    await accepted;
    await assert.rejects(refused, { code: "illegal_action" });
  });

  it("rejects moves in flight when the socket drops, then reconnects with backoff", async () => {
    const { connection, sockets } = connect();
    sockets[0].server({ type: "snapshot", version: 1, state: body(1) });
    const statuses = [];
    connection.on("status", (status) => statuses.push(status));
    const move = connection.act({ type: "draw" });
    sockets[0].close(1006);
    await assert.rejects(move, { code: "offline" });
    assert.deepEqual(statuses, ["reconnecting"]);
    connection.close();
  });

  it("stops on a refused token", () => {
    const { connection, sockets } = connect("bad");
    sockets[0].close(1008, "unknown token");
    assert.equal(connection.status, "rejected");
    assert.equal(sockets.length, 1);
  });

  it("refuses to send a move while not connected", async () => {
    const { connection } = connect();
    connection.socket.readyState = 3;
    await assert.rejects(connection.act({ type: "draw" }), { code: "offline" });
  });

  it("backs off exponentially, capped, with jitter", () => {
    assert.equal(backoff(0, () => 0.5), 500);
    assert.equal(backoff(3, () => 0.5), 4000);
    assert.equal(backoff(10, () => 0.5), 8000);
    assert.equal(backoff(0, () => 0), 375);
    assert.equal(backoff(0, () => 1), 625);
  });
});
