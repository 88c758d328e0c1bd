"""One move's fan-out, piece by piece, in process: what each part costs and what sharing would save.

Plays random 4-seat Mojo matches and, for every move, times what the server does for it today
(`engine.apply`, the four viewers' bodies with `state_bodies`, four diffs against each viewer's
last body, four orjson encodes of the patch frames, one ack), and the same move split the way
issue 19 proposes: the part every viewer shares (the public view, seat=None, without its events)
built and diffed once and encoded once, and only each seat's own part (hand, face-down cards,
legal actions, the newest events as that seat sees them) per seat.

    .venv/bin/python -m bench.fanout --moves 3000
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import random
import time
from collections.abc import Iterator
from typing import Any

import orjson

from app.realtime.patch import diff

try:  # where issue 19's refactor puts the bodies; before it, app.services.matches
    from app.playing.views import state_bodies
except ImportError:
    from app.services.matches import state_bodies  # type: ignore[attr-defined,no-redef]
from engines.core import get_engine

SEATS = 4
PRIVATE = ("hand", "face_down")


def encode(message: dict[str, Any]) -> bytes:
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


def split(body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A body as (shared, own): the view's public fields, and what only this seat sees."""
    view = body["view"]
    shared = {k: v for k, v in view.items() if k not in PRIVATE and k not in ("seat", "events")}
    own = {k: view[k] for k in PRIVATE}
    own["legal_actions"] = body["legal_actions"]
    own["events"] = view["events"][-4:]
    return shared, own


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=3000)
    args = parser.parse_args()
    engine = get_engine("mojo")
    rng = random.Random(7)
    timers: dict[str, float] = {}

    @contextlib.contextmanager
    def clock(name: str) -> Iterator[None]:
        started = time.perf_counter()
        yield
        timers[name] = timers.get(name, 0.0) + time.perf_counter() - started

    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    moves = 0
    patch_bytes = 0
    while moves < args.moves:
        state = engine.setup(SEATS, rng.randrange(1 << 30), engine.spec.parse_options({}))
        version = 1
        seats: set[int | None] = set(range(SEATS))
        last = state_bodies("mojo", state, version, "playing", seats)
        last_parts = {seat: split(body) for seat, body in last.items()}
        while moves < args.moves and (acting := engine.to_act(state)):
            seat = rng.choice(sorted(acting))
            action = rng.choice(engine.legal_actions(state, seat))
            with clock("apply"):
                state = engine.apply(state, seat, action)
            version += 1
            status = "finished" if engine.result(state) is not None else "playing"
            with clock("bodies (state_bodies, 4 viewers)"):
                bodies = state_bodies("mojo", state, version, status, seats)
            with clock("diffs (4)"):
                patches = {s: diff(last[s], bodies[s]) for s in seats}
            with clock("encodes (4 patches + ack)"):
                frames = [encode({"type": "patch", "version": version, "ops": patches[s]}) for s in seats]
                frames.append(encode({"type": "ack", "id": "1-1"}))
            patch_bytes += sum(len(f) for f in frames[:SEATS])
            # The proposed split, from the same bodies: shared part once, own part per seat.
            with clock("split: bodies -> shared + own (4)"):
                parts = {s: split(bodies[s]) for s in seats}
            with clock("split: shared diff (1)"):
                shared_ops = diff(last_parts[0][0], parts[0][0])
            with clock("split: own diffs (4)"):
                own_ops = {s: diff(last_parts[s][1], parts[s][1]) for s in seats}
            with clock("split: encodes (1 shared + 4 own)"):
                encode({"type": "patch", "ops": shared_ops})
                for s in seats:
                    encode({"type": "own", "ops": own_ops[s]})
            with clock("split: public view once (seat=None)"):
                engine.view(state, None)
            last, last_parts = bodies, parts
            moves += 1
    print(f"{moves} Mojo moves, 4 seats, mean patch frame {patch_bytes / moves / SEATS:.0f} B")
    for name, spent in timers.items():
        print(f"  {1e6 * spent / moves:7.1f} us/move  {name}")
    today = sum(v for k, v in timers.items() if not k.startswith("split"))
    print(f"  {1e6 * today / moves:7.1f} us/move  today's fan-out and apply, in process")


if __name__ == "__main__":
    main()
