"""Alerts bench: turn alerts under load, and whether alerts (or a broken push service) slow moves.

Each run starts a fresh `motable serve` (SQLite, rate limits lifted, MOTABLE_PUSH_GRACE_SECONDS=--grace,
insecure http://127.0.0.1 endpoints allowed on its loopback bind) and, in this process, a push
service on 127.0.0.1 (a threaded HTTP server) that records when each alert arrives. Two kinds of room:

- the load: --rooms rooms x 4 seats, every seat on its own WebSocket, playing paced random Mojo moves
  (bench/load.py's players, mean think --think s); no one there subscribed. Their move p50/p95/p99 (from
  sending an action to the last socket of the room holding the new version) is the figure compared;
- the alert rooms: --alert-seats seats (4 per room) that each subscribed a device, with no socket
  open. During the window each room moves (over HTTP) 3 times, at random moments, so that the turn
  passes to each seat that was not to act at the start: each such turn change should alert that seat
  a grace later. The alert delay is its arrival at the push service minus the moment the move was
  sent minus the grace (so it includes the dispatcher's tick, the database reads, encryption, HTTP).

Runs, each on a fresh database: `off` (the alert rooms move the same way, nobody subscribed), `on`
(subscribed, the push service answers 201), `500` (it answers 500 to every alert: retried after 1, 4,
15 s), `hang` (it holds every request open: the server's 5 s timeout, then retries) and `mixed` (every
other alert room on a hanging service, the rest on one that answers 201: the second's alerts should
not wait for the first's). Printed per run:
the load's moves/s and move latency, the alert rooms' HTTP move latency, the server's CPU per move, the
alerts that arrived (and attempts), their delay p50/p95/p99. Timings are figures, never asserted.

    .venv/bin/python -m bench.alerts                                   # 250 rooms (1,000 sockets)
    .venv/bin/python -m bench.alerts --rooms 1250 --think 3            # bench/load.py's 5,000 sockets
    .venv/bin/python -m bench.alerts --runs off --profile /tmp/off.raw # py-spy: CPU share in app/alerts
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

from bench.load import (
    GAME,
    ROOT,
    SEATS,
    Room,
    Server,
    Stats,
    cpu_split,
    free_port,
    http_limits,
    load_average,
    percentile,
    raise_open_files,
    server_limits,
)
from tests.app.test_push import Device

RUNS = ("off", "on", "500", "hang", "mixed")
# The push services of a run: `mixed` puts every other alert room on a hanging service, the others on
# one that works (two origins: the hanging one must not delay the working one's alerts).
SERVICES = {"off": (), "on": ("on",), "500": ("500",), "hang": ("hang",), "mixed": ("hang", "on")}
# Moves per alert room during the window: the turn reaches each seat not to act at the start once.
TURNS = 3


# -- the push service ------------------------------------------------------------------------------
def serve_push(mode: str) -> None:
    """The push service, in a process of its own (so its clock is not held up by the load generator):
    prints its port, then one line "<path> <arrival time>" per POST; answers as `mode` says."""
    out = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            arrived = time.time()
            self.rfile.read(int(self.headers.get("content-length", "0")))
            with out:  # one write per record, never interleaved with another thread's
                sys.stdout.write(f"{self.path} {arrived:.6f}\n")
                sys.stdout.flush()
            if mode == "hang":
                time.sleep(120)  # longer than the server's timeout: it gives up first
                self.close_connection = True
                return
            self.send_response(500 if mode == "500" else 201)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *_args: Any) -> None:
            pass

    ThreadingHTTPServer.request_queue_size = 256
    # A connection the server gave up on (its timeout) is not worth a traceback.
    ThreadingHTTPServer.handle_error = lambda *_args: None  # type: ignore[method-assign]
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


@dataclass
class PushService:
    """Runs serve_push in a child process and reads what it recorded: the first arrival per path and
    the number of attempts."""

    mode: str = "on"
    port: int = 0
    first: dict[str, float] = field(default_factory=dict)
    attempts: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)
    process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        argv = [sys.executable, "-m", "bench.alerts", "--push-service", self.mode]
        self.process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, text=True, bufsize=1)
        assert self.process.stdout is not None
        self.port = int(self.process.stdout.readline())
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            path, _, at = line.strip().rpartition(" ")
            if not path.startswith("/"):
                continue  # not a record (an empty line)
            with self.lock:
                self.attempts[path] += 1
                self.first.setdefault(path, float(at))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


# -- the alert rooms -------------------------------------------------------------------------------
class AlertRoom:
    def __init__(self, base: str, index: int, rng: random.Random, grace: float) -> None:
        self.base = base
        self.grace = grace
        self.index = index
        self.rng = rng
        self.room_id = ""
        self.tokens: list[str] = []
        self.alerted: set[int] = set()  # seats whose turn came (or that were to act at the start)
        self.changes: dict[int, float] = {}  # seat -> when the move that gave it the turn was sent
        self.acked: dict[int, float] = {}  # seat -> when that move's answer came
        self.move_latencies: list[float] = []
        self.move_starts: list[float] = []
        self.errors: list[str] = []

    async def open(self, http: httpx.AsyncClient, service: PushService | None) -> None:
        made = (await http.post(f"{self.base}/api/rooms", json={"game": GAME, "name": "A0"})).json()
        self.room_id = made["room_id"]
        self.tokens = [made["token"]]
        for seat in range(1, SEATS):
            joined = await http.post(f"{self.base}/api/rooms/{self.room_id}/join", json={"name": f"A{seat}"})
            self.tokens.append(joined.json()["token"])
        started = await http.post(f"{self.base}/api/rooms/{self.room_id}/start", headers=self._auth(0))
        if started.status_code != 200:
            raise RuntimeError(f"start answered {started.status_code}: {started.text}")
        # The seats to act at the start are not measured (their grace runs from the subscription).
        self.alerted |= set((await self._state(http, 0))["to_act"])
        if service is None:
            return
        for seat in range(SEATS):
            endpoint = f"http://127.0.0.1:{service.port}/s/{self.room_id}/{seat}"
            answer = await http.post(
                f"{self.base}/api/rooms/{self.room_id}/push",
                json=Device().subscription(endpoint),
                headers=self._auth(seat),
            )
            if answer.status_code != 201:
                raise RuntimeError(f"subscribing answered {answer.status_code}: {answer.text}")

    def _auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    async def _state(self, http: httpx.AsyncClient, seat: int) -> dict[str, Any]:
        answer = await http.get(f"{self.base}/api/rooms/{self.room_id}/state", headers=self._auth(seat))
        body: dict[str, Any] = answer.json()
        return body

    async def play(self, http: httpx.AsyncClient, started: float, window: float) -> None:
        """TURNS turn changes at random moments of the window (the last a grace and more before its
        end); between two, every move is made at once so no seat is left waiting on the way."""
        # One moment in each of TURNS slots, early enough in it that the seat's grace is over (and its
        # alert decided) before the next move takes the turn away from it.
        slot = (window - 6.5) / TURNS
        spread = max(0.1, slot - self.grace - 2.0)
        moments = [0.5 + i * slot + self.rng.uniform(0, spread) for i in range(TURNS)]
        try:
            public = await self._state(http, 0)
            for at in moments:
                await asyncio.sleep(max(0.0, started + at - time.perf_counter()))
                while public["status"] == "playing":
                    seat = public["to_act"][0]
                    legal = (await self._state(http, seat))["legal_actions"]
                    sent_wall, sent = time.time(), time.perf_counter()
                    answer = await http.post(
                        f"{self.base}/api/rooms/{self.room_id}/actions",
                        json={"action": self.rng.choice(legal), "version": public["version"]},
                        headers=self._auth(seat),
                    )
                    acked_wall = time.time()
                    self.move_latencies.append(time.perf_counter() - sent)
                    self.move_starts.append(sent)
                    if answer.status_code != 200:
                        self.errors.append(f"move answered {answer.status_code}: {answer.text[:200]}")
                        return
                    public = answer.json()
                    fresh = [s for s in public["to_act"] if s not in self.alerted]
                    if fresh:
                        for s in fresh:
                            self.alerted.add(s)
                            self.changes[s] = sent_wall
                            self.acked[s] = acked_wall
                        break
        except (httpx.HTTPError, KeyError, IndexError) as error:
            self.errors.append(repr(error))


# -- one run ---------------------------------------------------------------------------------------
def start_server(args: argparse.Namespace, tmp: Path, name: str) -> Server:
    limits = server_limits(argparse.Namespace(rooms=args.rooms + args.alert_seats // SEATS))
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp / f'{name}.db'}",
        "MOTABLE_BOT_DELAY": "0",
        "MOTABLE_PUSH_GRACE_SECONDS": str(args.grace),
        # The push service is this process on 127.0.0.1: allowed only because the server binds loopback.
        "MOTABLE_PUSH_ALLOW_INSECURE_ENDPOINTS": "1",
        "MOTABLE_PUSH_CONTACT": "mailto:bench@example.org",
        **limits,
    }
    env.pop("REDIS_URL", None)
    port = free_port()
    argv = [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port)]
    server = Server([*argv, "--log-level", "warning"], env, port, tmp / f"{name}.log")
    server.wait_ready("/healthz")
    return server


async def run_once(args: argparse.Namespace, server: Server, services: list[PushService]) -> dict[str, Any]:
    base = f"http://127.0.0.1:{server.port}"
    stats = Stats()
    rooms = [Room([base], i, 0, stats, random.Random(i)) for i in range(args.rooms)]
    alert_rooms = [
        AlertRoom(base, i, random.Random(10_000 + i), args.grace) for i in range(args.alert_seats // SEATS)
    ]
    # The alert rooms get a client of their own, with a connection per room: a move waits for no other.
    alert_http = httpx.AsyncClient(timeout=120, limits=http_limits(len(alert_rooms) + 1))
    async with alert_http, httpx.AsyncClient(timeout=120, limits=http_limits(64)) as http:
        gate = asyncio.Semaphore(16)

        async def open_room(room: Room) -> None:
            async with gate:
                await room.open(http)

        async def open_alert_room(room: AlertRoom, service: PushService | None) -> None:
            async with gate:
                await room.open(alert_http, service)

        await asyncio.gather(
            *(open_room(r) for r in rooms),
            *(
                open_alert_room(r, services[i % len(services)] if services else None)
                for i, r in enumerate(alert_rooms)
            ),
        )
        # The alerts of the seats to act at the start (a grace after subscribing) go before the window.
        await asyncio.sleep(args.grace + 2.0)
        gc.freeze()
        gc.set_threshold(50_000, 20, 20)
        profiler = None
        if args.profile:
            spy = Path(sys.executable).with_name("py-spy")
            argv = [str(spy), "record", "-p", str(server.process.pid), "-d", str(int(args.duration))]
            argv += ["-r", "100", "--nonblocking", "-f", "raw", "-o", args.profile]
            profiler = await asyncio.create_subprocess_exec(
                *argv, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
            )
        cpu_before = sum(cpu_split(server.process.pid))
        load_before = load_average()
        stats.measuring = True
        started = time.perf_counter()
        stop = started + args.duration
        alerting = asyncio.gather(*(r.play(alert_http, started, args.duration) for r in alert_rooms))
        await asyncio.gather(*(r.play(http, stop, args.think) for r in rooms))
        spent = time.perf_counter() - started
        stats.measuring = False
        cpu = sum(cpu_split(server.process.pid)) - cpu_before
        in_window = sum(1 for r in alert_rooms for sent in r.move_starts if sent < stop)
        await alerting  # on a starved machine the alert rooms' last moves may come after the window
        if profiler is not None:
            await profiler.wait()
        # Alerts still on their way after the window (the last turn changes were 6 s before its end).
        for index, service in enumerate(services):
            if service.mode != "on":
                continue
            served = alert_rooms[index :: len(services)]
            expected = sum(len(r.changes) for r in served)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and len(arrivals(service, served)) < expected:
                await asyncio.sleep(0.2)
        for room in rooms:
            await room.close()
    http_moves = [x for r in alert_rooms for x in r.move_latencies]
    return {
        "spent": spent,
        "stats": stats,
        "cpu_s": cpu,
        "load": (load_before, load_average()),
        "alert_rooms": alert_rooms,
        "http_moves": http_moves,
        "http_moves_in_window": in_window,
        "errors": stats.errors + [e for r in alert_rooms for e in r.errors],
    }


def arrivals(service: PushService, rooms: list[AlertRoom]) -> dict[tuple[str, int], float]:
    with service.lock:
        first = dict(service.first)
    found = {}
    for room in rooms:
        for seat in room.changes:
            at = first.get(f"/s/{room.room_id}/{seat}")
            if at is not None:
                found[(room.room_id, seat)] = at
    return found


def report(name: str, args: argparse.Namespace, result: dict[str, Any], services: list[PushService]) -> None:
    stats: Stats = result["stats"]
    ms = [x * 1000 for x in stats.latencies]
    http_ms = [x * 1000 for x in result["http_moves"]]
    moves = stats.moves + result["http_moves_in_window"]
    print(
        f"-- run {name}: {result['spent']:.1f}s measured, load avg {result['load'][0]} -> {result['load'][1]}"
    )
    print(
        f"   load moves       {stats.moves / result['spent']:.1f}/s  p50 {percentile(ms, 50):.1f}  "
        f"p95 {percentile(ms, 95):.1f}  p99 {percentile(ms, 99):.1f} ms  (n={len(ms)}, sockets)"
    )
    print(
        f"   alert-room moves p50 {percentile(http_ms, 50):.1f}  p95 {percentile(http_ms, 95):.1f}  "
        f"p99 {percentile(http_ms, 99):.1f} ms  (n={len(http_ms)}, HTTP)"
    )
    print(f"   server CPU       {result['cpu_s']:.1f} s, {1e6 * result['cpu_s'] / max(1, moves):.0f} us/move")
    print(f"   errors           {len(result['errors'])}")
    for error in result["errors"][:3]:
        print(f"     {error}")
    every: list[AlertRoom] = result["alert_rooms"]
    if not services:
        changes = {(r.room_id, seat): at for r in every for seat, at in r.changes.items()}
        print(f"   turn changes     {len(changes)} (nobody subscribed)")
        return
    for index, service in enumerate(services):
        rooms = every[index :: len(services)]
        if len(services) > 1:
            print(f"   push service {index + 1} ({service.mode}), {len(rooms)} alert rooms:")
        report_alerts(args, service, rooms)


def report_alerts(args: argparse.Namespace, service: PushService, rooms: list[AlertRoom]) -> None:
    changes = {(r.room_id, seat): at for r in rooms for seat, at in r.changes.items()}
    found = arrivals(service, rooms)
    delays = [1000 * (found[key] - at - args.grace) for key, at in changes.items() if key in found]
    measured = {f"/s/{room}/{seat}" for room, seat in changes}
    tries = sum(n for path, n in service.attempts.items() if path in measured)
    print(
        f"   alerts           {len(found)} of {len(changes)} turn changes arrived ({tries} attempts); "
        f"{len(service.first)} seats reached in all"
    )
    acked = {(r.room_id, seat): at for r in rooms for seat, at in r.acked.items()}
    from_ack = [1000 * (found[key] - at - args.grace) for key, at in acked.items() if key in found]
    for label, values in (("from the move sent", delays), ("from its answer", from_ack)):
        if values:
            print(
                f"   alert delay      p50 {percentile(values, 50):.0f}  p95 {percentile(values, 95):.0f}  "
                f"p99 {percentile(values, 99):.0f}  max {max(values):.0f} ms, minus the {args.grace:g} s "
                f"grace, {label}"
            )


def profile_share(path: str) -> str:
    """The share of py-spy samples with a frame of app/alerts on the stack (raw collapsed stacks)."""
    total = alerts = 0
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        total += int(count)
        if "app/alerts/" in stack:
            alerts += int(count)
    return f"{alerts} of {total} samples ({100 * alerts / max(1, total):.2f}%) have app/alerts on the stack"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rooms", type=int, default=250, help="load rooms, 4 sockets each")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time of the load's players")
    parser.add_argument("--alert-seats", type=int, default=1000, help="seats subscribed, with no socket")
    parser.add_argument("--grace", type=float, default=1.0, help="MOTABLE_PUSH_GRACE_SECONDS")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of measured play per run")
    parser.add_argument("--runs", default=",".join(RUNS), help=f"comma-separated, of {', '.join(RUNS)}")
    parser.add_argument("--profile", help="py-spy record the server over the window (one run) to this file")
    parser.add_argument("--push-service", choices=("on", "500", "hang"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.push_service:
        serve_push(args.push_service)
        return
    runs = [r for r in args.runs.split(",") if r]
    if not set(runs) <= set(RUNS) or (args.profile and len(runs) != 1):
        parser.error(f"--runs takes {', '.join(RUNS)} (one run with --profile)")
    files = raise_open_files(args.rooms * SEATS * 2 + 1000)
    print(
        f"{args.rooms} load rooms x {SEATS} sockets (think {args.think}s), {args.alert_seats} seats "
        f"subscribed in {args.alert_seats // SEATS} rooms without sockets, grace {args.grace:g} s, SQLite; "
        f"open files {files}"
    )
    with tempfile.TemporaryDirectory() as directory:
        tmp = Path(directory)
        for name in runs:
            services = [PushService(mode=mode) for mode in SERVICES[name]]
            for service in services:
                service.start()
            server = start_server(args, tmp, name)
            try:
                result = asyncio.run(run_once(args, server, services))
            finally:
                server.stop()
                for service in services:
                    service.stop()
            report(name, args, result, services)
            with contextlib.suppress(OSError):
                (tmp / f"{name}.db").unlink()
            sys.stdout.flush()
    if args.profile:
        print(f"profile: {profile_share(args.profile)}")


if __name__ == "__main__":
    main()
