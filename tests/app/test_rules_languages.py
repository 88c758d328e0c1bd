"""The four rules pages in the reader's language: every heading, paragraph, list item, table header and
button of the page's own prose is worded from the catalogue (none left as the English page says it),
in the game terms a player reads at the table, and the page says which language it is in."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from starlette.testclient import TestClient

from app import i18n
from app.config import Settings, sqlalchemy_url
from app.db import upgrade
from app.main import create_app

GAMES = ("mojo", "moby-trick", "mooki-island", "mokuru")
LANGUAGES = ("fr", "de", "nl", "es", "it")
# What a block says the same in a language as in English: the phase's printed name, the wooden
# object's name heading its column, and words French or German spell the English way.
SAME = {"Mojo Time", "Mokuru", "Bonus", "Total", "Type", "Trick", "Auto"}
# A few of each game's own terms, as a rulebook in that language says them (the table says them too).
TERMS = {
    ("mojo", "fr"): ["pioche", "défausse", "manche", "carte Mojo"],
    ("mojo", "de"): ["Nachziehstapel", "Ablagestapel", "Runde", "Mojo-Karte"],
    ("moby-trick", "fr"): ["pli", "atout", "perles", "jeton de valeur", "fournir la famille"],
    ("moby-trick", "de"): ["Stich", "Trumpf", "Perlen", "Wertmarker", "Familie bedienen"],
    ("mooki-island", "fr"): ["Araignée", "trophée", "étoiles", "collection"],
    ("mooki-island", "de"): ["Spinne", "Trophäe", "Sterne", "Sammlung"],
    ("mokuru", "fr"): ["ceinture noire", "grand maître", "figure de maître", "cartes Action"],
    ("mokuru", "de"): ["schwarzen Gürtel", "Großmeister", "Meister-Trick", "Aktionskarten"],
}
PROSE = {"title", "h1", "h2", "h3", "p", "li", "caption", "button"}


VOID = {"br", "hr", "img", "input", "link", "meta", "source"}


@dataclass
class Element:
    tag: str
    counted: bool  # a block of prose the check reads
    skipped: bool  # data, not prose: its text reaches no block
    parts: list[str] = field(default_factory=list)


class Blocks(HTMLParser):
    """The page's own prose as (tag, text) blocks: headings, paragraphs, list items, captions, table
    headers and buttons (with their accessible names). Left out: what the page prints from data (the
    game's line from its spec, the Mokuru belt list) and what is not prose (table cells, scripts)."""

    def __init__(self) -> None:
        super().__init__()
        self.blocks: list[tuple[str, str]] = []
        self.open: list[Element] = []
        self.skipping = 0
        self.in_thead = False
        self.lang = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        classes = (attr.get("class") or "").split()
        if tag == "html":
            self.lang = attr.get("lang") or ""
        self.in_thead = self.in_thead or tag == "thead"
        if tag in VOID:
            return
        skipped = classes == ["muted"] or "belt-list" in classes or tag in {"script", "style"}
        self.skipping += skipped
        counted = not self.skipping and (tag in PROSE or (tag == "th" and self.in_thead))
        if counted and tag == "button" and attr.get("aria-label"):
            self.blocks.append(("aria-label", attr["aria-label"] or ""))
        self.open.append(Element(tag, counted, skipped))

    def handle_endtag(self, tag: str) -> None:
        self.in_thead = self.in_thead and tag != "thead"
        while self.open:
            element = self.open.pop()
            self.skipping -= element.skipped
            text = "".join(element.parts)
            if element.counted and text.strip():
                self.blocks.append((element.tag, " ".join(text.split())))
            if self.open and not element.skipped:
                self.open[-1].parts.append(text)
            if element.tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.open:
            self.open[-1].parts.append(data)


def blocks(html: str) -> Blocks:
    parser = Blocks()
    parser.feed(html)
    parser.close()
    return parser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = sqlalchemy_url(f"sqlite:///{tmp_path_factory.mktemp('db') / 'motable.db'}")
    upgrade(url)
    with TestClient(create_app(Settings(database_url=url, bot_delay=0, languages="all"))) as client:
        yield client
    i18n.configure(i18n.Languages())


def page(site: TestClient, game: str, lang: str) -> str:
    answer = site.get(f"/rules/{game}", headers={"Accept-Language": lang})
    assert answer.status_code == 200
    return answer.text


def test_the_parser_reads_the_english_pages_prose() -> None:
    # The check below compares blocks: it must see the headings, the paragraphs and the buttons.
    sample = blocks(
        '<html lang="en"><h2>The goal</h2><p class="muted">Data · 2 players</p><p>Play <strong>one</strong>'
        ' card.</p><ol class="belt-list"><li>White</li></ol><table><thead><tr><th>Card</th></tr></thead>'
        '<tbody><tr><th>Row</th><td>Cell</td></tr></tbody></table><button aria-label="Open all sections">'
        "Open all</button></html>"
    )
    assert sample.lang == "en"
    assert sorted(sample.blocks) == sorted(
        [
            ("h2", "The goal"),
            ("p", "Play one card."),
            ("th", "Card"),
            ("aria-label", "Open all sections"),
            ("button", "Open all"),
        ]
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_rules_page_speaks_the_readers_language_with_no_english_prose_left(
    site: TestClient, game: str
) -> None:
    english = blocks(page(site, game, "en"))
    assert english.lang == "en"
    said = {text for _, text in english.blocks}
    headings = [text for tag, text in english.blocks if tag in {"h1", "h2", "h3"}]
    assert len(headings) >= 6 and len(said) >= 20, english.blocks
    for lang in LANGUAGES:
        html = page(site, game, lang)
        translated = blocks(html)
        assert translated.lang == lang
        # Heading for heading, none is the English one (the page's outline is the same).
        theirs = [text for tag, text in translated.blocks if tag in {"h1", "h2", "h3"}]
        assert len(theirs) == len(headings), (lang, theirs)
        for mine, their in zip(headings, theirs, strict=True):
            assert their != mine or mine in SAME, (game, lang, mine)
        # No paragraph, item, caption, header or button says what the English page says.
        left = {text for _, text in translated.blocks if text in said and text not in SAME}
        left = {text for text in left if re.search(r"[A-Za-z]{2}", text)}
        assert left == set(), (game, lang, left)
        for term in TERMS.get((game, lang), []):
            assert term in html, (game, lang, term)


def test_the_english_pages_read_as_before(site: TestClient) -> None:
    # Marking the words changed none of them: the English page says the same sentences, markup and all.
    html = page(site, "mojo", "en")
    assert "<title>Mojo rules · Motable</title>" in html and "<h1>Mojo: how to play</h1>" in html
    assert "Finish with the <strong>lowest total</strong>. The game is played over several rounds;" in html
    assert "Each player starts with 8 cards." in html
    assert 'aria-label="blue 0"' in html and '<th scope="row">Blue</th>' in html
    whales = page(site, "moby-trick", "en")
    assert "<td>Change trump to ▲ orcas</td>" in whales and 'aria-label="five 5"' in whales
    assert '<th scope="row">5 (no family)</th>' in whales and '<th scope="row">Blue whale</th>' in whales
    french = page(site, "moby-trick", "fr")
    assert "<td>Changer l’atout\u00a0: ▲ orques</td>" in french  # noqa: RUF001
    assert '<th scope="row">Baleine bleue</th>' in french
