"""Rooms: create, join, seat a bot, start; and the public room body."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, cast

from pydantic import BaseModel
from sqlalchemy import Table, bindparam, func, select, update
from sqlalchemy.orm import Session

from app.errors import AppError
from app.i18n import N_
from app.models import ActionRow, Match, Room, Seat, SeatMove, Snapshot
from app.names import bot_name, unique_name
from app.roomids import new_room_id
from app.services import outbox, screens
from app.services.auth import hash_token, new_token, player_seat
from app.services.lookup import bump_epoch, find_room
from app.services.matches import current_match, seed_commitment
from engines.core import EngineError, game_ids, get_engine

# Seeds fit a signed 64-bit column on every backend.
SEED_BITS = 63


# Move clocks the API accepts: from one second (tests) to a week (the slowest correspondence game).
CLOCK_MIN = 1
CLOCK_MAX = 7 * 24 * 3600


# Built once: run by every command (app/playing/commands.py).
_ROOMS = cast(Table, Room.__table__)
_TOUCH = update(_ROOMS).where(_ROOMS.c.id == bindparam("room_id")).values(revision=_ROOMS.c.revision + 1)


def touch(session: Session, room_id: str) -> None:
    """Bump the room's revision: its body changed in this transaction (app/playing/commands.py). On
    PostgreSQL it takes the room's row lock, so a command locks the room before its match."""
    session.connection().execute(_TOUCH, {"room_id": room_id})


def check_clock(seconds: int | None) -> None:
    if seconds is not None and not CLOCK_MIN <= seconds <= CLOCK_MAX:
        raise AppError(
            "invalid_request",
            N_("a move's time is %(least)s to %(most)s seconds, or null"),
            least=CLOCK_MIN,
            most=CLOCK_MAX,
        )


def create_room(
    session: Session,
    game: str,
    name: str,
    options: dict[str, Any] | None,
    clock: int | None = None,
    creator: str | None = None,
) -> dict[str, Any]:
    """`creator`: the digest of the maker's address (app.ratelimit.address_digest), for the quotas."""
    if game not in game_ids():
        raise AppError(
            "invalid_request",
            N_("unknown game '%(game)s'; the games are %(games)s"),
            game=game,
            games=", ".join(game_ids()),
        )
    spec = get_engine(game).spec
    try:
        parsed = spec.parse_options(options)
    except EngineError as error:
        raise AppError.from_engine(error) from None
    check_clock(clock)
    room = Room(
        id=new_room_id(), game=game, options=parsed.model_dump(mode="json"), clock=clock, creator=creator
    )
    token = new_token()
    session.add(room)
    session.add(Seat(room_id=room.id, seat=0, name=name, token_hash=hash_token(token), bot=False))
    return {"room_id": room.id, "seat": 0, "token": token}


def status_of(match: Match | None) -> str:
    """A room's status, read from its one record: the match (none yet: the room is waiting)."""
    return "waiting" if match is None else match.status


# Read by every join: built once (app/services/lookup.py says why).
_NAMES = select(Seat.name).where(Seat.room_id == bindparam("room_id"))
_REMATCH_OF = select(Room).where(Room.rematch_id == bindparam("room_id"))


def _names(session: Session, room: Room) -> list[str]:
    """The names of the room's seats, one per seat."""
    return list(session.scalars(_NAMES, {"room_id": room.id}))


def _next_seat(session: Session, room: Room, taken: int) -> int:
    """The seat a newcomer gets in a room whose `taken` seats are numbered 0 to taken - 1."""
    if current_match(session, room.id) is not None:
        raise AppError("already_started", N_("the match has already started"))
    if taken >= get_engine(room.game).spec.max_players:
        raise AppError("room_full", N_("every seat is taken"))
    return taken


