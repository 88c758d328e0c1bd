"""Words a player should never read: the developer's (file paths, code names, JSON, a script's empty
values), found in a page's text by `developer_words`, a pure function the browser tests call on every
page they walk (tests/browser/test_player_words.py) and tests/test_player_words.py checks by itself."""

from __future__ import annotations

import re

# Each kind of developer word, by what it is called in a failure message. Words, not substrings: a
# share link (http://host/r/abc12) or "10:30" and "12-3" are ordinary text on a player's page.
_KINDS: dict[str, re.Pattern[str]] = {
    # A folder of this repository as the start of a path: "engines/mokuru", "docs/rules.md".
    "a file path": re.compile(
        r"(?<![\w/.])(?:engines|docs|static|templates|app|tests|node_modules|js|css)/\w"
    ),
    # A file name by its extension: "moves.json", "engine.py", "room.js".
    "a file name": re.compile(
        r"(?<![\w/-])[\w-]+\.(?:json|py|js|mjs|css|html|md|txt|toml|ya?ml)\b", re.IGNORECASE
    ),
    # An identifier in snake_case: "accept_miss", "double_discard".
    "a snake_case name": re.compile(r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9]\b"),
    # A piece of JSON, or an object printed by a script.
    "a JSON fragment": re.compile(r'\{"|"\s*:|\[object\b|\{\}|\[\]'),
    # A script's missing value, said out loud.
    "an empty script value": re.compile(r"\b(?:undefined|null|NaN)\b|\bInfinity\b"),
}

# One move said as a sentence ("Bo answered as a witness: confirm."): a single lower-case word after
# a colon at its end is an action's raw value glued onto the words, or the plain fallback for a move
# the game has no words for ("Bo: accept miss."). Only for move lines: elsewhere "Your turn: draw" is
# fine English.
_RAW_VALUE = re.compile(r":\s+[a-z]+(?:\s[a-z]+)?\.?$")


# A web address a page shows to be shared or opened (a room's link: host/r/Z1uP_c9): its room id may
# hold an underscore, and is no word. A bare "engines/mokuru" has no host, and stays a file path.
_ADDRESS = re.compile(r"https?://\S+|\b(?:[\w-]+\.)+[\w-]+(?::\d+)?/\S*|\blocalhost(?::\d+)?/\S*")


def developer_words(text: str) -> list[str]:
    """Each developer word in `text`, as "<kind>: <the words>"; empty for a player's plain English."""
    found: list[str] = []
    for kind, pattern in _KINDS.items():
        # Paths are looked for everywhere; the other kinds outside web addresses.
        read = text if kind == "a file path" else _ADDRESS.sub(" ", text)
        found.extend(
            f"{kind}: {match.group(0)!r} in {_around(read, match)!r}" for match in pattern.finditer(read)
        )
    return found


def raw_move_values(line: str) -> list[str]:
    """A move line (one logged move in words) that ends on an action's raw value after a colon."""
    stripped = line.strip()
    match = _RAW_VALUE.search(stripped)
    return [f"a raw value: {match.group(0)!r} in {stripped!r}"] if match else []


def _around(text: str, match: re.Match[str]) -> str:
    return " ".join(text[max(0, match.start() - 40) : match.end() + 40].split())
