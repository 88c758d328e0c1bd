"""The one application error type, carrying a CONTRACT.md code, and its HTTP status.

The `code` is the contract; the `message` is words for a person, in the reader's language: an error is
written with an English template and its places (`AppError("not_found", N_("no room '%(room)s'"),
room=room_id)`) and worded when it is read, in the language of the request or socket answering it
(app/i18n.py). `english` keeps the English words, for logs and WebSocket close reasons."""

from __future__ import annotations

from typing import Any

from app import i18n
from engines.core import EngineError, Words

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

    def __init__(self, code: str, message: str, retry_after: int | None = None, **params: Any) -> None:
        # Words already made (an engine's, a reason passed along) keep their template and places.
        self.words = message if isinstance(message, Words) and not params else Words(message, **params)
        super().__init__(str(self.words))
        self.code = code
        # Seconds after which the same request may succeed (sent as Retry-After), for 429 and 503.
        self.retry_after = retry_after

    @property
    def message(self) -> str:
        """The message in the reader's language, worded as it is read: an error raised in the writer
        thread is answered in the context of the request or socket that asked."""
        return i18n.word(self.words)

    @property
    def english(self) -> str:
        """The message in English: for logs, and WebSocket close reasons (123 bytes, not shown)."""
        return str(self.words)

    @property
    def status(self) -> int:
        return STATUS_BY_CODE.get(self.code, 422)

    @classmethod
    def from_engine(cls, error: EngineError) -> AppError:
        return cls(error.code, error.message)  # an engine's Words, worded like the app's

    def body(self) -> dict[str, Any]:
        return error_body(self.code, self.message)


def error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}
