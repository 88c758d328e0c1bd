"""What deciding whether a move may be taken back costs, per game, in process.

Plays random matches of each game and, for every move, times its record's verdict as the server decides
it (`Verdicts.made(...).verdict()`, app/services/records.py: each record keeps its position for the
match's next move) and, for
comparison, `why_not` (the same verdict decided from nothing: both positions built, every card found
again). Prints CPU microseconds per move and how many moves could be taken back.

    .venv/bin/python -m bench.takeback --moves 1500
    .venv/bin/python -m bench.takeback --game mojo --seats 4

Times are this thread's CPU time (time.thread_time), so a loaded machine moves them less than it
would wall-clock ones.
"""

from __future__ import annotations

import argparse
import gc
import random
import time

from app.services.takebacks import Verdicts, why_not
from engines.core import get_engine

SEATS = {"mojo": 4, "moby-trick": 4, "mokuru": 4, "mooki-island": 2}


def run(game: str, seats: int, moves: int) -> tuple[float, float, int]:
    engine = get_engine(game)
    rng = random.Random(3)
    kept = fresh = 0.0
    count = reversible = 0
    match_id = 0
    while count < moves:
        match_id += 1
        state = engine.setup(seats, rng.randrange(1 << 30), engine.spec.parse_options({}))
        verdicts = Verdicts()
        version = 0
        while engine.to_act(state) and count < moves:
            seat = rng.choice(sorted(engine.to_act(state)))
            action = rng.choice(engine.legal_actions(state, seat))
            after = engine.apply(state, seat, action)
            version += 1
            seed = match_id * 1_000_003 + version
            started = time.thread_time()
            reason = verdicts.made(match_id, game, version, seat, action, "playing", state, after).verdict()
            kept += time.thread_time() - started
            started = time.thread_time()
            why_not(game, state, seat, action, after, seed)
            fresh += time.thread_time() - started
            count += 1
            reversible += reason is None
            state = after
    return 1e6 * kept / count, 1e6 * fresh / count, reversible


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=1500)
    parser.add_argument("--game", help="one game (default: every game below)")
    parser.add_argument("--seats", type=int)
    args = parser.parse_args()
    # As the server runs (app/serving.py).
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    games = {args.game: args.seats or SEATS.get(args.game, 2)} if args.game else SEATS
    for game, seats in games.items():
        kept, fresh, reversible = run(game, seats, args.moves)
        print(
            f"{game:13} {seats} seats: decide {kept:7.0f} us/move (positions kept), "
            f"from nothing {fresh:7.0f} us/move; {reversible}/{args.moves} could be taken back"
        )


if __name__ == "__main__":
    main()
