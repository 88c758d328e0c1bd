"""Seat tokens: issued once, stored only as a sha256 hash. A token is looked up by its hash in a dict of
the room's hashes: nobody can choose a sha256 digest's bytes, so how long a look-up takes tells nothing."""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from app.errors import AppError
from app.i18n import N_
from app.models import Seat


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(session: Session, room_id: str, token: str | None) -> int | None:
    """The seat holding `token` in the room; None for a spectator (no token)."""
    if token is None:
        return None
    seat = token_seats(session, room_id).get(hash_token(token))
    if seat is None:
        raise not_seated()
    return seat


def not_seated() -> AppError:
    """A token that holds no seat of the room (never one of its seats, or taken from it)."""
    return AppError("unauthorized", N_("this token holds no seat in this room"))


# Read by every socket's first look-up: built once (app/services/lookup.py says why).
_TOKENS = select(Seat.seat, Seat.token_hash).where(Seat.room_id == bindparam("room_id"))


def token_seats(session: Session, room_id: str) -> dict[str, int]:
    """The seat of each token hash of the room (a bot's seat has none)."""
    rows = session.execute(_TOKENS, {"room_id": room_id}).all()
    return {token_hash: int(seat) for seat, token_hash in rows if token_hash is not None}


def player_seat(session: Session, room_id: str, token: str | None) -> int:
    """The seat of a player who must be seated to do this (spectators may only watch)."""
    seat = seat_of(session, room_id, token)
    if seat is None:
        raise AppError("unauthorized", N_("send the seat's token as 'Authorization: Bearer <token>'"))
    return seat
