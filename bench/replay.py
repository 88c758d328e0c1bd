"""Replay cost: GET /api/rooms/{id}/replay?seat=all for a long finished match, before and after bodies
were stored.

"before" is the route as it was, served next to the real one by the same server process: the whole
match replayed and diffed into one dict (`replay_body` below), rendered by FastAPI, compressed by
the GZip middleware, on every request. "after" is the real route: built once into the `replays` table,
then the stored gzip bytes (or, to a client without gzip, the body decompressed while it is sent).

The match: 7 seats of Mojo to 1,000 points, every move chosen by the strong bot, written through the
service layer. The server is a real `uvicorn` process on SQLite; its memory is read from /proc (peak
resident set, reset before each measurement), its CPU from /proc/<pid>/stat.

    .venv/bin/python -m bench.replay
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import orjson
from fastapi import Response
from fastapi.concurrency import run_in_threadpool
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.config import Settings, sqlalchemy_url
from app.db import upgrade
from app.deps import RuntimeDep
from app.models import Match
from app.replay import _source, _tables_and_steps, finished_match, parse_viewpoint
from app.services import rooms
from app.services.moves import Move
from bench.server import free_port, percentile
from bench.storage import runtime, start
from engines.core import get_bots, get_engine

ROOT = Path(__file__).resolve().parents[1]
GAME = "mojo"
SEATS = 7
TARGET = 1000
# A deal whose strong-bot match runs to 3,888 moves (the issue measured one of 3,856).
SEED = 16
MIB = 1024 * 1024
GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}
BEFORE = "/bench/rebuilt/{room}?seat={seat}"
AFTER = "/api/rooms/{room}/replay?seat={seat}"


def make_match(url: str) -> tuple[str, int]:
    """A finished match: the room made and started through the service layer, its moves chosen by the
    strong bot in every seat, then written in one group commit. Returns the room id and its moves."""
    # Dealt from SEED: test seeds are for a loopback server only.
    parts = runtime(url, test_seeds=str(SEED), bind_host="127.0.0.1")
    db, moves_of = parts.db, parts.moves
    with db.transaction() as session:
        room = rooms.create_room(session, GAME, "Ann", {"target": TARGET})
        room_id = room["room_id"]
        for seat in range(1, SEATS):
            rooms.join_room(session, room_id, f"Bot {seat}")
    start(parts, room_id, room["token"])
    with db.read() as session:
        match = session.scalars(select(Match).where(Match.room_id == room_id)).one()
        seed, options = match.seed, match.options
    engine = get_engine(GAME)
    bots = [get_bots(GAME)["strong"](engine, seed * 31 + seat) for seat in range(SEATS)]
    state = engine.setup(SEATS, seed, engine.spec.parse_options(options))
    moves: list[Move] = []
    while acting := engine.to_act(state):
        seat = min(acting)
        action = bots[seat].choose(state, seat)
        state = engine.apply(state, seat, action)
        moves.append(Move(room_id, seat, action, None))
    refused = [r for r in moves_of.apply_moves(moves) if isinstance(r, Exception)]
    with db.read() as session:
        status = session.scalars(select(Match.status).where(Match.room_id == room_id)).one()
    db.dispose()
    if refused or status != "finished":
        raise SystemExit(f"the bench match did not finish: {len(refused)} moves refused, status {status}")
    return room_id, len(moves)


def replay_body(session: Session, room_id: str, viewpoint: str | None) -> dict[str, Any]:
    """The whole replay as one dict, built in memory on every call, as the route built it."""
    match = finished_match(session, room_id)
    source = _source(session, match, parse_viewpoint(viewpoint, match.players))
    first, *steps = _tables_and_steps(source)
    return {**source.header(), "first": first, "steps": steps}


async def rebuilt_replay(
    room_id: str, response: Response, runtime: RuntimeDep, seat: str | None = None
) -> dict[str, Any]:
    """The replay route as it was before bodies were stored, line for line."""
    db = runtime.db

    def build() -> dict[str, Any]:
        with db.read() as session:
            return replay_body(session, room_id, seat)

    body = await run_in_threadpool(build)
    response.headers["Cache-Control"] = "public, max-age=86400, immutable"
    return body


def serve(port: int) -> None:
    """The server process: the app as `motable serve` builds it, plus the route as it was."""
    import uvicorn

    from app.main import create_app
    from app.serving import tune_gc, uvicorn_options

    settings = Settings.from_env()
    app = create_app(settings)
    app.add_api_route("/bench/rebuilt/{room_id}", rebuilt_replay, methods=["GET"])
    tune_gc(settings)
    uvicorn.run(app, **uvicorn_options(settings, "127.0.0.1", port, "warning"))


class Server:
    """The server subprocess, with its memory and CPU as /proc reports them."""

    def __init__(self, url: str) -> None:
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        env = {
            **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
            "DATABASE_URL": url,
            "MOTABLE_BOT_DELAY": "0",
            # The bench is one client asking many times: the per-address limits would answer 429.
            "MOTABLE_RATE_PER_SECOND": "0",
            "MOTABLE_SEAT_RATE_PER_SECOND": "0",
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.replay", "--serve", str(self.port)], cwd=ROOT, env=env
        )
        self._clock_ticks = os.sysconf("SC_CLK_TCK")

    def __enter__(self) -> Server:
        for _ in range(300):
            try:
                httpx.get(f"{self.base_url}/healthz", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            self.stop()
            raise SystemExit("the server did not start")
        print(f"server {self.process.pid}: RSS {self.rss() / MIB:.0f} MiB at rest")
        return self

    def __exit__(self, *_exc: object) -> None:
        print(f"server {self.process.pid}: RSS {self.rss() / MIB:.0f} MiB at the end")
        self.stop()

    def _status(self, field: str) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
        raise KeyError(field)

    def rss(self) -> int:
        return self._status("VmRSS")

    def reset_peak(self) -> None:
        # Writing 5 to clear_refs resets the peak resident set (VmHWM) to the current one.
        Path(f"/proc/{self.process.pid}/clear_refs").write_text("5")

    def peak(self) -> int:
        return self._status("VmHWM")

    def cpu(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self._clock_ticks  # utime + stime

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def fetch(client: httpx.Client, path: str, headers: dict[str, str]) -> tuple[float, bytes]:
    """Seconds until the whole answer is in, and its bytes as sent (not decompressed)."""
    started = time.perf_counter()
    with client.stream("GET", path, headers=headers) as answer:
        body = b"".join(answer.iter_raw())
        if answer.status_code != 200:
            raise SystemExit(f"{path} answered {answer.status_code}: {body[:200]!r}")
    return time.perf_counter() - started, body


class Measured:
    """One measurement on the server: wall time, server CPU, and peak resident growth over its start."""

    def __init__(self, server: Server) -> None:
        self.server = server

    def __enter__(self) -> Measured:
        self.server.reset_peak()
        self.base = self.server.rss()
        self.cpu_before = self.server.cpu()
        self.started = time.perf_counter()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.wall = time.perf_counter() - self.started
        self.cpu = self.server.cpu() - self.cpu_before
        # Never below zero: the resident set may shrink a little between the reset and the first read.
        self.growth = max(0, self.server.peak() - self.base) / MIB


def in_parallel(clients: int, each: int, request: Callable[[httpx.Client], float]) -> list[float]:
    """`clients` connections at once, each making `each` requests; every request's latency."""
    start = threading.Barrier(clients)

    def run(_: int) -> list[float]:
        with httpx.Client(timeout=300) as client:
            start.wait()
            return [request(client) for _ in range(each)]

    with ThreadPoolExecutor(clients) as pool:
        return [latency for results in pool.map(run, range(clients)) for latency in results]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms" if seconds >= 0.1 else f"{seconds * 1000:.1f} ms"


