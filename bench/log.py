"""Log flood: GET /api/rooms/{id}/log of a ~3,700-action match asked many times a second by one client,
against a real server process, beside another player's moves.

The long match: 4 seats of Moby Trick to 300, random bots' moves written through the service layer,
all but the last HELD still to play, so it is in play (and each seat's log differs from the
spectator's: Moby Trick keeps a first bonus secret). During each phase one of its held moves is
played every second over HTTP, so the log grows while it is read. The other player: a 2-seat Mojo
room whose moves are posted one after another (`--pace` apart); each move's round trip is timed.

First, each path asked one request after another with nothing else going on, for the server's CPU
per request: the log before and after, of the long match and of a short one, beside a state read and
/healthz. Then the phases: quiet (no flood), then for each rate: "before" — the route as it was,
mounted next to the real one by the same server process (`Views.log`: every entry read and redacted,
the dict rendered by FastAPI, compressed by the GZip middleware, on every request) — and "after" — the
real route (the body kept per match, version and reader, grown by the new entries, sent as kept). The
flood alternates between a spectator and a seat, with gzip as a browser asks. Per phase: the flood's
requests per second, the server's CPU per log request (the phase's CPU from /proc/<pid>/stat
utime+stime, less what the other player's moves cost in the quiet phase, per move), the server's CPU
share, and the other player's median and p95. Two more floods for scale: the log of the other
player's own short match, and /healthz (next to nothing read).

    .venv/bin/python -m bench.log
    .venv/bin/python -m bench.log --rates 14,28 --seconds 15
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from fastapi.concurrency import run_in_threadpool
from sqlalchemy import select

from app.config import Settings, sqlalchemy_url
from app.db import upgrade
from app.deps import MasterDep, TokenDep
from app.models import Match
from app.services import rooms
from app.services.moves import Move
from bench.load import cpu_of
from bench.server import free_port, percentile
from bench.storage import runtime, start
from engines.core import get_bots, get_engine

ROOT = Path(__file__).resolve().parents[1]
GAME = "moby-trick"
SEATS = 4
TARGET = 300
# A deal whose random-bot match runs to 3,695 actions.
SEED = 25
# Moves of the long match left to play during the phases (one a second).
HELD = 150
BEFORE = "/bench/rebuilt-log/{room}"
AFTER = "/api/rooms/{room}/log"
# What a browser sends.
GZIP = {"Accept-Encoding": "gzip, deflate"}


@dataclass
class LongMatch:
    room_id: str
    tokens: list[str]
    held: list[tuple[int, Any]]  # (seat, action) still to play, in order
    played: int


def make_match(url: str) -> LongMatch:
    """The long match, written through the service layer in one group commit, less its last HELD moves."""
    # Dealt from SEED: test seeds are for a loopback server only.
    parts = runtime(url, test_seeds=str(SEED), bind_host="127.0.0.1")
    db, moves_of = parts.db, parts.moves
    with db.transaction() as session:
        room = rooms.create_room(session, GAME, "Ann", {"target": TARGET})
        room_id = room["room_id"]
        tokens = [room["token"]] + [
            rooms.join_room(session, room_id, f"Seat {seat}")["token"] for seat in range(1, SEATS)
        ]
    start(parts, room_id, tokens[0])
    with db.read() as session:
        match = session.scalars(select(Match).where(Match.room_id == room_id)).one()
        seed, options = match.seed, match.options
    engine = get_engine(GAME)
    bots = [get_bots(GAME)["random"](engine, seed * 31 + seat) for seat in range(SEATS)]
    state = engine.setup(SEATS, seed, engine.spec.parse_options(options))
    actions: list[tuple[int, Any]] = []
    while acting := engine.to_act(state):
        seat = min(acting)
        action = bots[seat].choose(state, seat)
        state = engine.apply(state, seat, action)
        actions.append((seat, action))
    played = actions[:-HELD]
    refused = [
        r
        for r in moves_of.apply_moves([Move(room_id, seat, action, None) for seat, action in played])
        if isinstance(r, Exception)
    ]
    db.dispose()
    if refused:
        raise SystemExit(f"the bench match was refused {len(refused)} moves")
    return LongMatch(room_id, tokens, actions[-HELD:], len(played))


async def rebuilt_log(room_id: str, master: MasterDep, token: TokenDep) -> dict[str, Any]:
    """GET /log as it was before bodies were kept, line for line."""
    return await run_in_threadpool(master.views.log, room_id, token)


def serve(port: int) -> None:
    """The server process: the app as `motable serve` builds it, plus the route as it was."""
    import uvicorn

    from app.main import create_app
    from app.serving import tune_gc, uvicorn_options

    settings = Settings.from_env()
    app = create_app(settings)
    app.add_api_route("/bench/rebuilt-log/{room_id}", rebuilt_log, methods=["GET"])
    tune_gc(settings)
    uvicorn.run(app, **uvicorn_options(settings, "127.0.0.1", port, "warning"))


class Server:
    def __init__(self, url: str) -> None:
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        env = {
            **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
            "DATABASE_URL": url,
            "MOTABLE_BOT_DELAY": "0",
            # One address floods and plays: the per-address limits would answer 429 to most of the
            # flood (whose cost is what is measured) and, past them, to the player as well.
            "MOTABLE_RATE_PER_SECOND": "0",
            "MOTABLE_SEAT_RATE_PER_SECOND": "0",
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.log", "--serve", str(self.port)], cwd=ROOT, env=env
        )

    def __enter__(self) -> Server:
        for _ in range(300):
            try:
                httpx.get(f"{self.base_url}/healthz", timeout=1)
                return self
            except httpx.TransportError:
                time.sleep(0.1)
        self.__exit__()
        raise SystemExit("the server did not start")

    def __exit__(self, *_exc: object) -> None:
        self.process.terminate()
        self.process.wait(10)

    def cpu(self) -> float:
        return cpu_of(self.process.pid)


class Player:
    """The other player: both seats of a 2-seat Mojo room, one move after another."""

    def __init__(self, base_url: str) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=30)
        made = self.http.post("/api/rooms", json={"game": "mojo", "name": "Ann", "options": {"target": 1000}})
        self.room_id = made.json()["room_id"]
        joined = self.http.post(f"/api/rooms/{self.room_id}/join", json={"name": "Bo"}).json()
        self.tokens = [made.json()["token"], joined["token"]]
        self.http.post(f"/api/rooms/{self.room_id}/start", headers=self._auth(0)).raise_for_status()

    def _auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def move(self) -> float:
        """One move; seconds from sending it to its answer."""
        public = self.http.get(f"/api/rooms/{self.room_id}/state").json()
        seat = public["to_act"][0]
        mine = self.http.get(f"/api/rooms/{self.room_id}/state", headers=self._auth(seat)).json()
        body = {"action": mine["legal_actions"][0], "version": mine["version"]}
        started = time.perf_counter()
        answer = self.http.post(f"/api/rooms/{self.room_id}/actions", json=body, headers=self._auth(seat))
        took = time.perf_counter() - started
        answer.raise_for_status()
        return took

    def close(self) -> None:
        self.http.close()


def flood(base_url: str, path: str, tokens: list[str | None], rate: float, until: float) -> list[int]:
    """GET `path` at `rate` a second until `until` from one connection per request a second, so that an
    answer up to a second late does not delay the next request; the status of each answer."""
    statuses: list[int] = []
    lock = threading.Lock()
    workers = max(1, round(rate))

    def run(worker: int) -> None:
        with httpx.Client(base_url=base_url, timeout=60) as http:
            number = worker
            start = time.monotonic()
            while (due := start + number / rate) < until:
                time.sleep(max(0.0, due - time.monotonic()))
                token = tokens[number % len(tokens)]
                headers = {**GZIP, **({"Authorization": f"Bearer {token}"} if token else {})}
                status = http.get(path, headers=headers).status_code
                with lock:
                    statuses.append(status)
                number += workers

    threads = [threading.Thread(target=run, args=(worker,)) for worker in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


@dataclass
class Phase:
    name: str
    seconds: float
    cpu: float
    latencies: list[float]
    requests: int


def run_phase(
    server: Server,
    player: Player,
    match: LongMatch,
    name: str,
    seconds: float,
    pace: float,
    path: str | None,
    rate: float,
    viewers: list[str | None],
) -> Phase:
    """`seconds` of the other player's moves `pace` apart and a long-match move a second, with a flood
    of `path` at `rate` a second beside them (none if `path` is None), by turns as each of `viewers`
    (seat tokens; None: a spectator)."""
    until = time.monotonic() + seconds
    statuses: list[int] = []
    flooder = None
    if path is not None:
        flooder = threading.Thread(
            target=lambda: statuses.extend(flood(server.base_url, path, viewers, rate, until))
        )
    mover = threading.Thread(target=advance, args=(server.base_url, match, until))
    cpu_before, started = server.cpu(), time.monotonic()
    if flooder is not None:
        flooder.start()
    mover.start()
    latencies = []
    while time.monotonic() < until:
        latencies.append(player.move())
        time.sleep(pace)
    mover.join()
    if flooder is not None:
        flooder.join()
    elapsed = time.monotonic() - started
    refused = [status for status in statuses if status != 200]
    if refused:
        raise SystemExit(f"{name}: {len(refused)} log requests answered {sorted(set(refused))}")
    return Phase(name, elapsed, server.cpu() - cpu_before, latencies, len(statuses))


def advance(base_url: str, match: LongMatch, until: float) -> None:
    """One held move of the long match a second, by the seat whose move it is."""
    with httpx.Client(base_url=base_url, timeout=30) as http:
        while time.monotonic() < until and match.held:
            seat, action = match.held.pop(0)
            answer = http.post(
                f"/api/rooms/{match.room_id}/actions",
                json={"action": action},
                headers={"Authorization": f"Bearer {match.tokens[seat]}"},
            )
            answer.raise_for_status()
            match.played += 1
            time.sleep(max(0.0, min(1.0, until - time.monotonic())))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds >= 0.1 else f"{seconds * 1000:.1f} ms"


def show(phase: Phase, quiet: Phase | None) -> None:
    line = (
        f"{phase.name:<22} other player: p50 {ms(statistics.median(phase.latencies)):>8}, "
        f"p95 {ms(percentile(phase.latencies, 95)):>8} ({len(phase.latencies)} moves); "
        f"server CPU {phase.cpu / phase.seconds:5.0%}"
    )
    if quiet is not None and phase.requests:
        # Less what the other player's moves (and the long match's) cost in the quiet phase, per move.
        spent = phase.cpu - quiet.cpu / len(quiet.latencies) * len(phase.latencies)
        line += (
            f"; flood {phase.requests / phase.seconds:4.1f} req/s, "
            f"{max(spent, 0.0) / phase.requests * 1000:5.1f} ms server CPU per log request"
        )
    print(line, flush=True)


def one_after_another(server: Server, match: LongMatch, player: Player, requests: int) -> None:
    """Server CPU per request with nothing else going on: the log before and after, long and short,
    beside other reads of the same server for scale."""
    long_log, short_log = AFTER.format(room=match.room_id), AFTER.format(room=player.room_id)
    asked = [
        ("log before, long match", BEFORE.format(room=match.room_id), GZIP),
        ("log after, long match", long_log, GZIP),
        ("log after, long, plain", long_log, {"Accept-Encoding": "identity"}),
        ("log after, short match", short_log, GZIP),
        ("state, short match", f"/api/rooms/{player.room_id}/state", GZIP),
        ("/healthz", "/healthz", GZIP),
    ]
    with httpx.Client(base_url=server.base_url, timeout=60) as http:
        for name, path, headers in asked:
            count = requests // 20 if path.startswith("/bench/") else requests
            cpu_before = server.cpu()
            http.get(path, headers=headers).raise_for_status()  # the log written whole, after
            first = server.cpu() - cpu_before
            cpu_before, started = server.cpu(), time.perf_counter()
            for _ in range(count):
                http.get(path, headers=headers)
            cpu, wall = server.cpu() - cpu_before, time.perf_counter() - started
            print(
                f"one after another, {name:<24} {cpu / count * 1000:6.2f} ms server CPU, "
                f"{wall / count * 1000:6.2f} ms each ({count} requests; the first {first * 1000:.0f} ms)",
                flush=True,
            )


def compare_bodies(base_url: str, match: LongMatch) -> None:
    """The route as it was and the real one answer the same bytes, per viewer; sizes and a 304."""
    with httpx.Client(base_url=base_url, timeout=60) as http:
        for who, token in (("spectator", None), ("seat 1", match.tokens[1])):
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            old = http.get(
                BEFORE.format(room=match.room_id), headers={**headers, "Accept-Encoding": "identity"}
            )
            new = http.get(
                AFTER.format(room=match.room_id), headers={**headers, "Accept-Encoding": "identity"}
            )
            with http.stream("GET", AFTER.format(room=match.room_id), headers={**headers, **GZIP}) as zipped:
                packed = b"".join(zipped.iter_raw())
            again = http.get(
                AFTER.format(room=match.room_id),
                headers={**headers, **GZIP, "If-None-Match": zipped.headers["etag"]},
            )
            decodes = gzip.decompress(packed) == new.content
            print(
                f"{who}: {len(new.json()['entries']):,} entries, {len(new.content) / 1024:.0f} KiB of JSON, "
                f"{len(packed) / 1024:.0f} KiB gzip (decodes to it: {decodes}); "
                f"the same bytes as the route before: {old.content == new.content}; "
                f"If-None-Match answers {again.status_code}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--rates", default="14,28", help="flood rates, requests a second (comma-separated)")
    parser.add_argument("--seconds", type=float, default=12.0, help="length of each phase")
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between the other player's moves")
    parser.add_argument("--requests", type=int, default=400, help="requests one after another, per path")
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    with tempfile.TemporaryDirectory() as tmp:
        url = sqlalchemy_url(f"sqlite:///{tmp}/bench.db")
        upgrade(url)
        started = time.perf_counter()
        match = make_match(url)
        print(
            f"match: {GAME}, {SEATS} random bots to {TARGET}: {match.played + HELD:,} actions, "
            f"{match.played:,} written in {time.perf_counter() - started:.1f} s, the rest played 1/s below"
        )
        with Server(url) as server:
            player = Player(server.base_url)
            for _ in range(20):  # warm-up: the other room's state in memory, connections open
                player.move()
            one_after_another(server, match, player, args.requests)
            quiet = run_phase(server, player, match, "quiet", args.seconds, args.pace, None, 0, [])
            show(quiet, None)
            for rate in (float(part) for part in args.rates.split(",")):
                long_viewers: list[str | None] = [None, match.tokens[1]]
                short_viewers: list[str | None] = [None, player.tokens[1]]
                phases: list[tuple[str, str, list[str | None]]] = [
                    ("before", BEFORE.format(room=match.room_id), long_viewers),
                    ("after", AFTER.format(room=match.room_id), long_viewers),
                    # The other player's own room: a short log, growing with each of their moves.
                    ("after, short match", AFTER.format(room=player.room_id), short_viewers),
                    # A request that reads next to nothing, for the floor of a request's cost.
                    ("control: /healthz", "/healthz", [None]),
                ]
                for name, path, viewers in phases:
                    phase = run_phase(
                        server,
                        player,
                        match,
                        f"{name}, {rate:g}/s",
                        args.seconds,
                        args.pace,
                        path,
                        rate,
                        viewers,
                    )
                    show(phase, quiet)
            compare_bodies(server.base_url, match)
            player.close()


if __name__ == "__main__":
    main()