def _seat_before_later_bots(session: Session, room: Room, name: str, seat: int) -> int:
    """In a rematch, a player who comes back sits where they sat before the bots that followed
    them last time: those bots (which hold no token, so nothing remembers their number) move up."""
    previous = session.scalars(_REMATCH_OF, {"room_id": room.id}).first()
    if previous is None:
        return seat
    before = session.scalars(select(Seat).where(Seat.room_id == previous.id).order_by(Seat.seat)).all()
    mine = next((s.seat for s in before if not s.bot and s.name == name), None)
    if mine is None:
        return seat
    was = {s.name: s.seat for s in before if s.bot}
    later = [
        s
        for s in session.scalars(select(Seat).where(Seat.room_id == room.id, Seat.bot.is_(True))).all()
        if was.get(s.name, -1) > mine
    ]
    if not later:
        return seat
    first = min(b.seat for b in later)
    moving = session.scalars(select(Seat).where(Seat.room_id == room.id, Seat.seat >= first)).all()
    if not all(s.bot for s in moving):
        return seat  # a player's number never changes: their page knows it
    # From the last seat down, so no two seats ever share a number.
    for bot in sorted(moving, key=lambda b: -b.seat):
        bot.seat += 1
        session.flush()
    return first


def join_room(session: Session, room_id: str, name: str) -> dict[str, Any]:
    room = find_room(session, room_id, lock=True)
    names = _names(session, room)
    seat = _seat_before_later_bots(session, room, name, _next_seat(session, room, len(names)))
    token = new_token()
    name = unique_name(name, names)
    session.add(Seat(room_id=room.id, seat=seat, name=name, token_hash=hash_token(token), bot=False))
    return {"seat": seat, "token": token, "name": name}


def _host_room(session: Session, room_id: str, token: str | None) -> Room:
    """The room, for its host or for the screen the host marked as the table (it holds no seat but
    may start the match and seat a bot: the things the table's host does from the sofa)."""
    room = find_room(session, room_id, lock=True)
    if screens.is_table(session, room_id, token):
        return room
    if player_seat(session, room_id, token) != room.host_seat:
        raise AppError("forbidden", N_("only the host may do this"))
    return room


def default_bot_kind(game: str) -> str:
    """The bot a seat gets when nobody chooses: the game's descriptor says which (`default_bot`)."""
    return get_engine(game).spec.default_bot


def fallback_bot_kind(game: str) -> str:
    """The bot that plays instead of one whose moves keep failing (the descriptor's `fallback_bot`)."""
    return get_engine(game).spec.fallback_bot


def add_bot(session: Session, room_id: str, token: str | None) -> dict[str, Any]:
    room = _host_room(session, room_id, token)
    names = _names(session, room)
    seat = _next_seat(session, room, len(names))
    kind = default_bot_kind(room.game)
    session.add(
        Seat(
            room_id=room.id,
            seat=seat,
            name=bot_name(names),
            token_hash=None,
            bot=True,
            bot_kind=kind,
        )
    )
    return {"seat": seat}


# -- matches of bots alone (issue 18) -----------------------------------------------------------------
# For the per-address cap, another match of bots alone counts as playing while it moved this recently.
PLAYING_ALONE_WITHIN = timedelta(minutes=2)


