"""Request dependencies as named Annotated aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.errors import AppError
from app.i18n import N_
from app.playing.master import Master
from app.runtime import Runtime


def get_runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


def get_master(request: Request) -> Master:
    return get_runtime(request).master


def get_token(request: Request) -> str | None:
    """The bearer token, if any: no token means a spectator."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise AppError("unauthorized", N_("send the token as 'Authorization: Bearer <token>'"))
    return token.strip()


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
MasterDep = Annotated[Master, Depends(get_master)]
TokenDep = Annotated[str | None, Depends(get_token)]
