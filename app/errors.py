"""The one application error type, carrying a CONTRACT.md code, and its HTTP status."""

from __future__ import annotations

from typing import Any

from engines.core import EngineError

STATUS_BY_CODE = {
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "room_full": 409,
    "already_started": 409,
    "not_enough_players": 409,
    "stale_version": 409,
    "not_your_turn": 409,
    "game_over": 409,
    "not_started": 409,
    # A takeback that may not be asked for or answered now (docs/playing.md, "Takeback").
    "not_allowed": 409,
    "illegal_action": 422,
    "malformed_action": 422,
    "invalid_request": 422,
    "too_large": 413,
    "rate_limited": 429,
    # Not in the contract's list: a service the answer needs (the database, shared presence) cannot
    # be reached just now; sent with Retry-After, and nothing was changed.
    "unavailable": 503,
    # Not in the contract's list: a bug of ours, still answered in the contract's error shape.
    "internal_error": 500,
}

CODE_BY_STATUS = {status: code for code, status in STATUS_BY_CODE.items() if status != 409}


class AppError(Exception):
    """A refused request. Raised before anything is written, so it changes nothing."""

    def __init__(self, code: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        # Seconds after which the same request may succeed (sent as Retry-After), for 429 and 503.
        self.retry_after = retry_after

    @property
    def status(self) -> int:
        return STATUS_BY_CODE.get(self.code, 422)

    @classmethod
    def from_engine(cls, error: EngineError) -> AppError:
        return cls(error.code, error.message)

    def body(self) -> dict[str, Any]:
        return error_body(self.code, self.message)


def error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}
