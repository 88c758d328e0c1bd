"""The `motable` command: migrate, verify a finished match (and catch a forged log), simulate, and the
address `serve` tells people to open (and opens)."""

from __future__ import annotations

import webbrowser
from collections.abc import Callable

import httpx
import pytest
from sqlalchemy import select, update
from starlette.testclient import TestClient

from app.cli import main, open_address, open_in_browser
from app.config import Settings
from app.db import Database
from app.main import create_app
from app.models import ActionRow
from tests.rooms import seated_match
from tests.servers import ServeProcess

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


@pytest.mark.parametrize(
    ("public_url", "host", "address"),
    [
        # `make run`: bound to 127.0.0.1, opened at localhost, where passkeys work (an IP address
        # cannot hold one) and where the browser keeps the games.
        (None, "127.0.0.1", "http://localhost:8000"),
        (None, "::1", "http://localhost:8000"),
        (None, "localhost", "http://localhost:8000"),
        (None, "0.0.0.0", "http://localhost:8000"),
        (None, "::", "http://localhost:8000"),
        # localhost would not reach these.
        (None, "192.168.1.20", "http://192.168.1.20:8000"),
        (None, "127.0.0.2", "http://127.0.0.2:8000"),
        (None, "fd00::20", "http://[fd00::20]:8000"),
        ("https://cards.example.org", "0.0.0.0", "https://cards.example.org"),
    ],
)
def test_the_address_to_open(public_url: str | None, host: str, address: str) -> None:
    assert open_address(public_url, host, 8000) == address


def test_serve_prints_a_localhost_address_that_reaches_it(
    sqlite_url: str, spawn: Callable[[dict[str, str]], ServeProcess]
) -> None:
    server = spawn({"DATABASE_URL": sqlite_url})  # default --host: 127.0.0.1
    printed = f"Motable is ready: open http://localhost:{server.port} in your browser"
    assert printed in server.log_path.read_text()
    # What it binds (127.0.0.1) answers at the name it prints.
    assert httpx.get(f"http://localhost:{server.port}/healthz", timeout=10).status_code == 200


class FakeBrowser(webbrowser.BaseBrowser):
    def __init__(self) -> None:
        super().__init__("fake")
        self.opened: list[str] = []

    def open(self, url: str, new: int = 0, autoraise: bool = True) -> bool:
        self.opened.append(url)
        return True


def test_open_asks_a_desktop_browser_only(monkeypatch: pytest.MonkeyPatch) -> None:
    desktop = FakeBrowser()
    monkeypatch.setattr(webbrowser, "get", lambda using=None: desktop)
    url = "http://localhost:8000"
    assert open_in_browser(url, {"DISPLAY": ":0"}, "linux")
    assert open_in_browser(url, {}, "darwin")
    assert desktop.opened == [url, url]
    # No desktop on Linux (a server, a container), or the person is at another computer: nothing.
    assert not open_in_browser(url, {}, "linux")
    assert not open_in_browser(
        url, {"DISPLAY": "localhost:10.0", "SSH_CONNECTION": "10.0.0.2 5 10.0.0.1 22"}, "linux"
    )
    assert desktop.opened == [url, url]

    # A text browser (lynx, w3m) would take over the server's terminal and wait: not that one.
    console = webbrowser.GenericBrowser("lynx")
    monkeypatch.setattr(console, "open", lambda *a, **k: pytest.fail("a console browser was started"))
    monkeypatch.setattr(webbrowser, "get", lambda using=None: console)
    assert not open_in_browser(url, {"DISPLAY": ":0", "TERM": "xterm"}, "linux")

    # No browser at all, or one that fails to start: no error, the printed address is there.
    def none(using: str | None = None) -> webbrowser.BaseBrowser:
        raise webbrowser.Error("could not locate runnable browser")

    monkeypatch.setattr(webbrowser, "get", none)
    assert not open_in_browser(url, {"DISPLAY": ":0"}, "linux")
    monkeypatch.setattr(desktop, "open", lambda *a, **k: (_ for _ in ()).throw(OSError("no such file")))
    monkeypatch.setattr(webbrowser, "get", lambda using=None: desktop)
    assert not open_in_browser(url, {"DISPLAY": ":0"}, "linux")
