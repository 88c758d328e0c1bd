"""The one event shape every engine logs: {"seq": int, "type": str, ...}.

`seq` is 1-based, counted from the match's first event and strictly increasing;
the engine keeps the last number in its state, so it survives dump/load and
the client can tell new events from ones it has shown (views may redact other
fields of an event, never seq or type).
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]


def log_event(events: list[Event], last_seq: int, type_: str, fields: dict[str, Any], keep: int) -> int:
    """Append an event numbered `last_seq + 1` to `events`, keeping only the newest `keep`.

    Returns the new last seq, for the caller to store in its state.
    """
    if "seq" in fields or "type" in fields:
        raise ValueError("seq and type are set by log_event, not by the caller")
    seq = last_seq + 1
    events.append({"seq": seq, "type": type_, **fields})
    if len(events) > keep:
        del events[: len(events) - keep]
    return seq


def upgrade_events(events: list[Event], legacy_key: str, last_seq: int | None) -> tuple[list[Event], int]:
    """Events of a state dumped before they had seq/type: rename `legacy_key` to "type" and number
    them so the newest kept event gets the last seq (the dropped older ones are unknown).

    Returns the events and the last seq; dumps that already have both pass through unchanged.
    """
    upgraded = []
    for event in events:
        event = dict(event)
        if "type" not in event and legacy_key in event:
            event["type"] = event.pop(legacy_key)
        upgraded.append(event)
    if last_seq is None:
        last_seq = max((e["seq"] for e in upgraded if "seq" in e), default=len(upgraded))
    if any("seq" not in e for e in upgraded):
        first = last_seq - len(upgraded) + 1
        upgraded = [{**e, "seq": first + i} for i, e in enumerate(upgraded)]
    return [{"seq": e["seq"], "type": e["type"], **e} for e in upgraded], last_seq
