"""Request bodies of the JSON API and the messages a client sends on the room socket (responses are the
plain dicts CONTRACT.md spells out)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, StrictBool, StrictInt, StrictStr, TypeAdapter

from app.names import clean_name

# Cleaned of invisible and direction-changing characters, 1 to 24 characters (app/names.py).
Name = Annotated[str, AfterValidator(clean_name)]
# A move clock in seconds, or null for none: any 32-bit number parses, and the range is checked
# with a worded refusal (app/services/rooms.py check_clock).
ClockSeconds = Annotated[StrictInt, Field(ge=-(2**31), le=2**31 - 1)] | None


class CreateRoom(BaseModel):
    game: str
    name: Name
    options: dict[str, Any] | None = None
    clock: ClockSeconds = None


class JoinRoom(BaseModel):
    name: Name


class AddBot(BaseModel):
    pass


class StartRoom(BaseModel):
    # The seat that starts, or "random" (the engine picks from the seed); absent: the room's options decide.
    starter: StrictInt | Literal["random"] | None = None
    # Started from a page holding several seats (around one device): options the game marks with a
    # one-device value (Mokuru's witness) take it instead of their default.
    one_device: StrictBool = False


class PostAction(BaseModel):
    # Any JSON value: the engine tells a malformed action from an illegal one.
    action: Any
    # Strict (here and on the socket, SocketAction): `true` or "1" must not pass for version 1.
    version: StrictInt | None = None


class MarkScreen(BaseModel):
    # The code the table screen shows (its format is checked with a worded refusal).
    code: Annotated[str, Field(max_length=16)]


class SocketAuth(BaseModel):
    """`{"type": "auth", "token"}`: a spectator's socket takes the token's seat."""

    type: Literal["auth"]
    token: Annotated[StrictStr, Field(min_length=1)]
    # Echoed in the answer, whatever JSON the client chose.
    id: Any = None


class SocketAction(PostAction):
    """`{"type": "action", "id", "action", "version"}`: the body of POST .../actions, and an id for the
    answer to echo (whatever JSON the client chose)."""

    type: Literal["action"]
    id: Any = None


# A socket message of either kind, told apart by its "type". Built once: every socket message passes here.
SOCKET_MESSAGE: TypeAdapter[SocketAuth | SocketAction] = TypeAdapter(
    Annotated[SocketAuth | SocketAction, Field(discriminator="type")]
)
