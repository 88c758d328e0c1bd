"""A room page whose socket is on one server process and whose room read is answered late by another
(round-robin behind a balancer) keeps the newest room body: an older one that arrives last is dropped."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Frame, Page, Route

from tests.servers import ServeProcess

from .support import create_room

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]

# Counts, in the page, the room bodies read from the API: a room read held back and then answered has
# been handled (the page's room state set, or the body dropped) once the count has passed it, since
# the page handles a body in the same task that reads it.
COUNT_READS = """
(() => {
  const text = Response.prototype.text;
  window.__roomReads = 0;
  Response.prototype.text = function () {
    const room = new URL(this.url).pathname.split("/").length === 4 && this.url.includes("/api/rooms/");
    return text.call(this).then((body) => {
      if (room) window.__roomReads += 1;
      return body;
    });
  };
})();
"""


@pytest.fixture
def two_processes(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    env = {
        "DATABASE_URL": postgres_url,
        "REDIS_URL": redis_url,
        "MOTABLE_RATE_PER_SECOND": "0",
        "MOTABLE_ROOMS_PER_HOUR": "0",
    }
    a = ServeProcess(env, tmp_path / "a.log").start()
    b = ServeProcess(env, tmp_path / "b.log").start()
    yield a, b
    a.stop()
    b.stop()


def seats_shown(page: Page) -> int:
    return int(
        page.evaluate("() => document.querySelectorAll('#seat-list .seat-item:not(.is-empty)').length")
    )


def test_a_room_body_answered_late_by_another_process_does_not_undo_a_join(
    two_processes: tuple[ServeProcess, ServeProcess], new_player: Callable[..., Page]
) -> None:
    # The servers come first, so they stop after the page is closed (a page left open on a stopped
    # server logs its refused reconnections).
    a, b = two_processes
    host = new_player()
    host.add_init_script(COUNT_READS)
    room_url = create_room(host, a.base_url, "Ann")
    room_id = room_url.rstrip("/").rsplit("/", 1)[1]
    held: list[tuple[Route, httpx.Response]] = []
    reads = 0

    def answer_from_b(route: Route) -> None:
        """The page's second room read after a reload (the first is the page's own, before its socket;
        the second comes when the socket opens) goes to process B, which reads the body now; its
        answer is held back. Every other read goes through."""
        nonlocal reads
        reads += 1
        if route.request.method != "GET" or reads != 2:
            route.continue_()
            return
        held.append((route, httpx.get(f"{b.base_url}/api/rooms/{room_id}")))

    def new_document(frame: Frame) -> None:
        """Only the new document's reads are counted: the page before a reload may still read the room
        as it goes, and counted, that read made the new page's own first read (awaited before its
        socket opens) the one held back, so no socket brought the join."""
        nonlocal reads
        if frame == host.main_frame:
            reads = 0

    host.on("framenavigated", new_document)
    room_reads = re.compile(rf"/api/rooms/{room_id}$")
    host.route(room_reads, answer_from_b)
    for joins, name in enumerate(["Bo", "Cy", "Di", "Ed", "Flo", "Gus"], start=1):
        reads = 0
        host.reload()
        for _ in range(1000):
            if held:
                break
            host.wait_for_timeout(20)
        route, stale = held.pop()
        assert len(stale.json()["seats"]) == joins
        # Someone joins; the socket (on A) brings the page the body with them.
        assert httpx.post(f"{a.base_url}/api/rooms/{room_id}/join", json={"name": name}).status_code == 201
        host.wait_for_function(
            "n => document.querySelectorAll('#seat-list .seat-item:not(.is-empty)').length === n",
            arg=joins + 1,
        )
        # Only now does B's answer, read before the join, reach the page.
        handled = int(host.evaluate("() => window.__roomReads"))
        route.fulfill(status=stale.status_code, headers=dict(stale.headers), body=stale.content)
        host.wait_for_function("n => window.__roomReads > n", arg=handled)
        assert seats_shown(host) == joins + 1, f"the page went back to an older room after {name} joined"
