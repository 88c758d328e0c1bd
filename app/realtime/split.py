"""Viewers' state bodies as one public body plus each seat's own part, and the patch frames between
two such sets diffed and encoded once for what the viewers share.

A seat's body is the public body (the spectator's) with the top-level keys of `Own.body` replaced and,
inside "view", the keys of `Own.view` replaced. A socket remembers the public body and the own part it
was last sent; from there to the next, every key that is in neither own part is patched by the ops
of public-to-public, diffed and encoded once per move for every socket that shares the same previous
public body (normally all of them), and only the keys in an own part are diffed per seat. The ops a
socket receives still turn its previous body into exactly its new one (RFC 6902), and a socket's
frame holds nothing but ops from the public bodies and from its own seat's part.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import orjson

from app.realtime.patch import Op, _diff, _escape, _same

Message = dict[str, Any]

_ABSENT = object()


def encode(message: Any) -> str:
    """JSON text: orjson (fast), or the json module for what orjson refuses (huge integers)."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(message)


@dataclass(frozen=True, eq=False)
class Own:
    """What one seat's body has that the public body has not: top-level keys and keys of "view"."""

    body: dict[str, Any] = field(default_factory=dict)
    view: dict[str, Any] = field(default_factory=dict)
    body_keys: frozenset[str] = field(init=False)
    view_keys: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "body_keys", frozenset(self.body))
        object.__setattr__(self, "view_keys", frozenset(self.view))


NOTHING_OWN = Own()
"""A spectator's own part: its body is the public body as it is."""


@dataclass(frozen=True, eq=False)
class Split:
    """The state bodies of a set of viewers at one version: the public one and each seat's own part
    (a seat without an entry, or None, sees the public body as it is)."""

    public: Message
    own: dict[int | None, Own]

    def own_of(self, seat: int | None) -> Own:
        return self.own.get(seat, NOTHING_OWN)

    def body(self, seat: int | None) -> Message:
        return materialise(self.public, self.own_of(seat))


def materialise(public: Message, own: Own) -> Message:
    """The whole body of a viewer (a snapshot; what GET /state answers for that viewer)."""
    if own is NOTHING_OWN:
        return public
    body = {**public, **own.body}
    if own.view:
        body["view"] = {**public.get("view", {}), **own.view}
    return body


def _key_ops(old: dict[str, Any], new: dict[str, Any], prefix: str, skip: str = "") -> dict[str, list[Op]]:
    """Per top-level key but `skip`, the ops from `old` to `new` (keys that did not change are left
    out)."""
    changed: dict[str, list[Op]] = {}
    for key in old:
        if key not in new and key != skip:
            changed[key] = [{"op": "remove", "path": f"{prefix}/{_escape(key)}"}]
    for key, value in new.items():
        if key == skip:
            continue
        was = old.get(key, _ABSENT)
        if was is _ABSENT:
            changed[key] = [{"op": "add", "path": f"{prefix}/{_escape(key)}", "value": value}]
        elif not _same(was, value):
            ops: list[Op] = []
            _diff(was, value, f"{prefix}/{_escape(key)}", ops)
            if ops:
                changed[key] = ops
    return changed


class SharedOps:
    """The ops from one public body to the next, per key, and their JSON text per set of keys left
    out (the keys some seat patches from its own part instead)."""

    def __init__(self, old: Message, new: Message) -> None:
        old_view, new_view = old.get("view", {}), new.get("view", {})
        if isinstance(old_view, dict) and isinstance(new_view, dict):
            top = _key_ops(old, new, "", skip="view")
            self.view = _key_ops(old_view, new_view, "/view")
        else:
            top = _key_ops(old, new, "")
            self.view = {}
        self.top = top
        self._texts: dict[tuple[frozenset[str], frozenset[str]], str] = {}

    def text(self, skip_top: frozenset[str], skip_view: frozenset[str]) -> str:
        """The JSON text of the ops (without the list's brackets) for every key not skipped."""
        skip_top = frozenset(skip_top & self.top.keys())
        skip_view = frozenset(skip_view & self.view.keys())
        cached = self._texts.get((skip_top, skip_view))
        if cached is None:
            ops = [op for key, key_ops in self.top.items() if key not in skip_top for op in key_ops]
            ops.extend(op for key, key_ops in self.view.items() if key not in skip_view for op in key_ops)
            cached = encode(ops)[1:-1]
            self._texts[(skip_top, skip_view)] = cached
        return cached


def _own_ops(
    old_public: dict[str, Any],
    old_own: dict[str, Any],
    new_public: dict[str, Any],
    new_own: dict[str, Any],
    prefix: str,
    ops: list[Op],
) -> None:
    """Ops for the keys either own part replaces: from the seat's old value to its new one."""
    for key in old_own.keys() | new_own.keys():
        was = old_own.get(key, _ABSENT)
        if was is _ABSENT:
            was = old_public.get(key, _ABSENT)
        now = new_own.get(key, _ABSENT)
        if now is _ABSENT:
            now = new_public.get(key, _ABSENT)
        path = f"{prefix}/{_escape(key)}"
        if was is _ABSENT:
            if now is not _ABSENT:
                ops.append({"op": "add", "path": path, "value": now})
        elif now is _ABSENT:
            ops.append({"op": "remove", "path": path})
        elif not _same(was, now):
            _diff(was, now, path, ops)


def own_ops(old_public: Message, old_own: Own, new_public: Message, new_own: Own) -> list[Op]:
    """The ops of the keys the seat's own parts (old or new) replace."""
    ops: list[Op] = []
    _own_ops(old_public, old_own.body, new_public, new_own.body, "", ops)
    if old_own.view or new_own.view:
        _own_ops(
            old_public.get("view", {}), old_own.view, new_public.get("view", {}), new_own.view, "/view", ops
        )
    return ops


def patch_text(version: int, shared: str, own: list[Op]) -> str | None:
    """A patch frame's text, the shared ops' text spliced in as it is (None: nothing changed)."""
    own_text = encode(own)[1:-1] if own else ""
    ops = f"{shared},{own_text}" if shared and own_text else shared or own_text
    if not ops:
        return None
    return f'{{"type":"patch","version":{int(version)},"ops":[{ops}]}}'
