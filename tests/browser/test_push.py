"""The service worker and the installable app in Chromium: a push delivered through the DevTools
protocol is shown as a notification whose click opens the room; the manifest has no installability
errors; the offline page answers when the server cannot be reached; the opt-in as a player sees it."""

from __future__ import annotations

import base64
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from playwright.sync_api import BrowserContext, Page, expect

from tests.servers import ServeProcess

from .support import SCREENSHOTS

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "push"

# The player switches to another tab and back (a test cannot hide a headless page).
LEAVE_AND_COME_BACK = """() => {
    for (const state of ["hidden", "visible"]) {
        Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
        document.dispatchEvent(new Event("visibilitychange"));
    }
}"""


@pytest.fixture
def push_server(tmp_path: Path) -> Iterator[ServeProcess]:
    """A server of its own: the offline test stops it."""
    live = ServeProcess(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'motable.db'}",
            "MOTABLE_ROOMS_PER_HOUR": "0",
            "MOTABLE_BOTS_PER_HOUR": "0",
            "MOTABLE_RATE_PER_SECOND": "0",
            # The opt-in test's stand-in push service is on 127.0.0.1 (the server binds loopback).
            "MOTABLE_PUSH_ALLOW_INSECURE_ENDPOINTS": "1",
        },
        tmp_path / "server.log",
    )
    live.start()
    yield live
    live.stop()


def seated_room(base_url: str) -> tuple[str, str, str]:
    """A Mojo room in play: Ann (seat 0), Bo (seat 1) and a bot; returns (room id, Ann's, Bo's token)."""
    with httpx.Client(base_url=base_url) as client:
        made = client.post("/api/rooms", json={"game": "mojo", "name": "Ann"}).json()
        room_id, ann = made["room_id"], made["token"]
        bo = client.post(f"/api/rooms/{room_id}/join", json={"name": "Bo"}).json()["token"]
        client.post(f"/api/rooms/{room_id}/bots", headers={"Authorization": f"Bearer {ann}"})
        started = client.post(f"/api/rooms/{room_id}/start", headers={"Authorization": f"Bearer {ann}"})
        assert started.status_code == 200, started.text
    return room_id, ann, bo


def worker_ready(page: Page) -> None:
    page.wait_for_function("() => navigator.serviceWorker.controller !== null || window.__swReady === true")


def registration_id(context: BrowserContext, page: Page) -> tuple[Any, str]:
    cdp = context.new_cdp_session(page)
    found: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: found.extend(r["registrationId"] for r in event["registrations"] if not r["isDeleted"]),
    )
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 10
    while not found and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert found, "no service worker registration"
    return cdp, found[-1]


@pytest.fixture
def phone_browser(
    playwright: Any, tmp_path: Path, browser_type_launch_args: dict[str, Any]
) -> Iterator[Callable[..., BrowserContext]]:
    """Persistent contexts (a profile on disk, as an installed app has; an incognito one is never
    installable), notifications allowed; a test fails on any page error."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def make(base_url: str, width: int = 1280, height: int = 800) -> BrowserContext:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / f"profile-{len(contexts)}"),
            **browser_type_launch_args,
            viewport={"width": width, "height": height},
        )
        context.set_default_timeout(15_000)
        context.grant_permissions(["notifications"], origin=base_url)
        context.on("weberror", lambda error: errors.append(str(error.error)))
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def controlled(page: Page) -> None:
    """Waits for the service worker to be installed and to control this page."""
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    if not page.evaluate("() => navigator.serviceWorker.controller !== null"):
        page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


# The notifications the page's registration shows, read from the page: the registration is the
# one the page is controlled by, whichever worker version the browser is running.
SHOWN = """async () => (await (await navigator.serviceWorker.ready).getNotifications())
    .map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }))"""


def settled_notifications(
    page: Page, count: int, wanted: Callable[[dict[str, Any]], bool], within: float = 10
) -> list[dict[str, Any]]:
    """The notifications shown once the browser has settled: Chromium stores them asynchronously,
    so a replaced notification can still be listed for a moment. Waits until
    `count` are listed and all are `wanted` (`within` seconds at most), and returns the last
    listing either way."""
    deadline = time.monotonic() + within
    shown: list[dict[str, Any]] = page.evaluate(SHOWN)
    while time.monotonic() < deadline and not (len(shown) == count and all(map(wanted, shown))):
        page.wait_for_timeout(50)
        shown = page.evaluate(SHOWN)
    return shown


def active_worker(context: BrowserContext) -> Any:
    """The worker that is the registration's active one (an updated worker leaves the old one
    listed, redundant, for a while)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for worker in reversed(context.service_workers):
            try:
                if worker.evaluate("() => self.serviceWorker.state") == "activated":
                    return worker
            except Exception:  # a worker that stopped while being asked: ask the next one
                continue
        time.sleep(0.05)
    raise AssertionError("no activated service worker")


