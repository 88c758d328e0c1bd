"""Accessibility checks in the real browser with axe-core (installed by `make test-tools` from npm into
node_modules/; see package.json): `serious_violations(page)` runs axe on what the page shows now and
returns the serious and critical violations, contrast included, in words a failing test can print."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


@cache
def _source() -> str:
    if not AXE.exists():
        raise RuntimeError(f"{AXE} is missing: run `make test-tools` (npm install) first")
    return AXE.read_text()


def violations(page: Page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[dict[str, Any]]:
    """axe's violations of the given impacts on the page as it is now. The script is evaluated through
    the DevTools protocol, which the page's CSP (no inline script, no eval) does not apply to."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_source())
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
            const result = await window.axe.run(document, { resultTypes: ["violations"] });
            return result.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map((n) => ({
                    target: n.target.join(" "), summary: n.failureSummary, html: n.html.slice(0, 240),
                })),
            }));
        }"""
    )
    return [v for v in found if v["impact"] in impacts]


def serious_violations(page: Page) -> list[str]:
    """One line per serious or critical violation and element: rule id, what it asks, where."""
    return [
        f"{v['impact']} {v['id']} ({v['help']}): {node['target']} — {node['summary']}\n    {node['html']}"
        for v in violations(page)
        for node in v["nodes"][:5]
    ]
