"""What a pause request is, apart from who writes it (app/services/pause.py asks and answers;
app/services/people/standins.py lets a request stop waiting for a player who left): kept free of both, so
neither imports the other."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from app.i18n import N_, Words
from app.models import Room, utcnow


def open_request(room: Room) -> dict[str, Any] | None:
    """The room's pause request while it is open (an unanswered one lapses like a seat request)."""
    request = room.pause_request
    if (
        request is None
        or room.paused_at is not None
        or datetime.fromisoformat(request["expires"]) <= utcnow()
    ):
        return None
    return request


def paused_line(asker: str, agreed: str) -> Words:
    if agreed:
        return Words(
            N_(
                "The game is paused (asked by %(asker)s, agreed by %(agreed)s): no clocks and no alerts "
                "until someone resumes"
            ),
            asker=asker,
            agreed=agreed,
        )
    return Words(
        N_("The game is paused (asked by %(asker)s): no clocks and no alerts until someone resumes"),
        asker=asker,
    )


Outcome = Literal["unchanged", "dropped", "paused", "waits"]


def without_seat(room: Room, seat: int) -> tuple[Outcome, dict[str, Any] | None]:
    """A bot took `seat` for good: the open request no longer waits for it ("paused" when every other
    one agreed already), and goes with its asker ("dropped")."""
    request = open_request(room)
    if request is None or (seat != request["by"] and seat not in request["needed"]):
        return "unchanged", request
    if seat == request["by"]:
        return "dropped", None
    needed = [s for s in request["needed"] if s != seat]
    approvals = [s for s in request.get("approvals") or [] if s != seat]
    changed = {**request, "needed": needed, "approvals": approvals}
    return ("paused" if set(approvals) >= set(needed) else "waits"), changed
