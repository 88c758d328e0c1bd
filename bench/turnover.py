"""Turnover bench: the server CPU it takes to set a table up and take it down, step by step.

In `bench.load`'s saturated run a Mojo match lasts about 105 moves, so a table is set up again every
few seconds in every room, and whatever that costs is counted in "server CPU us/move". This bench
sets up tables one after another against a real `motable serve` (SQLite, limits lifted as in
bench/load.py) and reads the server's CPU time (/proc/<pid>/stat) around each step, after the server
has settled (every step waits for what its sockets are sent). The server's idle CPU over the same
waits (its timed collector, its clocks) is measured first and taken off each step. Printed: the
server CPU per table of each step, their sum, and what that sum adds to a move at `--moves-per-table`.

    .venv/bin/python -m bench.turnover --tables 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import orjson
from websockets.asyncio.client import connect

from bench.load import (
    GAME,
    SEATS,
    SeatSocket,
    Server,
    apply_patch,
    fresh_database,
    http_limits,
    start_motable,
    wait_until,
)

STEPS = ("create the room", "three join", "four sockets open", "start", "four sockets close")
SETTLE = 0.05  # seconds a step waits after its last frame, for work the server does after answering


class Table:
    def __init__(self, server: Server) -> None:
        self.http_base = f"http://127.0.0.1:{server.port}"
        self.ws_base = f"ws://127.0.0.1:{server.port}"
        self.seats: list[SeatSocket] = []
        self.readers: list[asyncio.Task[None]] = []
        self.changed = asyncio.Event()
        self.room_id = ""
        self.tokens: list[str] = []

    async def _read(self, seat: SeatSocket) -> None:
        async for raw in seat.ws:
            message = orjson.loads(raw)
            if message["type"] == "snapshot":
                seat.body = message["state"]
            elif message["type"] == "patch":
                seat.body = apply_patch(seat.body, message["ops"])
            self.changed.set()

    async def until(self, ready: Callable[[], bool]) -> None:
        await wait_until(self.changed, ready, f"room {self.room_id}")

    async def step(self, http: httpx.AsyncClient, index: int) -> None:
        if index == 0:
            created = await http.post(f"{self.http_base}/api/rooms", json={"game": GAME, "name": "P0"})
            created.raise_for_status()
            self.room_id, self.tokens = created.json()["room_id"], [created.json()["token"]]
        elif index == 1:
            for seat in range(1, SEATS):
                joined = await http.post(
                    f"{self.http_base}/api/rooms/{self.room_id}/join", json={"name": f"P{seat}"}
                )
                joined.raise_for_status()
                self.tokens.append(joined.json()["token"])
        elif index == 2:
            for seat, token in enumerate(self.tokens):
                ws = await connect(f"{self.ws_base}/ws/rooms/{self.room_id}", compression=None)
                await ws.send(json.dumps({"type": "auth", "token": token}))
                self.seats.append(SeatSocket(seat, ws))
            self.readers = [asyncio.create_task(self._read(s)) for s in self.seats]
            await self.until(lambda: all(s.body.get("seat") == s.seat for s in self.seats))
        elif index == 3:
            started = await http.post(
                f"{self.http_base}/api/rooms/{self.room_id}/start",
                headers={"Authorization": f"Bearer {self.tokens[0]}"},
            )
            started.raise_for_status()
            await self.until(lambda: all(s.body.get("version", -1) >= 1 for s in self.seats))
        else:
            for socket in self.seats:
                await socket.ws.close()
            for task in self.readers:
                task.cancel()


async def measure(server: Server, tables: int) -> tuple[float, dict[str, list[float]]]:
    """(idle CPU seconds per second; each step's server CPU seconds, one figure per table)."""
    await asyncio.sleep(1.0)
    before, started = server.cpu_seconds(), time.perf_counter()
    await asyncio.sleep(3.0)
    idle = (server.cpu_seconds() - before) / (time.perf_counter() - started)
    spent: dict[str, list[float]] = {name: [] for name in STEPS}
    async with httpx.AsyncClient(timeout=60, limits=http_limits()) as http:
        for number in range(tables + 2):
            table = Table(server)
            for index, name in enumerate(STEPS):
                before, started = server.cpu_seconds(), time.perf_counter()
                await table.step(http, index)
                await asyncio.sleep(SETTLE)
                cpu = server.cpu_seconds() - before - idle * (time.perf_counter() - started)
                if number >= 2:  # the first two warm the server's caches and code paths up
                    spent[name].append(cpu)
    return idle, spent


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument(
        "--moves-per-table", type=float, default=105.0, help="bench.load's saturated match length"
    )
    args = parser.parse_args()
    server_args = argparse.Namespace(rooms=args.tables, bot_delay=0.0, processes=1, redis_url=None)
    with tempfile.TemporaryDirectory() as directory:
        tmp = Path(directory)
        servers = start_motable(server_args, fresh_database(None, tmp), tmp)
        try:
            idle, spent = asyncio.run(measure(servers[0], args.tables))
        finally:
            for server in servers:
                server.stop()
    report(args, idle, spent)


def report(args: argparse.Namespace, idle: float, spent: dict[str, list[float]]) -> None:
    print(f"{args.tables} {GAME} tables of {SEATS} seats, one after another, SQLite, one process")
    print(f"server idle CPU      {1000 * idle:.1f} ms a second (taken off every step)")
    total = 0.0
    for name, figures in spent.items():
        mean = statistics.fmean(figures)
        total += mean
        print(f"{name:20s} {1000 * mean:6.1f} ms server CPU per table")
    print(f"{'a table in all':20s} {1000 * total:6.1f} ms  (a mean: the CPU clock ticks every 10 ms)")
    print(
        f"per move             {1e6 * total / args.moves_per_table:.0f} us at {args.moves_per_table:.0f} "
        "moves a table (what turnover adds to bench.load's saturated CPU per move)"
    )


if __name__ == "__main__":
    main()
