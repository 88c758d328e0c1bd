"""Schemathesis against a real `motable serve` (SQLite and PostgreSQL): 0 server errors, 0 answers
outside CONTRACT.md (the `contract_answer` check in schemathesis_hooks.py), on every endpoint in the
schema, the seat-request ones reached with real room and request ids.

Bounded for a 2-core machine: a fixed seed, a few examples per operation and a time budget."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.rooms import seated_match
from tests.servers import ROOT, ServeProcess

pytestmark = pytest.mark.slow


def make_rooms(server: ServeProcess) -> list[dict[str, Any]]:
    """A waiting room and a Mojo match in play with pending seat requests, for the generated cases to
    aim at: their room ids, seats' tokens and request ids (the asker's tokens too: they may do nothing)."""
    made = []
    for start in (False, True):
        # Ann alone in the waiting room; Ann and Bo in the match.
        room_id, tokens = seated_match(server.base_url, "mojo", 2 if start else 1, start=start)
        requests: list[str] = []
        if start:
            for seat in (1, 0, 1):
                asked = httpx.post(
                    f"{server.base_url}/api/rooms/{room_id}/seat-requests", json={"seat": seat}
                )
                if asked.status_code != 201:
                    break  # the places an address may hold are taken: enough to aim at
                requests.append(asked.json()["request_id"])
                tokens.append(asked.json()["token"])
            assert requests, "at least one pending seat request to aim at"
        made.append({"room_id": room_id, "tokens": tokens, "requests": requests})
    return made


def run_schemathesis(
    server: ServeProcess, report: Path, rooms: list[dict[str, Any]]
) -> subprocess.CompletedProcess[str]:
    st = shutil.which("st", path=str(Path(sys.executable).parent)) or "st"
    return subprocess.run(
        [
            st,
            "run",
            f"{server.base_url}/openapi.json",
            "--checks",
            "not_a_server_error,contract_answer",
            "--max-examples",
            os.environ.get("MOTABLE_SCHEMATHESIS_EXAMPLES", "30"),
            "--seed",
            "14",
            "--workers",
            "1",
            "--max-time",
            os.environ.get("MOTABLE_SCHEMATHESIS_SECONDS", "80"),
            "--generation-allow-x00",
            "true",
            "--request-timeout",
            "20",
            "--no-color",
            "--report",
            "junit",
            "--report-junit-path",
            str(report),
        ],
        cwd=ROOT,
        env={
            **os.environ,
            "SCHEMATHESIS_HOOKS": "tests.app.schemathesis_hooks",
            "PYTHONPATH": str(ROOT),
            "MOTABLE_ST_ROOMS": json.dumps(rooms),
        },
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_schemathesis_finds_no_server_error_or_non_contract_answer(database_url: str, tmp_path: Path) -> None:
    server = ServeProcess(
        {
            "DATABASE_URL": database_url,
            # Thousands of requests from one address: the limits are tested elsewhere.
            "MOTABLE_RATE_PER_SECOND": "0",
        },
        tmp_path / "serve.log",
        # The access log shows which addresses the generated cases reached.
        log_level="info",
    ).start()
    try:
        rooms = make_rooms(server)
        done = run_schemathesis(server, tmp_path / "junit.xml", rooms)
    finally:
        server.stop()
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-6000:]
    log = (tmp_path / "serve.log").read_text()
    assert "Traceback" not in log, log[-4000:]
    # The seat-request endpoints were reached with a real room and request id, and answered.
    in_play = next(room for room in rooms if room["requests"])
    requests = "|".join(re.escape(str(request)) for request in in_play["requests"])
    reached = re.findall(
        rf'"(GET|POST) /api/rooms/{in_play["room_id"]}/seat-requests/(?:{requests})(/approve|/refuse)? '
        rf'HTTP/1.1" (\d+)',
        log,
    )
    assert any(method == "GET" and status == "200" for method, _, status in reached), reached[:20]
    assert any(action for _, action, _ in reached), "approve or refuse was reached"
