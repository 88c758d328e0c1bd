"""Schemathesis hooks for tests/app/test_schemathesis.py: every answer must be one CONTRACT.md allows.

Loaded by `st run` through SCHEMATHESIS_HOOKS; not a test module."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import schemathesis

# CONTRACT.md's error codes and their statuses (app/errors.py), and what else the server may answer.
from app.errors import STATUS_BY_CODE

CONTRACT_CODES = {code: status for code, status in STATUS_BY_CODE.items() if code != "internal_error"}
# 431 (too many header lines) answers too_large; 405 is the framework's answer to an unknown method.
EXTRA = {("too_large", 431), ("invalid_request", 405)}


@schemathesis.check
def contract_answer(ctx: Any, response: Any, case: Any) -> None:
    """A success is JSON; an error is {"error": {"code", "message"}} with a contract code and its status."""
    status = response.status_code
    if status == 503 and case.path == "/readyz":
        return
    try:
        body = json.loads(response.content or b"null")
    except ValueError:
        raise AssertionError(f"{status}: the answer is not JSON: {response.content[:200]!r}") from None
    if status < 400:
        return
    error = body.get("error") if isinstance(body, dict) else None
    if (
        not isinstance(error, dict)
        or set(error) != {"code", "message"}
        or not isinstance(error["message"], str)
    ):
        raise AssertionError(f"{status}: not the contract's error shape: {body!r}")
    code = error["code"]
    if CONTRACT_CODES.get(code) != status and (code, status) not in EXTRA:
        raise AssertionError(f"{status} with code {code!r}: not a contract answer")


# Rooms the test made before the run (a waiting one, one in play with pending seat requests), with
# their seats' tokens and request ids: most generated cases get a real room id, many a real token,
# and a request id of that room, so they reach past "no such room" and "no such seat request".
_ROOMS: list[dict[str, Any]] = json.loads(os.environ.get("MOTABLE_ST_ROOMS", "[]"))
_RANDOM = random.Random(14)


@schemathesis.hook
def map_case(context: Any, case: Any) -> Any:
    if not _ROOMS or not case.path_parameters or "room_id" not in case.path_parameters:
        return case
    if _RANDOM.random() < 0.8:
        wants_request = "request_id" in case.path_parameters
        rooms = [room for room in _ROOMS if room["requests"]] if wants_request else _ROOMS
        room = _RANDOM.choice(rooms or _ROOMS)
        case.path_parameters["room_id"] = room["room_id"]
        if wants_request and room["requests"] and _RANDOM.random() < 0.9:
            case.path_parameters["request_id"] = _RANDOM.choice(room["requests"])
        if "seat" in case.path_parameters and _RANDOM.random() < 0.5:
            case.path_parameters["seat"] = _RANDOM.randrange(3)  # Ann's, Bo's, or nobody's
        if _RANDOM.random() < 0.6:
            case.headers = {
                **(case.headers or {}),
                "Authorization": f"Bearer {_RANDOM.choice(room['tokens'])}",
            }
    return case
