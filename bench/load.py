"""Load bench: R rooms x 4 seats over real WebSockets against real `motable serve` processes.

Each room plays random legal Mojo moves, one at a time, as fast as the server answers (or after a
random think time with the mean --think). Printed: moves/s; p50/p95/p99 from sending an action to
the last socket of the room holding the new version; errors; the server's CPU seconds, CPU per move
and peak RSS; the frames and bytes the sockets were sent per move; the machine's load average.

Then, in the same run, the bare echo (bench/echo.py: uvicorn with `motable serve`'s options, a raw
ASGI app that parses nothing) is driven with the same shape: as many sockets in groups of 4, one
frame in flight per group (saturated) or one per group after the same random think time. Twice: a
1-in-1-out echo, and a 1-in-5-out fan-out (an ack to the sender, then a frame the size of the run's
mean patch to each of the group's 4 sockets: a move's frames). Each server's CPU time is read the
same way (/proc/<pid>/stat utime+stime over the measured window) and divided by moves or round
trips: "a move costs K echo round trips".

    .venv/bin/python -m bench.load --rooms 50 --duration 30            # SQLite, saturated
    .venv/bin/python -m bench.load --rooms 1250 --think 3 --duration 30 # 5,000 sockets, paced
    .venv/bin/python -m bench.load --rooms 250 --think 2 --duration 30  # paced players
    .venv/bin/python -m bench.load --database-url postgresql://postgres@127.0.0.1:5432/test \\
        --processes 2 --redis-url redis://127.0.0.1:6379/0              # scale-out
    .venv/bin/python -m bench.load --rooms 50 --bots 3                  # 3 strong bots + 1 human
    .venv/bin/python -m bench.load --rooms 50 --duration 30 --profile /tmp/p.raw   # py-spy the server
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
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
GAME = "mojo"
SEATS = 4


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


def raise_open_files(wanted: int) -> str:
    """Raise this process's soft open-file limit to the hard one (the servers, its children, inherit
    it); says what it is and whether it covers `wanted` descriptors."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    now = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    note = "" if now >= wanted else f"  TOO LOW for {wanted} sockets: raise the hard limit (ulimit -Hn)"
    return f"{soft} -> {now} (hard {hard}){note}"


def cpu_of(pid: int) -> float:
    """CPU seconds (user + system) the process has used: /proc/<pid>/stat utime + stime."""
    user, system = cpu_split(pid)
    return user + system


