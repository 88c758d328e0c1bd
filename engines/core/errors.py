"""The one exception type engines raise, carrying a CONTRACT.md error code."""

from __future__ import annotations


class EngineError(Exception):
    """A rejected action. `code` is one of the snake_case codes of CONTRACT.md."""

    code = "illegal_action"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
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
        raise InvalidSeat(f"{what} must be a seat from 0 to {players - 1} ({players} players), not {seat!r}")