def report(
    server: Server, name: str, path: str, headers: dict[str, str], repeat: int, concurrent: int, each: int
) -> bytes:
    """First request, `repeat` more one after another, then `concurrent` clients making `each` each."""
    with httpx.Client(base_url=server.base_url, timeout=300) as client:
        with Measured(server) as first:
            _latency, body = fetch(client, path, headers)
        print(
            f"{name}: first request {ms(first.wall)} ({first.cpu:.2f} s server CPU), "
            f"peak RSS +{first.growth:.0f} MiB, {len(body) / MIB:.2f} MiB sent"
        )
        with Measured(server) as again:
            latencies = [fetch(client, path, headers)[0] for _ in range(repeat)]
        print(
            f"{name}: {repeat} repeated requests: p50 {ms(statistics.median(latencies))}, "
            f"p99 {ms(percentile(latencies, 99))}, {repeat / again.wall:.1f} req/s, "
            f"{again.cpu / repeat * 1000:.1f} ms server CPU each"
        )

    def one(client: httpx.Client) -> float:
        return fetch(client, server.base_url + path, headers)[0]

    with Measured(server) as crowd:
        latencies = in_parallel(concurrent, each, one)
    print(
        f"{name}: {concurrent} clients at once x {each}: peak RSS +{crowd.growth:.0f} MiB, "
        f"p50 {ms(statistics.median(latencies))}, p99 {ms(percentile(latencies, 99))}, "
        f"{len(latencies) / crowd.wall:.1f} req/s"
    )
    return body