def cpu_split(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of the process (/proc/<pid>/stat utime, stime)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


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
        return cpu_of(self.process.pid)

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


def http_limits(max_connections: int = 100) -> httpx.Limits:
    """The bench clients' connection pool (httpx's default size unless told). An idle connection is
    dropped well before the server's keep-alive timeout (MOTABLE_KEEPALIVE_TIMEOUT, 5 s) closes it:
    with httpx's default (also 5 s) a busy client could send a request on a connection the server had
    just closed, and the run died on an httpx.ReadError (a POST is not retried)."""
    return httpx.Limits(max_connections=max_connections, keepalive_expiry=2.0)


def server_limits(args: argparse.Namespace) -> dict[str, str]:
    return {
        # The bench is one client address opening many sockets: limits would measure the limiter.
        "MOTABLE_RATE_PER_SECOND": "0",
        "MOTABLE_ROOMS_PER_HOUR": "0",
        "MOTABLE_BOTS_PER_HOUR": "0",
        "MOTABLE_MAX_CONNECTIONS_PER_ADDRESS": "0",
        # Every socket of the run, plus room for the HTTP connections that set the rooms up.
        "MOTABLE_MAX_CONNECTIONS": str(max(4000, args.rooms * SEATS + 1000)),
    }


def start_motable(args: argparse.Namespace, database_url: str, logs: Path) -> list[Server]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "MOTABLE_BOT_DELAY": str(args.bot_delay),
        **server_limits(args),
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
ECHO_IN = orjson.dumps({"type": "action", "id": "1-1", "action": {"type": "draw", "pile": 0}, "version": 7})


def echo_env(args: argparse.Namespace) -> dict[str, str]:
    """The echo gets the same connection settings as the motable server (app/serving.py reads them)."""
    env = {**os.environ, **server_limits(args)}
    env.pop("REDIS_URL", None)
    return env


def start_echo(args: argparse.Namespace, logs: Path) -> Server:
    port = free_port()
    argv = [sys.executable, "-m", "bench.echo", "--port", str(port), "--log-level", "warning"]
    if args.echo_fastapi:
        argv.append("--fastapi")
    echo = Server(argv, echo_env(args), port, logs / "echo.log")
    echo.wait_ready("/")
    return echo


async def echo_load(
    echo: Server, groups: int, think: float, duration: float, fan: bool, size: int, seed: int
) -> dict[str, Any]:
    """Drive the echo as the rooms drive motable: `groups` x 4 sockets, one frame in flight per group
    (after a random think time when `think`). A round trip is done when the sender has its echo
    (1-in-1-out) or its ack and all 4 sockets the fan-out frame (1-in-5-out)."""
    rng = random.Random(seed)
    text = ECHO_IN.decode()
    latencies: list[float] = []
    count = 0
    stop = 0.0
    gate = asyncio.Semaphore(64)
    base = f"ws://127.0.0.1:{echo.port}"

    async def open_one(group: int) -> ClientConnection:
        url = f"{base}/fan?group={group}&size={size}" if fan else f"{base}/echo"
        async with gate:
            return await connect(url, compression=None, max_queue=None, open_timeout=60)

    async def play(members: list[ClientConnection]) -> None:
        nonlocal count
        while time.perf_counter() < stop:
            if think:
                pause = rng.expovariate(1 / think)
                if time.perf_counter() + pause >= stop:
                    await asyncio.sleep(max(0.0, stop - time.perf_counter()))
                    return
                await asyncio.sleep(pause)
            sender = rng.choice(members)
            sent = time.perf_counter()
            await sender.send(text)
            await sender.recv()  # the echo, or the ack
            if fan:
                for member in members:
                    await member.recv()
            done = time.perf_counter()
            if done < stop:
                count += 1
                latencies.append(done - sent)

    sockets = await asyncio.gather(*(open_one(g) for g in range(groups) for _ in range(SEATS)))
    tables = [list(sockets[g * SEATS : (g + 1) * SEATS]) for g in range(groups)]
    try:
        system_before = cpu_split(echo.process.pid)[1]
        cpu_before = echo.cpu_seconds()
        started = time.perf_counter()
        stop = started + duration
        await asyncio.gather(*(play(t) for t in tables))
        spent = time.perf_counter() - started
        cpu = echo.cpu_seconds() - cpu_before
        system = cpu_split(echo.process.pid)[1] - system_before
    finally:
        for ws in sockets:
            with contextlib.suppress(Exception):
                await ws.close()
    return {
        "rate": count / spent,
        "count": count,
        "cpu_s": cpu,
        "system_s": system,
        "latencies": latencies,
        "spent": spent,
    }


# -- the players ---------------------------------------------------------------------------------
async def wait_until(changed: asyncio.Event, ready: Any, what: str, timeout: float = 30.0) -> None:
    """Until `ready()` is true, looking again each time `changed` is set (by a socket's reader)."""
    deadline = time.monotonic() + timeout
    while not ready():
        changed.clear()
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"{what} waited {timeout}s")
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(left):
                await changed.wait()


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
    # Frames (and their bytes) the sockets were sent while measuring, by type; tables set up.
    frames: dict[str, int] = field(default_factory=dict)
    frame_bytes: dict[str, int] = field(default_factory=dict)
    sent_frames: int = 0
    sent_bytes: int = 0
    setups: int = 0


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
                if self.stats.measuring:
                    frames, sizes = self.stats.frames, self.stats.frame_bytes
                    frames[kind] = frames.get(kind, 0) + 1
                    sizes[kind] = sizes.get(kind, 0) + len(raw)
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
        await wait_until(self.changed, ready, f"room {self.room_id}", timeout)

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
                    if self.stats.measuring:
                        self.stats.setups += 1
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
                frame = orjson.dumps(message).decode()
                if self.stats.measuring:
                    self.stats.sent_frames += 1
                    self.stats.sent_bytes += len(frame)
                await mover.ws.send(frame)
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
    async with httpx.AsyncClient(timeout=120, limits=http_limits(64)) as http:
        gate = asyncio.Semaphore(16)

        async def open_room(room: Room) -> None:
            async with gate:
                await room.open(http)

        await asyncio.gather(*(open_room(r) for r in rooms))
        # The generator holds every socket's body too: its own collector's pauses (a young
        # generation of 50,000 objects took 25-60 ms here, an older one 0.4-0.8 s) would be counted
        # as the server's latency. It does not collect while it measures (a run is short; what
        # reference counting leaves is freed when the collector is back on).
        gc.collect()
        gc.freeze()
        gc.disable()
        # Bot moves count as moves too: counted from the versions the human sockets saw.
        version_before = sum(r.seats[0].version for r in rooms)
        cpu_before = sum(s.cpu_seconds() for s in servers)
        system_before = sum(cpu_split(s.process.pid)[1] for s in servers)
        mine_before = resource.getrusage(resource.RUSAGE_SELF)
        load_before = load_average()
        profiler = start_profiler(args, servers[0])
        stats.measuring = True
        started = time.perf_counter()
        stop = started + args.duration
        await asyncio.gather(*(r.play(http, stop, args.think) for r in rooms))
        spent = time.perf_counter() - started
        stats.measuring = False
        gc.enable()
        cpu = sum(s.cpu_seconds() for s in servers) - cpu_before
        system = sum(cpu_split(s.process.pid)[1] for s in servers) - system_before
        load_after = load_average()
        if profiler is not None:
            await asyncio.to_thread(profiler.wait)
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
        "system_s": system,
        "client_cpu_s": client_cpu,
        "peak_rss_mib": max(s.peak_rss_mib() for s in servers),
        "spent": spent,
        "stats": stats,
        "load": (load_before, load_after),
    }


