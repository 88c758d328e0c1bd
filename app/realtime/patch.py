"""A fast RFC 6902 diff between two JSON documents, tuned for consecutive game views."""

from __future__ import annotations

import json
from typing import Any

Op = dict[str, Any]


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def diff(old: Any, new: Any) -> list[Op]:
    """Operations that turn `old` into `new` (jsonpatch.apply_patch(old, ops) == new)."""
    ops: list[Op] = []
    _diff(old, new, "", ops)
    return ops


def _same(a: Any, b: Any) -> bool:
    # Python's == holds True == 1 == 1.0, which JSON (and the browser) tell apart. For containers the
    # C-speed == filters first and the C-speed encoder settles the rare types-only difference.
    if type(a) is not type(b) or a != b:
        return False
    if isinstance(a, dict | list):
        return json.dumps(a) == json.dumps(b)
    # 0.0 == -0.0 too, yet they are different JSON numbers.
    return type(a) is not float or repr(a) == repr(b)


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    if _same(old, new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in new.items():
            if key in old:
                _diff(old[key], value, f"{path}/{_escape(key)}", ops)
            else:
                ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": value})
    elif isinstance(old, list) and isinstance(new, list):
        _diff_list(old, new, path, ops)
    else:
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_list(old: list[Any], new: list[Any], path: str, ops: list[Op]) -> None:
    shared = min(len(old), len(new))
    if len(new) > len(old) and all(_same(old[i], new[i]) for i in range(shared)):
        ops.extend({"op": "add", "path": f"{path}/-", "value": item} for item in new[shared:])
        return
    if len(new) < len(old) and all(_same(old[i], new[i]) for i in range(shared)):
        # Remove from the end so the earlier indices stay valid while the patch applies.
        ops.extend({"op": "remove", "path": f"{path}/{i}"} for i in range(len(old) - 1, shared - 1, -1))
        return
    if len(old) == len(new):
        for i in range(shared):
            _diff(old[i], new[i], f"{path}/{i}", ops)
        return
    ops.append({"op": "replace", "path": path, "value": new})
