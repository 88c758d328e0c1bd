"""Every page in every language: a player reading French, German, Dutch, Spanish or Italian reads no
English word on any page (tests/english_words.py finds them) — the home page with each game's create
options, the rules pages, the 404 pages, and each game's whole match (the waiting room, each seat's
room at every step, round summaries, game over, the table screen, "Your games", "Since you left", the
replay stepped across). A test walks to the end before it fails, and then says every finding at once:
the page and moment, the English words, the element (its place in the page) and its text. Each test
also writes its findings to test-artifacts/english-words/, one file a test.

What is walked in which language, for the time two cores take: every page at every step in French and
German (the two whose words run longest, and the screenshots' languages); in Dutch, Spanish and
Italian, the home, rules and 404 pages, and for each game its waiting room, its table under way and its
game over with "Your games" (what is left in those once French and German hold is a word missing from
one catalogue: a catalogue is checked whole by tests/app/test_i18n.py).

The test suite's own game (pebbles) is left out: its words are no player's.

Also here: three friends at one table in three languages each read theirs in the log, the moves, the
round summary and the game over; axe finds nothing serious in any language (home, a table under way,
a rules page); and each game's table mid-match in French and German at 375 px, photographed."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx
import pytest
from playwright.sync_api import Page, expect

from app.names import BOT_NAMES
from tests.english_words import english_words
from tests.games import TEST_GAMES
from tests.rooms import auth, join, new_room, start_match
from tests.servers import ServeProcess

from .axe import serious_violations
from .support import ROOT, close_summary, motion_done, shoot
from .walk import MATCHES, MIDDLE, PLAYERS, caught_up, walk_home_rules_and_missing, walk_match

pytestmark = pytest.mark.browser

LANGUAGES = ("fr", "de", "nl", "es", "it")
# Walked at every step (the module's docstring says why).
EVERY_STEP = ("fr", "de")
GAMES = [game for game in MATCHES if game not in TEST_GAMES]
FINDINGS = ROOT / "test-artifacts" / "english-words"
NAMES = (*PLAYERS, *BOT_NAMES)

# What a page says, element by element: the title, each shown element's own text (its text nodes; the
# element's whole text beside it, to recognise it), and the names a screen reader gives shown elements
# (aria-label, title, alt, placeholder...). Each with where the element is: its tag, id and first
# class, under the nearest ancestor with an id.
SAID = """() => {
  const names = ["aria-label", "title", "alt", "placeholder", "aria-description", "aria-valuetext",
    "aria-roledescription"];
  const describe = (el) => {
    const one = (n) => n.tagName.toLowerCase() + (n.id ? "#" + n.id : "")
      + (n.classList.length ? "." + n.classList[0] : "");
    const above = el.parentElement?.closest("[id]");
    return (above && above !== el ? one(above) + " " : "") + one(el);
  };
  const shown = (el) => el.checkVisibility({ visibilityProperty: true });
  const flat = (s) => s.replace(/\\s+/g, " ").trim();
  const said = [{ where: "title", own: document.title, text: document.title }];
  const own = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || el.closest("script, style, template")) continue;
    if (!shown(el)) continue;
    own.set(el, (own.get(el) ?? "") + " " + node.textContent);
  }
  for (const [el, text] of own) {
    const game = el.closest("[data-game]");
    said.push({ where: describe(el), own: flat(text), text: flat(el.textContent).slice(0, 200),
      game: game ? `[data-game="${game.dataset.game}"]` : "" });
  }
  for (const el of document.querySelectorAll(names.map((n) => `[${n}]`).join(","))) {
    if (!shown(el)) continue;
    for (const name of names) {
      if (el.hasAttribute(name)) {
        const value = el.getAttribute(name);
        said.push({ where: `${describe(el)} [${name}]`, own: value, text: value });
      }
    }
  }
  return said;
}"""
# What changes from one move to the next in an element's words: numbers, and the players' names. An
# element saying the same words at many moves ("Ann played a 6", "Bo played a 9") is one finding, seen
# first where the report says.
_CHANGING = re.compile(r"\d+|\b(?:" + "|".join(NAMES) + r")\b")


def _test_game_words(where: str, item: dict[str, str]) -> bool:
    """The test suite's own game (pebbles) is offered in the lobby of the test server: its line and
    its options are the test's English, not a player's words."""
    if any(f'[data-game="{game}"]' in item.get("game", "") for game in TEST_GAMES):
        return True
    creating = any(where.endswith(f"creating {game}") for game in TEST_GAMES)
    return creating and "#options-fields" in item["where"]


@dataclass
class Finding:
    lang: str
    where: str  # the page and moment, first seen
    element: str
    words: list[str]
    text: str
    times: int = 1


@dataclass
class EnglishReader:
    """Reads pages in one language and keeps every element that says English words."""

    lang: str
    found: dict[tuple[str, str], Finding] = field(default_factory=dict)
    reads: int = 0

    def read(self, page: Page, where: str) -> None:
        self.reads += 1
        lang = page.evaluate("() => document.documentElement.lang")
        assert lang == self.lang, f"{where}: the page is in {lang!r}, not {self.lang!r}"
        said: list[dict[str, str]] = page.evaluate(SAID)
        for item in said:
            if _test_game_words(where, item):
                continue
            words = english_words(item["own"], NAMES)
            if not words:
                continue
            # One element saying one thing is one finding, wherever and however often it is seen.
            key = (item["where"], _CHANGING.sub("#", item["own"]))
            if key in self.found:
                self.found[key].times += 1
            else:
                self.found[key] = Finding(self.lang, where, item["where"], words, item["text"])

    def report(self) -> str:
        return "\n".join(
            f"[{f.lang}] {f.where} · {f.element}{f' (seen {f.times}x)' if f.times > 1 else ''}: "
            f"{', '.join(f.words)} ← {f.text!r}"
            for f in self.found.values()
        )

    def check(self, name: str) -> None:
        FINDINGS.mkdir(parents=True, exist_ok=True)
        (FINDINGS / f"{name}.txt").write_text(self.report() + "\n" if self.found else "")
        (FINDINGS / f"{name}.json").write_text(
            json.dumps([f.__dict__ for f in self.found.values()], ensure_ascii=False, indent=1)
        )
        if self.found:
            pytest.fail(f"{len(self.found)} elements say English words in {self.lang!r}:\n" + self.report())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_home_rules_and_missing_pages_in_every_language(
    server: ServeProcess, new_player: Callable[..., Page], lang: str
) -> None:
    reader = EnglishReader(lang)
    walk_home_rules_and_missing(server.base_url, new_player(375, 812, locale=lang), reader.read)
    assert reader.reads > 5
    reader.check(f"pages-{lang}")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_match_in_every_language(
    server: ServeProcess, new_player: Callable[..., Page], game: str, lang: str
) -> None:
    reader = EnglishReader(lang)
    every_step = lang in EVERY_STEP

    def photographed(page: Page) -> None:
        if every_step:
            # Each game's table under way, in the two languages with the longest words.
            shoot(page, f"language/{game}-{lang}-mid")

    moves = walk_match(
        server, new_player, game, reader.read, locale=lang, every_step=every_step, mid_match=photographed
    )
    assert moves > MIDDLE
    assert reader.reads > (moves if every_step else 3)
    reader.check(f"{game}-{lang}")


def test_an_english_page_is_found_out(server: ServeProcess, new_player: Callable[..., Page]) -> None:
    """The reader is no test that cannot fail: English pages, read as if they were French, hold
    English words on the home page and at a table (the walk's own reader, its own page script)."""
    reader = EnglishReader("en")
    page = new_player(375, 812, locale="en-US")
    page.goto(server.base_url + "/")
    reader.read(page, "home")
    assert any("Start" in f.text or "game" in f.words for f in reader.found.values()), reader.report()
    room = new_room(server.base_url, "mojo", target=20)
    join(server.base_url, room)
    start_match(server.base_url, room)
    page.goto(f"{server.base_url}/r/{room.room_id}#seat={room.token}")
    expect(page.locator("#game-panel")).to_be_visible()
    reader.read(page, "a table")
    words = {word.lower() for f in reader.found.values() for word in f.words}
    assert {"your", "the", "cards"} & words, reader.report()
    with pytest.raises(pytest.fail.Exception, match="elements say English words in 'en'"):
        reader.check("english-on-purpose")


# Three friends at one Mojo table to 20 points (a match of a round or two): Ann reads French, Bo
# German, Cy English. What each reads of the match, by what it is.
TABLE_LANGUAGES = {"Ann": "fr", "Bo": "de", "Cy": "en"}
PARTS = {
    # The log's lines, each a move in words.
    "log": "#game-log",
    # The moves as the table says them: whose turn and what to do, and the others' moves read out.
    "moves": "#turn-status, #announcer",
    "round summary": "#round-summary:not([hidden])",
    "game over": "#game-over:not([hidden])",
}


def test_three_friends_at_one_table_each_read_their_own_language(
    server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    base = server.base_url
    room = new_room(base, "mojo", target=20)
    tokens = [room.token, join(base, room, "Bo"), join(base, room, "Cy")]
    pages: dict[str, Page] = {}
    for name, token in zip(TABLE_LANGUAGES, tokens, strict=True):
        lang = TABLE_LANGUAGES[name]
        page = new_player(375, 812, locale=lang)
        page.goto(f"{base}/r/{room.room_id}#seat={token}")
        expect(page.locator("#waiting-panel")).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        pages[name] = page
    start_match(base, room)
    # Everything each one read of each part, and the English words in it.
    said: dict[str, dict[str, str]] = {name: dict.fromkeys(PARTS, "") for name in pages}

    def look(*parts: str) -> None:
        for name, page in pages.items():
            for part in parts:
                said[name][part] += "\n" + "\n".join(page.locator(PARTS[part]).all_inner_texts())

    with httpx.Client(base_url=base) as http:
        while True:
            public = http.get(f"/api/rooms/{room.room_id}/state").json()
            for page in pages.values():
                caught_up(page, public["version"])
            look("moves")
            if public["status"] == "finished":
                break
            # A round's summary, over each table until its reader closes it.
            if any(page.locator(PARTS["round summary"]).count() for page in pages.values()):
                look("round summary", "log")
                for page in pages.values():
                    close_summary(page)
            token = tokens[public["to_act"][0]]
            view = http.get(f"/api/rooms/{room.room_id}/state", headers=auth(token)).json()
            sent = http.post(
                f"/api/rooms/{room.room_id}/actions",
                json={"action": view["legal_actions"][0], "version": view["version"]},
                headers=auth(token),
            )
            assert sent.status_code == 200, sent.text
    for page in pages.values():
        expect(page.locator(PARTS["game over"])).to_be_visible()
    # The last round's summary stands over the game over.
    look("game over", "round summary", "log")
    # Cy's English pages say English words in every part: what is read is the part (no vacuous pass).
    for part in PARTS:
        assert english_words(said["Cy"][part], NAMES), f"Cy's {part} holds no English: {said['Cy'][part]!r}"
    problems = [
        f"{name} ({TABLE_LANGUAGES[name]}) · {part}: {', '.join(words)}"
        for name in ("Ann", "Bo")
        for part in PARTS
        if (words := english_words(said[name][part], NAMES))
    ]
    # Ann's and Bo's pages say the same moves in two other languages.
    problems += [
        f"Ann's and Bo's {part} read the same: {said['Ann'][part][:200]!r}"
        for part in PARTS
        if said["Ann"][part] == said["Bo"][part]
    ]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def _under_way(base: str, room: str, tokens: list[str], moves: int = 5) -> int:
    """`moves` moves made over HTTP, each the first legal move of the first seat to act: the same
    moments in every run (no bot's timing). Five: Mooki Island's host has just taken a card and is at
    its side choice; the other tables are a few cards in. Returns the version then."""
    with httpx.Client(base_url=base) as http:
        for _ in range(moves):
            seat = http.get(f"/api/rooms/{room}/state").json()["to_act"][0]
            view = http.get(f"/api/rooms/{room}/state", headers=auth(tokens[seat])).json()
            sent = http.post(
                f"/api/rooms/{room}/actions",
                json={"action": view["legal_actions"][0], "version": view["version"]},
                headers=auth(tokens[seat]),
            )
            assert sent.status_code == 200, sent.text
        return int(http.get(f"/api/rooms/{room}/state").json()["version"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_finds_nothing_serious_in_every_language(
    server: ServeProcess, new_player: Callable[..., Page], lang: str
) -> None:
    base = server.base_url
    page = new_player(1280, 800, locale=lang)
    found: dict[str, list[str]] = {}
    page.goto(base + "/")
    found["home"] = serious_violations(page)
    for game in GAMES:
        page.goto(f"{base}/rules/{game}")
        found[f"rules of {game}"] = serious_violations(page)
        players, options = MATCHES[game]
        room = new_room(base, game, **options)
        tokens = [room.token, *(join(base, room, name) for name in PLAYERS[1:players])]
        start_match(base, room)
        version = _under_way(base, room.room_id, tokens)
        page.goto(f"{base}/r/{room.room_id}#seat={room.token}")
        expect(page.locator("#game-panel")).to_be_visible()
        caught_up(page, version)
        # (Measured at rest: a panel fading in has the colours of no moment a player reads.)
        motion_done(page)
        found[f"{game}, under way"] = serious_violations(page)
    serious = {where: v for where, v in found.items() if v}
    if serious:
        said = (f"[{lang}] {where}:\n  " + "\n  ".join(v) for where, v in serious.items())
        pytest.fail("\n".join(said), pytrace=False)
