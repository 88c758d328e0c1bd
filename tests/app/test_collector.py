"""The garbage collector's timing in a server process (app/serving.py `Collector`): cycles are found
by the timed young collections, what survives one is left out of the next, and a cycle among those is
found by the next full collection."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from app.config import Settings
from app.serving import Collector, tune_gc


class Node:
    """An object that can sit in a cycle and be watched through a weak reference."""

    def __init__(self) -> None:
        self.other: Node | None = None


def _cycle() -> tuple[Node, weakref.ref[Node]]:
    first, second = Node(), Node()
    first.other, second.other = second, first
    return first, weakref.ref(first)


@pytest.fixture
def collector_state() -> Iterator[None]:
    """The test process's collector as it was (these tests turn it off and freeze)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


@pytest.mark.usefixtures("collector_state")
def test_a_cycle_dropped_before_a_young_run_is_collected_by_it() -> None:
    collector = Collector(young_every=0.1, full_every=600)
    node, watch = _cycle()
    del node
    assert watch() is not None  # reference counting alone never frees a cycle
    collector.step(now=0.0)
    assert watch() is None


@pytest.mark.usefixtures("collector_state")
def test_what_survives_a_run_is_left_out_until_the_full_collection() -> None:
    collector = Collector(young_every=0.1, full_every=600)
    start = collector._next_full - 600
    node, watch = _cycle()
    collector.step(now=start + 0.1)
    assert gc.get_freeze_count() > 0  # the survivor is set aside
    del node
    collector.step(now=start + 0.2)
    # A young run does not walk what was set aside: the cycle is still there.
    assert watch() is not None
    collector.step(now=start + 600)
    assert watch() is None
    # Frozen again afterwards, and the next full collection is a period later.
    assert gc.get_freeze_count() > 0
    assert collector._next_full == start + 1200


@pytest.mark.usefixtures("collector_state")
def test_a_frozen_object_is_still_freed_by_reference_counting() -> None:
    collector = Collector(young_every=0.1, full_every=600)
    lone = Node()
    watch = weakref.ref(lone)
    collector.step(now=0.0)
    del lone
    assert watch() is None


@pytest.mark.usefixtures("collector_state")
def test_serve_runs_the_timed_collector_and_zero_leaves_it_to_cpython() -> None:
    gc.enable()
    collector = tune_gc(Settings(gc_young_seconds=0.01, gc_full_seconds=600))
    try:
        assert not gc.isenabled()
        node, watch = _cycle()
        del node
        for _ in range(500):
            if watch() is None:
                break
            collector._stop.wait(0.01)
        assert watch() is None, "the collector's thread collected the cycle"
    finally:
        collector.stop()
    gc.enable()
    untouched = tune_gc(Settings(gc_young_seconds=0, gc_full_seconds=600))
    assert gc.isenabled() and untouched._thread is None
