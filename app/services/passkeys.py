"""Passkeys that hold a player's seats (docs/people.md, "Passkeys"): attaching one to the seats this
device holds, and signing in with it on another device, which takes those seats back with no one's
approval. Each function runs inside the caller's transaction and raises AppError, having written
nothing, when it refuses.

A seat's token is stored only hashed, so a passkey keeps its own copy of each token, sealed (AES-GCM)
with a key made from the passkey's user handle. The authenticator keeps that handle and hands it back
at every sign-in; the database keeps only its hash, so a copy of the database opens no seat."""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy import delete, select
from sqlalchemy.orm import Session
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.errors import AppError
from app.i18n import N_, Words
from app.models import Passkey, PasskeyChallenge, PasskeySeat, Room, Seat, SeatMove, utcnow
from app.roomids import is_room_id
from app.services import lookup, people, rooms
from app.services.auth import hash_token, new_token
from app.services.cache import StateCache
from app.services.matches import current_match

# Seconds a challenge may be answered in (the browser's own prompt times out after one minute).
CHALLENGE_LIFETIME = 300
# Seats one passkey may hold (attaching more refuses with 422).
MAX_SEATS = 200
RP_NAME = "Motable"


@dataclass(frozen=True)
class RelyingParty:
    """Who the passkeys are for: the public URL's host name (the RP id) and its origin."""

    rp_id: str
    origin: str


@dataclass
class SignedIn:
    body: dict[str, Any]
    # The rooms where a seat moved to this device (rematches that followed included): their bots wake.
    moved: list[str] = field(default_factory=list)


def _key(user_handle: bytes) -> AESGCM:
    return AESGCM(hashlib.sha256(b"motable passkey seats\x00" + user_handle).digest())


def seal(user_handle: bytes, room_id: str, seat: int, token: str) -> bytes:
    nonce = secrets.token_bytes(12)
    return nonce + _key(user_handle).encrypt(nonce, token.encode(), f"{room_id}:{seat}".encode())


def unseal(user_handle: bytes, room_id: str, seat: int, sealed: bytes) -> str | None:
    try:
        return _key(user_handle).decrypt(sealed[:12], sealed[12:], f"{room_id}:{seat}".encode()).decode()
    except (InvalidTag, ValueError):
        return None


def _user_hash(user_handle: bytes) -> str:
    return hashlib.sha256(user_handle).hexdigest()


def held_seats(session: Session, held: list[tuple[str, str]]) -> list[tuple[Seat, str]]:
    """The seats the given (room id, token) pairs hold now (a person's, not a bot's); others are left out."""
    found: list[tuple[Seat, str]] = []
    for room_id, token in held:
        if not is_room_id(room_id):
            continue
        seat = session.scalar(
            select(Seat).where(Seat.room_id == room_id, Seat.token_hash == hash_token(token))
        )
        if seat is not None and not seat.bot and all(s.id != seat.id for s, _t in found):
            found.append((seat, token))
    return found


def _prune(session: Session) -> None:
    cutoff = utcnow() - timedelta(seconds=CHALLENGE_LIFETIME)
    session.execute(delete(PasskeyChallenge).where(PasskeyChallenge.created_at < cutoff))


def _new_challenge(session: Session, purpose: str, user_handle: bytes | None = None) -> PasskeyChallenge:
    _prune(session)
    challenge = PasskeyChallenge(
        id=secrets.token_urlsafe(16)[:22],
        challenge=secrets.token_bytes(32),
        purpose=purpose,
        user_handle=user_handle,
    )
    session.add(challenge)
    return challenge


def _take_challenge(session: Session, challenge_id: str, purpose: str) -> PasskeyChallenge:
    """The challenge, used up (answered once at most, right or wrong)."""
    challenge = session.get(PasskeyChallenge, challenge_id)
    if challenge is None or challenge.purpose != purpose:
        raise AppError(
            "unauthorized", N_("this passkey request is unknown or was answered already; start again")
        )
    session.delete(challenge)
    if people.aware(challenge.created_at) < utcnow() - timedelta(seconds=CHALLENGE_LIFETIME):
        raise AppError("unauthorized", N_("this passkey request took too long; start again"))
    return challenge


