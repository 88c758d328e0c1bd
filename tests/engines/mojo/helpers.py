"""Build Mojo positions from card faces, keeping every one of the 78 cards somewhere."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engines.mojo import ENGINE, MojoState
from engines.mojo.engine import CARDS

Face = tuple[str, int]


class Picker:
    """Hands out distinct card ids for faces like ("red", 11)."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def take(self, faces: Iterable[Face]) -> list[int]:
        ids = []
        for colour, value in faces:
            card = next(
                c.id for c in CARDS if c.colour == colour and c.value == value and c.id not in self.used
            )
            self.used.add(card)
            ids.append(card)
        return ids


def position(
    hands: list[list[Face]],
    discard: list[Face] | list[list[Face]],
    *,
    draw_top: list[Face] = (),  # type: ignore[assignment]
    face_down: list[list[Face]] | None = None,
    revealed: list[list[Face]] | None = None,
    current: int = 0,
    empty_draw_pile: bool = False,
    **options: Any,
) -> MojoState:
    """A state with the given cards; unnamed cards go to the draw pile (or the discard)."""
    players = len(hands)
    state = ENGINE.setup(players, 1, ENGINE.spec.parse_options(options))
    pick = Picker()
    state.hands = [pick.take(h) for h in hands]
    piles = discard if discard and isinstance(discard[0], list) else [discard]
    state.discard_piles = [pick.take(p) for p in piles]  # type: ignore[arg-type]
    state.face_down = [pick.take(f) for f in (face_down or [[] for _ in hands])]
    state.revealed = [pick.take(r) for r in (revealed or [[] for _ in hands])]
    top = pick.take(draw_top)
    rest = [c.id for c in CARDS if c.id not in pick.used]
    if empty_draw_pile:
        state.discard_piles[0][:0] = rest
        state.draw_pile = list(reversed(top))
    else:
        state.draw_pile = rest + list(reversed(top))  # the first of draw_top is drawn first
    state.current = current
    state.events = []
    assert sorted(c for group in _all_groups(state) for c in group) == list(range(len(CARDS)))
    return state


def _all_groups(state: MojoState) -> list[list[int]]:
    return [state.draw_pile, *state.discard_piles, *state.hands, *state.face_down, *state.revealed]


def faces(ids: Iterable[int]) -> list[Face]:
    return sorted((CARDS[c].colour, CARDS[c].value) for c in ids)


def play(state: MojoState, face: Face, pile: int | None = None) -> MojoState:
    seat = state.current
    card = next(c for c in state.hands[seat] if (CARDS[c].colour, CARDS[c].value) == face)
    action: dict[str, Any] = {"type": "play", "card": card}
    if pile is not None:
        action["pile"] = pile
    return ENGINE.apply(state, seat, action)