def _utc(moment: datetime) -> datetime:
    """SQLite hands datetimes back without their zone: they are UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def nobody_seated() -> Any:
    """A condition on Room: no person holds a seat (a person a bot stands in for still does)."""
    return ~select(Seat.id).where(Seat.room_id == Room.id, Seat.bot.is_(False)).exists()


def _alone_since(session: Session, match: Match) -> datetime:
    """When the bots were left alone: the match's start, or the last seat move (a leave or a removal)
    after it."""
    moved = session.scalar(select(func.max(SeatMove.created_at)).where(SeatMove.room_id == match.room_id))
    started = _utc(match.started_at)
    return max(started, _utc(moved)) if moved is not None else started


def _last_move(session: Session, match: Match) -> datetime:
    latest = session.scalar(select(func.max(ActionRow.created_at)).where(ActionRow.match_id == match.id))
    return _utc(latest) if latest is not None else _utc(match.started_at)


def why_bots_stop(
    session: Session, room_id: str, now: datetime, minutes: float, per_address: int
) -> str | None:
    """Why the bot runner no longer plays this room's match, or None to play on: only a match in play
    with nobody seated is ever stopped, once it has played alone for `minutes`, or when its maker's
    address already has `per_address` older matches of bots alone playing (0 turns either off)."""
    room = session.scalars(select(Room).where(Room.id == room_id, nobody_seated())).one_or_none()
    match = current_match(session, room_id) if room is not None else None
    if room is None or match is None or match.status != "playing":
        return None
    window = timedelta(minutes=minutes)
    if minutes > 0 and now - _alone_since(session, match) >= window:
        return f"its bots have played alone for {minutes:g} minutes"
    if per_address <= 0 or room.creator is None:
        return None
    older = session.scalars(
        select(Match)
        .join(Room, Room.id == Match.room_id)
        .where(Room.creator == room.creator, Match.status == "playing", Match.id < match.id, nobody_seated())
        .order_by(Match.id.desc())
        .limit(4 * per_address + 20)
    ).all()
    playing = 0
    for other in older:
        if now - _last_move(session, other) > PLAYING_ALONE_WITHIN:
            continue  # stopped, or stuck: not playing
        if minutes > 0 and now - _alone_since(session, other) >= window:
            continue
        playing += 1
        if playing >= per_address:
            return f"its maker's address already has {per_address} matches of bots alone playing"
    return None


def one_device_options(model: type[BaseModel], options: dict[str, Any]) -> dict[str, Any]:
    """The options of a match played around one device: each option whose schema names a
    one-device value (`json_schema_extra={"one_device": ...}`) takes it while it is at its default."""
    chosen = dict(options)
    for key, info in model.model_fields.items():
        extra = info.json_schema_extra
        if not isinstance(extra, dict) or "one_device" not in extra:
            continue
        if chosen.get(key, info.default) == info.default:
            chosen[key] = extra["one_device"]
    return chosen


def start_room(
    session: Session,
    room_id: str,
    token: str | None,
    starter: int | Literal["random"] | None = None,
    test_seed: int | None = None,
    one_device: bool = False,
) -> tuple[int, Any]:
    """Deal the match; returns its id and initial state. `starter` names the seat that starts (or
    "random": the engine picks from the seed), for a game whose descriptor has a starter option.
    `one_device`: the host starts from a page holding several seats; an option left at its default
    takes the value its schema gives for one device (`"one_device"`), e.g. Mokuru's witness off."""
    room = _host_room(session, room_id, token)
    if current_match(session, room.id) is not None:
        raise AppError("already_started", N_("the match has already started"))
    engine = get_engine(room.game)
    players = session.scalar(select(func.count()).where(Seat.room_id == room.id)) or 0
    if players < engine.spec.min_players:
        raise AppError(
            "not_enough_players",
            N_("%(game)s needs at least %(least)s players"),
            game=room.game,
            least=engine.spec.min_players,
        )
    options = dict(room.options)
    if starter is not None:
        if engine.spec.starter is None:
            raise AppError("invalid_request", N_("%(game)s has no choice of who starts"), game=room.game)
        if starter != "random" and not 0 <= starter < players:
            raise AppError(
                "invalid_request",
                N_("seat %(seat)s is not seated; the seats are 0 to %(last)s"),
                seat=starter,
                last=players - 1,
            )
        options[engine.spec.starter.option] = None if starter == "random" else starter
    if one_device:
        options = one_device_options(engine.spec.options_model, options)
    # Secret and random, committed to before the deal; `test_seed` only from Settings.test_seeds.
    seed = secrets.randbits(SEED_BITS) if test_seed is None else test_seed
    try:
        parsed = engine.spec.parse_options(options)
        state = engine.setup(players, seed, parsed)
    except EngineError as error:
        # An option that names a seat nobody took, say: refused, with nothing written.
        raise AppError.from_engine(error) from None
    stored = parsed.model_dump(mode="json")
    match = Match(
        room_id=room.id,
        game=room.game,
        options=stored,
        players=players,
        seed=seed,
        seed_commitment=seed_commitment(seed),
        version=1,
        round=engine.round_number(state),
        status="playing",
    )
    session.add(match)
    session.flush()
    session.add(Snapshot(match_id=match.id, version=1, round=match.round, state=engine.dump(state)))
    return match.id, state