def measure_before(server: Server, room: str, args: argparse.Namespace) -> bytes:
    path = BEFORE.format(room=room, seat="all")
    return report(server, "before, gzip", path, GZIP, args.before_repeat, args.clients, 1)


def measure_after(server: Server, room: str, args: argparse.Namespace) -> tuple[bytes, bytes]:
    everything = AFTER.format(room=room, seat="all")
    zipped = report(server, "after, gzip", everything, GZIP, args.after_repeat, args.clients, 25)
    plain = report(server, "after, plain", everything, PLAIN, args.after_repeat // 4, args.clients, 3)

    # First requests all at once for a viewpoint not built yet: one build, the others waiting for it.
    seat_zero = server.base_url + AFTER.format(room=room, seat="0")
    with Measured(server) as crowd:
        latencies = in_parallel(args.clients, 1, lambda client: fetch(client, seat_zero, GZIP)[0])
    print(
        f"after, gzip: {args.clients} first requests at once for seat 0: {ms(crowd.wall)} in all, "
        f"{crowd.cpu:.2f} s server CPU, p50 {ms(statistics.median(latencies))}, "
        f"peak RSS +{crowd.growth:.0f} MiB"
    )
    with httpx.Client(base_url=server.base_url) as client:
        tag = client.get(everything, headers=GZIP).headers["etag"]
        fresh = client.get(everything, headers={**GZIP, "If-None-Match": tag})
    print(f"after: If-None-Match with its ETag answers {fresh.status_code}, {len(fresh.content)} bytes")
    return zipped, plain


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--before-repeat", type=int, default=4, help="repeated requests, before")
    parser.add_argument("--after-repeat", type=int, default=200, help="repeated requests, after")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients")
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    with tempfile.TemporaryDirectory() as tmp:
        url = sqlalchemy_url(f"sqlite:///{tmp}/bench.db")
        upgrade(url)
        started = time.perf_counter()
        room, moves = make_match(url)
        made = time.perf_counter() - started
        print(f"match: {GAME}, {SEATS} strong bots to {TARGET}: {moves:,} moves, made in {made:.1f} s")
        # A fresh server for each side: memory the first side freed stays in the process and would
        # hide the second side's growth.
        with Server(url) as server:
            before = measure_before(server, room, args)
        with Server(url) as server:
            zipped, plain = measure_after(server, room, args)
        same = gzip.decompress(before) == gzip.decompress(zipped) == plain
        print(
            f"body: {len(plain) / MIB:.1f} MiB of JSON ({len(orjson.loads(plain)['steps']):,} steps), "
            f"stored as {len(zipped) / MIB:.2f} MiB of gzip; the same bytes before and after: {same}"
        )


if __name__ == "__main__":
    main()
