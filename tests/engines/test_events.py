"""The one event shape: numbering, the kept window, and states stored before seq/type existed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines.core import get_engine
from engines.core.conformance import check_event_history
from engines.core.events import log_event, upgrade_events


def test_log_event_numbers_from_one_and_keeps_the_newest() -> None:
    events: list[dict[str, Any]] = []
    seq = 0
    for n in range(5):
        seq = log_event(events, seq, "play", {"n": n}, keep=3)
    assert seq == 5
    assert events == [
        {"seq": 3, "type": "play", "n": 2},
        {"seq": 4, "type": "play", "n": 3},
        {"seq": 5, "type": "play", "n": 4},
    ]
    with pytest.raises(ValueError):
        log_event(events, seq, "play", {"seq": 9}, keep=3)


def test_upgrade_numbers_legacy_events_up_to_the_last() -> None:
    legacy = [{"kind": "play", "seat": 0}, {"kind": "draw", "seat": 0}]
    upgraded, last = upgrade_events(legacy, "kind", None)
    assert last == 2
    assert upgraded == [{"seq": 1, "type": "play", "seat": 0}, {"seq": 2, "type": "draw", "seat": 0}]
    assert legacy[0] == {"kind": "play", "seat": 0}  # the input is left alone
    current = [{"seq": 7, "type": "play"}]
    assert upgrade_events(current, "kind", 7) == (current, 7)


def _legacy(dump: dict[str, Any], key: str) -> dict[str, Any]:
    """A dump as stored before events had seq/type."""
    old = {k: v for k, v in dump.items() if k != "event_seq"}
    old["events"] = [
        {key: e["type"], **{k: v for k, v in e.items() if k not in ("seq", "type")}} for e in dump["events"]
    ]
    return old


@pytest.mark.parametrize(("game", "key"), [("mojo", "kind"), ("moby-trick", "event")])
def test_states_stored_before_seq_load_and_keep_numbering(game: str, key: str) -> None:
    engine = get_engine(game)
    rng = random.Random(4)
    state = engine.setup(3, 4, engine.spec.parse_options({}))
    for _ in range(30):
        seat = min(engine.to_act(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    loaded = engine.load(_legacy(engine.dump(state), key))
    before = engine.view(loaded, None)["events"]
    assert before and all(isinstance(e["seq"], int) and e["type"] for e in before)
    for _ in range(10):
        seat = min(engine.to_act(loaded))
        loaded = engine.apply(loaded, seat, rng.choice(engine.legal_actions(loaded, seat)))
    after = engine.view(loaded, None)["events"]
    check_event_history(before, after)
    assert after[-1]["seq"] > before[-1]["seq"]
