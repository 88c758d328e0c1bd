"""The `motable` command: migrate, verify a finished match (and catch a forged log), simulate."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update
from starlette.testclient import TestClient

from app.cli import main
from app.config import Settings
from app.db import Database
from app.main import create_app
from app.models import ActionRow
from tests.rooms import seated_match

from .conftest import auth


def finished_match(client: TestClient) -> str:
    room_id, tokens = seated_match(client, rounds=1)
    while (state := client.get(f"/api/rooms/{room_id}/state").json())["status"] == "playing":
        seat = state["to_act"][0]
        mine = client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[seat])).json()
        client.post(
            f"/api/rooms/{room_id}/actions",
            headers=auth(tokens[seat]),
            json={"action": mine["legal_actions"][0]},
        )
    return room_id


def test_migrate_then_verify(
    sqlite_url: str, tiny: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", sqlite_url)
    assert main(["migrate"]) == 0
    with TestClient(create_app(Settings(database_url=sqlite_url, bot_delay=0))) as client:
        room_id = finished_match(client)
        playing, _tokens = seated_match(client)
    capsys.readouterr()
    assert main(["verify", room_id]) == 0
    assert capsys.readouterr().out.startswith(f"OK room {room_id}")
    assert main(["verify", playing]) == 1
    assert "not finished" in capsys.readouterr().out

    db = Database(sqlite_url)
    with db.transaction() as session:
        first = session.scalars(select(ActionRow).order_by(ActionRow.id).limit(1)).one()
        forged = {"type": "play", "card": (first.action["card"] + 1) % 20}
        session.execute(update(ActionRow).where(ActionRow.id == first.id).values(action=forged))
    db.dispose()
    assert main(["verify", room_id]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "mojo", "--players", "3", "--seed", "4", "--games", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("seed 4: winners") and out[1].startswith("seed 5: winners")
    assert out[2].startswith("wins per seat: 0:")


def test_public_log_alone_proves_a_fair_deal(client: TestClient) -> None:
    """The documented outside check: commitment + replay from GET /log, no database access."""
    from app.fairness import check_public_log

    room_id = finished_match(client)
    bodies = [client.get(f"/api/rooms/{room_id}{path}").json() for path in ("", "/log", "/state")]
    assert check_public_log(*bodies) == []
    room, log, state = bodies
    tampered = {**log, "seed": log["seed"] + 1}
    assert any("commitment" in p for p in check_public_log(room, tampered, state))
    wrong_score = {
        **room,
        "scorepad": {**room["scorepad"], "totals": [t + 1 for t in room["scorepad"]["totals"]]},
    }
    assert any("score pad" in p for p in check_public_log(wrong_score, log, state))
    playing, _ = seated_match(client)
    unfinished = [client.get(f"/api/rooms/{playing}{path}").json() for path in ("", "/log", "/state")]
    assert check_public_log(*unfinished) == ["the match is not finished, so its seed is not revealed yet"]
