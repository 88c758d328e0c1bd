"""The dataclass state codec: dump, load and clone from one list of fields."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from engines.core import Rng, StateCodec


@dataclass
class Sample:
    players: int
    rng: Rng
    name: str = ""
    leader: int | None = None
    hands: list[list[int]] = field(default_factory=list)
    pile: list[int] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] | None = None
    added_later: bool = True


def _upgrade(data: dict[str, Any]) -> dict[str, Any]:
    data.setdefault("added_later", False)  # states stored before the field existed
    return data


CODEC = StateCodec(Sample, upgrade=_upgrade)


def sample() -> Sample:
    return Sample(
        players=2,
        rng=Rng(5, 3),
        name="x",
        leader=1,
        hands=[[1, 2], [3]],
        pile=[4],
        events=[{"seq": 1, "type": "play"}],
        summary={"scores": [1, 2]},
    )


def test_dump_is_json_and_loads_back_equal() -> None:
    state = sample()
    dumped = CODEC.dump(state)
    assert json.loads(json.dumps(dumped)) == dumped
    assert dumped["rng"] == [5, 3]
    assert CODEC.load(json.loads(json.dumps(dumped))) == state
    dumped["hands"][0].append(9)
    dumped["events"][0]["type"] = "edited"
    assert state.hands == [[1, 2], [3]] and state.events[0]["type"] == "play"


def test_load_shares_nothing_with_its_input() -> None:
    data = CODEC.dump(sample())
    state = CODEC.load(data)
    data["hands"][1].append(7)
    data["summary"]["scores"].append(3)
    assert state.hands == [[1, 2], [3]] and state.summary == {"scores": [1, 2]}


def test_clone_copies_every_list_and_the_rng() -> None:
    state = sample()
    copy = CODEC.clone(state)
    assert copy == state and type(copy) is Sample
    copy.hands[0].append(9)
    copy.pile.append(9)
    copy.events.append({"seq": 2, "type": "draw"})
    copy.rng.shuffled([1, 2, 3])
    assert state == sample()


def test_missing_fields_are_upgraded_or_defaulted_and_unknown_ones_refused() -> None:
    data = CODEC.dump(sample())
    del data["added_later"], data["pile"]
    loaded = CODEC.load(data)
    assert loaded.added_later is False and loaded.pile == []
    with pytest.raises(ValueError, match="unknown Sample fields"):
        CODEC.load({**CODEC.dump(sample()), "surprise": 1})


def test_types_the_codec_cannot_copy_are_refused_up_front() -> None:
    @dataclass
    class Odd:
        cards: set[int]

    with pytest.raises(TypeError, match="does not know"):
        StateCodec(Odd)
    with pytest.raises(TypeError, match="not a dataclass"):
        StateCodec(int)
