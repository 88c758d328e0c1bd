"""The reveal test as the server runs it (app/services/takebacks.py `Verdicts`: the views of a position
built once and kept for the next move, the cards of a shared value found once) says, on every move of
random matches of every game, exactly what its plain definition says: the same verdict and the same
words. The plain definition is written out below as docs/playing.md states it, view by view."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.services.takebacks import Verdicts, ruled_out, why_not
from engines.core import EngineError, game_ids, get_engine
from engines.core.takeback import RESAMPLES, viewers

from .test_takeback import walk


def _cards(view: Any) -> dict[int, dict[str, Any]]:
    """Every card object in a view (a dict with an integer "id"): id -> its plain fields."""
    found: dict[int, dict[str, Any]] = {}
    stack = [view]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("id"), int) and not isinstance(node["id"], bool):
                face = {k: v for k, v in node.items() if not isinstance(v, dict | list)}
                found.setdefault(node["id"], {}).update(face)
            stack.extend(v for v in node.values() if isinstance(v, dict | list))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, dict | list))
    return found


def plain(game: str, before: Any, seat: int, action: Any, after: Any, seed: int) -> str | None:
    """The reveal test from whole views: every viewer's view before and after, built with view()."""
    engine = get_engine(game)
    reason = ruled_out(engine, before, action, after)
    if reason is not None:
        return reason
    players = len(engine.scorepad(before).totals)
    everyone = viewers(players)
    views_before = {viewer: engine.view(before, viewer) for viewer in everyone}
    views_after = {viewer: engine.view(after, viewer) for viewer in everyone}
    known = _cards(views_before[seat])

    def agrees(card_id: int, face: dict[str, Any]) -> bool:
        return all(known[card_id][k] == v for k, v in face.items() if k in known[card_id])

    for viewer in everyone:
        if views_after[viewer] == views_before[viewer]:
            continue
        seen = _cards(views_before[viewer])
        for card_id, face in _cards(views_after[viewer]).items():
            if card_id in seen and seen[card_id] == face:
                continue
            if card_id in known and agrees(card_id, face):
                continue
            if viewer == seat:
                return "it showed you a card you had not seen (taking it back would let you know it)"
            who = "spectators" if viewer is None else f"seat {viewer}"
            return f"it showed {who} a card that was not yours to show"
    rng = random.Random(seed)
    for _ in range(RESAMPLES):
        other = engine.resample(before, seat, rng)
        try:
            other_after = engine.apply(other, seat, action)
        except EngineError:
            return "whether it was allowed depended on cards you cannot see"
        for viewer in (seat, None):
            if engine.view(other, viewer) != views_before[viewer]:
                continue
            if engine.view(other_after, viewer) != views_after[viewer]:
                return "what it did depended on cards you cannot see, so the table learned something"
    return None


PLAYERS = {"mojo": (2, 5), "moby-trick": (3, 4), "mokuru": (3,), "mooki-island": (2,)}


@pytest.mark.parametrize("game", game_ids())
def test_the_verdicts_the_server_decides_are_the_plain_definitions(game: str) -> None:
    engine = get_engine(game)
    counts = PLAYERS.get(game, (engine.spec.min_players,))
    decided = reused = 0
    outcomes: set[bool] = set()
    for players in counts:
        for seed in (11, 12):
            match_id = 100 * players + seed
            # One Verdicts for the whole match, deciding every move as the server does (each position
            # kept for the next move), and every other move also decided fresh (nothing kept).
            verdicts = Verdicts()
            for version, (before, seat, action, after) in enumerate(walk(game, players, seed, 150), start=1):
                expected = plain(game, before, seat, action, after, match_id * 1_000_003 + version)
                kept = verdicts.held(match_id, version - 1)
                reused += kept is not None and kept.built_position() is not None
                got = verdicts.made(match_id, game, version, seat, action, "playing", before, after).verdict()
                assert got == expected, (players, seed, version, action)
                if version % 2:
                    fresh = Verdicts().made(match_id, game, version, seat, action, "playing", before, after)
                    assert fresh.verdict() == expected, (players, seed, version, action)
                decided += 1
                outcomes.add(got is None)
    # Both verdicts came up, and most moves reused the position the move before them left.
    assert outcomes == {True, False}
    assert decided and reused > decided // 2


def test_the_plain_definition_is_the_one_the_takeback_tests_read() -> None:
    """`why_not` (the module's own entry, the takeback tests' oracle) agrees with it too."""
    for before, seat, action, after in walk("mojo", 3, 5, 120):
        expected = plain("mojo", before, seat, action, after, 7)
        assert why_not("mojo", before, seat, action, after, 7) == expected
