"""engines/ must stay pure: no web stack, no database, no I/O libraries."""

from __future__ import annotations

import ast
from pathlib import Path

FORBIDDEN = {"app", "fastapi", "starlette", "sqlalchemy", "alembic", "uvicorn", "redis", "psycopg", "httpx"}
ENGINES = Path(__file__).resolve().parents[2] / "engines"


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_engines_import_nothing_from_the_web_stack() -> None:
    files = sorted(ENGINES.rglob("*.py"))
    assert files, "no engine sources found"
    offenders = {str(p.relative_to(ENGINES)): sorted(_imported_roots(p) & FORBIDDEN) for p in files}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_engines_never_use_global_random() -> None:
    for path in ENGINES.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for forbidden in ("random.shuffle(", "random.choice(", "random.randint(", "random.random()"):
            assert forbidden not in text, f"{path}: global randomness ({forbidden})"


# Methods that change a list, dict, set or deque in place.
MUTATORS = {
    "append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "setdefault",
    "add", "discard", "move_to_end", "appendleft", "popleft", "sort", "reverse",
}  # fmt: skip
# The registry is the one process-wide table on purpose: which games this process plays.
REGISTRY = ENGINES / "core" / "registry.py"


def _module_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _changed_in_functions(tree: ast.Module) -> set[str]:
    """Module-level names that some function changes in place, rebinds (`global`) or edits by key."""
    names = _module_names(tree)
    changed: set[str] = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        local = {a.arg for a in function.args.args + function.args.kwonlyargs}
        for node in ast.walk(function):
            if isinstance(node, ast.Global):
                changed.update(node.names)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in MUTATORS
            ):
                owner = node.func.value
                if isinstance(owner, ast.Name) and owner.id in names and owner.id not in local:
                    changed.add(owner.id)
            elif isinstance(node, ast.Assign | ast.AugAssign | ast.Delete):
                targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
                for target in targets:
                    owner = target.value if isinstance(target, ast.Subscript) else None
                    if isinstance(owner, ast.Name) and owner.id in names and owner.id not in local:
                        changed.add(owner.id)
    return changed


def test_engines_keep_no_process_wide_mutable_state() -> None:
    """A pure engine's answers depend on its arguments alone: no cache or table at module level that
    its functions fill (shared by every match and every thread of the process)."""
    found = {
        str(path.relative_to(ENGINES)): sorted(changed)
        for path in sorted(ENGINES.rglob("*.py"))
        if path != REGISTRY
        and (changed := _changed_in_functions(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert found == {}


def test_the_mutable_state_check_catches_a_module_level_cache() -> None:
    cache = """
_SEEN = {}
def remember(event, seat):
    _SEEN[id(event)] = seat
def forget():
    _SEEN.popitem()
"""
    assert _changed_in_functions(ast.parse(cache)) == {"_SEEN"}
    local = "TABLE = {}\ndef f(TABLE):\n    TABLE['a'] = 1\n    rows = []\n    rows.append(1)\n"
    assert _changed_in_functions(ast.parse(local)) == set()
