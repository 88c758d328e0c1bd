"""The import graph of app/: no module reaches itself through its imports, and the hub reads nothing from
the services (the playing layer hands it every body).

Every `import app...` / `from app... import ...` counts, at module level or inside a function; only
imports under `if TYPE_CHECKING:` are left out (they never run, so they cannot make an import cycle at
run time; today app/ has none)."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"


def _module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, modules: set[str], package: str) -> set[str]:
    found: set[str] = set()
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _type_checking_only(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            # `from app.services import people` imports the module app.services.people.
            found.update(f"{base}.{alias.name}" for alias in node.names)
        stack.extend(ast.iter_child_nodes(node))
    return {name for name in found if name in modules}


def import_graph() -> dict[str, set[str]]:
    paths = {_module_name(path): path for path in APP.rglob("*.py")}
    graph = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name] = _imports(ast.parse(path.read_text(), str(path)), set(paths), package) - {name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a path that ends where it starts, or None."""
    done: set[str] = set()
    for root in sorted(graph):
        if root in done:
            continue
        path: list[str] = [root]
        on_path = {root}
        pending = [iter(sorted(graph[root]))]
        while pending:
            step = next(pending[-1], None)
            if step is None:
                pending.pop()
                done.add(path[-1])
                on_path.discard(path.pop())
                continue
            if step in on_path:
                return [*path[path.index(step) :], step]
            if step not in done:
                path.append(step)
                on_path.add(step)
                pending.append(iter(sorted(graph[step])))
    return None


def test_app_has_no_import_cycle() -> None:
    graph = import_graph()
    assert graph.get("app.playing.master"), "the graph was read"
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_the_cycle_check_finds_a_cycle_through_a_function_level_import() -> None:
    tree = ast.parse("def later():\n    from app.b import thing\n")
    assert _imports(tree, {"app.b", "app.c"}, "app") == {"app.b"}
    assert find_cycle({"app.a": {"app.b"}, "app.b": {"app.c"}, "app.c": {"app.a"}}) == [
        "app.a",
        "app.b",
        "app.c",
        "app.a",
    ]
    assert find_cycle({"app.a": {"app.b"}, "app.b": set()}) is None


def test_type_checking_imports_are_left_out() -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import app.b\n")
    assert _imports(tree, {"app.b"}, "app") == set()


def test_the_hub_imports_nothing_from_the_services() -> None:
    graph = import_graph()
    for module in ("app.realtime.hub", "app.realtime.broker", "app.realtime.patch"):
        assert not {name for name in graph[module] if name.startswith("app.services")}, module
