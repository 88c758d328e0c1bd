"""The seam every alert passes through.

An `Alert` is built once per event and seat from public facts only (the game, the room, the event):
never a card, a hand or a token, so no channel can leak what the seat may not see. A `Gate` may hold an
alert back (quiet hours, a paused game); a `Channel` delivers it (Web Push, email) off the event loop's
hot path, and keeps its own rate and retry rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

# The events that call a player back, in CONTRACT.md's words.
Event = Literal["turn", "clock", "seat_request", "finished", "rematch"]


@dataclass(frozen=True, slots=True)
class Alert:
    room_id: str
    seat: int
    event: Event
    game: str  # the game's title, e.g. "Mojo"
    title: str  # one line, e.g. "Mojo: your turn"
    body: str  # one sentence in words, e.g. "Ann played; the table waits for you."
    url: str  # the room's page for that seat: a path, never a token


class Gate(Protocol):
    """Decides whether an alert may go out now; says no during quiet hours or a pause."""

    async def allows(self, alert: Alert, now: float) -> bool: ...


class Channel(Protocol):
    """Delivers an alert to every device or address the seat registered on this channel."""

    name: str

    async def deliver(self, alert: Alert) -> None: ...
