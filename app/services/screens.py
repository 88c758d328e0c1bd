"""The table screen the host marks as the table: pairing codes, the mark, and what its token may do.

A screen opened on `/r/{id}/screen` asks for a pairing code and shows it large; the host types it on
their own page (a TV needs no keyboard). The marked screen's token holds no seat: it reads the
public view like any spectator and may only do the table's host things (start, add a bot, open the
rematch). The mark stays until the host removes it or marks another screen.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import bindparam, delete, select
from sqlalchemy.orm import Session

from app.errors import AppError
from app.i18n import N_
from app.models import Room, TableScreen, utcnow
from app.services.auth import hash_token, new_token, player_seat
from app.services.lookup import find_room

# A pairing code: four digits, read from across the room and typed on a phone's number pad.
CODE_DIGITS = 4
CODE = re.compile(rf"[0-9]{{{CODE_DIGITS}}}")
# How long a code shown on a screen may be typed (the screen asks for a fresh one after that).
CODE_LIFETIME = timedelta(minutes=30)
# Codes a room keeps open at once: each screen page opened asks for one; the oldest give way, so a
# flood of requests costs a handful of rows and the codes stay easy to tell apart. A code that gives
# way is told to the room's sockets at once (app/playing/master.py `pair_screen`): its screen asks for
# a new one instead of showing a dead code.
OPEN_CODES = 6
# New codes a room's screens may ask for at once, and one client address (app/routes/screens.py);
# then MOTABLE_SCREEN_CODES_PER_HOUR. Fewer than OPEN_CODES: no burst of asks pushes out a code
# just shown (issue 32 flushed one with six asks in 0.02 s).
ROOM_BURST = 4
ADDRESS_BURST = 3


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _open_codes(session: Session, room_id: str) -> list[TableScreen]:
    """The room's pairing codes still to be typed, oldest first (expired ones are deleted)."""
    rows = session.scalars(
        select(TableScreen)
        .where(TableScreen.room_id == room_id, TableScreen.marked.is_(False))
        .order_by(TableScreen.id)
    ).all()
    now = utcnow()
    live = []
    for row in rows:
        if now - _utc(row.created_at) > CODE_LIFETIME:
            session.delete(row)
        else:
            live.append(row)
    return live


@dataclass(frozen=True)
class Paired:
    """A fresh code and its token (`body`), and whether older codes gave way to it."""

    body: dict[str, str]
    gave_way: bool


def pair(session: Session, room_id: str) -> Paired:
    """A fresh pairing code for a screen to show, and the token it keeps (it does nothing until the
    host marks the screen with the code)."""
    find_room(session, room_id, lock=True)
    open_codes = _open_codes(session, room_id)
    given_way = open_codes[: max(0, len(open_codes) - OPEN_CODES + 1)]
    for old in given_way:
        session.delete(old)
    taken = {row.code for row in open_codes}
    code = next(
        c
        for c in (f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}" for _ in range(1000))
        if c not in taken
    )
    token = new_token()
    session.add(TableScreen(room_id=room_id, token_hash=hash_token(token), code=code, marked=False))
    return Paired({"code": code, "token": token}, bool(given_way))


def _screen_of(session: Session, room_id: str, token: str) -> TableScreen | None:
    return session.scalars(
        select(TableScreen).where(TableScreen.room_id == room_id, TableScreen.token_hash == hash_token(token))
    ).first()


def status(session: Session, room_id: str, token: str | None) -> dict[str, object]:
    """What a screen's token is now: the room's table (`marked`), or a code still to be typed. A
    token that is neither (its code expired or gave way, or another screen replaced it) is refused."""
    find_room(session, room_id)
    if token is None:
        raise AppError("unauthorized", N_("send the screen's token as 'Authorization: Bearer <token>'"))
    row = _screen_of(session, room_id, token)
    if row is not None and not row.marked and utcnow() - _utc(row.created_at) > CODE_LIFETIME:
        row = None
    if row is None:
        raise AppError("unauthorized", N_("this token is no table screen of this room; ask for a new code"))
    return {"marked": row.marked, "code": row.code}


# Read by every room body: built once (app/services/lookup.py says why).
_MARKED = (
    select(TableScreen.id)
    .where(TableScreen.room_id == bindparam("room_id"), TableScreen.marked.is_(True))
    .limit(1)
)


def is_marked(session: Session, room_id: str) -> bool:
    return session.scalar(_MARKED, {"room_id": room_id}) is not None


def is_table(session: Session, room_id: str, token: str | None) -> bool:
    """Whether `token` is the room's marked table screen."""
    if token is None:
        return False
    row = _screen_of(session, room_id, token)
    return row is not None and row.marked


def _host(session: Session, room: Room, token: str | None) -> None:
    if player_seat(session, room.id, token) != room.host_seat:
        raise AppError("forbidden", N_("only the host may choose the table screen"))


def mark(session: Session, room_id: str, token: str | None, code: str) -> None:
    """The host marks the screen showing `code` as the table; a screen marked before stops being it."""
    room = find_room(session, room_id, lock=True)
    _host(session, room, token)
    if not CODE.fullmatch(code):
        raise AppError(
            "invalid_request", N_("a table screen's code is %(digits)s digits"), digits=CODE_DIGITS
        )
    chosen = next((row for row in _open_codes(session, room_id) if row.code == code), None)
    if chosen is None:
        raise AppError(
            "not_found", N_("no table screen shows the code %(number)s; it may have changed"), number=code
        )
    session.execute(delete(TableScreen).where(TableScreen.room_id == room_id, TableScreen.marked.is_(True)))
    chosen.marked = True
    chosen.code = None


def unmark(session: Session, room_id: str, token: str | None) -> None:
    """The host takes the mark away: the screen is a plain spectator again (its token does nothing)."""
    room = find_room(session, room_id, lock=True)
    _host(session, room, token)
    session.execute(delete(TableScreen).where(TableScreen.room_id == room_id, TableScreen.marked.is_(True)))


def carry_to(session: Session, room_id: str, rematch_id: str) -> None:
    """The rematch's table is the same screen: its mark (and token) go along."""
    for row in session.scalars(
        select(TableScreen).where(TableScreen.room_id == room_id, TableScreen.marked.is_(True))
    ):
        session.add(TableScreen(room_id=rematch_id, token_hash=row.token_hash, code=None, marked=True))
