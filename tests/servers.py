"""Real `motable serve` processes for tests that need the whole server: started, killed, restarted."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServeProcess:
    """One `motable serve` subprocess; `start` again after `kill` reuses its port and database."""

    def __init__(
        self,
        env: dict[str, str],
        log_path: Path,
        port: int | None = None,
        log_level: str = "warning",
        args: list[str] | None = None,
        preexec: Callable[[], None] | None = None,
    ) -> None:
        self.port = port or free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.env = env
        self.log_path = log_path
        self.log_level = log_level
        self.args = args or []
        self.preexec = preexec
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ServeProcess:
        # Only what the test names: a developer's own DATABASE_URL or REDIS_URL must not leak in.
        inherited = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        env = {**inherited, "MOTABLE_BOT_DELAY": "0", **self.env}
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "app",
                    "serve",
                    "--port",
                    str(self.port),
                    "--log-level",
                    self.log_level,
                    *self.args,
                ],
                cwd=ROOT,
                preexec_fn=self.preexec,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"motable serve exited early:\n{self.log_path.read_text()}")
            try:
                if httpx.get(f"{self.base_url}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                time.sleep(0.1)
        # Not left running: a server that never answered is killed here, not found later by another
        # test's garbage collection (its "subprocess is still running" warning failed that test).
        self.kill()
        raise AssertionError(f"motable serve did not answer /healthz:\n{self.log_path.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None
