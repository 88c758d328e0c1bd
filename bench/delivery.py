"""Transfer sizes of the pages and everything they load: plain vs gzip, first vs repeat visit.

    .venv/bin/python -m bench.delivery

Runs the app in process (Starlette's test client, a temporary SQLite database) and, for the lobby,
a room and a rules page, follows every stylesheet and script the page names and every module those
scripts import. "plain" is what travels without compression (the server before compression, or a
browser that does not accept it); "gzip" is what travels now. A repeat visit sends again only the
files not named by content hash: those come back as 304 with no body.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from starlette.testclient import TestClient

from app.config import Settings
from app.db import upgrade
from app.main import create_app

ASSETS = re.compile(r'(?:href|src)="(/static/[^"]+)"')
IMPORTS = re.compile(r'(?:from|import)\s*\(?\s*"(\.{1,2}/[^"]+|/static/[^"]+)"')


def _resolve(base: str, target: str) -> str:
    if target.startswith("/"):
        return target
    parts = base.split("?")[0].split("/")[:-1]
    for piece in target.split("/"):
        if piece == "..":
            parts.pop()
        elif piece != ".":
            parts.append(piece)
    return "/".join(parts)


def _files(client: TestClient, page: str) -> list[str]:
    html = client.get(page).text
    todo = ASSETS.findall(html)
    seen: list[str] = []
    while todo:
        address = todo.pop()
        if address in seen or ("games/" in address and address.endswith(".css")):
            continue
        seen.append(address)
        if address.split("?")[0].endswith(".js"):
            body = client.get(address).text
            todo.extend(_resolve(address, found) for found in IMPORTS.findall(body))
    return seen


def _wire(client: TestClient, address: str, encoding: str) -> tuple[int, int]:
    """(bytes on the wire, bytes after decoding) for one GET."""
    answer = client.get(address, headers={"Accept-Encoding": encoding})
    answer.raise_for_status()
    sent = int(answer.headers.get("content-length", len(answer.content)))
    return sent, len(answer.content)


def _repeat(client: TestClient, address: str) -> int:
    """Bytes a repeat visit costs: 0 for a content-hashed file (cached for good), else a revalidation."""
    if "?v=" in address:
        return 0
    first = client.get(address, headers={"Accept-Encoding": "gzip"})
    tag = first.headers.get("etag")
    if tag is None:
        return int(first.headers.get("content-length", len(first.content)))
    again = client.get(address, headers={"Accept-Encoding": "gzip", "If-None-Match": tag})
    return 0 if again.status_code == 304 else int(again.headers.get("content-length", len(again.content)))


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        upgrade(url)
        with TestClient(create_app(Settings(database_url=url, bot_delay=0))) as client:
            room = client.post("/api/rooms", json={"game": "mojo", "name": "Ann"}).json()["room_id"]
            pages = {"lobby": "/", "room": f"/r/{room}", "rules": "/rules/mojo"}
            print(
                f"{'page':8} {'files':>5} {'plain KiB':>10} {'gzip KiB':>9} {'saved':>6} {'repeat KiB':>11}"
            )
            for name, page in pages.items():
                addresses = [page, *_files(client, page)]
                plain = sum(_wire(client, a, "identity")[0] for a in addresses)
                packed = sum(_wire(client, a, "gzip")[0] for a in addresses)
                # The page itself is always fetched again; its files only when not content-named.
                repeat = _wire(client, page, "gzip")[0] + sum(_repeat(client, a) for a in addresses[1:])
                saved = 100 * (1 - packed / plain)
                print(
                    f"{name:8} {len(addresses):>5} {plain / 1024:>10.1f} {packed / 1024:>9.1f} {saved:>5.0f}%"
                    f" {repeat / 1024:>11.1f}"
                )
            games = client.get("/api/games", headers={"Accept-Encoding": "gzip"})
            plain_games = client.get("/api/games", headers={"Accept-Encoding": "identity"})
            print(
                f"GET /api/games: {int(plain_games.headers['content-length']) / 1024:.1f} KiB plain, "
                f"{int(games.headers['content-length']) / 1024:.1f} KiB gzip"
            )


if __name__ == "__main__":
    main()
