"""The rulebook's two worked examples, played through the engine."""

from __future__ import annotations

from engines.mooki_island import ENGINE
from engines.mooki_island.cards import BOX
from engines.mooki_island.engine import OVER, RETURN

from .helpers import DOWN, UP, build, play, take

VICTORIA, ROBIN = 0, 1


def test_victoria_keeps_the_legendary_leaf_and_robin_sends_her_the_spider() -> None:
    state = build([["moon", "spider/sun", "fossil/legendary leaf"], ["leaf", "seashell"]], youngest=VICTORIA)
    assert ENGINE.to_act(state) == {VICTORIA}, "Victoria is younger, so she starts"
    state = play(state, take(0))
    drawn = ENGINE.view(state, VICTORIA)["drawn"]
    assert drawn["upper"]["family"] == "fossil"
    assert drawn["lower"]["kind"] == "legendary" and drawn["lower"]["family"] == "leaf"
    assert ENGINE.view(state, ROBIN)["piles"][0]["top"]["kind"] == "spider", "the next card shows a Spider"
    state = play(state, DOWN)
    assert ENGINE.view(state, ROBIN)["collections"][VICTORIA]["top"]["family"] == "leaf"
    assert ENGINE.to_act(state) == {ROBIN}
    state = play(state, take(0))
    assert ENGINE.view(state, ROBIN)["drawn"]["lower"]["family"] == "sun", "Robin sees both sides"
    state = play(state, UP)  # the Spider, onto Victoria's collection
    view = ENGINE.view(state, ROBIN)
    assert view["collections"][VICTORIA] == {
        "seat": VICTORIA,
        "height": 2,
        "top": ENGINE.face_json(state, state.collections[VICTORIA][-1]),
    }
    assert view["collections"][VICTORIA]["top"]["kind"] == "spider"
    assert view["collections"][ROBIN]["height"] == 0
    assert ENGINE.to_act(state) == {VICTORIA}, "it is Victoria's turn again"


def test_the_end_of_game_example_victoria_6_robin_4() -> None:
    victoria = [
        "moon",
        *["fossil"] * 4,
        "legendary leaf",
        *["leaf"] * 4,
        "seashell",
        "spider",
    ]
    robin = [
        "legendary moon",
        "moon",
        "legendary fossil",
        "fossil",
        "fossil",
        *["leaf"] * 5,
        *["seashell"] * 3,
        "spider",
        "spider",
    ]
    # Victoria's last turn empties the first pile: she keeps a Sun Mooki, her only one.
    state = build([["sun/spider"], ["moon", "leaf"]], [victoria, robin], youngest=VICTORIA)
    state = play(state, take(0), UP)

    # Step 1: the sorting, families side by side (a Legendary counts for 2).
    end = ENGINE.view(state, None)["end"]
    assert end["sorted"][VICTORIA]["counts"] == {"sun": 1, "moon": 1, "fossil": 4, "seashell": 1, "leaf": 6}
    assert end["sorted"][ROBIN]["counts"] == {"sun": 0, "moon": 3, "fossil": 4, "seashell": 3, "leaf": 5}
    assert [s["spiders"] for s in end["sorted"]] == [1, 2]

    # Step 2: the trophies; Fossil is tied, so nobody gets it.
    awarded = {t["family"]: t["awarded"] for t in end["trophies"]}
    assert awarded == {"sun": VICTORIA, "moon": ROBIN, "fossil": None, "seashell": ROBIN, "leaf": VICTORIA}

    # Step 3: Robin has more Spiders and two trophies: he chooses which one the Spider takes.
    assert state.phase == RETURN and ENGINE.to_act(state) == {ROBIN}
    assert ENGINE.legal_actions(state, ROBIN) == [
        {"type": "return", "family": "moon"},
        {"type": "return", "family": "seashell"},
    ]
    assert ENGINE.view(state, VICTORIA)["end"]["spider"] == {
        "seat": ROBIN,
        "choosing": True,
        "returned": None,
    }
    state = play(state, {"type": "return", "family": "seashell"})

    # Step 4: the stars. Sun + Leaf = 6 for Victoria, Moon = 4 for Robin.
    assert state.phase == OVER
    end = ENGINE.view(state, ROBIN)["end"]
    assert end["spider"]["returned"] == "seashell"
    assert {t["family"]: t["owner"] for t in end["trophies"]} == {
        "sun": VICTORIA,
        "moon": ROBIN,
        "fossil": None,
        "seashell": None,
        "leaf": VICTORIA,
    }
    assert end["stars"] == [6, 4] and end["winner"] == VICTORIA
    result = ENGINE.result(state)
    assert result is not None and result.winners == [VICTORIA] and result.scores == [6, 4]
    # Giving up Seashell rather than Moon was right: Moon is worth more.
    assert BOX.stars("seashell") < BOX.stars("moon")
    types = [e["type"] for e in ENGINE.view(state, None)["events"]]
    assert types[-3:] == ["trophies", "spider", "end"]
