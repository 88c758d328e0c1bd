"""A fast RFC 6902 diff between two JSON documents, tuned for consecutive game views."""

from __future__ import annotations

from typing import Any

Op = dict[str, Any]

# How many items a list may lose from its front and still patch as a shift rather than item by item.
MAX_DROPPED = 4


def _escape(key: str) -> str:
    if "~" not in key and "/" not in key:
        return key
    return key.replace("~", "~0").replace("/", "~1")


def diff(old: Any, new: Any) -> list[Op]:
    """Operations that turn `old` into `new` (jsonpatch.apply_patch(old, ops) == new)."""
    ops: list[Op] = []
    if not _same(old, new):
        _diff(old, new, "", ops)
    return ops


def _same(a: Any, b: Any) -> bool:
    # Containers compare with C-speed ==, which is what keeps the diff fast; it also holds True == 1,
    # so a bool standing where an equal number stood inside an unchanged container goes unpatched
    # (engine views keep each field's type). A leaf that changes type is always replaced.
    if a is b:
        return True  # a logged event handed on uncopied from one view to the next
    if type(a) is not type(b) or a != b:
        return False
    # 0.0 == -0.0, yet they are different JSON numbers.
    return type(a) is not float or repr(a) == repr(b)


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    """Operations for `old` and `new`, which the caller found to differ (checked once, not again)."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in new.items():
            if key in old:
                # Most keys are unchanged: checked before their path is even written.
                was = old[key]
                if not _same(was, value):
                    _diff(was, value, f"{path}/{_escape(key)}", ops)
            else:
                ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": value})
    elif isinstance(old, list) and isinstance(new, list):
        _diff_list(old, new, path, ops)
    else:
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_list(old: list[Any], new: list[Any], path: str, ops: list[Op]) -> None:
    # A list that only grew at the end, or dropped a few items from its front first (a sliding window
    # such as an event log), patches as removes at the front plus appends.
    for dropped in range(min(len(old), MAX_DROPPED + 1)):
        kept = len(old) - dropped
        # The first kept item is checked alone before the slices are built and compared.
        if (
            kept <= len(new)
            and (not kept or _same(old[dropped], new[0]))
            and _same(old[dropped:], new[:kept])
        ):
            ops.extend({"op": "remove", "path": f"{path}/0"} for _ in range(dropped))
            ops.extend({"op": "add", "path": f"{path}/-", "value": item} for item in new[kept:])
            return
    if not old:
        # One op for the whole list (a hand of legal actions appearing): cheaper to build and apply.
        ops.append({"op": "replace", "path": path, "value": new})
        return
    if not new:
        # One op rather than one remove per item (a seat's legal actions going away).
        ops.append({"op": "replace", "path": path, "value": []})
        return
    if len(new) < len(old) and _same(old[: len(new)], new):
        # Remove from the end so the earlier indices stay valid while the patch applies.
        ops.extend({"op": "remove", "path": f"{path}/{i}"} for i in range(len(old) - 1, len(new) - 1, -1))
        return
    if len(old) == len(new):
        for i, (was, now) in enumerate(zip(old, new, strict=True)):
            if not _same(was, now):
                _diff(was, now, f"{path}/{i}", ops)
        return
    ops.append({"op": "replace", "path": path, "value": new})
