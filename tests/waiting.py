"""Waiting in tests for what a server does in its own time (a process, a loop, a retry)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_for(check: Callable[[], Any], seconds: float = 10, step: float = 0.05) -> None:
    """Returns once `check()` is true; fails the test after `seconds`. A wait is not a measure of
    speed: callers give a loaded CI machine generous time."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(step)
    raise AssertionError(f"timed out after {seconds} s")
