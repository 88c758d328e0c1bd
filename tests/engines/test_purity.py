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
