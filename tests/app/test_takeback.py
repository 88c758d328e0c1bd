"""Taking back a misclick (docs/playing.md, "Takeback"): who may ask, what may be taken back, who answers,
and that a takeback replays, verifies and shows nobody anything new."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.cli import main
from app.config import Settings
from app.fairness import check_public_log
from app.main import create_app
from app.models import utcnow
from app.services.takebacks import PER_ROUND, why_not
from engines.core import get_engine
from tests.clocks import FakeClock
from tests.rooms import add_bot, join, new_room, seated_match, start_match
from tests.waiting import wait_for

from .conftest import NO_LIMITS, auth


def url(room_id: str, path: str = "") -> str:
    return f"/api/rooms/{room_id}{path}"


def state(client: TestClient, room_id: str, token: str | None = None) -> dict[str, Any]:
    headers = auth(token) if token is not None else {}
    body: dict[str, Any] = client.get(url(room_id, "/state"), headers=headers).json()
    return body


def play(client: TestClient, room_id: str, token: str, action: Any, version: int) -> dict[str, Any]:
    answer = client.post(
        url(room_id, "/actions"), headers=auth(token), json={"action": action, "version": version}
    )
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def ask(client: TestClient, room_id: str, token: str, version: int) -> Any:
    return client.post(url(room_id, "/takeback"), headers=auth(token), json={"version": version})


def answer(client: TestClient, room_id: str, token: str, takeback_id: str, verb: str) -> Any:
    return client.post(url(room_id, f"/takeback/{takeback_id}/{verb}"), headers=auth(token))


def every_view(client: TestClient, room_id: str, tokens: list[str]) -> list[dict[str, Any]]:
    return [state(client, room_id, t)["view"] for t in tokens] + [state(client, room_id)["view"]]


@pytest.fixture
def sqlite_client(sqlite_url: str, tiny: str) -> Iterator[TestClient]:
    from app.db import upgrade

    upgrade(sqlite_url)
    with TestClient(create_app(Settings(database_url=sqlite_url, bot_delay=0, **NO_LIMITS))) as test_client:
        yield test_client


# -- tiny: every rule known ------------------------------------------------------------------------


def test_a_card_played_is_taken_back_with_the_others_approval(client: TestClient) -> None:
    room_id, tokens = seated_match(client)
    before = state(client, room_id, tokens[0])
    views_before = every_view(client, room_id, tokens)
    card = before["legal_actions"][0]
    logs_before = [client.get(url(room_id, "/log"), headers=auth(t)).json()["entries"] for t in tokens]
    after = play(client, room_id, tokens[0], card, before["version"])
    assert after["can_take_back"] is True
    assert state(client, room_id, tokens[1])["can_take_back"] is False

    asked = ask(client, room_id, tokens[0], after["version"])
    assert asked.status_code == 201, asked.text
    takeback_id = asked.json()["takeback_id"]
    # The move asked about is named, as everyone read it in the log.
    pending = {
        "id": takeback_id,
        "seat": 0,
        "version": after["version"],
        "approvals": [],
        "waiting_for": [1],
        "action": card,
    }
    lapses_at = state(client, room_id)["takeback"]["lapses_at"]
    assert datetime.fromisoformat(lapses_at).tzinfo is not None
    for token in [*tokens, None]:
        body = state(client, room_id, token)
        assert body["takeback"] == {**pending, "lapses_at": lapses_at} and body["version"] == after["version"]
        assert body["can_take_back"] is False

    assert answer(client, room_id, tokens[0], takeback_id, "approve").status_code == 409  # not the asker
    assert answer(client, room_id, tokens[1], takeback_id, "approve").status_code == 200
    back = state(client, room_id, tokens[0])
    assert back["version"] == after["version"] + 1
    assert back["takeback"] is None and back["can_take_back"] is False
    assert back["legal_actions"] == before["legal_actions"] and back["to_act"] == before["to_act"]
    # Nobody sees anything they did not see before the action.
    assert every_view(client, room_id, tokens) == views_before
    log = client.get(url(room_id, "/log")).json()["entries"]
    assert [(e["seq"], e["seat"], e["action"]) for e in log] == [
        (1, 0, card),
        (2, 0, {"takeback": 1}),
    ]
    # Each seat's log gained the action it saw played and the takeback entry, nothing else.
    for token, seen in zip(tokens, logs_before, strict=True):
        entries = client.get(url(room_id, "/log"), headers=auth(token)).json()["entries"]
        assert entries[: len(seen)] == seen
        assert [e["action"] for e in entries[len(seen) :]] == [card, {"takeback": 1}]
    # The match goes on from there: the same card may be played again, or another.
    play(client, room_id, tokens[0], before["legal_actions"][-1], back["version"])


def test_one_refusal_ends_it_and_it_is_not_asked_twice(client: TestClient) -> None:
    room_id, tokens = seated_match(client, players=3)
    first = state(client, room_id, tokens[0])
    after = play(client, room_id, tokens[0], first["legal_actions"][0], first["version"])
    takeback_id = ask(client, room_id, tokens[0], after["version"]).json()["takeback_id"]
    assert state(client, room_id)["takeback"]["waiting_for"] == [1, 2]
    assert answer(client, room_id, tokens[1], takeback_id, "approve").status_code == 200
    body = state(client, room_id)["takeback"]
    assert body["approvals"] == [1] and body["waiting_for"] == [2]
    assert answer(client, room_id, tokens[2], takeback_id, "refuse").status_code == 200
    now = state(client, room_id, tokens[0])
    assert now["version"] == after["version"] and now["view"] == after["view"]
    assert now["takeback"] is None and now["can_take_back"] is False
    again = ask(client, room_id, tokens[0], after["version"])
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_allowed"
    assert "refused" in again.json()["error"]["message"]
    late = answer(client, room_id, tokens[1], takeback_id, "approve")
    assert late.status_code == 409 and "refused" in late.json()["error"]["message"]


def test_only_the_last_action_and_only_by_its_actor(client: TestClient) -> None:
    room_id, tokens = seated_match(client, players=3)
    first = state(client, room_id, tokens[0])
    assert ask(client, room_id, tokens[0], first["version"]).json()["error"]["message"] == (
        "nothing has been played yet"
    )
    after = play(client, room_id, tokens[0], first["legal_actions"][0], first["version"])
    other = ask(client, room_id, tokens[1], after["version"])
    assert other.status_code == 409 and "Ann's, not yours" in other.json()["error"]["message"]
    spectator = client.post(url(room_id, "/takeback"), json={"version": after["version"]})
    assert spectator.status_code == 401
    second = play(
        client, room_id, tokens[1], state(client, room_id, tokens[1])["legal_actions"][0], after["version"]
    )
    late = ask(client, room_id, tokens[0], after["version"])
    assert late.status_code == 409 and "someone acted since" in late.json()["error"]["message"]
    assert state(client, room_id)["version"] == second["version"]  # a refused ask changes nothing


def test_any_new_action_cancels_a_pending_takeback(client: TestClient) -> None:
    room_id, tokens = seated_match(client)
    first = state(client, room_id, tokens[0])
    after = play(client, room_id, tokens[0], first["legal_actions"][0], first["version"])
    takeback_id = ask(client, room_id, tokens[0], after["version"]).json()["takeback_id"]
    # Bo plays instead of answering: the takeback is gone.
    play(client, room_id, tokens[1], state(client, room_id, tokens[1])["legal_actions"][0], after["version"])
    assert state(client, room_id)["takeback"] is None
    late = answer(client, room_id, tokens[1], takeback_id, "approve")
    assert late.status_code == 409 and "cancelled" in late.json()["error"]["message"]
    assert len(client.get(url(room_id, "/log")).json()["entries"]) == 2


def test_an_action_that_ended_the_round_cannot_be_taken_back(client: TestClient) -> None:
    room_id, tokens = seated_match(client)
    body = state(client, room_id)
    for _ in range(3):  # two cards each: the fourth play ends the round
        seat = body["to_act"][0]
        body = play(
            client,
            room_id,
            tokens[seat],
            state(client, room_id, tokens[seat])["legal_actions"][0],
            body["version"],
        )
    seat = body["to_act"][0]
    body = play(
        client,
        room_id,
        tokens[seat],
        state(client, room_id, tokens[seat])["legal_actions"][0],
        body["version"],
    )
    assert body["can_take_back"] is False
    refused = ask(client, room_id, tokens[seat], body["version"])
    assert refused.status_code == 409 and "ended the round" in refused.json()["error"]["message"]


def test_a_seat_asks_at_most_a_few_times_per_round(sqlite_client: TestClient) -> None:
    client = sqlite_client
    room_id, tokens = seated_match(client)
    body = state(client, room_id, tokens[0])
    for _ in range(PER_ROUND):
        after = play(client, room_id, tokens[0], body["legal_actions"][0], body["version"])
        takeback_id = ask(client, room_id, tokens[0], after["version"]).json()["takeback_id"]
        assert answer(client, room_id, tokens[1], takeback_id, "approve").status_code == 200
        body = state(client, room_id, tokens[0])
    after = play(client, room_id, tokens[0], body["legal_actions"][0], body["version"])
    assert after["can_take_back"] is False  # the page shows no button the server would refuse
    refused = ask(client, room_id, tokens[0], after["version"])
    assert refused.status_code == 409
    assert (
        refused.json()["error"]["message"]
        == f"you have asked {PER_ROUND} times this round, the most a seat may"
    )


def test_bots_approve_at_once(sqlite_url: str, tiny: str) -> None:
    from app.db import upgrade

    upgrade(sqlite_url)
    # The bot waits before playing, so Ann's play is still the last action when she asks.
    with TestClient(create_app(Settings(database_url=sqlite_url, bot_delay=30, **NO_LIMITS))) as client:
        room_id, (token,) = seated_match(client, players=1, bots=1)
        first = state(client, room_id, token)
        after = play(client, room_id, token, first["legal_actions"][0], first["version"])
        assert ask(client, room_id, token, after["version"]).status_code == 201
        back = state(client, room_id, token)
        assert back["version"] == after["version"] + 1 and back["view"] == first["view"]


def test_a_gone_player_need_not_approve(sqlite_url: str, tiny: str) -> None:
    from app.db import upgrade

    upgrade(sqlite_url)
    with TestClient(
        create_app(Settings(database_url=sqlite_url, bot_delay=0, gone_after=0, **NO_LIMITS))
    ) as client:
        room_id, tokens = seated_match(client)
        first = state(client, room_id, tokens[0])
        after = play(client, room_id, tokens[0], first["legal_actions"][0], first["version"])
        # Bo has no socket open and "gone" starts at once here: the takeback needs nobody.
        assert ask(client, room_id, tokens[0], after["version"]).status_code == 201
        assert state(client, room_id, tokens[0])["view"] == first["view"]


def test_a_socket_is_told_of_the_takeback_by_patches(client: TestClient) -> None:
    from .players import InProcessSocket, Player

    room_id, tokens = seated_match(client)
    with client.websocket_connect(f"/ws/rooms/{room_id}?token={tokens[1]}") as ws:
        bo = Player(1, tokens[1], InProcessSocket(ws))
        bo_before = state(client, room_id, tokens[1])
        first = state(client, room_id, tokens[0])
        after = play(client, room_id, tokens[0], first["legal_actions"][0], first["version"])
        bo.sync(after["version"])
        takeback_id = ask(client, room_id, tokens[0], after["version"]).json()["takeback_id"]
        # Asking changes no version: a patch at the same version shows the table what is pending.
        while bo.body["takeback"] is None:
            bo.pump()
        assert bo.body["version"] == after["version"] and bo.body["takeback"]["waiting_for"] == [1]
        answer(client, room_id, tokens[1], takeback_id, "approve")
        bo.sync(after["version"] + 1)
        assert bo.body == state(client, room_id, tokens[1])
        assert bo.body["view"] == bo_before["view"]


def test_a_takeback_is_replayed_by_verify_and_by_the_public_log(
    sqlite_url: str, tiny: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", sqlite_url)
    assert main(["migrate"]) == 0
    with TestClient(create_app(Settings(database_url=sqlite_url, bot_delay=0, **NO_LIMITS))) as client:
        room_id, tokens = seated_match(client, rounds=1)
        first = state(client, room_id, tokens[0])
        after = play(client, room_id, tokens[0], first["legal_actions"][0], first["version"])
        takeback_id = ask(client, room_id, tokens[0], after["version"]).json()["takeback_id"]
        answer(client, room_id, tokens[1], takeback_id, "approve")
        while (body := state(client, room_id))["status"] == "playing":
            seat = body["to_act"][0]
            play(
                client,
                room_id,
                tokens[seat],
                state(client, room_id, tokens[seat])["legal_actions"][-1],
                body["version"],
            )
        bodies = [client.get(url(room_id, path)).json() for path in ("", "/log", "/state")]
        assert {"takeback": 1} in [e["action"] for e in bodies[1]["entries"]]
        assert check_public_log(*bodies) == []
        replay = client.get(f"/api/rooms/{room_id}/replay?seat=all")
        assert replay.status_code == 200, replay.text
        steps = replay.json()["steps"]
        assert steps[1]["action"] == {"takeback": 1}
    capsys.readouterr()
    assert main(["verify", room_id]) == 0
    assert capsys.readouterr().out.startswith(f"OK room {room_id}")


# -- the reveal test in each game ------------------------------------------------------------------


def walk(game: str, players: int, seed: int, steps: int = 400) -> Iterator[tuple[Any, int, Any, Any]]:
    """(state before, seat, action, state after) for random legal play, ending with the match."""
    engine = get_engine(game)
    position = engine.setup(players, seed, engine.spec.parse_options({}))
    rng = random.Random(seed)
    for _ in range(steps):
        acting = sorted(engine.to_act(position))
        if not acting:
            return
        seat = rng.choice(acting)
        action = rng.choice(engine.legal_actions(position, seat))
        after = engine.apply(position, seat, action)
        yield position, seat, action, after
        position = after


def verdicts(game: str, players: int, kind: str, seeds: range = range(1, 4)) -> list[str | None]:
    return [
        why_not(game, before, seat, action, after, 7)
        for seed in seeds
        for before, seat, action, after in walk(game, players, seed)
        if action.get("type") == kind
    ]


def test_mojo_a_card_played_from_the_hand_can_be_taken_back_a_card_drawn_cannot() -> None:
    engine = get_engine("mojo")
    played = drawn = 0
    for before, seat, action, after in walk("mojo", 3, 5):
        reason = why_not("mojo", before, seat, action, after, 7)
        own_cards_only = len(engine.view(after, seat)["hand"]) < len(engine.view(before, seat)["hand"])
        if (
            action["type"] == "play"
            and own_cards_only
            and engine.round_number(after) == engine.round_number(before)
        ):
            assert reason is None, (action, reason)
            played += 1
        gained = {c["id"] for c in engine.view(after, seat)["hand"]} - {
            c["id"] for c in engine.view(before, seat)["hand"]
        }
        if gained and engine.round_number(after) == engine.round_number(before):
            assert reason is not None and "card you had not seen" in reason
            drawn += 1
    assert played and drawn


def test_mojo_a_play_that_ended_the_round_showing_every_hand_cannot() -> None:
    from engines.core.takeback import why_not_reversible

    engine = get_engine("mojo")
    ended = 0
    for seed in range(1, 4):
        for before, seat, action, after in walk("mojo", 3, seed, 2000):
            if engine.round_number(after) != engine.round_number(before):
                assert why_not("mojo", before, seat, action, after, 7) is not None
                # Even without the round rule, the views alone refuse it: the hands were shown.
                assert why_not_reversible(engine, before, seat, action, after, 3, 7) is not None
                ended += 1
                break
    assert ended


def test_moby_trick_a_card_played_into_a_trick_can_be_taken_back() -> None:
    results = verdicts("moby-trick", 3, "play")
    assert results and None in results


def test_mooki_island_placing_can_be_taken_back_and_taking_a_card_cannot() -> None:
    assert None in verdicts("mooki-island", 2, "place")
    taken = verdicts("mooki-island", 2, "take")
    assert taken and all(reason is not None for reason in taken)


def test_a_takeback_names_its_move_only_as_the_log_shows_it_to_everyone(client: TestClient) -> None:
    """Mooki Island's log hides which side a card was placed on until the end: the takeback body,
    which every viewer gets, names the move a placing, never the side, to the asker too."""
    room_id, tokens = seated_match(client, "mooki-island")
    for _ in range(2):  # the first seat takes a card, then places it
        body = state(client, room_id)
        seat = body["to_act"][0]
        mine = state(client, room_id, tokens[seat])
        placed = [a for a in mine["legal_actions"] if a["type"] == "place"]
        chosen = placed[0] if placed else mine["legal_actions"][0]
        after = play(client, room_id, tokens[seat], chosen, mine["version"])
    assert chosen["type"] == "place" and "side" in chosen
    assert ask(client, room_id, tokens[seat], after["version"]).status_code == 201
    for token in [*tokens, None]:
        assert state(client, room_id, token)["takeback"]["action"] == {"type": "place"}


def test_mokuru_a_try_report_can_be_taken_back() -> None:
    """A mis-tapped "Landed it"/"Missed" is corrected through a takeback: a report reveals nothing."""
    reports = verdicts("mokuru", 3, "report")
    assert reports and all(reason is None or "ended the" in reason for reason in reports)
    assert None in reports
    draws = verdicts("mokuru", 3, "draw")
    assert any(reason is not None for reason in draws)


def test_replay_plays_through_takebacks_and_refuses_a_takeback_with_nothing_to_undo(tiny: str) -> None:
    from engines.core import ReplayError, replay_states

    engine = get_engine("tiny")
    options = engine.spec.parse_options({})
    start = engine.setup(2, 3, options)
    first = engine.legal_actions(start, 0)[0]
    states = list(replay_states(engine, 2, 3, options, [(0, first), (0, {"takeback": 1})]))
    assert states[2] == start and states[1] != start
    with pytest.raises(ReplayError) as refused:
        list(replay_states(engine, 2, 3, options, [(0, first), (0, {"takeback": 1}), (0, {"takeback": 2})]))
    assert refused.value.number == 3


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_a_takeback_across_two_processes(postgres_url: str, redis_url: str, spawn: Any) -> None:
    """Ann plays and asks on one process, Bo approves on another: both sockets end on the state before."""
    from contextlib import ExitStack

    import httpx

    from .test_processes import join_socket

    env = {"DATABASE_URL": postgres_url, "REDIS_URL": redis_url, "MOTABLE_RATE_PER_SECOND": "0"}
    a, b = spawn(env), spawn(env)
    room = new_room(a.base_url, "mojo")
    room_id, tokens = room.room_id, [room.token, join(b.base_url, room)]
    servers = [a, b]
    with ExitStack() as stack:
        ann = join_socket(stack, a, room_id, tokens[0], 0)
        bo = join_socket(stack, b, room_id, tokens[1], 1)
        start_match(a.base_url, room)
        for _ in range(200):
            public = httpx.get(f"{a.base_url}/api/rooms/{room_id}/state").json()
            seat = public["to_act"][0]
            base = servers[seat].base_url
            mine = httpx.get(f"{base}/api/rooms/{room_id}/state", headers=auth(tokens[seat])).json()
            for p in (ann, bo):
                p.sync(mine["version"])
            before_views = [p.body["view"] for p in (ann, bo)]
            after = httpx.post(
                f"{base}/api/rooms/{room_id}/actions",
                headers=auth(tokens[seat]),
                json={"action": mine["legal_actions"][0], "version": mine["version"]},
            ).json()
            if after["can_take_back"]:
                break
        else:
            pytest.fail("no move that could be taken back came up")
        other = 1 - seat
        asked = httpx.post(
            f"{base}/api/rooms/{room_id}/takeback",
            headers=auth(tokens[seat]),
            json={"version": after["version"]},
        )
        assert asked.status_code == 201, asked.text
        watcher = (ann, bo)[other]
        while watcher.body.get("takeback") is None:
            watcher.pump()
        approved = httpx.post(
            f"{servers[other].base_url}/api/rooms/{room_id}/takeback/{asked.json()['takeback_id']}/approve",
            headers=auth(tokens[other]),
        )
        assert approved.status_code == 200, approved.text
        for player, server in ((ann, b), (bo, a)):
            player.sync(after["version"] + 1)
            mine = httpx.get(
                f"{server.base_url}/api/rooms/{room_id}/state", headers=auth(player.token or "")
            ).json()
            assert player.body == mine
        assert [p.body["view"] for p in (ann, bo)] == before_views


# -- a pending takeback never stalls the table (issue 32) -------------------------------------------


class Clock:
    """The takeback deadline's clock: the real time until the test holds it at a moment of its own
    (then it stands there, however slowly the test runs, until the test moves it)."""

    def __init__(self) -> None:
        self.held: datetime | None = None

    def __call__(self) -> datetime:
        return self.held if self.held is not None else utcnow()


def runtime_of(client: TestClient) -> Any:
    return client.app.state.runtime  # type: ignore[attr-defined]


@pytest.fixture
def still(database_url: str, tiny: str) -> Iterator[TestClient]:
    """The shared client's app on a clock that never moves: the process's own looks at a pending
    takeback never come, so only what the request under test does at once can end the wait."""
    settings = Settings(database_url=database_url, bot_delay=0, **NO_LIMITS)
    with TestClient(create_app(settings, clock=FakeClock())) as client:
        yield client


def withdraw(client: TestClient, room_id: str, token: str | None, takeback_id: str) -> Any:
    headers = auth(token) if token is not None else {}
    return client.post(url(room_id, f"/takeback/{takeback_id}/withdraw"), headers=headers)


def error_code(response: Any) -> str:
    code: str = response.json()["error"]["code"]
    return code


def log_actions(client: TestClient, room_id: str) -> list[Any]:
    return [e["action"] for e in client.get(url(room_id, "/log")).json()["entries"]]


@pytest.fixture
def held_client(database_url: str, tiny: str) -> Iterator[TestClient]:
    """Bots wait long enough after a person's move for the test to ask (TAKEBACK_HOLD delays); a test
    lets them play at once (`play_bots_now`) once the takeback is asked."""
    with TestClient(create_app(Settings(database_url=database_url, bot_delay=30, **NO_LIMITS))) as client:
        yield client


def play_bots_now(client: TestClient) -> None:
    runtime_of(client).bots._delay = 0


def ann_bot_bo(client: TestClient) -> tuple[str, str, str]:
    """Ann (seat 0, host), a bot (seat 1: due after Ann) and Bo (seat 2), started."""
    room = new_room(client)
    add_bot(client, room)
    bo = join(client, room)
    start_match(client, room)
    return room.room_id, room.token, bo


def ann_asks(client: TestClient, room_id: str, ann: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    """Ann plays her first card and asks to take it back: (the state before, after, the takeback id)."""
    first = state(client, room_id, ann)
    after = play(client, room_id, ann, first["legal_actions"][0], first["version"])
    asked = ask(client, room_id, ann, after["version"])
    assert asked.status_code == 201, asked.text
    return first, after, asked.json()["takeback_id"]


def test_a_bot_holds_back_for_a_takeback(held_client: TestClient) -> None:
    """A bot due after a move that may be taken back holds back a while (time to ask), and no bot acts
    while the table answers a takeback; once refused, the bot plays. What the runner is told to do is
    read from `bot_turn`, so nothing here waits to see that nothing happens."""
    client = held_client
    room_id, ann, bo = ann_bot_bo(client)
    turns = runtime_of(client).bot_turns
    first = state(client, room_id, ann)
    after = play(client, room_id, ann, first["legal_actions"][0], first["version"])
    due = turns.bot_turn(room_id)
    assert due is not None and due.seat == 1 and due.hold and due.takeback_lapses_in is None
    takeback_id = ask(client, room_id, ann, after["version"]).json()["takeback_id"]
    waiting = turns.bot_turn(room_id)
    assert waiting is not None and waiting.seat == 1
    assert waiting.takeback_lapses_in is not None and waiting.takeback_lapses_in > 0
    play_bots_now(client)
    assert answer(client, room_id, bo, takeback_id, "refuse").status_code == 200
    wait_for(lambda: state(client, room_id)["to_act"] == [2])
    assert state(client, room_id)["version"] == after["version"] + 1


def test_the_asker_withdraws_and_the_bot_due_plays(held_client: TestClient) -> None:
    client = held_client
    room_id, ann, bo = ann_bot_bo(client)
    _first, after, takeback_id = ann_asks(client, room_id, ann)
    assert state(client, room_id)["takeback"]["waiting_for"] == [2]
    play_bots_now(client)
    withdrawn = withdraw(client, room_id, ann, takeback_id)
    assert withdrawn.status_code == 200, withdrawn.text
    assert withdrawn.json() == {"takeback_id": takeback_id, "withdrawn": True}
    # Ann's card stands, and the bot, which waited while the table was asked, plays.
    wait_for(lambda: state(client, room_id)["version"] == after["version"] + 1)
    body = state(client, room_id, bo)
    assert body["to_act"] == [2] and body["takeback"] is None
    assert [e["seat"] for e in client.get(url(room_id, "/log")).json()["entries"]] == [0, 1]


def test_withdrawing_refuses_everyone_but_the_asker_and_a_takeback_not_pending(client: TestClient) -> None:
    room_id, tokens = seated_match(client, players=3)
    ann, bo, _cy = tokens
    _first, after, takeback_id = ann_asks(client, room_id, ann)
    bodies = [state(client, room_id, t) for t in [*tokens, None]]

    for token, status, code in ((bo, 403, "forbidden"), (None, 401, "unauthorized")):
        refused = withdraw(client, room_id, token, takeback_id)
        assert refused.status_code == status and error_code(refused) == code, refused.text
    unknown = withdraw(client, room_id, ann, "AAAAAAAAAAAAAAAA")
    assert unknown.status_code == 404 and error_code(unknown) == "not_found"
    assert error_code(withdraw(client, room_id, ann, "A" * 33)) == "invalid_request"
    # Refused requests change nothing: the table is still asked.
    assert [state(client, room_id, t) for t in [*tokens, None]] == bodies

    assert withdraw(client, room_id, ann, takeback_id).status_code == 200
    assert state(client, room_id)["takeback"] is None
    twice = withdraw(client, room_id, ann, takeback_id)
    assert twice.status_code == 409 and error_code(twice) == "not_allowed"
    assert twice.json()["error"]["message"] == "this takeback was withdrawn already"
    late = answer(client, room_id, bo, takeback_id, "approve")
    assert late.status_code == 409 and "withdrawn" in late.json()["error"]["message"]
    again = ask(client, room_id, ann, after["version"])
    assert again.status_code == 409 and again.json()["error"]["message"] == (
        "you asked already and it was withdrawn"
    )
    assert state(client, room_id)["version"] == after["version"]
    assert len(log_actions(client, room_id)) == 1  # Ann's card, and no takeback entry

    # A refused takeback cannot be withdrawn either.
    body = play(client, room_id, bo, state(client, room_id, bo)["legal_actions"][0], after["version"])
    refused_id = ask(client, room_id, bo, body["version"]).json()["takeback_id"]
    assert answer(client, room_id, ann, refused_id, "refuse").status_code == 200
    late_withdraw = withdraw(client, room_id, bo, refused_id)
    assert late_withdraw.status_code == 409 and "refused" in late_withdraw.json()["error"]["message"]


def test_a_bot_standing_in_for_the_one_asked_ends_the_wait_and_plays(
    still: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review's stall: Ann asks, Bo (next to act) closes his tab and is gone, Ann lets a bot play
    for him. Nobody at the table said yes, so Ann's card stands and Bo's bot plays."""
    room_id, (ann, bo) = seated_match(still)
    _first, after, takeback_id = ann_asks(still, room_id, ann)
    assert state(still, room_id)["takeback"]["waiting_for"] == [1]
    monkeypatch.setattr(runtime_of(still).times, "gone_after", 0.0)  # Bo is gone from now on
    stood_in = still.post(url(room_id, "/seats/1/bot"), headers=auth(ann))
    assert stood_in.status_code == 200, stood_in.text
    assert state(still, room_id)["takeback"] is None
    wait_for(lambda: state(still, room_id)["version"] == after["version"] + 1)
    assert state(still, room_id)["to_act"] == [0]
    assert {"takeback": after["version"] - 1} not in log_actions(still, room_id)
    late = answer(still, room_id, bo, takeback_id, "approve")
    assert late.status_code == 409 and "lapsed" in late.json()["error"]["message"]