def start_profiler(args: argparse.Namespace, server: Server) -> subprocess.Popen[bytes] | None:
    """py-spy on the (first) server over the measured window: its figures are then not the clean
    ones (sampling pauses the process), so profile in a run of its own."""
    if not args.profile:
        return None
    spy = Path(sys.executable).with_name("py-spy")
    argv = [str(spy), "record", "-p", str(server.process.pid), "-d", str(int(args.duration)), "-r", "100"]
    argv += ["--nonblocking", "-f", "raw", "-o", args.profile] + (["--gil"] if args.profile_gil else [])
    print(f"profiling: {' '.join(argv)}", file=sys.stderr, flush=True)
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


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
    parser.add_argument("--echo-seconds", type=float, default=15.0, help="seconds of each measured echo run")
    parser.add_argument(
        "--echo-fastapi", action="store_true", help="the echo's routes through FastAPI (default: raw ASGI)"
    )
    parser.add_argument(
        "--profile", help="py-spy record the server over the measured window, raw, to this file"
    )
    parser.add_argument("--profile-gil", action="store_true", help="py-spy: only the thread holding the GIL")
    args = parser.parse_args()
    if args.processes > 1 and not args.redis_url:
        parser.error("--processes above 1 needs --redis-url")
    # Every socket twice (client and server end) plus the HTTP connections and the servers' files.
    files = raise_open_files(args.rooms * SEATS * 2 + 500)
    with tempfile.TemporaryDirectory() as directory:
        tmp = Path(directory)
        servers = start_motable(args, fresh_database(args.database_url, tmp), tmp)
        print(
            f"motable serve pid(s): {' '.join(str(s.process.pid) for s in servers)}",
            file=sys.stderr,
            flush=True,
        )
        try:
            result = asyncio.run(run_load(args, servers))
        finally:
            for server in servers:
                server.stop()
        stats: Stats = result["stats"]
        patch_size = round(stats.frame_bytes.get("patch", 0) / max(1, stats.frames.get("patch", 0))) or 400
        echo = start_echo(args, tmp)
        try:
            groups, seconds = args.rooms, args.echo_seconds
            one = asyncio.run(echo_load(echo, groups, args.think, seconds, False, patch_size, 1))
            fan = asyncio.run(echo_load(echo, groups, args.think, seconds, True, patch_size, 2))
            echo_rss = echo.peak_rss_mib()
        finally:
            echo.stop()
    report(args, result, one, fan, patch_size, echo_rss, files)


