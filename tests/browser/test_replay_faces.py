"""Every step of every game's replay shows each card face the finished match may show.

For each game one two-player match is played to its end over HTTP, then its replay is walked
step by step with the page's own keyboard control (the right arrow), with every hand open and
from one seat. At each step the table of each hand shown is read at once and compared with the
replay's own data for that step (the state the server sent, patched step by step): wherever the
data gives a card's face, the table shows that face, and it shows a card back or a "?" only where
the data hides the face (a draw pile, another player's hand, a pile's hidden top).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import pytest
from playwright.sync_api import Page, expect

from tests.servers import ServeProcess

from .support import shoot
from .test_mokuru_duel import DARK_SEED
from .test_replay import _finished_match

pytestmark = pytest.mark.browser

# What one table shows, read in one look: the card ids drawn, the backs and "?" marks, and what
# each game's parts hold.
_READ = """(frame) => {
  const all = (sel) => [...frame.querySelectorAll(sel)];
  const ids = (sel) => all(sel).map((n) => Number(n.dataset.cardId));
  const visible = (n) => !n.closest("[hidden]");
  return {
    ids: ids("[data-card-id]").sort((a, b) => a - b),
    hand: ids("#hand [data-card-id]"),
    facedown: ids(".my-facedown [data-card-id]"),
    backs: all(".card-back, .mooki-back, .mini-back").filter(visible).map((n) => {
      const places = [
        "draw-pile", "seat-mojo-time", "mini-hand", "mooki-pile", "mooki-collection", "mooki-drawn",
      ];
      return places.find((place) => n.closest(`.${place}`)) ?? "loose";
    }),
    // A "?" anywhere but on a card back (counted above) or a duel's side still to be chosen.
    marks: all("*").filter((n) => visible(n) && !n.closest(".mooki-back, .mokuru-side.is-open")
      && ((n.children.length === 0 && n.textContent.trim() === "?") || n.dataset.glyph === "?")).length,
    held: all(".seat-held").map((n) => n.querySelectorAll(".card").length),
    pileTops: all(".discard-pile").map((n) => n.querySelector("[data-card-id]")?.dataset.cardId ?? null),
    mookiPiles: all(".mooki-pile").map(
      (n) => n.querySelector(".mooki-card[data-face]")?.dataset.face ?? null,
    ),
    mookiCollections: all(".mooki-collection").filter(visible).map((n) => ({
      mine: n.classList.contains("is-mine"),
      face: n.querySelector(".mooki-card[data-face]")?.dataset.face ?? null,
    })),
    drawnFaces: all(".mooki-drawn .mooki-card[data-face]").filter(visible).map((n) => n.dataset.face),
    befriended: all(".mooki-befriended .mooki-card[data-face]").length,
    trickCard: frame.querySelector(".mokuru-trick [data-card-id]")?.dataset.cardId ?? null,
    kept: all(".mokuru-seats .mokuru-chip:not(.mokuru-imposed):not(.mokuru-dark)").map((n) => n.textContent),
    imposed: all(".mokuru-seats .mokuru-imposed").length,
    text: frame.innerText,
  };
}"""


def _face_key(face: dict[str, Any] | None) -> str | None:
    """A Mooki Island face as the table marks it (`data-face`)."""
    if face is None:
        return None
    return "spider" if face["kind"] == "spider" else f"{face['kind']}-{face['family']}"


def _ids(cards: list[dict[str, Any]]) -> set[int]:
    return {card["id"] for card in cards}


def _mojo(view: dict[str, Any], state: dict[str, Any], seen: dict[str, Any], seat: int | None) -> list[str]:
    problems = []
    if seat is not None:
        if sorted(seen["hand"]) != sorted(_ids(view["hand"])):
            problems.append(f"hand {seen['hand']} is not {sorted(_ids(view['hand']))}")
        if sorted(seen["facedown"]) != sorted(_ids(view["face_down"])):
            problems.append(f"own face-down cards {seen['facedown']} not shown face up")
    for index, pile in enumerate(view["discard_piles"]):
        top = pile["top"]
        if top is not None and seen["pileTops"][index] != str(top["id"]):
            problems.append(f"discard pile {index + 1}'s top {top} not shown")
    over = bool(state.get("result"))
    others = [s for s in view["seats"] if s["seat"] != seat]
    # A back stands only for the draw pile's cards, another hand's cards, or another seat's
    # face-down cards in Mojo Time.
    hidden_mojo_time = sum(s["face_down_count"] for s in others if s["mojo_time"]) if not over else 0
    backs = seen["backs"]
    if backs.count("seat-mojo-time") != hidden_mojo_time:
        problems.append(
            f"{backs.count('seat-mojo-time')} backs in Mojo Time for {hidden_mojo_time} hidden cards"
        )
    if backs.count("draw-pile") != (3 if view["draw_pile"] else 0):
        problems.append(f"draw pile backs {backs.count('draw-pile')} for {view['draw_pile']} cards")
    if backs.count("mini-hand") != sum(min(s["hand_count"], 10) for s in others):
        problems.append("another hand's backs do not match its count")
    stray = [b for b in backs if b not in ("seat-mojo-time", "draw-pile", "mini-hand")]
    if stray:
        problems.append(f"card backs where a face is known: {stray}")
    if over and view.get("last_round"):
        counted = view["last_round"]["counted"]
        wanted = [len(counted[s["seat"]] or []) for s in others]
        if seen["held"] != wanted:
            problems.append(f"at the end the cards each held show {seen['held']}, not {wanted}")
    return problems


def _moby(view: dict[str, Any], state: dict[str, Any], seen: dict[str, Any], seat: int | None) -> list[str]:
    problems = []
    shown = set(seen["ids"])
    wanted = _ids(view["hand"]) | _ids([p["card"] for p in view["trick"]])
    if view.get("set_aside"):
        wanted.add(view["set_aside"]["id"])
    for row in view["seats"]:
        wanted |= _ids(row["bonuses"])
    if missing := wanted - shown:
        problems.append(f"cards {sorted(missing)} not shown face up")
    if sorted(seen["hand"]) != sorted(_ids(view["hand"])):
        problems.append("the hand shown is not the hand held")
    others = [s for s in view["seats"] if s["seat"] != seat]
    stray = [b for b in seen["backs"] if b != "mini-hand"]
    if stray or seen["backs"].count("mini-hand") != sum(min(s["hand_count"], 9) for s in others):
        problems.append(f"card backs {seen['backs']} for hands of {[s['hand_count'] for s in others]}")
    return problems


def _mooki(view: dict[str, Any], state: dict[str, Any], seen: dict[str, Any], seat: int | None) -> list[str]:
    problems = []
    for index, pile in enumerate(view["piles"]):
        if pile["top"] is not None and seen["mookiPiles"][index] != _face_key(pile["top"]):
            problems.append(f"pile {index + 1}'s top {pile['top']} not shown")
    mine = 0 if seat is None else seat
    for shown in seen["mookiCollections"]:
        collection = view["collections"][mine if shown["mine"] else 1 - mine]
        if collection["top"] is not None and shown["face"] != _face_key(collection["top"]):
            problems.append(f"collection {collection} shows {shown['face']}")
    drawn = view["drawn"]
    hidden = seen["backs"]
    allowed = sum(1 for p in view["piles"] if p["count"] and p["top"] is None)
    allowed += sum(1 for c in view["collections"] if c["height"] and c["top"] is None)
    if drawn is not None:
        faces = [_face_key(drawn[side]) for side in ("upper", "lower") if drawn[side] is not None]
        if sorted(seen["drawnFaces"]) != sorted(faces):
            problems.append(f"the drawn card shows {seen['drawnFaces']}, its data {faces}")
        allowed += sum(1 for side in ("upper", "lower") if drawn[side] is None)
    if len(hidden) != allowed:
        problems.append(f"{len(hidden)} backs ({hidden}) where the data hides {allowed} faces")
    end = view.get("end")
    if end and end.get("stars"):
        faces = sum(len(side["faces"]) for side in end["sorted"])
        if seen["befriended"] != faces:
            problems.append(f"the end shows {seen['befriended']} of the {faces} cards collected")
    return problems


def _mokuru(view: dict[str, Any], state: dict[str, Any], seen: dict[str, Any], seat: int | None) -> list[str]:
    problems = []
    trick = view.get("trick")
    if trick is not None and seen["trickCard"] != str(trick["card"]["id"]):
        problems.append(f"the trick card {trick['card']['name']} not shown")
    kept = sorted(card["name"] for s in view["seats"] for card in s["kept"])
    shown_kept = sorted(k for k in seen["kept"] if k not in ("Mini Mokuru next",))
    if shown_kept != kept:
        problems.append(f"kept cards shown {shown_kept}, held {kept}")
    if seen["imposed"] != sum(len(s["imposed"]) for s in view["seats"]):
        problems.append("imposed tricks not all shown")
    for dark in view["darkness"]:
        if dark["card"]["name"] not in seen["text"]:
            problems.append(f"the Darkness card {dark['card']['name']} not shown")
    for card in view.get("darkness_deck") or []:
        if card["name"] not in seen["text"]:
            problems.append(f"the deck the possessed player looked through: {card['name']} not shown")
    if seen["backs"]:
        problems.append(f"card backs {seen['backs']}")
    return problems


CHECKS = {"mojo": _mojo, "moby-trick": _moby, "mooki-island": _mooki, "mokuru": _mokuru}


def _walk(page: Page, body: dict[str, Any], game: str, viewpoint: int | str) -> tuple[int, set[str]]:
    """Steps through the whole replay with the right arrow, checking each table at each step;
    returns the steps walked and the phases seen."""
    check = CHECKS[game]
    state = body["first"]
    steps = body["steps"]
    phases: set[str] = set()
    page.locator("#replay-where").click()  # the keys go to the page, not the viewpoint's menu
    for number in range(len(steps) + 1):
        if number:
            state = jsonpatch.apply_patch(state, steps[number - 1]["ops"])
            page.keyboard.press("ArrowRight")
        page.wait_for_function("n => document.body.dataset.step === String(n)", arg=number)
        frames = page.locator("#replay-tables .table-area")
        seats = [s for s in range(len(state["views"]))] if viewpoint == "all" else [viewpoint]
        for index, seat in enumerate(seats):
            view = state["views"][seat] if viewpoint == "all" else state["view"]
            phases.add(str(view.get("phase") or ("over" if state.get("result") else "play")))
            if any(row.get("face_down_count") for row in view.get("seats", [])):
                phases.add("mojo_time")
            seen = frames.nth(index).evaluate(_READ)
            problems = check(view, state, seen, seat)
            if seen["marks"]:
                problems.append(f"{seen['marks']} question marks where a face is known")
            assert not problems, (
                f"{game} step {number} seen from {viewpoint} (table of seat {seat}): {problems}"
            )
    return len(steps), phases


# The fewest players whose match reaches every phase: a Moby Trick trick's reward and a Mokuru
# witness need a third player.
@pytest.mark.parametrize(
    ("game", "options", "players", "phases"),
    [
        ("mojo", {"target": 10}, 2, {"play", "mojo_time"}),
        ("moby-trick", {"target": 5}, 3, {"set_aside", "play", "reward"}),
        ("mooki-island", {}, 2, {"take", "place"}),
        ("mokuru", {}, 3, {"difficulty", "draw", "perform", "confirm"}),
    ],
)
def test_every_step_of_a_replay_shows_every_face_it_may(
    server: ServeProcess,
    new_player: Callable[..., Page],
    game: str,
    options: dict[str, int],
    players: int,
    phases: set[str],
) -> None:
    base = server.base_url
    room, moves = _finished_match(base, game, options, players)
    page = new_player(1280, 900)
    for viewpoint in ("all", 0):
        body = httpx.get(f"{base}/api/rooms/{room}/replay", params={"seat": viewpoint}).json()
        page.goto(f"{base}/r/{room}/replay?seat={viewpoint}&step=0")
        expect(page.locator("#replay-where")).to_contain_text(f"Move 0 of {moves}")
        walked, seen = _walk(page, body, game, viewpoint)
        assert walked == moves
        assert phases <= seen, f"the match never reached {phases - seen}"
        shoot(page, f"replay-faces-{game}-{viewpoint}-end")


@pytest.fixture
def dark_server(tmp_path: Path) -> Iterator[ServeProcess]:
    """A server dealing from DARK_SEED (a test-only setting): seat 0 draws Darkness first. A whole
    match is played over HTTP from one address, so the request limit is lifted."""
    live = ServeProcess(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'motable.db'}",
            "MOTABLE_TEST_SEEDS": str(DARK_SEED),
            "MOTABLE_RATE_PER_SECOND": "0",
        },
        tmp_path / "server.log",
    )
    live.start()
    yield live
    live.stop()


def test_a_mokuru_replay_shows_the_deck_the_possessed_player_looked_through(
    dark_server: ServeProcess, new_player: Callable[..., Page]
) -> None:
    """Darkness: the possessed player chose a trick from the deck; from that seat the replay
    shows the deck's tricks it looked through (the view holds them), with nothing to press."""
    base = dark_server.base_url
    room, moves = _finished_match(base, "mokuru", {"belts": "short", "first_seat": 0}, 3)
    body = httpx.get(f"{base}/api/rooms/{room}/replay", params={"seat": 0}).json()
    page = new_player(1280, 900)
    page.goto(f"{base}/r/{room}/replay?seat=0&step=0")
    expect(page.locator("#replay-where")).to_contain_text(f"Move 0 of {moves}")
    _, seen = _walk(page, body, "mokuru", 0)
    assert "darkness" in seen
    dark = next(n for n, step in enumerate(body["steps"], 1) if step["action"]["type"] == "impose")
    page.goto(f"{base}/r/{room}/replay?seat=0&step={dark - 1}")
    chooser = page.locator(".mokuru-darkness-chooser")
    expect(chooser).to_be_visible()
    expect(chooser.locator("button")).to_have_count(0)
    shoot(page, "replay-faces-mokuru-darkness")
