"""Load bench: R rooms x 4 seats over real WebSockets against real `motable serve` processes.

Each room plays random legal Mojo moves, one at a time, as fast as the server answers (or after a
random think time with the mean --think). Printed: moves/s; p50/p95/p99 from sending an action to
the last socket of the room holding the new version; errors; the server's CPU seconds and peak RSS;
and, in the same run, a bare uvicorn WebSocket echo's round trips/s with the ratio moves/s / echo.

    .venv/bin/python -m bench.load --rooms 50 --duration 20            # SQLite, saturated
    .venv/bin/python -m bench.load --rooms 250 --think 2 --duration 30  # paced players
    .venv/bin/python -m bench.load --database-url postgresql://postgres@127.0.0.1:5432/test \\
        --processes 2 --redis-url redis://127.0.0.1:6379/0              # scale-out
    .venv/bin/python -m bench.load --rooms 50 --bots 3                  # 3 strong bots + 1 human
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import orjson
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
GAME = "mojo"
SEATS = 4

# The bare echo the server is compared with: the same stack, no work.
echo_app = FastAPI()


@echo_app.websocket("/echo")
async def _echo(websocket: WebSocket) -> None:
    await websocket.accept()
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            await websocket.send_text(await websocket.receive_text())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def percentile(samples: list[float], p: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def raise_open_files() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# -- JSON Patch, just enough for the server's patches (add, remove, replace) ----------------------
def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def apply_patch(doc: Any, ops: list[dict[str, Any]]) -> Any:
    for op in ops:
        path = op["path"]
        if path == "":
            doc = op["value"]
            continue
        parts = [_unescape(p) for p in path[1:].split("/")]
        parent = doc
        for part in parts[:-1]:
            parent = parent[int(part)] if isinstance(parent, list) else parent[part]
        key = parts[-1]
        kind = op["op"]
        if isinstance(parent, list):
            if kind == "add":
                parent.insert(len(parent) if key == "-" else int(key), op["value"])
            elif kind == "remove":
                del parent[int(key)]
            else:
                parent[int(key)] = op["value"]
        elif kind == "remove":
            del parent[key]
        else:
            parent[key] = op["value"]
    return doc


# -- servers -------------------------------------------------------------------------------------
class Server:
    def __init__(self, argv: list[str], env: dict[str, str], port: int, log: Path) -> None:
        self.port = port
        with log.open("ab") as out:
            self.process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        self.log = log

    def wait_ready(self, path: str | None) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"server exited early:\n{self.log.read_text()[-3000:]}")
            if path is None:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.5):
                    return
            else:
                with contextlib.suppress(httpx.TransportError):
                    if httpx.get(f"http://127.0.0.1:{self.port}{path}", timeout=1).status_code == 200:
                        return
            time.sleep(0.1)
        raise SystemExit(f"server did not come up:\n{self.log.read_text()[-3000:]}")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_mib(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_motable(args: argparse.Namespace, database_url: str, logs: Path) -> list[Server]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "MOTABLE_BOT_DELAY": str(args.bot_delay),
        # The bench is one client address opening many sockets: limits would measure the limiter.
        "MOTABLE_RATE_PER_SECOND": "0",
        "MOTABLE_ROOMS_PER_HOUR": "0",
        "MOTABLE_BOTS_PER_HOUR": "0",
        "MOTABLE_MAX_CONNECTIONS_PER_ADDRESS": "0",
        # Every socket of the run, plus room for the HTTP connections that set the rooms up.
        "MOTABLE_MAX_CONNECTIONS": str(max(4000, args.rooms * SEATS + 1000)),
    }
    env.pop("REDIS_URL", None)
    if args.redis_url:
        env["REDIS_URL"] = args.redis_url
    servers = []
    for index in range(args.processes):
        port = free_port()
        argv = [sys.executable, "-m", "app", "serve", "--port", str(port), "--log-level", "warning"]
        servers.append(Server(argv, env, port, logs / f"motable-{index}.log"))
        # Migrations run at start: let the first finish before the others look.
        servers[-1].wait_ready("/healthz")
    return servers


# -- the bare echo -------------------------------------------------------------------------------
async def echo_round_trips(port: int, sockets: int, duration: float) -> float:
    message = json.dumps({"type": "action", "id": "1-1", "action": {"type": "draw", "pile": 0}, "version": 7})
    counts = [0] * sockets
    stop = 0.0

    async def one(index: int, ws: ClientConnection) -> None:
        while time.perf_counter() < stop:
            await ws.send(message)
            await ws.recv()
            counts[index] += 1

    async with contextlib.AsyncExitStack() as stack:
        conns = [
            await stack.enter_async_context(connect(f"ws://127.0.0.1:{port}/echo", compression=None))
            for _ in range(sockets)
        ]
        started = time.perf_counter()
        stop = started + duration
        await asyncio.gather(*(one(i, ws) for i, ws in enumerate(conns)))
        spent = time.perf_counter() - started
    return sum(counts) / spent


# -- the players ---------------------------------------------------------------------------------
@dataclass
class SeatSocket:
    seat: int
    ws: ClientConnection
    body: dict[str, Any] = field(default_factory=dict)
    replies: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def version(self) -> int:
        return int(self.body.get("version", -1))


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: list[str] = field(default_factory=list)
    measuring: bool = False


class Room:
    def __init__(self, base: list[str], index: int, bots: int, stats: Stats, rng: random.Random) -> None:
        self.base = base
        self.index = index
        self.bots = bots
        self.stats = stats
        self.rng = rng
        self.seats: list[SeatSocket] = []
        self.changed = asyncio.Event()
        self.readers: list[asyncio.Task[None]] = []
        self.room_id = ""

    def _http(self, seat: int) -> str:
        return self.base[(self.index + seat) % len(self.base)]

    async def open(self, http: httpx.AsyncClient) -> None:
        """Create the room, seat everyone (or the bots), connect every human socket and start."""
        await self.close()
        created = (await http.post(f"{self._http(0)}/api/rooms", json={"game": GAME, "name": "P0"})).json()
        self.room_id = created["room_id"]
        tokens = [created["token"]]
        humans = SEATS - self.bots
        for seat in range(1, humans):
            joined = await http.post(
                f"{self._http(seat)}/api/rooms/{self.room_id}/join", json={"name": f"P{seat}"}
            )
            tokens.append(joined.json()["token"])
        for _ in range(self.bots):
            await http.post(
                f"{self._http(0)}/api/rooms/{self.room_id}/bots",
                headers={"Authorization": f"Bearer {tokens[0]}"},
            )
        self.seats = []
        for seat, token in enumerate(tokens):
            ws_base = self._http(seat).replace("http://", "ws://")
            ws = await connect(
                f"{ws_base}/ws/rooms/{self.room_id}", compression=None, max_queue=None, open_timeout=60
            )
            await ws.send(json.dumps({"type": "auth", "token": token}))
            self.seats.append(SeatSocket(seat, ws))
        self.readers = [asyncio.create_task(self._read(s)) for s in self.seats]
        response = await http.post(
            f"{self._http(0)}/api/rooms/{self.room_id}/start",
            headers={"Authorization": f"Bearer {tokens[0]}"},
        )
        if response.status_code != 200:
            raise RuntimeError(f"start answered {response.status_code}: {response.text}")
        await self._until(lambda: all(s.version >= 1 and s.body.get("seat") == s.seat for s in self.seats))

    async def close(self) -> None:
        for task in self.readers:
            task.cancel()
        for seat in self.seats:
            with contextlib.suppress(Exception):
                await seat.ws.close()
        self.readers = []

    async def _read(self, seat: SeatSocket) -> None:
        try:
            async for raw in seat.ws:
                message = orjson.loads(raw)
                kind = message["type"]
                if kind == "snapshot":
                    seat.body = message["state"]
                elif kind == "patch":
                    seat.body = apply_patch(seat.body, message["ops"])
                elif kind in ("ack", "error"):
                    seat.replies[str(message["id"])] = message
                    if kind == "error" and self.stats.measuring:
                        self.stats.errors.append(f"{message['error']['code']}: {message['error']['message']}")
                self.changed.set()
        except Exception as error:  # a dropped socket is an error of the run
            if self.stats.measuring:
                self.stats.errors.append(f"socket of seat {seat.seat} in {self.room_id}: {error!r}")
            self.changed.set()

    async def _until(self, ready: Any, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"room {self.room_id} waited {timeout}s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    def _answered(self, mover: SeatSocket, message_id: str, version: int) -> Any:
        """Refused, or acknowledged and every socket of the room holds the new version."""

        def done() -> bool:
            reply = mover.replies.get(message_id)
            if reply is None:
                return False
            return reply["type"] == "error" or all(s.version > version for s in self.seats)

        return done

    async def play(self, http: httpx.AsyncClient, stop: float, think: float) -> None:
        number = 0
        while time.perf_counter() < stop:
            try:
                version = max(s.version for s in self.seats)
                await self._until(lambda v=version: all(s.version >= v for s in self.seats))
                first = self.seats[0].body
                if first["status"] == "finished":
                    await self.open(http)
                    continue
                movers = [s for s in self.seats if s.body["legal_actions"]]
                if not movers:
                    # Bots are to play: wait for them.
                    await self._until(lambda v=version: self.seats[0].version > v)
                    continue
                mover = self.rng.choice(movers)
                action = self.rng.choice(mover.body["legal_actions"])
                if think:
                    pause = self.rng.expovariate(1 / think)
                    if time.perf_counter() + pause >= stop:
                        # A move after the end would not count: the room stops with the clock,
                        # so the run's length (the divisor of moves/s) is not stretched by a pause.
                        await asyncio.sleep(max(0.0, stop - time.perf_counter()))
                        return
                    await asyncio.sleep(pause)
                    if max(s.version for s in self.seats) != version:
                        continue
                number += 1
                message_id = f"{self.index}-{number}"
                sent = time.perf_counter()
                message = {"type": "action", "id": message_id, "action": action, "version": version}
                await mover.ws.send(orjson.dumps(message).decode())
                await self._until(self._answered(mover, message_id, version))
                reply = mover.replies.pop(message_id)
                if reply["type"] == "ack" and self.stats.measuring and time.perf_counter() < stop:
                    self.stats.latencies.append(time.perf_counter() - sent)
                    self.stats.moves += 1
            except TimeoutError as error:
                if self.stats.measuring:
                    self.stats.errors.append(str(error))
                return


async def run_load(args: argparse.Namespace, servers: list[Server]) -> dict[str, Any]:
    base = [f"http://127.0.0.1:{s.port}" for s in servers]
    stats = Stats()
    rooms = [Room(base, i, args.bots, stats, random.Random(i)) for i in range(args.rooms)]
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(timeout=120, limits=limits) as http:
        gate = asyncio.Semaphore(16)

        async def open_room(room: Room) -> None:
            async with gate:
                await room.open(http)

        await asyncio.gather(*(open_room(r) for r in rooms))
        # The generator holds every socket's body too: its own collector pauses would be counted as
        # the server's latency, so it collects as rarely as the server does (app/serving.py).
        gc.freeze()
        gc.set_threshold(50_000, 20, 20)
        # Bot moves count as moves too: counted from the versions the human sockets saw.
        version_before = sum(r.seats[0].version for r in rooms)
        cpu_before = sum(s.cpu_seconds() for s in servers)
        mine_before = resource.getrusage(resource.RUSAGE_SELF)
        stats.measuring = True
        started = time.perf_counter()
        stop = started + args.duration
        await asyncio.gather(*(r.play(http, stop, args.think) for r in rooms))
        spent = time.perf_counter() - started
        stats.measuring = False
        cpu = sum(s.cpu_seconds() for s in servers) - cpu_before
        mine = resource.getrusage(resource.RUSAGE_SELF)
        client_cpu = mine.ru_utime + mine.ru_stime - mine_before.ru_utime - mine_before.ru_stime
        if args.bots:
            # Matches restarted during the run reset the count; a lower bound then.
            stats.moves = max(stats.moves, sum(r.seats[0].version for r in rooms) - version_before)
        for room in rooms:
            await room.close()
    return {
        "moves_per_s": stats.moves / spent,
        "latencies": stats.latencies,
        "errors": stats.errors,
        "cpu_s": cpu,
        "client_cpu_s": client_cpu,
        "peak_rss_mib": max(s.peak_rss_mib() for s in servers),
        "spent": spent,
    }


def fresh_database(url: str | None, tmp: Path) -> str:
    if url is None:
        return f"sqlite:///{tmp / 'load.db'}"
    if url.startswith("sqlite"):
        return url
    # A schema of its own on PostgreSQL, so runs never see each other's rooms.
    import psycopg

    admin_url = url.replace("postgresql+psycopg://", "postgresql://")
    schema = f"motable_load_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}options={quote(f'-csearch_path={schema}')}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of measured play")
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a player thinks before a move")
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--processes", type=int, default=1, help="server processes (more than 1 needs Redis)")
    parser.add_argument("--redis-url", help="Redis for scale-out")
    parser.add_argument("--bots", type=int, default=0, choices=range(SEATS), help="strong bots per room")
    parser.add_argument("--bot-delay", type=float, default=0.0, help="MOTABLE_BOT_DELAY of the server")
    parser.add_argument("--echo-seconds", type=float, default=5.0)
    args = parser.parse_args()
    if args.processes > 1 and not args.redis_url:
        parser.error("--processes above 1 needs --redis-url")
    raise_open_files()
    with tempfile.TemporaryDirectory() as directory:
        tmp = Path(directory)
        port = free_port()
        argv = [
            sys.executable,
            "-m",
            "uvicorn",
            "bench.load:echo_app",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ]
        echo = Server(argv, dict(os.environ), port, tmp / "echo.log")
        try:
            echo.wait_ready(None)
            # One socket in flight per room, as in the saturated run (at most 200: the ceiling is reached).
            echo_rate = asyncio.run(echo_round_trips(port, max(1, min(args.rooms, 200)), args.echo_seconds))
        finally:
            echo.stop()
        servers = start_motable(args, fresh_database(args.database_url, tmp), tmp)
        try:
            result = asyncio.run(run_load(args, servers))
        finally:
            for server in servers:
                server.stop()
    latencies = [x * 1000 for x in result["latencies"]]
    database = "SQLite" if not args.database_url or args.database_url.startswith("sqlite") else "PostgreSQL"
    print(
        f"{args.rooms} rooms x {SEATS} seats ({args.bots} bots each), {database}, "
        f"{args.processes} process(es), think {args.think}s, {result['spent']:.1f}s measured"
    )
    print(f"moves/s            {result['moves_per_s']:.1f}")
    print(
        f"latency ms         p50 {percentile(latencies, 50):.1f}  p95 {percentile(latencies, 95):.1f}  "
        f"p99 {percentile(latencies, 99):.1f}  (n={len(latencies)})"
    )
    print(f"errors             {len(result['errors'])}")
    for error in result["errors"][:5]:
        print(f"  {error}")
    print(f"server CPU s       {result['cpu_s']:.1f}")
    moves_done = result["moves_per_s"] * result["spent"]
    if moves_done:
        print(f"server CPU ms/move {1000 * result['cpu_s'] / moves_done:.2f}")
    print(f"server peak RSS    {result['peak_rss_mib']:.0f} MiB")
    print(f"load generator CPU {result['client_cpu_s']:.1f} s")
    print(f"machine load avg   {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"echo round trips/s {echo_rate:.0f}")
    print(f"moves/s / echo     {result['moves_per_s'] / echo_rate:.3f}")


if __name__ == "__main__":
    main()