def test_a_removed_player_is_not_waited_for_and_the_others_agreed(
    still: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cy said yes; Bo never answered and the host removes him: everyone still at the table agreed,
    so the card is taken back."""
    from .players import InProcessSocket, Player

    room_id, (ann, _bo, cy) = seated_match(still, players=3)
    with still.websocket_connect(f"/ws/rooms/{room_id}?token={cy}") as ws:
        Player(2, cy, InProcessSocket(ws))  # Cy stays at the table: her socket is open
        first, after, takeback_id = ann_asks(still, room_id, ann)
        assert answer(still, room_id, cy, takeback_id, "approve").status_code == 200
        assert state(still, room_id)["takeback"]["waiting_for"] == [1]
        monkeypatch.setattr(runtime_of(still).times, "gone_after", 0.0)
        removed = still.post(url(room_id, "/seats/1/remove"), headers=auth(ann))
        assert removed.status_code == 200, removed.text
        back = state(still, room_id, ann)
        assert back["version"] == after["version"] + 1 and back["view"] == first["view"]
        assert back["takeback"] is None and back["to_act"] == [0]
        assert log_actions(still, room_id)[-1] == {"takeback": after["version"] - 1}


def test_the_one_asked_leaves_and_the_bot_taking_the_seat_plays(still: TestClient) -> None:
    room_id, (ann, bo) = seated_match(still)
    _first, after, _takeback_id = ann_asks(still, room_id, ann)
    assert still.post(url(room_id, "/leave"), headers=auth(bo)).status_code == 200
    assert state(still, room_id)["takeback"] is None
    wait_for(lambda: state(still, room_id)["version"] == after["version"] + 1)
    assert state(still, room_id, ann)["to_act"] == [0]


def test_the_asker_leaving_takes_the_question_away(still: TestClient) -> None:
    room_id, (ann, bo, cy) = seated_match(still, players=3)
    _first, after, takeback_id = ann_asks(still, room_id, ann)
    assert answer(still, room_id, bo, takeback_id, "approve").status_code == 200
    assert still.post(url(room_id, "/leave"), headers=auth(ann)).status_code == 200
    body = state(still, room_id, bo)
    assert body["takeback"] is None and body["version"] == after["version"] and body["to_act"] == [1]
    late = answer(still, room_id, cy, takeback_id, "approve")
    assert late.status_code == 409 and "lapsed" in late.json()["error"]["message"]


def test_a_player_gone_while_asked_is_no_longer_waited_for(client: TestClient) -> None:
    """Bo was at the table when Ann asked, then stayed away past the "gone" time: the process that
    took the ask looks again, and with nobody left who said yes the card stands."""
    from .test_people import gone

    room_id, (ann, bo) = seated_match(client)
    _first, after, takeback_id = ann_asks(client, room_id, ann)
    assert state(client, room_id)["takeback"]["waiting_for"] == [1]
    gone(client, room_id, 1, runtime_of(client).times.gone_after + 60)
    wait_for(lambda: state(client, room_id)["takeback"] is None)
    body = state(client, room_id, bo)
    assert body["version"] == after["version"] and body["to_act"] == [1]
    late = answer(client, room_id, bo, takeback_id, "approve")
    assert late.status_code == 409 and "lapsed" in late.json()["error"]["message"]


def test_a_takeback_lapses_at_its_deadline_and_the_bot_plays(
    held_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = held_client
    clock = Clock()
    deadline = runtime_of(client).views.verdicts.deadline
    monkeypatch.setattr(deadline, "now", clock)
    room_id, ann, bo = ann_bot_bo(client)
    asked_at = clock()
    _first, after, takeback_id = ann_asks(client, room_id, ann)
    play_bots_now(client)
    lapses_at = datetime.fromisoformat(state(client, room_id)["takeback"]["lapses_at"])
    assert asked_at <= lapses_at - timedelta(seconds=deadline.seconds) <= clock()
    # Held a second before the deadline: still asked however long the reads below take (moved on
    # with the real time, the clock could pass the deadline on a loaded machine before the read).
    clock.held = lapses_at - timedelta(seconds=1)
    assert state(client, room_id)["takeback"] is not None  # a second to go: still asked
    clock.held = lapses_at
    # Lapsed for every reader at once, written down or not; then the bot plays.
    assert all(state(client, room_id, t)["takeback"] is None for t in (ann, bo, None))
    for refused in (
        answer(client, room_id, bo, takeback_id, "approve"),
        withdraw(client, room_id, ann, takeback_id),
    ):
        assert (
            refused.status_code == 409
            and refused.json()["error"]["message"] == "this takeback lapsed already"
        )
    wait_for(lambda: state(client, room_id)["version"] == after["version"] + 1)
    assert state(client, room_id)["to_act"] == [2]
    assert [e["seat"] for e in client.get(url(room_id, "/log")).json()["entries"]] == [0, 1]


@pytest.mark.slow
def test_a_takeback_never_stalls_a_real_server(sqlite_url: str, spawn: Any) -> None:
    """Issue 32's stall on a real `motable serve`: Ann asks, Bo (next to act) closes his tab and is
    gone, Ann lets a bot play for him, and the bot plays. In another room, Ann withdraws her asking
    and the bot due after her plays."""
    import httpx
    from websockets.sync.client import connect as ws_connect

    from .test_people_processes import TINY

    # Bots hold back 2.5 times their delay after a move that may be taken back: time enough to ask.
    env = {"MOTABLE_GAMES": TINY, "MOTABLE_GONE_AFTER": "1", "MOTABLE_BOT_DELAY": "3"}
    server = spawn({"DATABASE_URL": sqlite_url, "MOTABLE_RATE_PER_SECOND": "0", **env})
    base = f"{server.base_url}/api/rooms"

    def get_state(room_id: str, token: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = httpx.get(
            f"{base}/{room_id}/state", headers=auth(token) if token else None
        ).json()
        return body

    def ann_plays_and_asks(room_id: str, ann: str) -> tuple[int, str]:
        first = get_state(room_id, ann)
        played = httpx.post(
            f"{base}/{room_id}/actions",
            headers=auth(ann),
            json={"action": first["legal_actions"][0], "version": first["version"]},
        )
        assert played.status_code == 200, played.text
        version: int = played.json()["version"]
        asked = httpx.post(f"{base}/{room_id}/takeback", headers=auth(ann), json={"version": version})
        assert asked.status_code == 201, asked.text
        return version, asked.json()["takeback_id"]

    room_id, (ann, bo) = seated_match(server.base_url)
    with ws_connect(f"{server.ws_url}/ws/rooms/{room_id}?token={bo}") as bo_tab:
        bo_tab.recv(timeout=10)
        after, _takeback_id = ann_plays_and_asks(room_id, ann)
        assert get_state(room_id)["takeback"]["waiting_for"] == [1]
    # Bo's tab is closed; once he is gone, Ann lets a bot play for him, and it does.
    wait_for(lambda: httpx.post(f"{base}/{room_id}/seats/1/bot", headers=auth(ann)).status_code == 200)
    wait_for(lambda: get_state(room_id)["version"] == after + 1, seconds=20)
    assert get_state(room_id, ann)["to_act"] == [0] and get_state(room_id)["takeback"] is None

    made = new_room(server.base_url)
    add_bot(server.base_url, made)
    bo = join(server.base_url, made)
    start_match(server.base_url, made)
    room_id, ann = made.room_id, made.token
    with ws_connect(f"{server.ws_url}/ws/rooms/{room_id}?token={bo}") as bo_tab:
        bo_tab.recv(timeout=10)
        after, takeback_id = ann_plays_and_asks(room_id, ann)
        assert get_state(room_id)["takeback"]["waiting_for"] == [2]
        withdrawn = httpx.post(f"{base}/{room_id}/takeback/{takeback_id}/withdraw", headers=auth(ann))
        assert withdrawn.status_code == 200, withdrawn.text
        wait_for(lambda: get_state(room_id)["version"] == after + 1, seconds=20)
        assert get_state(room_id, bo)["to_act"] == [2]
