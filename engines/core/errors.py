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