def watch_csp(page: Page) -> list[str]:
    seen: list[str] = []
    page.on("console", lambda m: seen.append(m.text) if "Content Security Policy" in m.text else None)
    return seen


def test_a_pushed_alert_shows_and_its_click_opens_the_room(
    push_server: ServeProcess, phone_browser: Callable[..., BrowserContext]
) -> None:
    base = push_server.base_url
    room_id, _ann, _bo = seated_room(base)
    context = phone_browser(base)
    page = context.pages[0] if context.pages else context.new_page()
    violations = watch_csp(page)
    page.goto(base + "/")
    controlled(page)
    cdp, registration = registration_id(context, page)
    # What the server sends (tests/app/test_push.py decrypts the real thing): delivered by the browser.
    message = {
        "game": "Mojo",
        "room": room_id,
        "event": "turn",
        "title": "Mojo: your turn",
        "body": "Ann played; the table waits for you.",
        "url": f"/r/{room_id}",
    }

    def push(data: dict[str, Any]) -> list[dict[str, Any]]:
        """Delivers `data` as a push and returns what is then shown. DevTools sometimes drops a
        delivery without a word (about one in twenty here): one that shows nothing within 3 s is
        sent again, as a push service would after no receipt."""
        for _attempt in range(3):
            cdp.send(
                "ServiceWorker.deliverPushMessage",
                {"origin": base + "/", "registrationId": registration, "data": json.dumps(data)},
            )
            shown = settled_notifications(page, 1, lambda n: n["title"] == data["title"], within=3)
            if [n["title"] for n in shown] == [data["title"]]:
                break
        return shown

    assert push(message) == [
        {
            "title": "Mojo: your turn",
            "body": "Ann played; the table waits for you.",
            "tag": f"motable-{room_id}",
            "data": {"url": f"/r/{room_id}", "room": room_id, "event": "turn"},
        }
    ]
    # A second alert for the same room replaces the first (one notification per room).
    shown = push({**message, "event": "clock", "title": "Mojo: your clock is running out"})
    assert [n["title"] for n in shown] == ["Mojo: your clock is running out"]
    worker = active_worker(context)
    # The click. No DevTools command clicks a notification, and a click the test makes is not the
    # browser's, which may not open windows: the worker's openWindow is watched, the rest is real.
    opened = worker.evaluate(
        """async () => {
            const asked = [];
            self.clients.openWindow = async (url) => { asked.push(url); return null; };
            const [notification] = await self.registration.getNotifications();
            self.dispatchEvent(new NotificationEvent("notificationclick", { notification }));
            for (let i = 0; i < 100 && !asked.length; i++) await new Promise((r) => setTimeout(r, 20));
            return { asked, left: (await self.registration.getNotifications()).length };
        }"""
    )
    assert opened == {"asked": [f"{base}/r/{room_id}"], "left": 0}
    room = context.new_page()
    room.goto(opened["asked"][0])
    expect(room.locator("#room-title, h1").first).to_be_visible()
    # With the room open in a window, the click focuses it instead of opening another.
    focused = worker.evaluate(
        """async (path) => {
            const seen = [];
            self.clients.openWindow = async (url) => { seen.push("open " + url); return null; };
            WindowClient.prototype.focus = async function () {
                seen.push("focus " + new URL(this.url).pathname);
                return this;
            };
            await self.registration.showNotification("Mojo: your turn", { tag: "t", data: { url: path } });
            const [notification] = await self.registration.getNotifications();
            self.dispatchEvent(new NotificationEvent("notificationclick", { notification }));
            for (let i = 0; i < 100 && !seen.length; i++) await new Promise((r) => setTimeout(r, 20));
            return seen;
        }""",
        f"/r/{room_id}",
    )
    assert focused == [f"focus /r/{room_id}"]
    assert violations == []