def report(
    args: argparse.Namespace,
    result: dict[str, Any],
    one: dict[str, Any],
    fan: dict[str, Any],
    patch_size: int,
    echo_rss: float,
    files: str,
) -> None:
    stats: Stats = result["stats"]
    latencies = [x * 1000 for x in result["latencies"]]
    database = "SQLite" if not args.database_url or args.database_url.startswith("sqlite") else "PostgreSQL"
    print(
        f"{args.rooms} rooms x {SEATS} seats ({args.bots} bots each), {database}, "
        f"{args.processes} process(es), think {args.think}s, {result['spent']:.1f}s measured"
    )
    print(f"open-file limit    {files}")
    print(f"machine load avg   {result['load'][0]} before, {result['load'][1]} after (1/5/15 min)")
    print(f"moves/s            {result['moves_per_s']:.1f}")
    print(
        f"latency ms         p50 {percentile(latencies, 50):.1f}  p95 {percentile(latencies, 95):.1f}  "
        f"p99 {percentile(latencies, 99):.1f}  (n={len(latencies)})"
    )
    print(f"errors             {len(result['errors'])}")
    for error in result["errors"][:5]:
        print(f"  {error}")
    moves_done = result["moves_per_s"] * result["spent"]
    print(
        f"server CPU s       {result['cpu_s']:.1f}  ({result['cpu_s'] / result['spent']:.2f} of a core; "
        f"system {result['system_s']:.1f} s)"
    )
    per_move = result["cpu_s"] / moves_done if moves_done else float("nan")
    print(f"server CPU us/move {1e6 * per_move:.0f}")
    print(f"server peak RSS    {result['peak_rss_mib']:.0f} MiB")
    print(f"load generator CPU {result['client_cpu_s']:.1f} s")
    if moves_done:
        kinds = "  ".join(f"{k} {n / moves_done:.2f}" for k, n in sorted(stats.frames.items()))
        total = sum(stats.frames.values())
        print(f"frames out/move    {total / moves_done:.2f}  ({kinds})")
        print(
            f"bytes out/move     {sum(stats.frame_bytes.values()) / moves_done:.0f}  "
            f"(mean patch frame {patch_size} B; frames in/move {stats.sent_frames / moves_done:.2f}, "
            f"{stats.sent_bytes / max(1, stats.sent_frames):.0f} B)"
        )
        each = moves_done / max(1, stats.setups)
        print(f"tables set up      {stats.setups} during the window ({each:.0f} moves each)")
    print(f"echo app           {'FastAPI routes' if args.echo_fastapi else 'raw ASGI'} (bench/echo.py)")
    runs = (("echo 1-in-1-out ", one, "1 in, 1 out"), ("echo 1-in-5-out ", fan, "1 in, 5 out"))
    for name, echo, frames in runs:
        per_trip = echo["cpu_s"] / echo["count"] if echo["count"] else float("nan")
        echo_ms = [x * 1000 for x in echo["latencies"]]
        print(
            f"{name}   {echo['rate']:.0f} round trips/s ({frames}), server CPU {1e6 * per_trip:.1f} us per "
            f"round trip ({echo['cpu_s']:.1f} s, system {echo['system_s']:.1f} s / {echo['count']}), "
            f"p50 {percentile(echo_ms, 50):.2f} ms p99 {percentile(echo_ms, 99):.2f} ms"
        )
        echo["per_trip"] = per_trip
    print(f"echo peak RSS      {echo_rss:.0f} MiB")
    print(f"moves/s / echo     {result['moves_per_s'] / one['rate']:.3f}  (throughput, 1-in-1-out echo)")
    print(
        f"a move costs       {per_move / one['per_trip']:.1f} echo round trips (1 in, 1 out), "
        f"{per_move / fan['per_trip']:.1f} fan-out round trips (1 in, 5 out) of server CPU"
    )


if __name__ == "__main__":
    main()
