"""One move's fan-out, piece by piece, in process: the whole-body fan-out against the split one.

Plays random 4-seat Mojo matches and, for every move, times `engine.apply`, then the fan-out with
whole bodies as it was before the split (the four viewers' bodies, each with its `engine.view`, four
diffs against each viewer's last body, four orjson encodes of the patch frames, one ack), and the same
move as the server sends it now (app/realtime/split.py): the public body built, diffed and encoded
once, and only each seat's own part (seat, legal actions, hand, face-down cards, its log when it
names a card the seat drew) per seat, spliced into each seat's frame text.

    .venv/bin/python -m bench.fanout --moves 3000

Times are this thread's CPU time (time.thread_time), so a loaded machine slows the run but moves
the figures less than it would wall-clock ones.
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

try:  # run from a tree before the split (an A/B run), only the whole-body fan-out is timed
    from app.playing.views import split_bodies
    from app.realtime.split import SharedOps, own_ops, patch_text
except ImportError:
    split_bodies = None  # type: ignore[assignment]
from engines.core import get_engine, json_copy


def bodies_as_before(
    game: str, state: Any, version: int, status: str, seats: set[int | None]
) -> dict[int | None, dict[str, Any]]:
    """Each viewer's whole body, built as the fan-out built them before the split: who acts and the
    result once, then every viewer's own `engine.view` and lists."""
    engine = get_engine(game)
    to_act = sorted(engine.to_act(state))
    result = engine.result(state)
    result_json = result.to_json() if result is not None else None
    return {
        seat: {
            "version": version,
            "status": status,
            "seat": seat,
            "to_act": list(to_act),
            "legal_actions": engine.legal_actions(state, seat) if seat is not None and to_act else [],
            "view": engine.view(state, seat),
            "result": json_copy(result_json),
            "takeback": None,
            "can_take_back": False,
        }
        for seat in seats
    }


def encode(message: dict[str, Any]) -> bytes:
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--game", default="mojo")
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    game, seat_count = args.game, args.seats
    engine = get_engine(game)
    rng = random.Random(7)
    timers: dict[str, float] = {}

    @contextlib.contextmanager
    def clock(name: str) -> Iterator[None]:
        started = time.thread_time()
        yield
        timers[name] = timers.get(name, 0.0) + time.thread_time() - started

    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    moves = 0
    patch_bytes = 0
    while moves < args.moves:
        state = engine.setup(seat_count, rng.randrange(1 << 30), engine.spec.parse_options({}))
        version = 1
        seats: set[int | None] = set(range(seat_count))
        last = bodies_as_before(game, state, version, "playing", seats)
        last_split = (
            split_bodies(game, state, version, "playing", seats) if split_bodies is not None else None
        )
        while moves < args.moves and (acting := engine.to_act(state)):
            seat = rng.choice(sorted(acting))
            action = rng.choice(engine.legal_actions(state, seat))
            with clock("apply"):
                state = engine.apply(state, seat, action)
            version += 1
            status = "finished" if engine.result(state) is not None else "playing"
            with clock("bodies (whole, 4 viewers)"):
                bodies = bodies_as_before(game, state, version, status, seats)
            with clock("diffs (4)"):
                patches = {s: diff(last[s], bodies[s]) for s in seats}
            with clock("encodes (4 patches + ack)"):
                frames = [encode({"type": "patch", "version": version, "ops": patches[s]}) for s in seats]
                frames.append(encode({"type": "ack", "id": "1-1"}))
            patch_bytes += sum(len(f) for f in frames[:seat_count])
            # As the server sends them now (app/realtime/split.py): the public body once, each
            # seat's own part, the shared ops diffed and encoded once, spliced into each frame.
            if last_split is None:
                last = bodies
                moves += 1
                continue
            with clock("split: split_bodies (public once + 4 own)"):
                split = split_bodies(game, state, version, status, seats)
            with clock("split: shared ops + 4 own diffs + 4 frames"):
                shared = SharedOps(last_split.public, split.public)
                for s in seats:
                    old, new = last_split.own_of(s), split.own_of(s)
                    text = shared.text(old.body_keys | new.body_keys, old.view_keys | new.view_keys)
                    patch_text(version, text, own_ops(last_split.public, old, split.public, new))
                encode({"type": "ack", "id": "1-1"})
            last_split = split
            last = bodies
            moves += 1
    mean = patch_bytes / moves / seat_count
    print(f"{moves} {game} moves, {seat_count} seats, mean patch frame {mean:.0f} B")
    for name, spent in timers.items():
        print(f"  {1e6 * spent / moves:7.1f} us/move  {name}")
    whole = sum(v for k, v in timers.items() if not k.startswith("split"))
    print(f"  {1e6 * whole / moves:7.1f} us/move  apply and the fan-out with whole bodies, in process")
    if split_bodies is not None:
        split_total = timers["apply"] + sum(v for k, v in timers.items() if k.startswith("split"))
        print(f"  {1e6 * split_total / moves:7.1f} us/move  apply and the split fan-out, in process")


if __name__ == "__main__":
    main()
