"""The peers' runs (`../shared/peers/`, its `results.jsonl`) with each Motable run's server CPU a move
divided by its load generator's CPU a move: a control for the machine's speed, which moves both
(docs/performance.md, "Against other servers").

    .venv/bin/python -m bench.peerratio /tmp/peers/results.jsonl [--last 18]

One line a run, in the order they ran: when it started, server, load, tag, moves, server CPU a move,
the generator's CPU a move, their ratio (Motable only: the other servers' generator is Node), p99.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def ratio(run: dict[str, Any]) -> float | None:
    """Server CPU a move over the generator's, for a Motable run (None for another server's)."""
    moves = run.get("moves") or run.get("round_trips") or 0
    if run.get("server") != "motable" or not moves or not run.get("generator_cpu_s"):
        return None
    return float(run["server_cpu_us_per_op"]) / (float(run["generator_cpu_s"]) / moves * 1e6)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("results", type=Path)
    parser.add_argument("--last", type=int, default=0, help="only the last N runs (0: all)")
    args = parser.parse_args()
    runs = [json.loads(line) for line in args.results.read_text().splitlines() if line.strip()]
    for run in runs[-args.last :] if args.last else runs:
        moves = run.get("moves") or run.get("round_trips") or 0
        generator = float(run.get("generator_cpu_s") or 0) / moves * 1e6 if moves else 0.0
        r = ratio(run)
        print(
            f"{run.get('started', '?'):8s} {run.get('server', '?'):13s} {run.get('load', '?'):9s} "
            f"{run.get('tag', ''):8s} moves {moves:6d}  server {run.get('server_cpu_us_per_op', 0):7.1f} us"
            f"  generator {generator:7.1f} us  ratio {'-' if r is None else f'{r:.3f}'}"
            f"  p99 {run.get('lat_ms_p99', '?')} ms"
        )


if __name__ == "__main__":
    main()
