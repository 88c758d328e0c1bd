"""Passkeys over the API (docs/people.md, "Passkeys"), with a software authenticator: attach, sign in
elsewhere (old tokens revoked, or kept when asked), and every refusal changes nothing."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, select
from starlette.testclient import TestClient

from app.models import PasskeySeat
from tests.rooms import seated_match

from .conftest import auth
from .softkey import SoftKey

# The test client's requests come to http://testserver.
ORIGIN, RP_ID = "http://testserver", "testserver"


def attach(client: TestClient, key: SoftKey, seats: list[dict[str, str]]) -> Any:
    asked = client.post("/api/passkeys/register/options", json={"seats": seats})
    assert asked.status_code == 200, asked.text
    body = asked.json()
    options = body["options"]
    assert options["rp"]["id"] == RP_ID and options["authenticatorSelection"]["residentKey"] == "required"
    credential = key.create(options)
    return client.post(
        "/api/passkeys/register",
        json={"challenge_id": body["challenge_id"], "credential": credential, "seats": seats},
    )


def sign_in(client: TestClient, key: SoftKey, **extra: Any) -> Any:
    body = client.post("/api/passkeys/login/options", json={}).json()
    credential = key.get(body["options"], extra.pop("user_handle", None))
    return client.post(
        "/api/passkeys/login", json={"challenge_id": body["challenge_id"], "credential": credential, **extra}
    )


def test_sign_in_takes_the_seats_back_and_revokes_the_old_tokens(client: TestClient) -> None:
    room_id, tokens = seated_match(client)
    other_id, other_tokens = seated_match(client)
    key = SoftKey(ORIGIN, RP_ID)
    held = [{"room_id": room_id, "token": tokens[1]}, {"room_id": other_id, "token": other_tokens[0]}]
    made = attach(client, key, held)
    assert made.status_code == 201, made.text
    assert sorted((s["room_id"], s["seat"]) for s in made.json()["seats"]) == sorted(
        [(room_id, 1), (other_id, 0)]
    )

    signed = sign_in(client, key)
    assert signed.status_code == 200, signed.text
    assert signed.headers["cache-control"] == "no-store"
    seats = {s["room_id"]: s for s in signed.json()["seats"]}
    assert seats[room_id]["seat"] == 1 and seats[room_id]["name"] == "Bo" and seats[room_id]["game"] == "tiny"
    assert seats[room_id]["token"] != tokens[1]
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[1])).status_code == 401
    assert (
        client.get(f"/api/rooms/{room_id}/state", headers=auth(seats[room_id]["token"])).json()["seat"] == 1
    )
    assert client.get(f"/api/rooms/{room_id}/seat-check", headers=auth(tokens[1])).json()["status"] == "moved"
    # The others' seats are untouched; the table says what happened.
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[0])).json()["seat"] == 0
    lines = [m["text"] for m in client.get(f"/api/rooms/{room_id}/chat").json()["messages"]]
    assert "Bo's seat moved to another device (signed in with a passkey)" in lines

    # Kept: a second sign-in asks to keep the other device; the same tokens come back, all working.
    kept = sign_in(client, key, keep_other_devices=True)
    again = {s["room_id"]: s["token"] for s in kept.json()["seats"]}
    assert again == {r: s["token"] for r, s in seats.items()}
    assert client.get(f"/api/rooms/{other_id}/state", headers=auth(again[other_id])).status_code == 200


def test_a_seat_that_moved_on_by_consent_is_not_taken_back(client: TestClient) -> None:
    room_id, tokens = seated_match(client)
    key = SoftKey(ORIGIN, RP_ID)
    assert attach(client, key, [{"room_id": room_id, "token": tokens[1]}]).status_code == 201
    assert client.post(f"/api/rooms/{room_id}/leave", headers=auth(tokens[1])).status_code == 200
    signed = sign_in(client, key).json()
    assert signed["seats"] == [] and signed["lost"] == [{"room_id": room_id, "seat": 1, "status": "left"}]


def test_refusals_change_nothing(client: TestClient, database_url: str) -> None:
    room_id, tokens = seated_match(client)
    key = SoftKey(ORIGIN, RP_ID)
    # No seat held: no passkey.
    bad = client.post(
        "/api/passkeys/register/options", json={"seats": [{"room_id": room_id, "token": "nope"}]}
    )
    assert bad.status_code == 401
    assert client.post("/api/passkeys/register/options", json={"seats": []}).status_code == 422
    # A passkey made for another site (origin) is refused.
    stranger = SoftKey("http://evil.example", RP_ID)
    assert attach(client, stranger, [{"room_id": room_id, "token": tokens[0]}]).status_code == 401
    # A challenge answers once.
    seats = [{"room_id": room_id, "token": tokens[0]}]
    body = client.post("/api/passkeys/register/options", json={"seats": seats}).json()
    credential = key.create(body["options"])
    first = {"challenge_id": body["challenge_id"], "credential": credential, "seats": seats}
    assert client.post("/api/passkeys/register", json=first).status_code == 201
    assert client.post("/api/passkeys/register", json=first).status_code == 401
    # A sign-in with the wrong user handle (a forged passkey answer) takes nothing.
    assert sign_in(client, key, user_handle=b"someone else").status_code == 401
    # An unknown passkey holds nothing.
    assert sign_in(client, SoftKey(ORIGIN, RP_ID)).status_code == 401
    assert client.get(f"/api/rooms/{room_id}/state", headers=auth(tokens[0])).json()["seat"] == 0
    # The tokens are kept sealed, never in the clear.
    engine = create_engine(database_url)
    with engine.connect() as connection:
        sealed = connection.execute(select(PasskeySeat.sealed_token)).scalars().all()
    engine.dispose()
    assert sealed and all(tokens[0].encode() not in blob for blob in sealed)
