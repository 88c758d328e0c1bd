// The room connection without a browser: a fake socket stands in for the server.

import assert from "node:assert/strict";
import { describe, it, mock } from "node:test";

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

  it("tries again quickly, then about every second, then backs off to a cap, with jitter", () => {
    const mid = () => 0.5;
    assert.equal(backoff(0, () => 1), 250);
    assert.equal(backoff(0, () => 0), 125);
    assert.equal(backoff(1, () => 1), 1000);
    assert.equal(backoff(1, () => 0), 500);
    assert.equal(backoff(30, mid), 750);
    assert.equal(backoff(31, () => 1), 2000);
    assert.equal(backoff(32, () => 1), 4000);
    assert.equal(backoff(33, () => 1), 8000);
    assert.equal(backoff(40, () => 1), 8000);
    assert.equal(backoff(40, () => 0), 4000);
  });

  it("probes at most a second apart through the first 15 s of an outage, and never faster than every 0.5 s", () => {
    for (const random of [() => 0, () => 0.5, () => 0.999999]) {
      let down = 0;
      for (let attempt = 0; down < 15000; attempt += 1) {
        const wait = backoff(attempt, random);
        assert.ok(wait <= 1000, `attempt ${attempt} waits ${wait} ms`);
        if (attempt > 0) assert.ok(wait >= 500, `attempt ${attempt} waits only ${wait} ms`);
        down += wait;
      }
    }
  });

  it("reconnects within a second of a restarted server listening again", async () => {
    mock.timers.enable({ apis: ["setTimeout"] });
    const random = Math.random;
    Math.random = () => 0.999999; // the longest waits the jitter draws
    try {
      let now = 0;
      const upAt = 4200; // the server is back 4.2 s after the drop
      const sockets = [];
      const connection = new RoomConnection("r1", null, {
        openSocket: (url) => {
          const socket = new FakeSocket(url);
          sockets.push(socket);
          socket.openedAt = now;
          // A server that is down refuses the socket at once; one that is up opens it.
          queueMicrotask(() => (now < upAt ? socket.close(1006) : socket.open()));
          return socket;
        },
        origin: { protocol: "http:", host: "example.test" },
      });
      connection.connect();
      await new Promise((resolve) => setImmediate(resolve));
      sockets[0].server({ type: "snapshot", version: 1, state: body(1) });
      sockets[0].close(1006); // the server restarts
      assert.equal(connection.status, "reconnecting");
      while (now < 20000 && !(sockets.at(-1).readyState === 1 && sockets.length > 1)) {
        now += 10;
        mock.timers.tick(10);
        await new Promise((resolve) => setImmediate(resolve));
      }
      const back = sockets.at(-1);
      assert.equal(back.readyState, 1, "it reconnected");
      assert.ok(back.openedAt >= upAt && back.openedAt <= upAt + 1000, `reconnected at ${back.openedAt} ms`);
      // Meanwhile it tried about once a second, not in a tight loop.
      assert.ok(sockets.length - 2 <= Math.ceil(upAt / 500), `${sockets.length - 2} tries while down`);
      connection.close();
    } finally {
      Math.random = random;
      mock.timers.reset();
    }
  });
});

describe("RoomConnection when someone else moved first", () => {
  const patchTo = (version, legal) => ({
    type: "patch",
    version,
    ops: [
      { op: "replace", path: "/version", value: version },
      { op: "replace", path: "/legal_actions", value: legal },
    ],
  });

  it("sends the move again at the new version when it is still on offer", async () => {
    const { connection, sockets } = connect();
    const move = { type: "set_aside", card: 11 };
    sockets[0].server({ type: "snapshot", version: 2, state: body(2, { legal_actions: [move, { type: "set_aside", card: 10 }] }) });
    const sent = connection.act(move);
    const [first] = sockets[0].sent;
    sockets[0].server(patchTo(3, [{ type: "set_aside", card: 10 }, { card: 11, type: "set_aside" }]));
    sockets[0].server({ type: "error", id: first.id, error: { code: "stale_version", message: "at 3, not 2" } });
    await new Promise((resolve) => setImmediate(resolve));
    const second = sockets[0].sent[1];
    assert.deepEqual([second.version, second.action], [3, move]);
    sockets[0].server({ type: "ack", id: second.id });
    await sent;
  });

  it("gives up when the move is no longer on offer", async () => {
    const { connection, sockets } = connect();
    const move = { type: "play", card: 1 };
    sockets[0].server({ type: "snapshot", version: 2, state: body(2, { legal_actions: [move] }) });
    const sent = connection.act(move);
    sockets[0].server(patchTo(3, []));
    sockets[0].server({ type: "error", id: sockets[0].sent[0].id, error: { code: "stale_version", message: "stale" } });
    await assert.rejects(sent, { code: "stale_version" });
    assert.equal(sockets[0].sent.length, 1);
  });
});

describe("RoomConnection with a seat's token", () => {
  it("keeps the token out of the address and sends it as the first message", () => {
    const { sockets } = connect("secret-token");
    assert.equal(sockets[0].url, "ws://example.test/ws/rooms/r1");
    assert.deepEqual(sockets[0].sent, [{ type: "auth", token: "secret-token" }]);
  });

  it("shows the seat's table only, never the spectator's snapshot before it", () => {
    const { connection, sockets, states } = connect("secret-token");
    sockets[0].server({ type: "snapshot", version: 4, state: body(4) });
    sockets[0].server({ type: "patch", version: 5, ops: [{ op: "replace", path: "/view/n", value: 5 }] });
    assert.equal(states.length, 0);
    assert.equal(connection.status, "connecting");
    sockets[0].server({ type: "snapshot", version: 5, state: body(5, { seat: 2, view: { n: 5, hand: [1] } }) });
    assert.equal(states.length, 1);
    assert.equal(states[0][0].seat, 2);
    assert.equal(connection.status, "open");
  });

  it("sends the token again on every reconnection", () => {
    const { connection, sockets } = connect("secret-token");
    sockets[0].server({ type: "snapshot", version: 1, state: body(1, { seat: 0 }) });
    connection.resync();
    sockets[1].open();
    assert.deepEqual(sockets[1].sent, [{ type: "auth", token: "secret-token" }]);
    assert.equal(connection.authed, false);
  });
});
