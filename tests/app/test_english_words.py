"""The English-word detector of the language walk (tests/english_words.py): it finds English in a
sentence, leaves names alone, and passes every translation the five catalogues hold (a word of the list
that is also French, German, Dutch, Spanish or Italian would fail here, with its sentence)."""

# ruff: noqa: RUF001 (the languages' own apostrophes)

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tests.english_words import english_words

LOCALE = Path(__file__).resolve().parents[2] / "locale"
LANGUAGES = ("fr", "de", "nl", "es", "it")
# What a translation keeps as it is: its places ({name}, %(seat)s), markup, and the API's own words
# (docs/translating.md: a field name such as `seat` starting an error, values such as 'spectator').
_KEPT = re.compile(r"%\(\w+\)s|\{\w+\}|<[^>]+>|'(?:spectator|all)'|^seat\b")


def _catalogue(lang: str) -> list[tuple[str, str]]:
    """(msgid, each of its translations) of one language's catalogue."""
    with (LOCALE / lang / "LC_MESSAGES" / "messages.po").open("rb") as file:
        catalogue = read_po(file)
    pairs: list[tuple[str, str]] = []
    for message in catalogue:
        if not message.id:
            continue
        english = message.id[0] if isinstance(message.id, tuple) else message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        pairs.extend((english, text) for text in strings if text)
    return pairs


def test_english_sentences_are_found() -> None:
    assert english_words("Your turn: draw a card or take the top of the discard pile.") == [
        "Your",
        "turn",
        "draw",
        "card",
        "take",
        "the",
        "discard",
    ]
    assert english_words("Waiting for players") == ["Waiting", "for", "players"]
    assert english_words("Ann won the game with 52 points") == ["the", "game", "with"]
    # Contractions and possessives are their words.
    assert english_words("You don't have Bo’s cards") == ["You", "don't", "have", "cards"]
    # Once each, as first written.
    assert english_words("Round 2 · round 3 · ROUND 4") == ["Round"]


def test_names_and_shared_words_are_no_english() -> None:
    # The games' names, Motable's, and the players' names the caller gives.
    assert english_words("Mooki Island · Moby Trick · Mokuru · Mojo · Motable") == []
    assert english_words("Grey, Bo and Cy", names=["Grey", "Bo", "Cy"]) == ["and"]
    assert english_words("Grey, Bo and Cy") == ["Grey", "and"]
    # Words the languages share or borrow: a French "Menu", a German "Hand", a Dutch "is".
    assert english_words("Menu · Pause · Chat · Bot · Start · Hand · Link · Team · OK · Top") == []
    assert english_words("Die Hand ist leer. Het spel is over. Il gioco è in pausa.") == []
    # An elision stays one word: no English "all" in Italian, no "d" in French.
    assert english_words("all’inizio, dell’ultima mano; d’accord, l’hôte") == []


def test_most_english_sentences_of_the_catalogue_are_caught() -> None:
    """The word list is wide enough: nearly every English word of three or more words in the
    catalogue holds one (the few left are API words: "keys.auth is a 16-byte secret")."""
    sentences = {_KEPT.sub(" ", english) for english, _ in _catalogue("fr")}
    long = [s for s in sentences if len(s.split()) >= 3]
    missed = [s for s in long if not english_words(s)]
    assert len(long) > 300
    assert len(missed) <= len(long) // 40, missed


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_translation_passes(lang: str) -> None:
    """Every translation of the catalogue, as it is today: none holds a word of the list (a word of the
    list that the language writes too would show up here)."""
    pairs = _catalogue(lang)
    assert len(pairs) > 400
    found = {text: words for _, text in pairs if (words := english_words(_KEPT.sub(" ", text)))}
    assert found == {}
