"""The database reads around a table, in process: a join, a room body and a state snapshot.

Sets up a 4-seat Mojo room on a fresh SQLite file through the app itself (create, three joins, start,
40 random moves over HTTP), then times, on this thread:

- a join's write transaction (`rooms.join_room` in `Database.transaction`, on rooms of its own);
- `Views.room_with`: the room body the room's sockets are sent on every room change;
- `Views.current_bodies`: the state snapshot a socket is sent when it opens (a spectator and a seat).

    .venv/bin/python -m bench.reads
    .venv/bin/python -m bench.reads --repeat 500

Each figure is the best and the median of five rounds, in microseconds of this thread's CPU time
(time.thread_time), so a loaded machine moves them less than wall-clock ones. Run it from another
tree (a `git archive` of an older commit, this file copied in) to compare commits.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.config import Settings
from app.db import upgrade
from app.main import create_app
from app.services import rooms

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROUNDS = 5


def timed(call: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """(best, median) of ROUNDS rounds of `repeat` calls, microseconds of thread CPU per call."""
    call()
    rounds = []
    for _ in range(ROUNDS):
        started = time.thread_time()
        for _ in range(repeat):
            call()
        rounds.append((time.thread_time() - started) / repeat * 1e6)
    return min(rounds), statistics.median(rounds)


def played_room(client: TestClient, moves: int) -> str:
    created = client.post("/api/rooms", json={"game": "mojo", "name": "P0"}).json()
    room_id, tokens = created["room_id"], [created["token"]]
    for seat in range(1, 4):
        tokens.append(client.post(f"/api/rooms/{room_id}/join", json={"name": f"P{seat}"}).json()["token"])
    host = {"Authorization": f"Bearer {tokens[0]}"}
    client.post(f"/api/rooms/{room_id}/start", headers=host).raise_for_status()
    rng = random.Random(1)
    for _ in range(moves):
        seat = client.get(f"/api/rooms/{room_id}/state").json()["to_act"][0]
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        state = client.get(f"/api/rooms/{room_id}/state", headers=headers).json()
        action = {"action": rng.choice(state["legal_actions"]), "version": state["version"]}
        client.post(f"/api/rooms/{room_id}/actions", json=action, headers=headers).raise_for_status()
    return room_id


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=300, help="calls per round")
    parser.add_argument("--moves", type=int, default=40, help="moves played before the reads are timed")
    args = parser.parse_args()
    url = f"sqlite:///{Path(tempfile.mkdtemp()) / 'reads.db'}"
    upgrade(url)
    # Limits lifted: one client sets the room up as fast as the app answers.
    settings = Settings(database_url=url, rate_per_second=0, rooms_per_hour=0, bot_delay=0)
    with TestClient(create_app(settings)) as client:
        room_id = played_room(client, args.moves)
        runtime = client.app.state.runtime  # type: ignore[attr-defined]
        views, db = runtime.views, runtime.db
        joinable: list[str] = []
        for _ in range(args.repeat * (ROUNDS + 1)):
            with db.transaction() as session:
                joinable.append(rooms.create_room(session, "mojo", "P0", {})["room_id"])

        def join() -> None:
            with db.transaction() as session:
                rooms.join_room(session, joinable.pop(), "P1")

        figures = {
            "a join (write transaction)": timed(join, args.repeat),
            "a room body (Views.room_with)": timed(
                lambda: views.room_with(room_id, {0, 1, 2, 3}), args.repeat
            ),
            "a snapshot, spectator and one seat": timed(
                lambda: views.current_bodies(room_id, {None, 0}), args.repeat
            ),
        }
    print(f"mojo, 4 seats, {args.moves} moves played, SQLite; {ROUNDS} rounds of {args.repeat} calls")
    for name, (best, median) in figures.items():
        print(f"{name:36s} best {best:7.0f} us   median {median:7.0f} us (thread CPU)")


if __name__ == "__main__":
    main()
