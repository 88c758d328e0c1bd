"""The Mooki Island rules: two collectors draw double-sided cards and keep one side.

Hidden information is the heart of this game, so the state keeps faces as data
numbers (see cards.py) and every view names a face only by a per-match id that is
a seeded shuffle of 0..71: an id says nothing about the face on the other side.

Who may see a face:
- a pile's top card: its upper face, everyone; nothing else of a pile, ever;
- the drawn card: its upper face, everyone; its lower face, the drawer only;
- a collection: only its top card's chosen face while the game runs (the memory
  rule: nobody may look through a collection); every chosen face once the game
  has ended and the collections are sorted. The side a card was not placed on is
  never shown to anyone.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from pydantic import Field

from engines.core import (
    Action,
    ActionWords,
    Engine,
    GameSpec,
    Options,
    Result,
    Rng,
    Scorepad,
    Starter,
    StateCodec,
    check_seat,
    log_event,
    option_words,
    seat_widget,
    who_starts,
)
from engines.core.words import N_

from .cards import BOX, FAMILIES, LEGENDARY, SPIDER, Face, rules_data

GAME_ID = "mooki-island"
PLAYERS = 2
FACES = len(BOX.faces)
CARDS = BOX.cards
EVENTS_KEPT = 4  # the view holds no history of placements: only the latest turns' events
RESAMPLE_SWAPS = 30  # random swaps per card when `resample` deals the unseen sides again

TAKE, PLACE, RETURN, OVER = "take", "place", "return", "over"
UPPER, LOWER = "upper", "lower"


class MookiIslandOptions(Options):
    youngest: int | None = Field(
        None,
        ge=0,
        le=PLAYERS - 1,
        title=N_("Who is the youngest"),
        description=N_("The youngest player starts and wins a tie in stars. Empty: drawn at random."),
        json_schema_extra=seat_widget(PLAYERS - 1),
    )
    memory_aid: bool = Field(
        False,
        title=N_("Memory aid"),
        description=N_("Shows how many of each family you hold (for younger players)."),
        json_schema_extra=option_words(rules="no-peeking-the-memory-game"),
    )


def other(seat: int) -> int:
    return 1 - seat


def flip(face: int) -> int:
    """The face on the other side of the same card."""
    return face ^ 1


@dataclass
class MookiIslandState:
    youngest: int
    memory_aid: bool
    rng: Rng
    face_ids: list[int]  # data face number -> this match's id for it
    piles: list[list[int]]  # the upper face of each card, bottom first, top last
    collections: list[list[int]]  # the chosen face of each card, bottom first, top last
    current: int
    phase: str = TAKE
    drawn: int | None = None  # the upper face of the card in the drawer's hands
    trophies: list[int | None] | None = None  # per family (FAMILIES order): the seat awarded it
    spider_seat: int | None = None  # the seat with more Spiders, once the game has ended
    returned: str | None = None  # the family whose trophy the Spider carried off
    stars: list[int] | None = None
    winner: int | None = None
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)

    def clone(self) -> MookiIslandState:
        return CODEC.clone(self)

    @property
    def ended(self) -> bool:
        """The last card has been placed: collections are sorted and public."""
        return self.phase in (RETURN, OVER)


DEAL_DRAWS = 3  # the draws of `deal`: the face ids, the order of the cards, their sides


def deal(rng: Rng) -> tuple[list[int], list[list[int]]]:
    """The face ids and the two piles (upper faces, bottom first), dealt from `rng`."""
    face_ids = rng.shuffled(list(range(FACES)))
    order = rng.shuffled(list(range(CARDS)))
    sides = rng.randrange(1 << CARDS)
    uppers = [2 * card + ((sides >> i) & 1) for i, card in enumerate(order)]
    half = CARDS // 2
    return face_ids, [uppers[:half], uppers[half:]]


def dealt_uppers(state: MookiIslandState) -> dict[int, int] | None:
    """Card -> the face it was dealt upper side up, read off the state's own seed; None when the
    seed does not deal this position (a position set up by hand, or one `resample` dealt again).

    Mooki Island draws nothing after the deal, so the seed's last draws are the deal's."""
    counter = state.rng.counter - DEAL_DRAWS
    if counter < 0:
        return None
    face_ids, piles = deal(Rng(state.rng.seed, counter))
    if face_ids != state.face_ids:
        return None
    if any(pile[: len(now)] != now for pile, now in zip(piles, state.piles, strict=True)):
        return None
    uppers = {face // 2: face for pile in piles for face in pile}
    if state.drawn is not None and uppers[state.drawn // 2] != state.drawn:
        return None
    return uppers


def drawer_of(face: int, owner: int) -> int:
    """Who drew the card placed on `face` in `owner`'s collection: a Spider goes to the opponent."""
    return other(owner) if BOX.faces[face].kind == SPIDER else owner


