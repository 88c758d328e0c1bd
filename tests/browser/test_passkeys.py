"""Passkeys in Chromium with a virtual authenticator (DevTools protocol): attached on one device, the
passkey (synced to a second device, as a platform's password manager does) signs in there, the seats
come back with no one's approval, and the first device's tokens are revoked, or kept when asked. At
127.0.0.1, where no passkey can work, the passkey parts offer the same page at localhost instead."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import CDPSession, Page, expect

from tests.servers import ServeProcess

from .axe import serious_violations
from .support import SCREENSHOTS

pytestmark = pytest.mark.browser

SHOTS = SCREENSHOTS / "games"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def authenticator(page: Page) -> tuple[CDPSession, str]:
    """A platform authenticator for the page: CTAP2, internal, discoverable credentials, verified user."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    made = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp, str(made["authenticatorId"])


def mojo_room(http: httpx.Client, host: str, guest: str) -> tuple[str, list[str]]:
    made = http.post("/api/rooms", json={"game": "mojo", "name": host}).json()
    joined = http.post(f"/api/rooms/{made['room_id']}/join", json={"name": guest}).json()
    assert http.post(f"/api/rooms/{made['room_id']}/start", headers=bearer(made["token"])).status_code == 200
    return made["room_id"], [made["token"], joined["token"]]


def held(page: Page) -> dict[str, Any]:
    seats: dict[str, Any] = page.evaluate("JSON.parse(localStorage['motable.seats'] || '{}')")
    return seats


