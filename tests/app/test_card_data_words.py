"""The words of Mokuru's and Mooki Island's card data (a trick's name and how to perform it, a belt, a
family) reach every catalogue in their contexts, translated, and both the tables and the rules pages say
them in the reader's language."""

from __future__ import annotations

import json

import pytest
from babel.messages.pofile import read_po
from starlette.testclient import TestClient

from app import i18n, messages

LANGUAGES = ["de", "es", "fr", "it", "nl"]
MOKURU = json.loads((i18n.ROOT / messages.MOKURU_DATA).read_text(encoding="utf-8"))
MOOKI = json.loads((i18n.ROOT / messages.MOOKI_DATA).read_text(encoding="utf-8"))


def data_words() -> set[tuple[str, str]]:
    """Every (context, words) the data holds, read here from the files themselves."""
    words = {("mokuru belt", b["name"]) for b in [*MOKURU["belts"], MOKURU["grandmaster"]]}
    for trick in [*MOKURU["tricks"], *MOKURU["masters"]]:
        words |= {
            ("mokuru trick", trick["name"]),
            ("mokuru category", trick["category"]),
            ("mokuru trick description", trick["description"]),
        }
    for action in MOKURU["actions"]:
        words |= {("mokuru action", action["name"]), ("mokuru action description", action["description"])}
    words |= {("mooki family", t["name"]) for t in MOOKI["trophies"]}
    return words


def test_every_data_word_is_extracted_at_its_file() -> None:
    found = {(m.context, m.id): [path for path, _ in m.locations] for m in messages.extract() if m.context}
    wanted = data_words()
    # 42 tricks and 15 masters (some names shared between categories), 11 actions, 9 belts, 5 families.
    assert len({w for c, w in wanted if c == "mokuru action"}) == 11
    assert len({w for c, w in wanted if c == "mokuru belt"}) == 9
    assert len({w for c, w in wanted if c == "mooki family"}) == 5
    for key in wanted:
        assert key in found, key
        assert all(path.startswith("engines/") and path.endswith("cards.json") for path in found[key]), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_data_word_is_translated_and_in_the_browsers_catalogue(lang: str) -> None:
    with i18n.catalogue_path(lang).open("rb") as po:
        catalogue = read_po(po, locale=lang)
    browser = i18n.client_messages(lang)["messages"]
    assert isinstance(browser, dict)
    for context, words in data_words():
        message = catalogue.get(words, context=context)
        assert message is not None and message.string and not message.fuzzy, (lang, context, words)
        # Names stay the same only where the language writes them so ("Marathon", "Mini Mokuru").
        assert browser[f"{context}\x04{words}"] == message.string
    # The descriptions are instructions in the reader's words, never the English left in place.
    for trick in MOKURU["tricks"]:
        said = catalogue.get(trick["description"], context="mokuru trick description").string
        assert said != trick["description"]


@pytest.fixture
def site(multilingual: TestClient) -> TestClient:
    return multilingual


def test_the_rules_pages_tables_speak_the_readers_language(site: TestClient) -> None:
    french = {"Accept-Language": "fr"}
    mokuru = site.get("/rules/mokuru", headers=french).text
    assert "<td>2 saltos aller-retour</td>" in mokuru
    assert "Faites basculer le Mokuru deux fois en ligne droite" in mokuru
    assert "<td>La Fatalité</td>" in mokuru and "Ceinture noire" in mokuru
    assert "Tip the Mokuru over" not in mokuru
    german = site.get("/rules/mooki-island", headers={"Accept-Language": "de"}).text
    assert "Trophäe Sonne" in german and "Legendär: Blatt" in german and "Spinne" in german
    english = site.get("/rules/mokuru").text
    assert "<td>2 Flips back</td>" in english and "Grandmaster" in english
    assert "Legendary Leaf" in site.get("/rules/mooki-island").text