def test_the_site_is_installable(
    push_server: ServeProcess, phone_browser: Callable[..., BrowserContext]
) -> None:
    base = push_server.base_url
    context = phone_browser(base, 375, 812)
    page = context.pages[0] if context.pages else context.new_page()
    violations = watch_csp(page)
    page.goto(base + "/")
    controlled(page)
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == []
    assert manifest["url"] == base + "/manifest.webmanifest"
    assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
    parsed = json.loads(manifest["data"])
    assert parsed["start_url"] == "/" and parsed["theme_color"] == "#113e29"
    for icon in parsed["icons"]:
        assert httpx.get(base + icon["src"]).headers["content-type"] == "image/png"
    # The browser says the site can be installed (its beforeinstallprompt): the footer offers it, and
    # the button asks the browser's prompt (one of the test's own, sent as the browser's newest, so
    # no real install dialog opens).
    offer = page.locator("#install-offer")
    expect(offer).to_be_visible()
    page.evaluate(
        """() => {
            const event = new Event("beforeinstallprompt", { cancelable: true });
            event.prompt = async () => { window.__installAsked = true; };
            window.dispatchEvent(event);
        }"""
    )
    expect(offer).to_be_visible()
    offer.get_by_role("button", name="Install Motable on this device").click()
    page.wait_for_function("() => window.__installAsked === true")
    expect(offer).to_be_hidden()
    assert violations == []


def test_the_offline_page_answers_when_the_server_is_gone(
    push_server: ServeProcess, phone_browser: Callable[..., BrowserContext]
) -> None:
    base = push_server.base_url
    room_id, _ann, _bo = seated_room(base)
    shots = []
    for width, height in ((375, 812), (1280, 800)):
        context = phone_browser(base, width, height)
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(f"{base}/r/{room_id}")
        controlled(page)
        shots.append((context, page, width))
    push_server.stop()
    for _context, page, width in shots:
        page.goto(f"{base}/r/{room_id}")
        expect(page.locator("h1")).to_have_text("You're offline: your games wait for you")
        # Styled like the site: its style sheets came from the worker's cache.
        assert (
            page.evaluate("() => getComputedStyle(document.querySelector('.site-header')).display")
            != "inline"
        )
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"offline-{width}.png"), full_page=True)
    push_server.start()


def fake_push_manager() -> str:
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    point = key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    keys = {"p256dh": b64url(point), "auth": b64url(os.urandom(16))}
    subscription = {"endpoint": "http://127.0.0.1:9/push/device", "expirationTime": None, "keys": keys}
    return f"""
        if (self.PushManager) {{
            const made = {json.dumps(subscription)};
            PushManager.prototype.getSubscription = async () => null;
            PushManager.prototype.subscribe = async () => ({{ endpoint: made.endpoint, toJSON: () => made }});
        }}
    """


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def subscribed(folder: Path, room_id: str) -> list[tuple[str, int]]:
    with sqlite3.connect(folder / "motable.db") as db:
        rows = db.execute("SELECT endpoint, seat FROM push_subscriptions WHERE room_id = ?", (room_id,))
        return [(str(endpoint), int(seat)) for endpoint, seat in rows]


