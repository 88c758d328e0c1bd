"""Taking back a misclick (docs/playing.md, "Takeback"): who may ask, what may be taken back, who answers,
and that a takeback replays, verifies and shows nobody anything new."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.cli import main
from app.config import Settings
from app.fairness import check_public_log
from app.main import create_app
from app.services.takebacks import PER_ROUND, why_not
from engines.core import get_engine

from .conftest import NO_LIMITS, auth
from .test_api import started_room


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
    room_id, tokens = started_room(client)
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
    pending = {"id": takeback_id, "seat": 0, "version": after["version"], "approvals": [], "waiting_for": [1]}
    for token in [*tokens, None]:
        body = state(client, room_id, token)
        assert body["takeback"] == pending and body["version"] == after["version"]
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
    room_id, tokens = started_room(client, humans=3)
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
    room_id, tokens = started_room(client, humans=3)
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
    room_id, tokens = started_room(client)
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
    room_id, tokens = started_room(client)
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
    room_id, tokens = started_room(client)
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
        room = client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
        room_id, token = room["room_id"], room["token"]
        client.post(url(room_id, "/bots"), headers=auth(token), json={})
        client.post(url(room_id, "/start"), headers=auth(token))
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
        room_id, tokens = started_room(client)
        first = state(client, room_id, tokens[0])
        after = play(client, room_id, tokens[0], first["legal_actions"][0], first["version"])
        # Bo has no socket open and "gone" starts at once here: the takeback needs nobody.
        assert ask(client, room_id, tokens[0], after["version"]).status_code == 201
        assert state(client, room_id, tokens[0])["view"] == first["view"]


def test_a_socket_is_told_of_the_takeback_by_patches(client: TestClient) -> None:
    from .players import InProcessSocket, Player

    room_id, tokens = started_room(client)
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
        room_id, tokens = started_room(client, rounds=1)
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
    room = httpx.post(f"{a.base_url}/api/rooms", json={"game": "mojo", "name": "Ann"}).json()
    room_id, tokens = room["room_id"], [room["token"]]
    tokens.append(httpx.post(f"{b.base_url}/api/rooms/{room_id}/join", json={"name": "Bo"}).json()["token"])
    servers = [a, b]
    with ExitStack() as stack:
        ann = join_socket(stack, a, room_id, tokens[0], 0)
        bo = join_socket(stack, b, room_id, tokens[1], 1)
        httpx.post(f"{a.base_url}/api/rooms/{room_id}/start", headers=auth(tokens[0]))
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


def test_a_bot_holds_back_for_a_takeback(sqlite_url: str, tiny: str) -> None:
    """A bot due after a move that may be taken back waits a little (time to ask), and no bot acts
    while the table answers a takeback; once refused, the bot plays."""
    import time

    from app.db import upgrade
    from app.playing.bots import TAKEBACK_HOLD

    upgrade(sqlite_url)
    # Long enough that a loaded machine still asks within the hold (TAKEBACK_HOLD delays).
    delay = 0.8
    with TestClient(create_app(Settings(database_url=sqlite_url, bot_delay=delay, **NO_LIMITS))) as client:
        room = client.post("/api/rooms", json={"game": "tiny", "name": "Ann"}).json()
        room_id, ann = room["room_id"], room["token"]
        client.post(url(room_id, "/bots"), headers=auth(ann), json={})  # seat 1: due after Ann
        bo = client.post(url(room_id, "/join"), json={"name": "Bo"}).json()["token"]
        client.post(url(room_id, "/start"), headers=auth(ann))
        first = state(client, room_id, ann)
        after = play(client, room_id, ann, first["legal_actions"][0], first["version"])
        time.sleep(delay * 1.5)  # past the bot's usual delay, within its hold
        assert state(client, room_id)["version"] == after["version"]
        takeback_id = ask(client, room_id, ann, after["version"]).json()["takeback_id"]
        time.sleep(delay * (TAKEBACK_HOLD + 2))  # past the hold: the bot still waits for the answer
        assert state(client, room_id)["version"] == after["version"]
        assert answer(client, room_id, bo, takeback_id, "refuse").status_code == 200
        deadline = time.monotonic() + 10
        while state(client, room_id)["version"] == after["version"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert state(client, room_id)["to_act"] == [2], "the bot played once the takeback was refused"
