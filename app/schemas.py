"""Request bodies of the JSON API (responses are the plain dicts CONTRACT.md spells out)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, StrictBool, StrictInt

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
    # Strict, as on the socket: `true` or "1" must not pass for version 1.
    version: StrictInt | None = None


class MarkScreen(BaseModel):
    # The code the table screen shows (its format is checked with a worded refusal).
    code: Annotated[str, Field(max_length=16)]