def register_options(session: Session, held: list[tuple[str, str]], rp: RelyingParty) -> dict[str, Any]:
    """Options for navigator.credentials.create(): a new discoverable passkey for these seats."""
    seats = held_seats(session, held)
    if not seats:
        raise AppError(
            "unauthorized", N_("none of these tokens holds a seat: a passkey holds the seats you play")
        )
    names = sorted({seat.name for seat, _token in seats})
    user_handle = secrets.token_bytes(32)
    challenge = _new_challenge(session, "register", user_handle)
    options = generate_registration_options(
        rp_id=rp.rp_id,
        rp_name=RP_NAME,
        user_id=user_handle,
        user_name=f"{names[0]} · Motable" if len(names) == 1 else "Motable player",
        user_display_name=", ".join(names)[:64],
        challenge=challenge.challenge,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
    )
    return {"challenge_id": challenge.id, "options": json.loads(options_to_json(options))}


def _attach(session: Session, passkey: Passkey, user_handle: bytes, seats: list[tuple[Seat, str]]) -> None:
    for seat, token in seats:
        link = session.scalar(
            select(PasskeySeat).where(
                PasskeySeat.passkey_id == passkey.id, PasskeySeat.room_id == seat.room_id
            )
        )
        sealed = seal(user_handle, seat.room_id, seat.seat, token)
        if link is None:
            session.add(
                PasskeySeat(passkey_id=passkey.id, room_id=seat.room_id, seat=seat.seat, sealed_token=sealed)
            )
        else:
            link.seat, link.sealed_token = seat.seat, sealed
    session.flush()
    count = len(list(session.scalars(select(PasskeySeat.id).where(PasskeySeat.passkey_id == passkey.id))))
    if count > MAX_SEATS:
        raise AppError(
            "invalid_request",
            N_("a passkey holds at most %(most)s seats; forget finished games first"),
            most=MAX_SEATS,
        )


def _seat_body(session: Session, seat: Seat) -> dict[str, Any]:
    room = session.get(Room, seat.room_id)
    match = current_match(session, seat.room_id)
    return {
        "room_id": seat.room_id,
        "seat": seat.seat,
        "name": seat.name,
        "game": room.game if room is not None else None,
        "status": rooms.status_of(match),
    }


def register(
    session: Session,
    challenge_id: str,
    credential: dict[str, Any],
    held: list[tuple[str, str]],
    rp: RelyingParty,
) -> dict[str, Any]:
    """Check the new passkey's attestation and attach it to the seats these tokens hold."""
    challenge = _take_challenge(session, challenge_id, "register")
    seats = held_seats(session, held)
    if not seats:
        raise AppError(
            "unauthorized", N_("none of these tokens holds a seat: a passkey holds the seats you play")
        )
    assert challenge.user_handle is not None
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=challenge.challenge,
            expected_rp_id=rp.rp_id,
            expected_origin=rp.origin,
        )
    except (WebAuthnException, KeyError, TypeError, ValueError) as error:
        raise AppError(
            "unauthorized", N_("the passkey could not be checked: %(why)s"), why=str(error)
        ) from None
    credential_id = bytes_to_base64url(verified.credential_id)
    if session.scalar(select(Passkey.id).where(Passkey.credential_id == credential_id)) is not None:
        raise AppError("invalid_request", N_("this passkey is attached already"))
    passkey = Passkey(
        credential_id=credential_id,
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
        user_hash=_user_hash(challenge.user_handle),
    )
    session.add(passkey)
    session.flush()
    _attach(session, passkey, challenge.user_handle, seats)
    return {"seats": [_seat_body(session, seat) for seat, _token in seats]}


