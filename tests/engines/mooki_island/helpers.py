"""Build Mooki Island positions from face names, for rule tests."""

from __future__ import annotations

from typing import Any

from engines.mooki_island import ENGINE, MookiIslandState
from engines.mooki_island.cards import BOX
from engines.mooki_island.engine import FACES, flip


class Cards:
    """Hands out cards of the box by face name, each card at most once.

    "sun" is any free card with a Sun Mooki on one side (that side is returned);
    "fossil/legendary leaf" is the card with those two faces, the first one returned.
    """

    def __init__(self) -> None:
        self.used: set[int] = set()

    def face(self, name: str) -> int:
        wanted = name.split("/")
        # Plain names take cards backed by a plain Mooki first, leaving the rarer cards free.
        for face in sorted(range(FACES), key=lambda f: BOX.faces[flip(f)].kind != "mooki"):
            if face // 2 in self.used or BOX.faces[face].label() != wanted[0]:
                continue
            if len(wanted) == 2 and BOX.faces[flip(face)].label() != wanted[1]:
                continue
            self.used.add(face // 2)
            return face
        raise LookupError(f"no free card for {name!r}")


def build(
    piles: list[list[str]],
    collections: list[list[str]] | None = None,
    *,
    current: int = 0,
    youngest: int = 0,
    memory_aid: bool = False,
    seed: int = 5,
) -> MookiIslandState:
    """A position to take from: piles list upper faces bottom first, collections chosen faces."""
    options = ENGINE.spec.parse_options({"youngest": youngest, "memory_aid": memory_aid})
    state = ENGINE.setup(2, seed, options)
    cards = Cards()
    groups = [*piles, *(collections or [[], []])]
    names = [(g, i, n) for g, group in enumerate(groups) for i, n in enumerate(group)]
    picked: dict[tuple[int, int], int] = {}
    # Exact cards and rare faces first, so a plain name never takes the only card they fit.
    for g, i, n in sorted(names, key=lambda x: ("/" not in x[2], " " not in x[2] and x[2] != "spider")):
        picked[g, i] = cards.face(n)
    filled = [[picked[g, i] for i in range(len(group))] for g, group in enumerate(groups)]
    state.piles, state.collections = filled[: len(piles)], filled[len(piles) :]
    state.current = current
    return state


def faces_in(view: Any) -> list[dict[str, Any]]:
    """Every face object (a dict with an "id") anywhere in a view."""
    found: list[dict[str, Any]] = []
    if isinstance(view, dict):
        if "id" in view:
            found.append(view)
        for value in view.values():
            found.extend(faces_in(value))
    elif isinstance(view, list):
        for item in view:
            found.extend(faces_in(item))
    return found


def ids_in(view: Any) -> set[int]:
    return {f["id"] for f in faces_in(view)}


def play(state: MookiIslandState, *actions: dict[str, Any]) -> MookiIslandState:
    for action in actions:
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, action)
    return state


def take(pile: int) -> dict[str, Any]:
    return {"type": "take", "pile": pile}


def place(side: str) -> dict[str, Any]:
    return {"type": "place", "side": side}


UP = place("upper")
DOWN = place("lower")


def may_see(state: MookiIslandState, seat: int | None) -> set[int]:
    """Faces `seat` may see, from the rulebook and the issue, written apart from the engine."""
    allowed = {p[-1] for p in state.piles if p}
    if state.drawn is not None:
        allowed.add(state.drawn)
        if ENGINE.to_act(state) == {seat}:
            allowed.add(flip(state.drawn))
    over = state.stars is not None or state.trophies is not None
    for collection in state.collections:
        allowed.update(collection if over else collection[-1:])
    return allowed