# What a seat knows of the card in one place: nothing, the face shown there, or both faces.
NOTHING, SHOWN, BOTH = 0, 1, 2


def _pair(card: int) -> tuple[str, str]:
    a, b = BOX.faces[2 * card].label(), BOX.faces[2 * card + 1].label()
    return (a, b) if a <= b else (b, a)


# Each card's two faces, as an unordered pair of labels (cards with equal pairs look alike).
PAIRS = [_pair(card) for card in range(CARDS)]


def family_counts(faces: list[int]) -> dict[str, int]:
    """Mookies per family (a Legendary counts for 2)."""
    counts = dict.fromkeys(FAMILIES, 0)
    for f in faces:
        face = BOX.faces[f]
        if face.family is not None:
            counts[face.family] += face.worth
    return counts


def spider_count(faces: list[int]) -> int:
    return sum(1 for f in faces if BOX.faces[f].kind == SPIDER)


def award_trophies(counts: list[dict[str, int]]) -> list[int | None]:
    """Per family the seat with strictly more Mookies; a tie gives the trophy to nobody."""
    owners: list[int | None] = []
    for family in FAMILIES:
        a, b = counts[0][family], counts[1][family]
        owners.append(0 if a > b else 1 if b > a else None)
    return owners


class MookiIslandEngine(Engine[MookiIslandState]):
    spec = GameSpec(
        id=GAME_ID,
        title="Mooki Island",
        min_players=PLAYERS,
        max_players=PLAYERS,
        options_model=MookiIslandOptions,
        blurb=N_("Two collectors, double-sided cards and sneaky Spiders: win the trophies worth most stars."),
        winner="highest_total",
        # "In the event of a draw, the youngest player wins!"
        ties="broken",
        panel="stars",
        starter=Starter(option="youngest", question=N_("Who is the youngest?")),
        data=rules_data,
        hides_information=True,
        default_bot="strong",
        fallback_bot="random",
        action_words={
            "take": ActionWords(
                done=N_("took the card on pile {pile}"),
                otherwise=N_("took a card"),
                ask=N_("take a card"),
                params={"pile": "position"},
            ),
            "place": ActionWords(
                done=N_("placed a card, {side} side up"),
                otherwise=N_("placed a card"),
                ask=N_("place your card"),
                values={"side": {"upper": N_("upper"), "lower": N_("lower")}},
            ),
            "return": ActionWords(
                done=N_("put back a {family}"),
                otherwise=N_("put back a card"),
                ask=N_("put a card back"),
                values={
                    "family": {
                        "sun": N_("sun"),
                        "moon": N_("moon"),
                        "fossil": N_("fossil"),
                        "seashell": N_("seashell"),
                        "leaf": N_("leaf"),
                    }
                },
            ),
        },
    )

    # -- setup --------------------------------------------------------------
    def deal(self, players: int, rng: Rng, options: Options, first: int | None) -> MookiIslandState:
        assert isinstance(options, MookiIslandOptions)
        youngest = who_starts(first, players, rng)  # drawn before the deal
        face_ids, piles = deal(rng)
        return MookiIslandState(
            youngest=youngest,
            memory_aid=options.memory_aid,
            rng=rng,
            face_ids=face_ids,
            piles=piles,
            collections=[[], []],
            current=youngest,
        )

    # -- flow ---------------------------------------------------------------
    def to_act(self, state: MookiIslandState) -> frozenset[int]:
        if state.phase == OVER:
            return frozenset()
        if state.phase == RETURN:
            assert state.spider_seat is not None
            return frozenset((state.spider_seat,))
        return frozenset((state.current,))

    def legal_actions(self, state: MookiIslandState, seat: int) -> list[Action]:
        s = state
        if seat not in self.to_act(s):
            return []
        if s.phase == TAKE:
            return [{"type": "take", "pile": p} for p in range(2) if s.piles[p]]
        if s.phase == PLACE:
            return [{"type": "place", "side": UPPER}, {"type": "place", "side": LOWER}]
        assert s.trophies is not None
        return [
            {"type": "return", "family": f}
            for f, owner in zip(FAMILIES, s.trophies, strict=True)
            if owner == seat
        ]

    def _apply(self, state: MookiIslandState, seat: int, action: Action) -> MookiIslandState:
        s = state.clone()
        kind = action["type"]
        if kind == "take":
            self._take(s, seat, action["pile"])
        elif kind == "place":
            self._place(s, seat, action["side"])
        else:
            self._return(s, seat, action["family"])
        return s

    def _event(self, s: MookiIslandState, event: dict[str, Any]) -> None:
        fields = dict(event)
        kind = fields.pop("type")
        s.seq = log_event(s.events, s.seq, kind, fields, EVENTS_KEPT)

    def _take(self, s: MookiIslandState, seat: int, pile: int) -> None:
        s.drawn = s.piles[pile].pop()
        s.phase = PLACE
        # Events name no face: a face shown now may be covered or turned away later, and a logged
        # event never changes. What is visible (pile tops, collection tops) is in the view itself.
        self._event(s, {"type": "take", "seat": seat, "pile": pile})

    def _place(self, s: MookiIslandState, seat: int, side: str) -> None:
        assert s.drawn is not None
        chosen = s.drawn if side == UPPER else flip(s.drawn)
        to = other(seat) if BOX.faces[chosen].kind == SPIDER else seat
        s.collections[to].append(chosen)
        s.drawn = None
        self._event(s, {"type": "place", "seat": seat, "to": to})
        # Decision (docs/rules-decisions.md): the game ends once a pile's last card has been
        # placed, whichever collection it went to, Spider or Mooki alike.
        if not all(s.piles):
            self._end(s)
        else:
            s.current = other(seat)
            s.phase = TAKE

    def _end(self, s: MookiIslandState) -> None:
        counts = [family_counts(c) for c in s.collections]
        s.trophies = award_trophies(counts)
        self._event(
            s,
            {
                "type": "trophies",
                "counts": counts,
                "owners": dict(zip(FAMILIES, s.trophies, strict=True)),
            },
        )
        spiders = [spider_count(c) for c in s.collections]
        if spiders[0] == spiders[1]:
            self._finish(s, spiders, None)
            return
        s.spider_seat = 0 if spiders[0] > spiders[1] else 1
        held = [f for f, owner in zip(FAMILIES, s.trophies, strict=True) if owner == s.spider_seat]
        if len(held) > 1:
            s.phase = RETURN  # a real decision for the player with more Spiders
            return
        self._finish(s, spiders, held[0] if held else None)

    def _return(self, s: MookiIslandState, seat: int, family: str) -> None:
        self._finish(s, [spider_count(c) for c in s.collections], family)

    def _finish(self, s: MookiIslandState, spiders: list[int], returned: str | None) -> None:
        assert s.trophies is not None
        s.returned = returned
        if returned is not None:
            s.trophies[FAMILIES.index(returned)] = None
        self._event(s, {"type": "spider", "seat": s.spider_seat, "spiders": spiders, "returned": returned})
        stars = [0, 0]
        for family, owner in zip(FAMILIES, s.trophies, strict=True):
            if owner is not None:
                stars[owner] += BOX.stars(family)
        s.stars = stars
        s.winner = 0 if stars[0] > stars[1] else 1 if stars[1] > stars[0] else s.youngest
        s.phase = OVER
        self._event(s, {"type": "end", "stars": stars, "winner": s.winner, "tie": stars[0] == stars[1]})

    # -- results ------------------------------------------------------------
    def scorepad(self, state: MookiIslandState) -> Scorepad:
        if state.stars is None:
            return Scorepad(rounds=[], totals=[0, 0])
        return Scorepad(rounds=[state.stars[:]], totals=state.stars[:])

    def result(self, state: MookiIslandState) -> Result | None:
        if state.phase != OVER or state.stars is None or state.winner is None:
            return None
        return Result(winners=[state.winner], scores=state.stars[:])

    def public_action(self, action: Action, seat: int, viewer: int | None) -> Action:
        """Until the end, the log shows that a card was placed, not which side: with the seed
        hidden, that keeps the log from rebuilding the collections nobody may look through."""
        if action.get("type") == "place":
            return {"type": "place"}
        return action

    # -- what a seat may see ------------------------------------------------
    def visible_faces(self, state: MookiIslandState, seat: int | None) -> set[int]:
        """Data face numbers `seat` may see now."""
        s = state
        seen = {p[-1] for p in s.piles if p}
        if s.drawn is not None:
            seen.add(s.drawn)
            if seat == s.current:
                seen.add(flip(s.drawn))
        for collection in s.collections:
            if s.ended:
                seen.update(collection)
            elif collection:
                seen.add(collection[-1])
        return seen

    def foreseeable(
        self, state: MookiIslandState, seat: int, action: Action, after: MookiIslandState
    ) -> bool:
        """A card placed while the game goes on: the seat saw both sides of the card it drew, and
        where the chosen face goes follows from that face. A take (it turns up the pile's next
        card) and the game's end are left to the takeback's re-deals."""
        return action["type"] == "place" and not after.ended

    def shows_nothing(
        self, state: MookiIslandState, seat: int, action: Action, after: MookiIslandState
    ) -> bool:
        """A card placed while the game goes on: the seat saw both of its sides when it drew it, and
        placing it turns up no other card."""
        return self.foreseeable(state, seat, action, after)

    def hidden_ids(self, state: MookiIslandState, seat: int | None) -> frozenset[int]:
        seen = self.visible_faces(state, seat)
        return frozenset(state.face_ids[f] for f in range(FACES) if f not in seen)

    def face_json(self, state: MookiIslandState, face: int) -> dict[str, Any]:
        return {"id": state.face_ids[face], **BOX.faces[face].to_json()}

    def _shown(self, s: MookiIslandState, seen: set[int], face: int | None) -> dict[str, Any] | None:
        """A face as a viewer who sees the faces `seen` (`visible_faces`) sees it: None if hidden."""
        return self.face_json(s, face) if face is not None and face in seen else None

    def _drawn(self, s: MookiIslandState, seen: set[int]) -> dict[str, Any] | None:
        """The card in the drawer's hands, as a viewer who sees the faces `seen` sees it."""
        if s.drawn is None:
            return None
        return {
            "seat": s.current,
            UPPER: self._shown(s, seen, s.drawn),
            LOWER: self._shown(s, seen, flip(s.drawn)),
        }

    def _aid(self, s: MookiIslandState, seat: int | None) -> dict[str, int] | None:
        """The memory aid: the Mookies of each family in `seat`'s own collection, while the game runs."""
        if not s.memory_aid or seat is None or s.ended:
            return None
        mine = s.collections[seat]
        return {**family_counts(mine), "spiders": spider_count(mine)}

    def view(self, state: MookiIslandState, seat: int | None) -> dict[str, Any]:
        s = state
        check_seat(seat, PLAYERS)
        seen = self.visible_faces(s, seat)

        def shown(face: int | None) -> dict[str, Any] | None:
            return self._shown(s, seen, face)

        # Logged events never change: handed on uncopied (docs/engines.md).
        events = list(s.events)
        return {
            "game": GAME_ID,
            "seat": seat,
            "players": PLAYERS,
            "round": 1,
            "events": events,
            "phase": s.phase,
            "current": None if s.phase == OVER else sorted(self.to_act(s))[0],
            "youngest": s.youngest,
            "memory_aid": s.memory_aid,
            "trophy_stars": {t.family: t.stars for t in BOX.trophies},
            "piles": [{"count": len(p), "top": shown(p[-1]) if p else None} for p in s.piles],
            "drawn": self._drawn(s, seen),
            "collections": [
                {"seat": i, "height": len(c), "top": shown(c[-1]) if c else None}
                for i, c in enumerate(s.collections)
            ],
            "aid": self._aid(s, seat),
            "end": self._end_view(s) if s.ended else None,
        }

    def own_view(self, state: MookiIslandState, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        """Only what `seat` sees and a spectator does not: its seat number, the card in its hands
        when it is the drawer (both sides), and its memory aid. Built afresh: an own part shares
        nothing with the public view, which every socket holds."""
        s = state
        check_seat(seat, PLAYERS)
        own: dict[str, Any] = {"seat": seat}
        if s.drawn is not None and seat == s.current:
            own["drawn"] = self._drawn(s, self.visible_faces(s, seat))
        aid = self._aid(s, seat)
        if aid is not None:
            own["aid"] = aid
        return own

    def _end_view(self, s: MookiIslandState) -> dict[str, Any]:
        assert s.trophies is not None
        counts = [family_counts(c) for c in s.collections]
        spiders = [spider_count(c) for c in s.collections]
        # The sorting: every chosen face, by family, as the players lay them out.
        order = {f: i for i, f in enumerate(FAMILIES)}

        def sort_key(face: int) -> tuple[int, int, int]:
            f: Face = BOX.faces[face]
            return (order.get(f.family or "", len(FAMILIES)), f.kind != LEGENDARY, s.face_ids[face])

        awarded = award_trophies(counts)
        return {
            "sorted": [
                {
                    "seat": i,
                    "faces": [self.face_json(s, f) for f in sorted(c, key=sort_key)],
                    "counts": counts[i],
                    "spiders": spiders[i],
                }
                for i, c in enumerate(s.collections)
            ],
            "trophies": [
                {
                    "family": t.family,
                    "stars": t.stars,
                    "counts": [counts[0][t.family], counts[1][t.family]],
                    "awarded": awarded[n],
                    "owner": s.trophies[n],
                }
                for n, t in enumerate(BOX.trophies)
            ],
            "spider": {
                "seat": s.spider_seat,
                "choosing": s.phase == RETURN,
                "returned": s.returned,
            },
            "stars": None if s.stars is None else s.stars[:],
            "winner": s.winner,
        }

    # -- what a seat remembers, and the rest dealt again ----------------------
    def memory(self, state: MookiIslandState, seat: int) -> dict[str, Any]:
        """What `seat` saw of both collections, for a player (or bot) with a perfect memory.

        Every card placed, bottom first, with the face it was placed on (that face was on top of
        its collection, for both players to see, when it was placed), and the other face of each
        card this seat drew itself (both sides were in its hands); the other face of the cards the
        opponent drew is None. Nothing here was hidden from `seat` when it happened, and
        `resample` keeps all of it.
        """
        check_seat(seat, PLAYERS)
        return {
            "collections": [
                [
                    {
                        "face": self.face_json(state, face),
                        "back": self.face_json(state, flip(face)) if drawer_of(face, owner) == seat else None,
                    }
                    for face in collection
                ]
                for owner, collection in enumerate(state.collections)
            ]
        }

    def _knowledge(self, state: MookiIslandState, seat: int) -> list[int]:
        """For each place of a card (see `_places`), what `seat` knows of the card there."""
        uppers = dealt_uppers(state)
        known: list[int] = []
        for pile in state.piles:
            known.extend(SHOWN if i == len(pile) - 1 else NOTHING for i in range(len(pile)))
        if state.drawn is not None:
            known.append(BOTH if seat == state.current else SHOWN)
        for owner, collection in enumerate(state.collections):
            for face in collection:
                if drawer_of(face, owner) == seat:
                    known.append(BOTH)  # the seat held it: both faces
                elif uppers is None or uppers[face // 2] != face:
                    # Placed on its lower side, the seat saw its upper face too (in the pile, then in
                    # the opponent's hands); without the deal to tell, it may have: kept as it is.
                    known.append(BOTH)
                else:
                    known.append(SHOWN)
        return known

    @staticmethod
    def _places(state: MookiIslandState) -> list[int]:
        """The face shown in each place of a card: piles bottom first, the drawn card, collections."""
        faces = [face for pile in state.piles for face in pile]
        if state.drawn is not None:
            faces.append(state.drawn)
        return faces + [face for collection in state.collections for face in collection]

    def resample(self, state: MookiIslandState, seat: int, rng: random.Random) -> MookiIslandState:
        """The same match as `seat` saw it, with every card side it never saw dealt again.

        `seat` knows both faces of each card it drew and of each card the opponent placed on its
        lower side (the upper one was on the pile); the shown face of each pile's top card, of the
        card in the opponent's hands and of every card placed; nothing of the cards under the
        tops. The cards move between places so that each place keeps what the seat knows of it
        (a card with the same two faces where both are known, a card with the same face where one
        is, any card, either side up, under the tops), by random swaps that keep that true. Every
        face the seat saw keeps its id; the other ids of a kind of face are shuffled among the
        faces of that kind it did not see, so an id still names the same kind of face. The seed
        is replaced: it would deal the real piles again.
        """
        check_seat(seat, PLAYERS)
        old = self._places(state)
        known = self._knowledge(state, seat)
        shown = [BOX.faces[face] for face in old]
        cards = [face // 2 for face in old]
        pairs = [PAIRS[card] for card in cards]
        labels = [face.label() for face in shown]

        def fits(card: int, place: int) -> bool:
            if known[place] == BOTH:
                return PAIRS[card] == pairs[place]
            if known[place] == SHOWN:
                return labels[place] in PAIRS[card]
            return True

        count = len(old)
        for _ in range(RESAMPLE_SWAPS * count):
            i, j = int(rng.random() * count), int(rng.random() * count)
            if i != j and fits(cards[j], i) and fits(cards[i], j):
                cards[i], cards[j] = cards[j], cards[i]

        faces: list[int] = []
        face_ids: list[int | None] = [None] * FACES
        for place, card in enumerate(cards):
            if known[place] == NOTHING:
                face = 2 * card + rng.randrange(2)
            else:
                sides = [f for f in (2 * card, 2 * card + 1) if BOX.faces[f] == shown[place]]
                face = sides[0] if len(sides) == 1 else rng.choice(sides)
                face_ids[face] = state.face_ids[old[place]]
                if known[place] == BOTH:
                    face_ids[flip(face)] = state.face_ids[flip(old[place])]
            faces.append(face)
        # The ids nobody placed yet, by kind of face, go to the faces of that kind without one.
        free: dict[Face, list[int]] = defaultdict(list)
        used = {i for i in face_ids if i is not None}
        for face, face_id in enumerate(state.face_ids):
            if face_id not in used:
                free[BOX.faces[face]].append(face_id)
        for ids in free.values():
            rng.shuffle(ids)
        ids_out = [i if i is not None else free[BOX.faces[f]].pop() for f, i in enumerate(face_ids)]

        new = CODEC.clone(state)
        new.face_ids = ids_out
        rest = iter(faces)
        new.piles = [[next(rest) for _ in pile] for pile in state.piles]
        if state.drawn is not None:
            new.drawn = next(rest)
        new.collections = [[next(rest) for _ in collection] for collection in state.collections]
        new.rng = Rng(rng.getrandbits(64), state.rng.counter)
        return new

    # -- persistence --------------------------------------------------------
    def dump(self, state: MookiIslandState) -> dict[str, Any]:
        return CODEC.dump(state)

    def load(self, data: dict[str, Any]) -> MookiIslandState:
        return CODEC.load(data)


CODEC = StateCodec(MookiIslandState)
