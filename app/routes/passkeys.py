"""Passkey endpoints (docs/people.md, "Passkeys"): attach a passkey to the seats this device holds, and
sign in with it on another device to take them back. No password, no account: the passkey is the key."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, StrictBool

from app.deps import RuntimeDep
from app.playing.passkeys import Passkeys
from app.routes.mygames import HeldSeat
from app.runtime import Runtime
from app.services.passkeys import RelyingParty
from app.urls import public_base

router = APIRouter()

MAX_HELD = 50


class SeatsBody(BaseModel):
    seats: Annotated[list[HeldSeat], Field(min_length=1, max_length=MAX_HELD)]


class RegisterBody(SeatsBody):
    challenge_id: Annotated[str, Field(max_length=64)]
    # The browser's PublicKeyCredential as JSON (its toJSON()); the webauthn library checks it.
    credential: dict[str, Any]


class LoginBody(BaseModel):
    challenge_id: Annotated[str, Field(max_length=64)]
    credential: dict[str, Any]
    keep_other_devices: StrictBool = False
    # Seats this device holds, added to the passkey before signing in.
    attach: Annotated[list[HeldSeat], Field(max_length=MAX_HELD)] = []


def relying_party(request: Request) -> RelyingParty:
    """The passkeys' relying party: the public URL's host (MOTABLE_PUBLIC_URL when set) and origin."""
    parts = urlsplit(public_base(request))
    return RelyingParty(rp_id=parts.hostname or "localhost", origin=f"{parts.scheme}://{parts.netloc}")


def passkeys_of(runtime: Runtime) -> Passkeys:
    return Passkeys(runtime.db, runtime.cache, runtime.master.commands, runtime.master.people)


def pairs(seats: list[HeldSeat]) -> list[tuple[str, str]]:
    return [(held.room_id, held.token) for held in seats]


def private(body: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


@router.post("/api/passkeys/register/options")
async def register_options(body: SeatsBody, request: Request, runtime: RuntimeDep) -> JSONResponse:
    return private(await passkeys_of(runtime).register_options(pairs(body.seats), relying_party(request)))


@router.post("/api/passkeys/register", status_code=201)
async def register(body: RegisterBody, request: Request, runtime: RuntimeDep) -> JSONResponse:
    made = await passkeys_of(runtime).register(
        body.challenge_id, body.credential, pairs(body.seats), relying_party(request)
    )
    return private(made, 201)


@router.post("/api/passkeys/login/options")
async def login_options(request: Request, runtime: RuntimeDep) -> JSONResponse:
    return private(await passkeys_of(runtime).login_options(relying_party(request)))


@router.post("/api/passkeys/login")
async def login(body: LoginBody, request: Request, runtime: RuntimeDep) -> JSONResponse:
    signed_in = await passkeys_of(runtime).login(
        body.challenge_id,
        body.credential,
        body.keep_other_devices,
        pairs(body.attach),
        relying_party(request),
    )
    return private(signed_in)
