"""The strict Content-Security-Policy costs the pages nothing: no violation while a room is made,
joined and played, and another site cannot frame the room page."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .support import add_bot_and_start, create_room

pytestmark = pytest.mark.browser


def watch_violations(page: Page) -> list[str]:
    seen: list[str] = []
    page.on(
        "console",
        lambda message: seen.append(message.text) if "Content Security Policy" in message.text else None,
    )
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', (e) => console.error("
        "'Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI));"
    )
    return seen


def test_pages_run_under_the_strict_policy(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    ann = new_player()
    violations = watch_violations(ann)
    share_url = create_room(ann, server.base_url, "Ann")
    expect(ann.locator(".qr svg")).to_be_visible()
    bo = new_player()
    violations += watch_violations(bo)
    bo.goto(share_url)
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    add_bot_and_start(ann, seats_before_bot=2)
    ann.wait_for_selector("#game-panel:not([hidden])")
    ann.goto(server.base_url + "/rules/mojo")
    expect(ann.locator("h1")).to_be_visible()
    assert violations == []


@pytest.fixture
def other_site(tmp_path: Path) -> Iterator[str]:
    """A plain static web server on another port: another origin, with no policy of its own."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{site.server_address[1]}"
    site.shutdown()
    site.server_close()


def framed_room_renders(page: Page, share_url: str, site: str, folder: Path) -> bool:
    (folder / "frame.html").write_text(f'<iframe id="f" src="{share_url}" width="600" height="400"></iframe>')
    page.goto(f"{site}/frame.html")
    framed = [frame for frame in page.frames if frame is not page.main_frame]
    assert len(framed) == 1, "the frame was not made at all"
    # The room page's own markup holds #room: once the frame has loaded (the room page or the
    # browser's refusal in its place), it has it or never will.
    framed[0].wait_for_load_state("load")
    rendered: bool = framed[0].evaluate("() => !!document.getElementById('room')")
    return rendered


def test_another_site_cannot_frame_the_room_page(
    server: ServeProcess, new_player: Callable[..., Page], other_site: str, tmp_path: Path
) -> None:
    # The browser logs the refused framing (frame-ancestors 'none') as a console error: that is the point.
    page = new_player(console_errors_ok=True)
    share_url = create_room(page, server.base_url, "Ann")
    assert not framed_room_renders(page, share_url, other_site, tmp_path), "framed by another site"
