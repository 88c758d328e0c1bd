"""Summarise a py-spy raw (collapsed stacks) profile of `motable serve`: where a move's CPU goes.

    .venv/bin/python -m bench.load --rooms 50 --duration 30 --profile /tmp/p.raw --profile-gil
    .venv/bin/python -m bench.spyreport /tmp/p.raw

Prints the share of samples per function group (a sample counts for the first group, from the top
of its stack, whose rule matches one of its frames, so nested work is not counted twice: an orjson
encode inside the fan-out counts as JSON encoding, not as the fan-out; the takeback decision is
counted whole, views and re-deals included), and the top functions by
self time (the innermost frame) and by cumulative time (every sample with the function anywhere on
its stack, once per sample).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

# (group, frame pattern), tried from the innermost frame outwards; the first frame that matches any
# rule decides the sample's group. Patterns match "function (file)" with the line number dropped.
RULES: list[tuple[str, str]] = [
    # The timed collector's runs (app/serving.py Collector); CPython's own collections, where they
    # are left to it, count wherever the allocation that set them off stands.
    ("garbage collection (Collector)", r"^Collector\.step \("),
    ("logging", r"\(logging/|\(app/logs\.py"),
    ("rate limiting", r"\(app/ratelimit\.py"),
    ("JSON encode (orjson/json dumps)", r"^encode \(app/routes/ws\.py|dumps \(json/|JSONEncoder"),
    (
        "frames in: JSON parse and shape check (jsonsafe, pydantic)",
        r"\(app/jsonsafe\.py|TypeAdapter\.validate_python",
    ),
    ("diffing (patch.diff)", r"\(app/realtime/patch\.py"),
    ("SQLite commit / fsync", r"commit|Connection\.close|_finalize_fairy|do_commit"),
    ("SQLite / SQLAlchemy statements", r"\(sqlalchemy/|\(sqlite3|execute \(|\(app/db\.py"),
    (
        "engine apply / legal actions",
        r"apply \(engines/|legal_actions \(engines/|to_act \(engines/|result \(engines/",
    ),
    (
        "per-viewer view building (engine.view, split_bodies)",
        r"view \(engines/|split_bodies \(app/playing/views\.py|json_copy",
    ),
    (
        "state cache / codec",
        r"\(app/services/cache\.py|StateCodec|clone \(engines/|dump \(engines/|load \(engines/",
    ),
    (
        "presence",
        r"\(app/realtime/presence\.py|Master\.connect|Master\.disconnect|_tell_presence|People\.seen",
    ),
    ("broker", r"\(app/realtime/broker\.py"),
    ("room bodies (room_body, people.deadline)", r"room_body|Services\.room |Master\.room |_push_room"),
    (
        "WebSocket frames out (websockets/uvicorn send)",
        r"send \(uvicorn/protocols/websockets|send_text|send_data|Protocol\.send_|write \("
        r"|WebSocketsSansIOProtocol\.send|_send \(app/routes/ws\.py|FrameProtocol\.write_now",
    ),
    (
        "HTTP requests (room setup: h11, routes)",
        r"\(h11/|h11_impl|\(app/routes/api\.py|\(app/serving\.py|\(fastapi/routing|\(pydantic",
    ),
    (
        "WebSocket frames in (websockets parse/receive)",
        r"data_received \(uvicorn/protocols/websockets|parse \(websockets|Frame\.parse"
        r"|receive \(starlette|receive \(uvicorn",
    ),
    ("thread-pool hand-off (anyio)", r"\(anyio/|run_in_threadpool|\(concurrent/futures|\(threading\.py"),
    ("hub fan-out (rest of _push_state)", r"\(app/realtime/hub\.py"),
    (
        "group commit / moves (rest)",
        r"\(app/playing/writer\.py|apply_moves|_apply_known|apply_known|insert_actions",
    ),
    ("playing layer (rest of master/bots)", r"\(app/playing/"),
    ("socket session (rest of ws.py)", r"\(app/routes/ws\.py"),
    ("event loop / asyncio", r"\(asyncio/|\(uvicorn/|\(uvloop|\(starlette/"),
]
COMPILED = [(name, re.compile(pattern)) for name, pattern in RULES]
# Work counted whole wherever its frames sit: a sample with one of these frames anywhere on its stack
# goes to the group, whatever runs inside (the takeback decision builds views and applies moves).
WHOLE: list[tuple[str, re.Pattern[str]]] = [
    (
        "takeback decision (MoveRecord.verdict, whole)",
        re.compile(r"^MoveRecord\.verdict \(|^why_not_reversible"),
    ),
]
LINE = re.compile(r":\d+\)$")


def frames_of(stack: str) -> list[str]:
    return [LINE.sub(")", frame) for frame in stack.split(";")]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("raw", type=Path)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    groups: Counter[str] = Counter()
    self_time: Counter[str] = Counter()
    cumulative: Counter[str] = Counter()
    threads: Counter[str] = Counter()
    total = 0
    for line in args.raw.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        frames = frames_of(stack)
        total += count
        self_time[frames[-1]] += count
        for frame in set(frames):
            cumulative[frame] += count
        threads["worker thread" if "Thread._bootstrap" in frames[0] else "event loop thread"] += count
        whole = next((name for name, rule in WHOLE if any(rule.search(f) for f in frames)), None)
        if whole is not None:
            groups[whole] += count
            continue
        for frame in reversed(frames):
            name = next((name for name, rule in COMPILED if rule.search(frame)), None)
            if name is not None:
                groups[name] += count
                break
        else:
            groups["other"] += count
    print(f"{total} samples")
    for name, count in threads.most_common():
        print(f"  {100 * count / total:5.1f}%  {name}")
    print("\nby group (innermost matching frame)")
    for name, count in groups.most_common():
        print(f"  {100 * count / total:5.1f}%  {name}")
    print(f"\ntop {args.top} self")
    for frame, count in self_time.most_common(args.top):
        print(f"  {100 * count / total:5.1f}%  {frame}")
    print(f"\ntop {args.top} cumulative (app/ and engines/ frames)")
    ours = Counter({f: c for f, c in cumulative.items() if "(app/" in f or "(engines/" in f})
    for frame, count in ours.most_common(args.top):
        print(f"  {100 * count / total:5.1f}%  {frame}")
    print(f"\ntop {args.top} cumulative (any frame below the event loop's run)")
    skip = re.compile(
        r"runpy|app/__main__|app/cli|uvicorn/main|uvicorn/server|uvicorn/_compat|Runner\.run|_bootstrap|WorkerThread\.run"
    )
    rest = Counter({f: c for f, c in cumulative.items() if not skip.search(f)})
    for frame, count in rest.most_common(args.top):
        print(f"  {100 * count / total:5.1f}%  {frame}")


if __name__ == "__main__":
    main()
