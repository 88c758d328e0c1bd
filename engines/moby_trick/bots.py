"""Bots for Moby Trick."""

from __future__ import annotations

from typing import Any

from engines.core import RandomBot

BOTS: dict[str, Any] = {"random": RandomBot}
