"""A finished match, step by step, as a chosen seat saw it (or with every hand open).

Built from the revealed seed and the action log, through the same replay the verifier uses.
Refused until the match is over, so a replay never shows a card that is still hidden in play.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.errors import AppError
from app.models import ActionRow
from app.realtime.patch import diff
from app.services.matches import current_match
from app.services.rooms import find_room
from engines.core import get_engine
from engines.core.replay import replay_states

ALL = "all"
SPECTATOR = "spectator"


def parse_viewpoint(raw: str | None, players: int) -> int | str:
    """`all` (every hand open), `spectator`, or a seat number of the match."""
    if raw in (None, "", SPECTATOR):
        return SPECTATOR
    if raw == ALL:
        return ALL
    if raw is not None and raw.isascii() and raw.isdigit() and int(raw) < players:
        return int(raw)
    raise AppError(
        "invalid_request", f"seat must be a seat number from 0 to {players - 1}, 'spectator' or 'all'"
    )


def replay_body(session: Session, room_id: str, raw_viewpoint: str | None) -> dict[str, Any]:
    """The first table and one RFC 6902 patch per action, for the viewpoint asked for.

    Each table is shaped like the live state body (`version`, `status`, `seat`, `to_act`,
    `legal_actions` — always empty — `view`, `result`); with every hand open, `views` holds each
    seat's own view and `view` the spectator's.
    """
    find_room(session, room_id)  # an unknown room is 404 not_found, not "not started"
    match = current_match(session, room_id)
    if match is None:
        raise AppError("not_started", "the match has not started yet, so there is nothing to replay")
    if match.status != "finished":
        raise AppError("forbidden", "a match can be replayed once it is over")
    viewpoint = parse_viewpoint(raw_viewpoint, match.players)
    engine = get_engine(match.game)
    rows = list(
        session.scalars(select(ActionRow).where(ActionRow.match_id == match.id).order_by(ActionRow.seq))
    )
    actions = [(row.seat, row.action) for row in rows]
    seat = viewpoint if isinstance(viewpoint, int) else None
    last = len(actions)

    def table(number: int, state: Any) -> dict[str, Any]:
        result = engine.result(state)
        body: dict[str, Any] = {
            "version": number + 1,
            "status": "finished" if number == last else "playing",
            "seat": seat,
            "to_act": sorted(engine.to_act(state)),
            "legal_actions": [],
            "view": engine.view(state, seat),
            "result": result.to_json() if result is not None else None,
        }
        if viewpoint == ALL:
            body["views"] = [engine.view(state, s) for s in range(match.players)]
        return body

    first: dict[str, Any] | None = None
    previous: dict[str, Any] | None = None
    steps: list[dict[str, Any]] = []
    for number, state in enumerate(replay_states(engine, match.players, match.seed, match.options, actions)):
        current = table(number, state)
        if previous is None:
            first = current
        else:
            acted_seat, action = actions[number - 1]
            steps.append({"seat": acted_seat, "action": action, "ops": diff(previous, current)})
        previous = current
    return {
        "room_id": room_id,
        "game": match.game,
        "players": match.players,
        "viewpoint": viewpoint,
        "seed": match.seed,
        "first": first,
        "steps": steps,
    }
