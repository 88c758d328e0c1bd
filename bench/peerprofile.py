"""One of the peers' Motable runs (`../shared/peers/`, copied somewhere writable) with the server's user
and system CPU apart, and optionally a py-spy profile of its middle (docs/performance.md, "Where a
paced move's samples go"). It measures the tree whose venv runs it, as the peers' `run` does.

    .venv/bin/python -m bench.peerprofile /tmp/peers paced                    # user / system CPU a move
    .venv/bin/python -m bench.peerprofile /tmp/peers paced --profile /tmp/p.raw --gil
    .venv/bin/python -m bench.spyreport /tmp/p.raw
    .venv/bin/python -m bench.peerprofile /tmp/peers paced --perf /tmp/perf.data     # kernel too
    .venv/bin/python -m bench.peerprofile /tmp/peers paced --syscalls                # calls a move

Prints one JSON line: the load generator's figures (moves/s, latency, server CPU a move over the
whole timed phase) and, over a 10 s window inside the timed phase, the server's user and system CPU a
move. The window opens 2 s after the load's last socket is open (the load generator starts its timed
phase 1 s after that): its rooms take about 14 s to set up here, and a window from a fixed time in
would sample the set-up too. With `--profile`, py-spy records that window instead (a profiled window's
CPU reads higher).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
WINDOW_AFTER_OPEN_S = 2.0
WINDOW_S = 10.0
SETUP_GIVE_UP_S = 120.0


def peerbench(peers: Path) -> ModuleType:
    """The peers' own peerbench.py, pointed at this tree."""
    os.environ["MOTABLE"] = str(ROOT)
    spec = importlib.util.spec_from_file_location("peerbench", peers / "peerbench.py")
    if spec is None or spec.loader is None:
        raise SystemExit(f"no peerbench.py in {peers}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cpu_seconds(pid: int, task: int | None = None) -> tuple[float, float]:
    """(user, system) CPU seconds of a process so far (of one of its threads with `task`)."""
    where = f"/proc/{pid}/task/{task}/stat" if task is not None else f"/proc/{pid}/stat"
    fields = Path(where).read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def thread_cpu(pid: int) -> dict[int, float]:
    """Each thread's user + system CPU seconds so far (threads that ended are not counted)."""
    times = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            times[int(task.name)] = sum(cpu_seconds(pid, int(task.name)))
        except (FileNotFoundError, ProcessLookupError):
            continue
    return times


def open_sockets(port: int) -> int:
    """Established TCP connections to `port` on this machine, counted on the server's side."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for line in lines:
            fields = line.split()
            # local address "HEX_IP:HEX_PORT", state 01 = ESTABLISHED
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                count += 1
    return count


def wait_open(port: int, sockets: int, load: subprocess.Popen[str]) -> None:
    """Until the load generator holds all its sockets open (its rooms are set up)."""
    deadline = time.monotonic() + SETUP_GIVE_UP_S
    while open_sockets(port) < sockets:
        if load.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the load generator's sockets never all opened")
        time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("peers", type=Path, help="a writable copy of ../shared/peers (npm ci done)")
    parser.add_argument("load", choices=["paced", "saturated"])
    parser.add_argument("--profile", type=Path, help="record py-spy (raw format) over the window")
    parser.add_argument("--gil", action="store_true", help="py-spy: only the thread holding the GIL")
    parser.add_argument("--rate", type=int, default=200, help="py-spy: samples a second (default 200)")
    parser.add_argument(
        "--perf",
        type=Path,
        help="record `perf record -e cpu-clock -g` over the window instead (kernel, libraries and the "
        "interpreter apart; read with `perf report -i FILE --sort dso`)",
    )
    parser.add_argument(
        "--syscalls",
        action="store_true",
        help="count the server's system calls over the window with `strace -c -f` instead, a move's "
        "share of each (strace slows every call: the CPU figures of such a run mean nothing)",
    )
    args = parser.parse_args()
    pb = peerbench(args.peers.resolve())
    pb.wait_quiet()
    port = pb.PORTS["motable"]
    pb.SCRATCH.mkdir(exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="profile-", dir=pb.SCRATCH))
    cmd, env, cwd = pb.server_cmd("motable", port, work)
    with (work / "server.log").open("ab") as log:
        server = subprocess.Popen(
            cmd, cwd=cwd, env={**os.environ, **env}, stdout=log, stderr=log, start_new_session=True
        )
    try:
        pb.wait_port(port, server, "/healthz")
        pids = pb.descendants(server.pid)
        load = subprocess.Popen(
            pb.loadgen_cmd("motable", port, pids, args.load), stdout=subprocess.PIPE, text=True
        )
        wait_open(port, pb.ROOMS * 4, load)
        time.sleep(WINDOW_AFTER_OPEN_S)
        user0, system0 = cpu_seconds(pids[-1])
        threads0 = thread_cpu(pids[-1])
        calls = ""
        started = time.monotonic()
        if args.profile:
            spy = [
                sys.executable.replace("python", "py-spy"),
                "record",
                "-p",
                str(pids[-1]),
                "-d",
                str(int(WINDOW_S)),
            ]
            spy += ["-r", str(args.rate), "--nonblocking", "-f", "raw", "-o", str(args.profile)]
            spy += ["--gil"] if args.gil else ["--threads"]
            subprocess.run(spy, capture_output=True, check=True)
        elif args.perf:
            perf = ["perf", "record", "-e", "cpu-clock", "-F", "999", "-g", "-p", str(pids[-1])]
            perf += ["-o", str(args.perf), "--", "sleep", str(WINDOW_S)]
            subprocess.run(perf, capture_output=True, check=True)
        elif args.syscalls:
            # strace -c prints its table on stderr when it is interrupted (it detaches cleanly).
            trace = subprocess.Popen(
                ["strace", "-c", "-f", "-p", str(pids[-1])], stderr=subprocess.PIPE, text=True
            )
            time.sleep(WINDOW_S)
            trace.send_signal(2)
            _, calls = trace.communicate(timeout=60)
        else:
            time.sleep(WINDOW_S)
        user1, system1 = cpu_seconds(pids[-1])
        threads1 = thread_cpu(pids[-1])
        window = time.monotonic() - started
        out, _ = load.communicate(timeout=600)
    finally:
        pb.stop(server)
    result = json.loads(out.strip().splitlines()[-1])
    moves = float(result["per_s"]) * window
    result["window_user_us_per_move"] = round((user1 - user0) / moves * 1e6)
    result["window_system_us_per_move"] = round((system1 - system0) / moves * 1e6)
    # The event loop's thread is the process's own id; the busiest other is the group commit's writer.
    spent = {tid: threads1[tid] - threads0.get(tid, 0.0) for tid in threads1}
    main_us = spent.pop(pids[-1], 0.0) / moves * 1e6
    others = sorted((round(t / moves * 1e6) for t in spent.values()), reverse=True)
    result["window_threads_us_per_move"] = {
        "event_loop": round(main_us),
        "busiest_other": others[0] if others else 0,
        "rest": sum(others[1:]),
    }
    if args.syscalls:
        result["syscalls_per_move"] = per_move(calls, moves)
    print(json.dumps(result))


def per_move(table: str, moves: float) -> dict[str, float]:
    """strace -c's table as each call's count a move, most frequent first (with the total)."""
    counts: dict[str, float] = {}
    for line in table.splitlines():
        fields = line.split()
        # "% time  seconds  usecs/call  calls  [errors]  syscall": the count is the fourth field.
        if len(fields) >= 5 and fields[3].isdigit() and not fields[-1].startswith("-"):
            counts[fields[-1]] = round(int(fields[3]) / moves, 2)
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


if __name__ == "__main__":
    main()
