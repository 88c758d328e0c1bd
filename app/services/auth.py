"""Seat tokens: issued once, stored only as a sha256 hash, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.errors import AppError
from app.models import Seat


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(session: Session, room_id: str, token: str | None) -> int | None:
    """The seat holding `token` in the room; None for a spectator (no token)."""
    if token is None:
        return None
    wanted = hash_token(token)
    rows = session.execute(select(Seat.seat, Seat.token_hash).where(Seat.room_id == room_id)).all()
    for seat, token_hash in rows:
        if token_hash is not None and hmac.compare_digest(token_hash, wanted):
            return int(seat)
    raise AppError("unauthorized", "this token holds no seat in this room")


def token_seats(session: Session, room_id: str) -> dict[str, int]:
    """The seat of each token hash of the room (a bot's seat has none). Looked up by hash in a dict,
    as the seat cache does: no one can choose a sha256 digest's bytes, so timing tells nothing."""
    rows = session.execute(select(Seat.seat, Seat.token_hash).where(Seat.room_id == room_id)).all()
    return {token_hash: int(seat) for seat, token_hash in rows if token_hash is not None}


def player_seat(session: Session, room_id: str, token: str | None) -> int:
    """The seat of a player who must be seated to do this (spectators may only watch)."""
    seat = seat_of(session, room_id, token)
    if seat is None:
        raise AppError("unauthorized", "send the seat's token as 'Authorization: Bearer <token>'")
    return seat
