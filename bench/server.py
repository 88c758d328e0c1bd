"""Server speed: service-layer actions/s, HTTP-to-every-socket round trips, JSON Patch diff cost."""

from __future__ import annotations

import argparse
import itertools
import json
import os
import queue
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import jsonpatch
import psycopg
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from app.config import sqlalchemy_url
from app.db import upgrade
from app.playing.views import split_bodies
from app.realtime.patch import diff
from app.services import rooms
from bench.storage import act, runtime, start
from engines.core import get_engine

ROOT = Path(__file__).resolve().parents[1]
GAME = "mojo"
PLAYERS = 3


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def service_throughput(url: str, actions: int) -> float:
    """Actions/s through `act` (one transaction each), humans in every seat."""
    parts = runtime(sqlalchemy_url(url))
    db, moves, views = parts.db, parts.moves, parts.views
    rng = random.Random(1)
    done, spent = 0, 0.0
    while done < actions:
        with db.transaction() as session:
            room = rooms.create_room(session, GAME, "Ann", None)
            tokens = [room["token"]] + [
                rooms.join_room(session, room["room_id"], f"P{i}")["token"] for i in range(1, PLAYERS)
            ]
        start(parts, room["room_id"], tokens[0])
        while done < actions:
            public = views.state(room["room_id"], None)
            if public["status"] == "finished":
                break
            seat = public["to_act"][0]
            legal = views.state(room["room_id"], tokens[seat])["legal_actions"]
            started = time.perf_counter()
            act(moves, room["room_id"], tokens[seat], rng.choice(legal), public["version"])
            spent += time.perf_counter() - started
            done += 1
    db.dispose()
    return done / spent


class Listener:
    """A socket read on its own thread, so the bench thread can wait for every socket at once."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.versions: queue.Queue[int] = queue.Queue()
        self.latest = -1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for raw in self.connection:
            message = json.loads(raw)
            if message["type"] in ("patch", "snapshot"):
                self.versions.put(message["version"])

    def wait_for(self, version: int) -> None:
        while self.latest < version:
            self.latest = max(self.latest, self.versions.get(timeout=10))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def round_trips(url: str, actions: int) -> list[float]:
    """Seconds from sending POST /actions until every seat's socket has the patch, on a real server."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "DATABASE_URL": url, "MOTABLE_BOT_DELAY": "0"}
    env.pop("REDIS_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        env=env,
    )
    samples: list[float] = []
    try:
        with httpx.Client(base_url=base, timeout=10) as http:
            for _ in range(300):
                try:
                    http.get("/healthz")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            rng = random.Random(2)
            while len(samples) < actions:
                room = http.post("/api/rooms", json={"game": GAME, "name": "Ann"}).json()
                room_id = room["room_id"]
                tokens = [room["token"]] + [
                    http.post(f"/api/rooms/{room_id}/join", json={"name": f"P{i}"}).json()["token"]
                    for i in range(1, PLAYERS)
                ]
                sockets = [ws_connect(f"ws://127.0.0.1:{port}/ws/rooms/{room_id}?token={t}") for t in tokens]
                listeners = [Listener(s) for s in sockets]
                http.post(f"/api/rooms/{room_id}/start", headers={"Authorization": f"Bearer {tokens[0]}"})
                while len(samples) < actions:
                    public = http.get(f"/api/rooms/{room_id}/state").json()
                    if public["status"] == "finished":
                        break
                    seat = public["to_act"][0]
                    headers = {"Authorization": f"Bearer {tokens[seat]}"}
                    legal = http.get(f"/api/rooms/{room_id}/state", headers=headers).json()["legal_actions"]
                    for listener in listeners:
                        listener.wait_for(public["version"])
                    started = time.perf_counter()
                    answer = http.post(
                        f"/api/rooms/{room_id}/actions",
                        headers=headers,
                        json={"action": rng.choice(legal), "version": public["version"]},
                    ).json()
                    for listener in listeners:
                        listener.wait_for(answer["version"])
                    samples.append(time.perf_counter() - started)
                for sock in sockets:
                    sock.close()
    finally:
        server.terminate()
        server.wait(10)
    return samples


def patch_cost(calls: int) -> tuple[float, float]:
    """Microseconds per diff of consecutive Mojo state bodies: ours, and jsonpatch.make_patch."""
    engine = get_engine(GAME)
    rng = random.Random(3)
    state = engine.setup(PLAYERS, 3, engine.spec.parse_options({}))
    bodies = [split_bodies(GAME, state, 1, "playing", {0}).body(0)]
    while len(bodies) < 200 and (acting := engine.to_act(state)):
        seat = min(acting)
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        bodies.append(split_bodies(GAME, state, len(bodies) + 1, "playing", {0}).body(0))
    pairs = list(itertools.pairwise(bodies))

    def time_per_call(fn: Any) -> float:
        started = time.perf_counter()
        for i in range(calls):
            old, new = pairs[i % len(pairs)]
            fn(old, new)
        return (time.perf_counter() - started) / calls * 1e6

    return time_per_call(diff), time_per_call(jsonpatch.make_patch)


def postgres_url() -> str | None:
    """A fresh schema on the test PostgreSQL, or None when it is not running."""
    admin_url = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
    schema = f"motable_bench_{uuid.uuid4().hex[:8]}"
    try:
        with psycopg.connect(admin_url, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
    except psycopg.OperationalError:
        return None
    return f"{admin_url}?options={quote(f'-csearch_path={schema}')}"


def drop_schema(url: str) -> None:
    admin_url, _, options = url.partition("?")
    schema = options.split("%3D")[-1]
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=300, help="actions per measurement")
    args = parser.parse_args()
    ours, reference = patch_cost(5000)
    print(
        f"patch diff: {ours:.1f} us/call "
        f"(jsonpatch.make_patch: {reference:.1f} us/call, {reference / ours:.0f}x slower)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        backends = [("sqlite", f"sqlite:///{tmp}/bench.db")]
        pg = postgres_url()
        if pg is not None:
            backends.append(("postgresql", pg))
        else:
            print("postgresql: not reachable, skipped")
        for name, url in backends:
            try:
                upgrade(sqlalchemy_url(url))
                rate = service_throughput(url, args.actions)
                trips = [s * 1000 for s in round_trips(url, args.actions)]
                print(
                    f"{name}: {rate:.0f} actions/s through the service layer; "
                    f"POST -> {PLAYERS} sockets patched: p50 {statistics.median(trips):.1f} ms, "
                    f"p95 {percentile(trips, 95):.1f} ms, p99 {percentile(trips, 99):.1f} ms"
                )
            finally:
                if name == "postgresql":
                    drop_schema(url)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    server_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        f"peak resident memory: bench process {peak_mib:.0f} MiB, motable serve process {server_mib:.0f} MiB"
    )


if __name__ == "__main__":
    main()