def login_options(session: Session, rp: RelyingParty) -> dict[str, Any]:
    """Options for navigator.credentials.get(): any passkey of this site (the browser offers its own)."""
    challenge = _new_challenge(session, "login")
    options = generate_authentication_options(
        rp_id=rp.rp_id,
        challenge=challenge.challenge,
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    return {"challenge_id": challenge.id, "options": json.loads(options_to_json(options))}


def _verify_login(
    session: Session, challenge_id: str, credential: dict[str, Any], rp: RelyingParty
) -> tuple[Passkey, bytes]:
    challenge = _take_challenge(session, challenge_id, "login")
    try:
        credential_id = bytes_to_base64url(base64url_to_bytes(str(credential["rawId"])))
        user_handle = base64url_to_bytes(str(credential["response"]["userHandle"]))
    except (KeyError, TypeError, ValueError):
        raise AppError("unauthorized", N_("the passkey's answer is incomplete")) from None
    passkey = session.scalar(select(Passkey).where(Passkey.credential_id == credential_id))
    if passkey is None or _user_hash(user_handle) != passkey.user_hash:
        raise AppError("unauthorized", N_("this passkey holds no seats on this server"))
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=challenge.challenge,
            expected_rp_id=rp.rp_id,
            expected_origin=rp.origin,
            credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count,
        )
    except (WebAuthnException, KeyError, TypeError, ValueError) as error:
        raise AppError(
            "unauthorized", N_("the passkey could not be checked: %(why)s"), why=str(error)
        ) from None
    passkey.sign_count = verified.new_sign_count
    passkey.last_used_at = utcnow()
    return passkey, user_handle


def _why_lost(session: Session, room_id: str, token: str | None) -> str:
    if token is None:
        return "unknown"
    reason = session.scalar(
        select(SeatMove.reason)
        .where(SeatMove.room_id == room_id, SeatMove.old_token_hash == hash_token(token))
        .order_by(SeatMove.id.desc())
        .limit(1)
    )
    return reason or "unknown"


def login(
    session: Session,
    challenge_id: str,
    credential: dict[str, Any],
    keep_other_devices: bool,
    attach: list[tuple[str, str]],
    rp: RelyingParty,
    cache: StateCache | None,
) -> SignedIn:
    """Sign in with a passkey: attach the seats this device holds (`attach`), then hand this device
    every seat the passkey holds. Unless `keep_other_devices`, each seat gets a new token and the old
    one is revoked like a handover (a seat move, the table told in its log); else the same token is
    handed out again and every device keeps playing. A seat that moved on since the passkey took it
    (its holder approved another device, left, or was removed) is not taken back: it is listed as lost."""
    passkey, user_handle = _verify_login(session, challenge_id, credential, rp)
    _attach(session, passkey, user_handle, held_seats(session, attach))
    attached_here = {room_id for room_id, _token in attach}
    signed_in = SignedIn({"seats": [], "lost": []})
    links = list(
        session.scalars(
            select(PasskeySeat).where(PasskeySeat.passkey_id == passkey.id).order_by(PasskeySeat.id)
        )
    )
    for link in links:
        room = lookup.find_room(session, link.room_id, lock=not keep_other_devices)
        token = unseal(user_handle, link.room_id, link.seat, link.sealed_token)
        seat = session.scalar(select(Seat).where(Seat.room_id == link.room_id, Seat.seat == link.seat))
        if seat is None or token is None or seat.bot or seat.token_hash != hash_token(token):
            why = "left" if seat is not None and seat.bot else _why_lost(session, link.room_id, token)
            signed_in.body["lost"].append({"room_id": link.room_id, "seat": link.seat, "status": why})
            session.delete(link)
            continue
        if not keep_other_devices and link.room_id not in attached_here:
            # Like a handover: the old token stops working and says why at seat-check.
            fresh = new_token()
            session.add(
                SeatMove(room_id=room.id, seat=seat.seat, old_token_hash=seat.token_hash, reason="moved")
            )
            # A rematch's seat still waiting under the old token follows, as with any other seat move.
            followed = people.follow_to_rematches(session, room, seat.token_hash, hash_token(fresh))
            signed_in.moved.extend(rematch_id for rematch_id, _seat in followed)
            seat.token_hash = hash_token(fresh)
            seat.last_seen = utcnow()
            link.sealed_token = seal(user_handle, link.room_id, link.seat, fresh)
            people.holder_back(session, room.id, seat.seat, cache)
            people.table_line(
                session,
                room.id,
                Words(
                    N_("%(name)s's seat moved to another device (signed in with a passkey)"), name=seat.name
                ),
                cache,
            )
            people.bump_epoch(room)
            signed_in.moved.append(room.id)
            token = fresh
        signed_in.body["seats"].append({**_seat_body(session, seat), "token": token})
    return signed_in