def rematch(session: Session, room_id: str, token: str | None) -> dict[str, Any]:
    """The finished room's rematch: created by the first player who asks, with the same game,
    options and number of bots, that player hosting; later callers get the same room to join.

    Opened by the marked table screen, the room's host hosts it still: their seat is kept for them,
    and their own ask then hands them its token (the screen never holds one)."""
    room = find_room(session, room_id, lock=True)
    by_screen = screens.is_table(session, room_id, token)
    seat = room.host_seat if by_screen else player_seat(session, room_id, token)
    if status_of(current_match(session, room.id)) != "finished":
        raise AppError("invalid_request", N_("a rematch can follow only a finished match"))
    if room.rematch_id is not None:
        kept = _kept_seat(session, room, seat) if not by_screen else None
        if kept is not None:
            fresh = new_token()
            kept.token_hash = hash_token(fresh)
            # The old token stops working there on every process (app/services/seats.py).
            bump_epoch(find_room(session, room.rematch_id))
            return {"room_id": room.rematch_id, "created": False, "seat": kept.seat, "token": fresh}
        return {"room_id": room.rematch_id, "created": False}
    me = session.scalars(select(Seat).where(Seat.room_id == room_id, Seat.seat == seat)).one()
    if by_screen and me.token_hash is None:
        raise AppError("invalid_request", N_("nobody is seated to host the rematch; a player opens it"))
    # The table's maker stays its maker: its all-bot matches count for the same address.
    created = create_room(session, room.game, me.name, room.options, creator=room.creator)
    session.flush()
    new_room = find_room(session, created["room_id"])
    bots = session.scalars(select(Seat).where(Seat.room_id == room_id, Seat.bot.is_(True))).all()
    for number, bot in enumerate(bots, start=1):
        session.add(
            Seat(
                room_id=new_room.id,
                seat=number,
                name=bot.name,
                token_hash=None,
                bot=True,
                bot_kind=bot.bot_kind,
            )
        )
    room.rematch_id = new_room.id
    screens.carry_to(session, room_id, new_room.id)
    match = current_match(session, room.id)
    # Opened from the table screen, nobody seated made it: every person is told.
    maker = None if by_screen else seat
    outbox.record(session, room_id, "rematch", match.id if match else None, by_seat=maker)
    if by_screen:
        # The host's seat waits for them under their old token's hash (nobody holds the token made
        # for it); their ask swaps it for a fresh token (_kept_seat). Should their seat here move to
        # another device first, the waiting seat moves with it (people.follow_to_rematches).
        host = session.scalars(select(Seat).where(Seat.room_id == new_room.id, Seat.seat == 0)).one()
        host.token_hash = me.token_hash
        return {"room_id": new_room.id, "created": True}
    return {**created, "created": True}


def _kept_seat(session: Session, room: Room, seat: int) -> Seat | None:
    """The rematch seat kept for this room's `seat` (the screen opened the rematch for its host):
    the one holding the player's old token hash, until they ask."""
    mine = session.scalars(select(Seat).where(Seat.room_id == room.id, Seat.seat == seat)).one_or_none()
    if mine is None or mine.token_hash is None:
        return None
    return session.scalars(
        select(Seat).where(Seat.room_id == room.rematch_id, Seat.token_hash == mine.token_hash)
    ).one_or_none()
