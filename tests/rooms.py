"""Rooms for tests whose subject is something else: made, joined, given bots and started through the
API of CONTRACT.md, each step's status code asserted (a broken endpoint fails here, with its answer).

`client` is an `httpx.Client` (starlette's `TestClient` is one) or the base URL of a served process
(`ServeProcess.base_url`): each request then goes out on its own with `httpx.post`, as a test would.

Tests of making, joining or starting a room itself (what is refused, what is counted) post inline."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

import httpx

Client = httpx.Client | str

# Who joins after the host, in turn.
GUESTS = ("Bo", "Cy", "Di", "Ed", "Fay")


@dataclass(frozen=True)
class Room:
    """A room just made: its id, and the host's seat (0) and token."""

    room_id: str
    token: str
    join_url: str
    seat: int = 0


class Seated(NamedTuple):
    """A room with people seated (the host first): its id and each person's token, by seat."""

    room_id: str
    tokens: list[str]

    @property
    def token(self) -> str:
        """The host's."""
        return self.tokens[0]


class Hosted(Protocol):
    """A `Room` or a `Seated`: what the host's requests need."""

    @property
    def room_id(self) -> str: ...

    @property
    def token(self) -> str: ...


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _post(client: Client, path: str, **kwargs: Any) -> httpx.Response:
    if isinstance(client, str):
        return httpx.post(f"{client}{path}", **kwargs)
    return client.post(path, **kwargs)


def _id(room: Hosted | str) -> str:
    return room if isinstance(room, str) else room.room_id


def new_room(
    client: Client,
    game: str = "tiny",
    *,
    name: str = "Ann",
    clock: int | None = None,
    headers: dict[str, str] | None = None,
    **options: Any,
) -> Room:
    """POST /api/rooms: `options` are the game's (sent only when given), `clock` the room's seconds a
    turn, `headers` extra request headers (e.g. X-Forwarded-For)."""
    body: dict[str, Any] = {"game": game, "name": name}
    if options:
        body["options"] = options
    if clock is not None:
        body["clock"] = clock
    made = _post(client, "/api/rooms", json=body, headers=headers)
    assert made.status_code == 201, made.text
    answer = made.json()
    return Room(answer["room_id"], answer["token"], answer["join_url"], answer["seat"])


def join(client: Client, room: Hosted | str, name: str = "Bo") -> str:
    """POST /api/rooms/{id}/join: the new seat's token."""
    joined = _post(client, f"/api/rooms/{_id(room)}/join", json={"name": name})
    assert joined.status_code == 201, joined.text
    token: str = joined.json()["token"]
    return token


def add_bot(client: Client, room: Hosted) -> int:
    """POST /api/rooms/{id}/bots as the host: the bot's seat."""
    added = _post(client, f"/api/rooms/{room.room_id}/bots", headers=auth(room.token))
    assert added.status_code == 201, added.text
    seat: int = added.json()["seat"]
    return seat


def start_match(client: Client, room: Hosted) -> dict[str, Any]:
    """POST /api/rooms/{id}/start as the host, with no body: the room body."""
    started = _post(client, f"/api/rooms/{room.room_id}/start", headers=auth(room.token))
    assert started.status_code == 200, started.text
    answer: dict[str, Any] = started.json()
    return answer


def seated_match(
    client: Client,
    game: str = "tiny",
    players: int = 2,
    *,
    bots: int = 0,
    names: Sequence[str] = GUESTS,
    start: bool = True,
    clock: int | None = None,
    **options: Any,
) -> Seated:
    """A room of `game` made by Ann, `players` people in all (the others named from `names`, in turn),
    then `bots` bots, and the match started unless `start` is False."""
    assert 1 <= players <= len(names) + 1, players
    room = new_room(client, game, clock=clock, **options)
    tokens = [room.token, *(join(client, room, name) for name in names[: players - 1])]
    for _ in range(bots):
        add_bot(client, room)
    if start:
        start_match(client, room)
    return Seated(room.room_id, tokens)
