"""The one exception type engines raise, carrying a CONTRACT.md error code."""

from __future__ import annotations

from typing import Any

from .words import N_, Words


class EngineError(Exception):
    """A rejected action. `code` is one of the snake_case codes of CONTRACT.md. `message` is a marked
    template (`N_("seat %(seat)s may not act now")`) with its places named in `params`: `message` reads
    the English words, and the server words them in its reader's language (AppError.from_engine)."""

    code = "illegal_action"

    def __init__(self, message: str, code: str | None = None, **params: Any) -> None:
        self.message = message if isinstance(message, Words) and not params else Words(message, **params)
        super().__init__(self.message)
        if code is not None:
            self.code = code


class IllegalAction(EngineError):
    code = "illegal_action"


class MalformedAction(EngineError):
    code = "malformed_action"


class NotYourTurn(EngineError):
    code = "not_your_turn"


class GameOver(EngineError):
    code = "game_over"


class InvalidOptions(EngineError):
    code = "invalid_request"


class InvalidSeat(EngineError):
    """A seat number outside the match (a view or a seat option asked for seat 4 of 3)."""

    code = "invalid_request"


def check_seat(seat: int | None, players: int, what: str = "seat") -> None:
    """Refuse a seat that is not None and not one of 0..players-1 (bools are not seats)."""
    if seat is None:
        return
    if type(seat) is not int or not 0 <= seat < players:
        template = (
            N_("seat must be a seat from 0 to %(last)s (%(players)s players), not %(seat)s")
            if what == "seat"
            else N_("%(what)s must be a seat from 0 to %(last)s (%(players)s players), not %(seat)s")
        )
        raise InvalidSeat(
            template,
            what=what,
            last=players - 1,
            players=players,
            seat=repr(seat),
        )
