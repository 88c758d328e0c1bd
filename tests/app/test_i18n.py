"""Each reader in their own language: the catalogues in step with the code, and the language chosen per
browser (the switch's cookie, else Accept-Language), never per room."""

from __future__ import annotations

import json
import re

import pytest
from starlette.testclient import TestClient

from app import i18n, messages
from app.config import Settings, sqlalchemy_url
from app.db import upgrade
from app.main import create_app
from tests.rooms import new_room

LANGUAGES = ["de", "es", "fr", "it", "nl"]


@pytest.fixture
def site(multilingual: TestClient) -> TestClient:
    return multilingual


def _lang(html: str) -> str:
    found = re.search(r'<html lang="([a-z]+)"', html)
    assert found, html[:200]
    return found.group(1)


def test_the_catalogues_are_in_step_with_the_code_and_every_word_is_translated() -> None:
    # Fails when a word was added, changed or removed without `make messages`, or left untranslated.
    assert messages.check() == []
    assert sorted(messages.languages()) == LANGUAGES


def test_every_catalogue_keeps_each_place_of_its_words() -> None:
    # A translation that loses or renames a %(name)s or {name} would fail when filled, or show the
    # placeholder to a player.
    for lang in LANGUAGES:
        for message in messages._read(i18n.catalogue_path(lang), lang):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            wanted = {p for text in ids for p in re.findall(r"%\(\w+\)s|\{\w+\}", text)}
            for text in strings:
                assert set(re.findall(r"%\(\w+\)s|\{\w+\}", text)) == wanted, (lang, message.id, text)


def test_french_keeps_its_marks_off_the_line_start() -> None:
    # French sets « : ; ! ? » and the inside of « » apart with a space; a plain one lets the mark
    # start the next line on a narrow phone, so every one is a no-break space (U+00A0).
    plain = re.compile(r" [:;!?»]|« ")
    for message in messages._read(i18n.catalogue_path("fr"), "fr"):
        if not message.id:
            continue  # the catalogue's header
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            assert not plain.search(text or ""), (message.id, text)


def _calls(source: str, name: re.Pattern[str]) -> list[str]:
    """The argument text of every call to `name` in JavaScript `source` (parentheses in strings skipped)."""
    found = []
    for start in (m.end() for m in name.finditer(source)):
        depth, i, quote = 1, start, ""
        while i < len(source) and depth:
            c = source[i]
            if quote:
                if c == "\\":
                    i += 1
                elif c == quote:
                    quote = ""
            elif c in "\"'`":
                quote = c
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            i += 1
        found.append(source[start : i - 1])
    return found


def test_no_browser_word_is_said_inside_another() -> None:
    # The extractor reads the first call of t(), tn() or tp() and skips a call inside its
    # arguments: such a word would never reach a catalogue, and no check would notice.
    keyword = re.compile(r"(?<![\w.$])t[np]?\(")
    sample = 't("a {b}", { b: tn("x", "y", 2) }); t(")")'
    assert [keyword.search(args) is not None for args in _calls(sample, keyword)] == [True, False, False]
    nested = []
    for path in sorted((i18n.ROOT / "static" / "js").rglob("*.js")):
        for args in _calls(path.read_text(encoding="utf-8"), keyword):
            if keyword.search(args):
                nested.append(f"{path.relative_to(i18n.ROOT)}: {args[:80]}")
        # ...and one inside a template literal's ${...} is skipped the same way.
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.search(r"\$\{[^}]*(?<![\w.$])t[np]?\(", line):
                nested.append(f"{path.relative_to(i18n.ROOT)}: {line.strip()[:80]}")
    assert nested == []


def test_accept_language_is_read_in_order_of_preference() -> None:
    assert i18n.preferred("de-CH, fr;q=0.9, en;q=0.8") == ["de-ch", "fr", "en"]
    assert i18n.preferred("en;q=0.2, nl") == ["nl", "en"]
    assert i18n.preferred("fr;q=0, *") == []
    assert i18n.preferred("it;q=nonsense, es") == ["es"]


def test_the_readers_choice_wins_over_the_browser_and_unknown_languages_read_english() -> None:
    offered = i18n.Languages.parse("fr,de")
    assert offered.offered == ("en", "fr", "de")
    assert offered.choose(None, "de-AT,de;q=0.9") == "de"
    assert offered.choose("fr", "de") == "fr"
    assert offered.choose(None, "pt-BR, es;q=0.5") == "en"  # neither is offered
    assert offered.choose("xx", "it") == "en"
    # Unset, a server offers every language it has a catalogue for; `en` keeps it to English.
    assert i18n.Languages.parse(None).offered == ("en", "de", "es", "fr", "it", "nl")
    assert i18n.Languages.parse("").offered == i18n.Languages.parse("all").offered
    assert i18n.Languages.parse("en").offered == ("en",)
    with pytest.raises(ValueError, match="without a catalogue"):
        i18n.Languages.parse("fr,tlh")