def test_a_passkey_brings_the_seats_to_another_device(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    # Passkeys need a secure context: http://localhost is one (127.0.0.1 names no relying party).
    base = server.base_url.replace("127.0.0.1", "localhost")
    with httpx.Client(base_url=server.base_url) as http:
        first, first_tokens = mojo_room(http, "Ann", "Bo")
        second, second_tokens = mojo_room(http, "Cy", "Ann")

        laptop = new_player(1280, 800)
        for room_id, token in ((first, first_tokens[0]), (second, second_tokens[1])):
            laptop.goto(f"{base}/r/{room_id}#seat={token}")
            expect(laptop.locator("#game-panel")).to_be_visible()
        laptop.goto(base + "/")
        expect(laptop.locator("#your-games .game-row")).to_have_count(2)
        cdp, laptop_key = authenticator(laptop)
        laptop.get_by_role("button", name="Save my games to a passkey").click()
        expect(laptop.locator(".passkey-status")).to_contain_text("Saved")
        expect(laptop.get_by_role("button", name="Add these games to my passkey")).to_be_visible()
        (made,) = cdp.send("WebAuthn.getCredentials", {"authenticatorId": laptop_key})["credentials"]
        assert made["isResidentCredential"] and made["rpId"] == "localhost"

        # A third game, joined later, is added from the room's seat menu.
        third, third_tokens = mojo_room(http, "Dee", "Ann")
        laptop.goto(f"{base}/r/{third}#seat={third_tokens[1]}")
        expect(laptop.locator("#game-panel")).to_be_visible()
        laptop.click("#seat-menu-button")
        laptop.get_by_role("button", name="Add this game to my passkey").click()
        expect(laptop.locator("#room-passkey .passkey-status")).to_contain_text("Saved")
        laptop.locator("#seat-dialog").screenshot(path=str(SHOTS / "seat-menu-passkey-1280.png"))
        laptop.keyboard.press("Escape")
        (credential,) = cdp.send("WebAuthn.getCredentials", {"authenticatorId": laptop_key})["credentials"]

        # The phone holds nothing; its platform synced the passkey.
        phone = new_player(375, 812)
        phone.goto(base + "/")
        expect(phone.locator("#passkey-box")).to_be_visible()
        expect(phone.get_by_role("button", name="Save my games to a passkey")).to_be_hidden()
        phone_cdp, phone_key = authenticator(phone)
        phone_cdp.send("WebAuthn.addCredential", {"authenticatorId": phone_key, "credential": credential})
        shoot(phone, "passkey-box")

        # The laptop has the first room open when the phone signs in.
        laptop.goto(f"{base}/r/{first}")
        expect(laptop.locator("#game-panel")).to_be_visible()
        phone.get_by_role("button", name="Sign in with a passkey").click()
        expect(phone.locator(".passkey-status")).to_contain_text("Signed in: 3 games are on this device now")
        expect(phone.locator("#your-games .game-row")).to_have_count(3)
        phone_seats = held(phone)
        assert phone_seats[first]["seat"] == 0 and phone_seats[second]["seat"] == 1
        assert phone_seats[first]["name"] == "Ann"
        # New tokens: the laptop's are revoked like a handover, and its open room says why.
        assert phone_seats[first]["token"] != first_tokens[0]
        assert http.get(f"/api/rooms/{first}/state", headers=bearer(first_tokens[0])).status_code == 401
        check = http.get(f"/api/rooms/{second}/seat-check", headers=bearer(second_tokens[1])).json()
        assert check["status"] == "moved"
        state = http.get(f"/api/rooms/{first}/state", headers=bearer(phone_seats[first]["token"])).json()
        assert state["seat"] == 0
        expect(laptop.locator("#way-back")).to_contain_text("moved to another device")
        chat = http.get(f"/api/rooms/{first}/chat").json()["messages"]
        assert any("signed in with a passkey" in m["text"] for m in chat)

        # A third device signs in and keeps the phone signed in: the same tokens, both keep playing.
        tablet = new_player(1280, 800)
        tablet.goto(base + "/")
        tablet_cdp, tablet_key = authenticator(tablet)
        # Synced from the phone, with the use count the phone's copy reached.
        (synced,) = phone_cdp.send("WebAuthn.getCredentials", {"authenticatorId": phone_key})["credentials"]
        tablet_cdp.send("WebAuthn.addCredential", {"authenticatorId": tablet_key, "credential": synced})
        tablet.get_by_label("Keep my other device signed in").check()
        tablet.get_by_role("button", name="Sign in with a passkey").click()
        expect(tablet.locator(".passkey-status")).to_contain_text("Signed in: 3 games")
        tablet_seats = held(tablet)
        assert tablet_seats[first]["token"] == phone_seats[first]["token"]
        assert (
            http.get(f"/api/rooms/{first}/state", headers=bearer(phone_seats[first]["token"])).status_code
            == 200
        )
        expect(tablet.locator("#your-games .game-row")).to_have_count(3)
        shoot(tablet, "passkey-signed-in")


@pytest.mark.parametrize("width", [375, 1280])
def test_at_127_0_0_1_the_passkey_parts_offer_localhost(
    server: ServeProcess, new_player: Callable[..., Page], width: int
) -> None:
    # `make run` binds 127.0.0.1 (the server fixture does too): the page at that address offers the
    # same page at localhost, which reaches the same server and where passkeys work.
    numbers, local = server.base_url, server.base_url.replace("127.0.0.1", "localhost")
    there = f"localhost:{server.port}"
    with httpx.Client(base_url=numbers) as http:
        room_id, tokens = mojo_room(http, "Ann", "Bo")

    page = new_player(width, 800)
    page.goto(f"{numbers}/r/{room_id}#seat={tokens[1]}")
    expect(page.locator("#game-panel")).to_be_visible()
    page.goto(f"{numbers}/?from=readme")
    box = page.locator("#passkey-box")
    expect(box).to_be_visible()
    expect(box.get_by_role("link", name=f"Open {there}")).to_have_attribute("href", f"{local}/?from=readme")
    expect(box).to_contain_text(f"Passkeys don't work at this address (127.0.0.1:{server.port})")
    expect(box).to_contain_text(f"the games listed here stay at 127.0.0.1:{server.port}")
    # No button that could only fail.
    expect(box.get_by_role("button")).to_have_count(0)
    assert not serious_violations(page)
    box.screenshot(path=str(SHOTS / f"passkey-localhost-offer-box-{width}.png"))
    shoot(page, "passkey-localhost-offer")

    # The seat menu offers this game there, with the seat in the link.
    page.goto(f"{numbers}/r/{room_id}")
    expect(page.locator("#game-panel")).to_be_visible()
    page.click("#seat-menu-button")
    offer = page.locator("#room-passkey")
    link = offer.get_by_role("link", name=f"Open this game at {there}")
    expect(link).to_have_attribute("href", f"{local}/r/{room_id}#seat={tokens[1]}")
    expect(offer).to_contain_text("Your seat comes along.")
    expect(offer.get_by_role("button")).to_have_count(0)
    assert not serious_violations(page)
    page.locator("#seat-dialog").screenshot(path=str(SHOTS / f"seat-menu-localhost-offer-{width}.png"))

    # At localhost the seat is there and passkeys are offered, in the seat menu and on the home page.
    link.click()
    page.wait_for_url(f"{local}/r/{room_id}")
    expect(page.locator("#game-panel")).to_be_visible()
    assert held(page)[room_id]["token"] == tokens[1]
    page.click("#seat-menu-button")
    expect(page.get_by_role("button", name="Save this game to a passkey")).to_be_visible()
    expect(page.locator(".passkey-elsewhere")).to_have_count(0)
    page.goto(local + "/")
    expect(page.get_by_role("button", name="Save my games to a passkey")).to_be_visible()
    expect(page.get_by_role("button", name="Sign in with a passkey")).to_be_visible()
    expect(page.locator(".passkey-elsewhere")).to_have_count(0)
    expect(page.locator("#your-games .game-row")).to_have_count(1)


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True, animations="disabled")
