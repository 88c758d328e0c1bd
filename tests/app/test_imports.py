"""The import graph of app/: the contracts in pyproject.toml hold (`[tool.importlinter]`, run by
`lint-imports`: no import cycle, and the hub reads nothing from the services), and no package's
`__init__` is on an import cycle, the one kind of cycle the `acyclic_siblings` contract cannot see.

Imports inside functions count; imports under `if TYPE_CHECKING:` are left out (they never run, so they
cannot make an import cycle at run time). Each check is shown failing on a throwaway `app` that breaks it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import grimp

PROJECT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(root: Path, *contracts: str) -> subprocess.CompletedProcess[str]:
    """`lint-imports` with the project's contracts (those named by id, or all), over the package `app`
    found in `root`."""
    # lint-imports puts its working directory first on the path; without PYTHONPATH nothing else can
    # shadow the `app` there.
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    return subprocess.run(
        [
            LINT_IMPORTS,
            "--no-cache",
            "--no-logo",
            *(f"--contract={id_}" for id_ in contracts),
            PROJECT / "pyproject.toml",
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def package_cycles(graph: grimp.ImportGraph) -> list[tuple[str, ...]]:
    """A cycle through each package that is on one, as a chain that ends where it starts.

    `acyclic_siblings` squashes a package into one node with everything under it, so it never sees
    `app.x` (its `__init__`) importing `app.x.y` while `app.x.y` imports `app.x`."""
    cycles = []
    for package in sorted(module for module in graph.modules if graph.find_children(module)):
        back = graph.find_upstream_modules(package) & graph.find_downstream_modules(package)
        if back:
            step = min(back)
            there = graph.find_shortest_chain(importer=package, imported=step) or ()
            home = graph.find_shortest_chain(importer=step, imported=package) or ()
            cycles.append((*there, *home[1:]))
    return cycles


def graph_of(package: str, root: Path) -> grimp.ImportGraph:
    """The import graph of `package` in `root` (grimp finds an imported package where it was imported
    from, so a throwaway package needs a name of its own)."""
    sys.path.insert(0, str(root))
    try:
        return grimp.build_graph(package, exclude_type_checking_imports=True, cache_dir=None)
    finally:
        sys.path.remove(str(root))


def write_package(root: Path, package: str, modules: dict[str, str]) -> Path:
    """`package` under `root`, with `{package}` in each module's text standing for its name."""
    for name, text in modules.items():
        path = root / package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.format(package=package))
    return root


def throwaway_app(root: Path, modules: dict[str, str]) -> Path:
    """An `app` package under `root` holding every module the contracts name, and `modules`."""
    named = ["__init__.py", "realtime/__init__.py", "services/__init__.py", "services/rooms.py"]
    named += [f"realtime/{name}.py" for name in ("hub", "broker", "patch")]
    return write_package(root, "app", {**dict.fromkeys(named, ""), **modules})


def test_app_keeps_its_import_contracts() -> None:
    checked = lint_imports(PROJECT)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_no_package_of_app_is_on_an_import_cycle() -> None:
    graph = graph_of("app", PROJECT)
    assert graph.find_modules_directly_imported_by("app.playing.master"), "the graph was read"
    assert package_cycles(graph) == []


def test_lint_imports_breaks_on_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    app = throwaway_app(
        tmp_path,
        {
            "a.py": "import app.b\n",
            "b.py": "def later():\n    from app.a import thing\n",
        },
    )
    checked = lint_imports(app, "acyclic")
    assert checked.returncode == 1, checked.stdout + checked.stderr


def test_lint_imports_breaks_when_the_hub_reaches_the_services(tmp_path: Path) -> None:
    # Through a module in between: the contract forbids indirect imports too.
    app = throwaway_app(
        tmp_path,
        {"realtime/broker.py": "import app.relay\n", "relay.py": "from app.services import rooms\n"},
    )
    checked = lint_imports(app, "hub-without-services")
    assert checked.returncode == 1, checked.stdout + checked.stderr


# Imported only for annotations: no edge.
TYPE_CHECKING_ONLY = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import {module}\n"


def test_type_checking_imports_are_left_out(tmp_path: Path) -> None:
    app = throwaway_app(
        tmp_path,
        {
            "a.py": TYPE_CHECKING_ONLY.format(module="app.b"),
            "b.py": "import app.a\n",
            "realtime/hub.py": TYPE_CHECKING_ONLY.format(module="app.services.rooms"),
        },
    )
    checked = lint_imports(app)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    typed = {"__init__.py": "import typed.clocks\n", "clocks.py": TYPE_CHECKING_ONLY.format(module="typed")}
    assert package_cycles(graph_of("typed", write_package(tmp_path, "typed", typed))) == []


# A package that imports its own module, which imports the package back through another module.
PACKAGE_CYCLE = {
    "__init__.py": "from {package}.chat import say\n",
    "chat.py": "from {package} import common\n",
    "common.py": "import {package}\n",
}


def test_a_package_importing_its_own_module_that_imports_it_is_on_a_cycle(tmp_path: Path) -> None:
    graph = graph_of("club", write_package(tmp_path, "club", PACKAGE_CYCLE))
    assert package_cycles(graph) == [("club", "club.chat", "club.common", "club")]


def test_acyclic_siblings_does_not_see_a_cycle_through_a_package_init(tmp_path: Path) -> None:
    """Why package_cycles is here: if lint-imports ever breaks on this, it can go."""
    app = throwaway_app(
        tmp_path,
        {f"people/{name}": text.format(package="app.people") for name, text in PACKAGE_CYCLE.items()},
    )
    checked = lint_imports(app)
    assert checked.returncode == 0, checked.stdout + checked.stderr