def test_a_page_speaks_the_browsers_language_and_says_so(site: TestClient) -> None:
    html = site.get("/", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.8"}).text
    assert _lang(html) == "de"
    assert "Eine Partie starten" in html and "Start a game" not in html
    # The browser's words come from the German catalogue, a script named under its content hash.
    address = re.search(r'<script src="(/static/i18n/de\.js\?v=[0-9a-f]+)"></script>', html)
    assert address
    script = site.get(address.group(1)).text
    prefix = "globalThis.motableCatalogue = "
    catalogue = json.loads(script[script.index(prefix) + len(prefix) :].rstrip().rstrip(";"))
    assert catalogue["lang"] == "de"
    assert catalogue["messages"]["Type your name first, so your friends know who invited them."].startswith(
        "Gib"
    )


def test_the_switchs_cookie_wins_and_english_needs_no_catalogue(site: TestClient) -> None:
    site.cookies.set(i18n.COOKIE, "fr")
    answer = site.get("/", headers={"Accept-Language": "de"})
    assert _lang(answer.text) == "fr"
    assert "Lancer une partie" in answer.text
    assert "Accept-Language" in answer.headers["vary"] and "Cookie" in answer.headers["vary"]
    # The switch lists every language in its own name, the reader's own selected.
    assert re.search(r'<option value="fr" lang="fr" selected>Français</option>', answer.text)
    assert '<option value="nl" lang="nl">Nederlands</option>' in answer.text
    site.cookies.set(i18n.COOKIE, "en")
    english = site.get("/", headers={"Accept-Language": "de"}).text
    assert _lang(english) == "en" and "Start a game" in english
    assert "/static/i18n/" not in english


def test_two_friends_at_one_table_read_its_pages_in_two_languages(site: TestClient) -> None:
    room = new_room(site, "tiny", name="Ann")
    french = site.get(f"/r/{room.room_id}", headers={"Accept-Language": "fr"})
    german = site.get(f"/r/{room.room_id}", headers={"Accept-Language": "de"})
    assert (_lang(french.text), _lang(german.text)) == ("fr", "de")
    assert "des jeux de cartes entre amis" in french.text
    assert "Kartenspiele mit Freunden" in german.text
    lost = {"Accept-Language": "it", "Accept": "text/html"}
    assert "A questo indirizzo non c’è niente" in site.get("/nowhere", headers=lost).text  # noqa: RUF001
    other = room.room_id[:-1] + ("A" if room.room_id[-1] != "A" else "B")
    gone = site.get(f"/r/{other}", headers={"Accept-Language": "es", "Accept": "text/html"})
    assert gone.status_code == 404 and "Esta partida no existe" in gone.text


def test_a_server_offering_english_only_shows_no_switch(sqlite_url: str, tiny: str) -> None:
    url = sqlalchemy_url(sqlite_url)
    upgrade(url)
    with TestClient(create_app(Settings(database_url=url, bot_delay=0, languages="en"))) as client:
        html = client.get("/", headers={"Accept-Language": "fr"}).text
    assert _lang(html) == "en" and "language-switch" not in html


def test_a_server_left_at_its_defaults_speaks_the_browsers_language(sqlite_url: str) -> None:
    """A family in Lyon on a server nobody configured reads it in French: every catalogue is offered."""
    url = sqlalchemy_url(sqlite_url)
    upgrade(url)
    try:
        with TestClient(create_app(Settings(database_url=url, bot_delay=0, rate_per_second=0))) as client:
            french = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}).text
            english = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"}).text
    finally:
        i18n.configure(i18n.Languages())
    assert _lang(french) == "fr" and "Lancer une partie" in french
    assert _lang(english) == "en" and "Start a game" in english


def test_pages_vary_on_the_readers_language_and_static_files_do_not(site: TestClient) -> None:
    page = site.get("/", headers={"Accept-Language": "de"})
    assert page.headers.get_list("vary") == ["Accept-Encoding, Accept-Language, Cookie"]
    script = re.search(r'src="(/static/[^"]+\.js[^"]*)"', page.text)
    assert script, page.text[:500]
    static = site.get(script.group(1), headers={"Accept-Language": "de"})
    assert static.status_code == 200
    assert "accept-language" not in static.headers.get("vary", "").lower()


def test_french_drops_the_vowel_of_de_before_a_name_that_starts_with_one() -> None:
    said = "%(name)s's seat moved to another device (signed in with a passkey)"
    apostrophe = "\u2019"
    with i18n.speaking("fr"):
        assert i18n.gettext(said, name="Ann").startswith(f"La place d{apostrophe}Ann est passée")
        assert i18n.gettext(said, name="Bo").startswith("La place de Bo est passée")
        assert i18n.gettext(said, name="Hugo").startswith("La place de Hugo est passée")
    with i18n.speaking("de"):
        assert "Ann" in i18n.gettext(said, name="Ann")
    assert i18n.elide("fr", "garde %(name)s", {"name": "Ann"}) == "garde %(name)s"
    only = i18n.elide("fr", "Il ne reste que %(name)s", {"name": "Ève"})
    assert only == f"Il ne reste qu{apostrophe}%(name)s"