def test_the_opt_in_is_offered_once_and_explained(
    push_server: ServeProcess, phone_browser: Callable[..., BrowserContext], tmp_path: Path
) -> None:
    base = push_server.base_url
    room_id, _ann, bo = seated_room(base)
    for width, height in ((375, 812), (1280, 800)):
        context = phone_browser(base, width, height)
        # Headless Chromium has no push service to subscribe with: the browser's PushManager answers
        # with a subscription of the test's own making (everything after it is the page's real code).
        context.add_init_script(fake_push_manager())
        page = context.pages[0] if context.pages else context.new_page()
        violations = watch_csp(page)
        page.goto(f"{base}/r/{room_id}#seat={bo}")
        # The match's state has arrived (the hand is drawn from it), not only the room's: the offer
        # is for a player of a game in play.
        page.wait_for_selector("#game-panel:not([hidden]) #hand button.card")
        offer = page.locator("#push-offer")
        expect(offer).to_be_hidden()
        page.evaluate(LEAVE_AND_COME_BACK)
        expect(offer).to_be_visible()
        expect(offer).to_contain_text("never your cards")
        page.screenshot(path=str(SHOTS / f"offer-{width}.png"))
        page.click("#push-offer-no")
        expect(offer).to_be_hidden()
        # Once: leaving the tab again offers nothing.
        page.evaluate(LEAVE_AND_COME_BACK)
        expect(offer).to_be_hidden()
        page.click("#seat-menu-button")
        setting = page.locator("#push-setting")
        expect(setting).to_be_visible()
        expect(setting).to_contain_text("Tell me when it's my turn, even with this page closed")
        expect(setting).to_contain_text("never your cards")
        page.screenshot(path=str(SHOTS / f"seat-menu-{width}.png"))
        # Ticking it subscribes this device for the seat; unticking ends it, in one tap each.
        toggle = page.locator("#push-toggle")
        toggle.check()
        expect(page.locator("#push-status")).to_have_text("On: this device is alerted for this game.")
        assert subscribed(tmp_path, room_id) == [("http://127.0.0.1:9/push/device", 1)]
        toggle.uncheck()
        expect(toggle).not_to_be_checked()
        page.wait_for_function("() => !document.getElementById('push-toggle').disabled")
        assert subscribed(tmp_path, room_id) == []
        assert violations == []


def test_a_refused_alert_is_explained_and_the_switch_comes_first(
    push_server: ServeProcess, phone_browser: Callable[..., BrowserContext]
) -> None:
    """The seat menu puts the Alerts switch before its options (email, quiet hours); a browser that
    refuses the subscription is answered in words with what to do, not its own error message."""
    base = push_server.base_url
    room_id, _ann, bo = seated_room(base)
    context = phone_browser(base, 375, 812)
    context.add_init_script(
        """
        if (self.PushManager) {
            PushManager.prototype.getSubscription = async () => null;
            PushManager.prototype.subscribe = async () => {
                throw new DOMException("Registration failed - permission denied", "NotAllowedError");
            };
        }
        """
    )
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(f"{base}/r/{room_id}#seat={bo}")
    page.wait_for_selector("#game-panel:not([hidden]) #hand button.card")
    page.click("#seat-menu-button")
    setting = page.locator("#push-setting")
    expect(setting).to_be_visible()
    expect(setting.get_by_role("heading", name="Alerts")).to_be_visible()
    prefs = page.locator("#alerts-prefs")
    expect(prefs).to_be_visible()
    first, then = setting.bounding_box(), prefs.bounding_box()
    assert first is not None and then is not None and first["y"] < then["y"]
    # A click, not check(): the page turns the switch back off once the browser refuses, which may
    # come before check() reads the switch again ("did not change its state": CI's failure).
    page.locator("#push-toggle").click()
    status = page.locator("#push-status")
    expect(status).to_contain_text("allow notifications")
    expect(status).not_to_contain_text("Registration failed")
    expect(page.locator("#push-toggle")).not_to_be_checked()
    page.screenshot(path=str(SHOTS / "refused-375.png"))
