"""A state codec read off a dataclass, so a game lists its state's fields once.

`StateCodec(MyState)` derives dump (to JSON), load (from JSON) and clone (a copy
sharing nothing mutable) from the dataclass's fields and type hints:

- scalars (int, str, bool, float, None) and tuples are shared as they are;
- `Rng` is copied, and dumped as its two integers;
- `list[...]` is copied, element by element for nested lists;
- a dict (an event, a round summary) is treated as a value: a state replaces it,
  never edits it in place, so clone shares it (dump and load still copy it).

States stored by an older version of a game pass through `upgrade` first
(rename keys, fill fields that did not exist); a missing field takes the
dataclass default.

A field declared `field(init=False)` is derived from the others: the state's
`__post_init__` sets it (so `load` does), clone copies it like any other
field, and dump leaves it out (Mojo's cache of its log as the other seats
read it).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from .protocol import json_copy
from .rng import Rng

T = TypeVar("T")
Copier = Callable[[Any], Any]

_SCALARS = (int, str, bool, float, type(None))


def _same(value: Any) -> Any:
    return value


def _copy_rng(rng: Rng) -> Rng:
    return Rng(rng.seed, rng.counter)


def _copier(hint: Any) -> Copier:
    """How clone copies a value of type `hint`."""
    origin = typing.get_origin(hint)
    if hint is Rng:
        return _copy_rng
    if hint in _SCALARS or hint is Any or origin is tuple or hint is tuple:
        return _same
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(options) != 1:
            if all(a in _SCALARS for a in options):
                return _same
            raise TypeError(f"the codec copies X | None, not {hint}")
        inner = _copier(options[0])
        if inner is _same:
            return _same
        return lambda value: None if value is None else inner(value)
    if origin is list:
        (item,) = typing.get_args(hint) or (Any,)
        inner = _copier(item)
        if inner is _same:
            return list
        return lambda value: [inner(v) for v in value]
    if origin is dict or hint is dict:
        return _same  # replaced, never edited in place
    raise TypeError(f"the codec does not know how to copy {hint}")


class StateCodec(Generic[T]):
    """dump/load/clone for the dataclass `cls` (see the module docstring for the rules)."""

    def __init__(
        self, cls: type[T], upgrade: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    ) -> None:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} is not a dataclass")
        hints = typing.get_type_hints(cls)
        self.cls = cls
        self.upgrade = upgrade
        # What is stored: the fields the constructor takes; derived ones (init=False) are rebuilt.
        self.fields = [f.name for f in dataclasses.fields(cls) if f.init]
        self._copiers = [(f.name, _copier(hints[f.name])) for f in dataclasses.fields(cls)]
        self._rngs = {name for name in self.fields if hints[name] is Rng}

    def clone(self, state: T) -> T:
        source = vars(state)
        copy = object.__new__(self.cls)
        target = vars(copy)
        for name, copier in self._copiers:
            target[name] = copier(source[name])
        return copy

    def dump(self, state: T) -> dict[str, Any]:
        source = vars(state)
        return {
            name: source[name].dump() if name in self._rngs else json_copy(source[name])
            for name in self.fields
        }

    def load(self, data: dict[str, Any]) -> T:
        values = self.upgrade(dict(data)) if self.upgrade is not None else dict(data)
        unknown = set(values) - set(self.fields)
        if unknown:
            raise ValueError(f"unknown {self.cls.__name__} fields: {sorted(unknown)}")
        for name in list(values):
            values[name] = Rng.load(values[name]) if name in self._rngs else json_copy(values[name])
        return self.cls(**values)
