"""The Mojo rules: a shedding game over rounds, lowest total wins."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from pydantic import Field

from engines.core import (
    Action,
    ActionWords,
    Engine,
    GameSpec,
    Goal,
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
    upgrade_events,
    view_copy,
    who_starts,
)
from engines.core.words import N_

from .cards import DECK, Card, rules_data

CARDS: tuple[Card, ...] = DECK.cards
VALUE: tuple[int, ...] = tuple(c.value for c in CARDS)
COLOUR: tuple[str, ...] = tuple(c.colour for c in CARDS)

EVENTS_KEPT = 40
# `MojoState.origin` of a card every seat saw go into a hand (drawn from a discard pile).
PUBLIC = -1
ZERO, PLUS10 = "zero", "plus10"
# The Mojo card's arrows: its 0 face turns play clockwise (seat numbers going
# up), its +10 face counter-clockwise. See docs/rules-decisions.md.
DIRECTION = {ZERO: 1, PLUS10: -1}


class MojoOptions(Options):
    target: int = Field(
        50,
        ge=1,
        le=1000,
        title=N_("Play to"),
        description=N_("The game ends when a total reaches this score."),
    )
    double_discard: bool = Field(
        False,
        title=N_("Double discard piles"),
        description=N_("Play on either pile; draw from the deck or the other pile."),
        json_schema_extra=option_words(rules="double-discard-variant"),
    )
    first_seat: int | None = Field(
        0,
        ge=0,
        le=7,
        title=N_("Who starts"),
        description=N_("The youngest player starts the first round (empty: chosen at random)."),
        json_schema_extra=seat_widget(7),
    )


@dataclass
class MojoState:
    players: int
    target: int
    double_discard: bool
    rng: Rng
    round: int = 0
    draw_pile: list[int] = field(default_factory=list)  # top is the last element
    discard_piles: list[list[int]] = field(default_factory=list)  # top is the last element
    hands: list[list[int]] = field(default_factory=list)
    face_down: list[list[int]] = field(default_factory=list)
    revealed: list[list[int]] = field(default_factory=list)
    current: int = 0
    mojo_face: str = ZERO
    turn_pile: int | None = None  # the discard pile this turn plays on, once chosen
    chaining: bool = False  # an equal card was played: the same seat must play again
    awaiting_draw: bool = False  # double discard: the seat chooses where to draw from
    round_scores: list[list[int]] = field(default_factory=list)
    last_round: dict[str, Any] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)  # the newest EVENTS_KEPT, oldest first
    event_seq: int = 0  # seq of the last event logged in the match
    over: bool = False
    # Per card id: the shuffle (numbered over the match, 0 = the first) that last put it into the
    # draw pile, or PUBLIC once every seat saw it go into a hand. Public knowledge: a seat that
    # watched the table knows which cards each shuffle took, so `resample` deals hidden cards
    # again only among cards of the same shuffle (and never moves a PUBLIC card in a hand).
    origin: list[int] = field(default_factory=lambda: [0] * len(CARDS))
    # The log as the other seats read it, event for event (a deck draw without its card): a cache
    # this state owns, built by the first view that needs it after the log changed (`_public_log`;
    # a move that is never viewed, as in a bot's search, pays nothing) and shared by clones as a
    # tuple, so a position reuses the redacted draws of the one before and the logs of the two
    # compare by identity (the fan-out's diff). Derived, never stored: empty after load.
    public_events: tuple[dict[str, Any], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.public_events = ()

    def clone(self) -> MojoState:
        return CODEC.clone(self)

    @property
    def direction(self) -> int:
        return DIRECTION[self.mojo_face]

    def totals(self) -> list[int]:
        return [sum(r[s] for r in self.round_scores) for s in range(self.players)]


def _best_per_colour(cards: list[int]) -> dict[str, int]:
    """Per colour the highest value held."""
    best: dict[str, int] = {}
    for c in cards:
        colour, value = COLOUR[c], VALUE[c]
        if value > best.get(colour, -1):
            best[colour] = value
    return best


def score_cards(cards: list[int]) -> int:
    """Per colour the highest value held, summed (equal values count once)."""
    return sum(_best_per_colour(cards).values())


def best_cards(cards: list[int]) -> list[dict[str, Any]]:
    """The cards that score: per colour the highest value held, highest first."""
    best = _best_per_colour(cards)
    return [
        {"colour": colour, "value": value} for colour, value in sorted(best.items(), key=lambda kv: -kv[1])
    ]


def apply_mojo_card(raw: list[int], holder: int, bonus: int = DECK.mojo_bonus) -> tuple[list[int], str]:
    """Apply the Mojo card to the raw round scores; return scores and the card's face."""
    others = [v for s, v in enumerate(raw) if s != holder]
    scores = list(raw)
    if all(raw[holder] <= v for v in others):
        scores[holder] = 0
        return scores, ZERO
    scores[holder] = raw[holder] + bonus
    return scores, PLUS10


class MojoEngine(Engine[MojoState]):
    spec = GameSpec(
        id="mojo",
        title="Mojo",
        min_players=2,
        max_players=8,
        options_model=MojoOptions,
        blurb=N_("Shed your high cards, chain equal values, and dodge the Mojo card: lowest total wins."),
        winner="lowest_total",
        panel="points",
        starter=Starter(option="first_seat", question=N_("Who starts?")),
        data=rules_data,
        hides_information=True,
        default_bot="strong",
        fallback_bot="random",
        goal=Goal(view_key="target", reaching="ends_game", option="target"),
        action_words={
            "play": ActionWords(
                done=N_("played {card}"), otherwise=N_("played a card"), ask=N_("play a card")
            ),
            "reveal": ActionWords(
                done=N_("turned over {card}"),
                otherwise=N_("turned a face-down card over"),
                ask=N_("turn a face-down card over"),
            ),
            "draw": ActionWords(done=N_("drew a card"), ask=N_("draw")),
        },
    )

    # -- setup --------------------------------------------------------------
    def deal(self, players: int, rng: Rng, options: Options, first: int | None) -> MojoState:
        assert isinstance(options, MojoOptions)
        state = MojoState(
            players=players, target=options.target, double_discard=options.double_discard, rng=rng
        )
        state.draw_pile = rng.shuffled(list(range(len(CARDS))))
        self._start_round(state, who_starts(first, players, rng))  # drawn after the shuffle
        return state

    def _start_round(self, s: MojoState, starter: int) -> None:
        s.round += 1
        pool = [c for group in (*s.discard_piles, *s.hands, *s.face_down, *s.revealed) for c in group]
        s.discard_piles = []
        s.hands = [[] for _ in range(s.players)]
        s.face_down = [[] for _ in range(s.players)]
        s.revealed = [[] for _ in range(s.players)]

        def deal_one() -> int:
            if not s.draw_pile:
                # Between rounds every card on the table is discarded, so the whole pool is reshuffled.
                _mark_shuffle(s, pool)
                s.draw_pile = s.rng.shuffled(pool)
                pool.clear()
            return s.draw_pile.pop()

        for _ in range(DECK.hand_size):
            for seat in range(s.players):
                s.hands[seat].append(deal_one())
        s.discard_piles = [[deal_one()] for _ in range(2 if s.double_discard else 1)]
        s.discard_piles[0][:0] = pool  # the rest of the discards sit under the first face-up card
        s.current = starter
        s.turn_pile = None
        s.chaining = False
        s.awaiting_draw = False

    # -- flow ---------------------------------------------------------------
    def to_act(self, state: MojoState) -> frozenset[int]:
        return frozenset() if state.over else frozenset((state.current,))

    def round_number(self, state: MojoState) -> int:
        return state.round

    def _limit(self, s: MojoState) -> int:
        return DECK.mojo_time_limit_two_players if s.players == 2 else DECK.mojo_time_limit

    def _can_draw_from_deck(self, s: MojoState) -> bool:
        return bool(s.draw_pile) or any(len(p) > 1 for p in s.discard_piles)

    def legal_actions(self, state: MojoState, seat: int) -> list[Action]:
        s = state
        if s.over or seat != s.current:
            return []
        if s.awaiting_draw:
            return [{"type": "draw", "source": "deck"}, {"type": "draw", "source": "pile"}]
        if s.face_down[seat] and not s.hands[seat]:
            return [{"type": "reveal", "card": c} for c in sorted(s.face_down[seat])]
        cards = sorted(s.hands[seat])
        if s.double_discard and s.turn_pile is None:
            return [{"type": "play", "card": c, "pile": p} for c in cards for p in (0, 1)]
        return [{"type": "play", "card": c} for c in cards]

    def _apply(self, state: MojoState, seat: int, action: Action) -> MojoState:
        s = state.clone()
        kind = action["type"]
        if kind == "play":
            self._play(s, seat, action["card"], action.get("pile"))
        elif kind == "reveal":
            self._reveal(s, seat, action["card"])
        else:
            self._draw_choice(s, seat, action["source"])
        return s

    def _event(self, s: MojoState, event: dict[str, Any]) -> None:
        kind = event.pop("type")
        s.event_seq = log_event(s.events, s.event_seq, kind, event, EVENTS_KEPT)

    def _play(self, s: MojoState, seat: int, card: int, pile: int | None) -> None:
        p = pile if pile is not None else (s.turn_pile or 0)
        target = s.discard_piles[p]
        covered = VALUE[target[-1]] if target else None
        s.hands[seat].remove(card)
        target.append(card)
        s.turn_pile = p
        self._event(s, {"type": "play", "seat": seat, "card": CARDS[card].face(), "pile": p})
        if not s.hands[seat]:
            # Every card of the hand went down in one turn: the round ends at once, with no draw.
            self._end_round(s, seat)
            return
        value = VALUE[card]
        if covered is not None and value == covered:
            s.chaining = True
            return
        s.chaining = False
        if covered is not None and value > covered:
            if s.double_discard:
                other = s.discard_piles[1 - p]
                if other and self._can_draw_from_deck(s):
                    s.awaiting_draw = True
                    return
                self._take_draw(s, seat, "pile" if other else "deck")
            else:
                self._take_draw(s, seat, "deck")
        self._end_turn(s, seat)

    def _draw_choice(self, s: MojoState, seat: int, source: str) -> None:
        s.awaiting_draw = False
        self._take_draw(s, seat, source)
        self._end_turn(s, seat)

    def _take_draw(self, s: MojoState, seat: int, source: str) -> None:
        if source == "pile":
            assert s.turn_pile is not None
            other, played = s.discard_piles[1 - s.turn_pile], s.discard_piles[s.turn_pile]
            card = other.pop()
            if not other:
                other.append(played.pop())
            s.hands[seat].append(card)
            s.origin[card] = PUBLIC  # everyone saw it on top of the pile: its place is no secret
            self._event(s, {"type": "draw", "seat": seat, "source": "pile", "card": CARDS[card].face()})
            return
        if not s.draw_pile:
            self._reshuffle(s)
        if not s.draw_pile:
            self._event(s, {"type": "draw", "seat": seat, "source": "none"})
            return
        card = s.draw_pile.pop()
        s.hands[seat].append(card)
        self._event(s, {"type": "draw", "seat": seat, "source": "deck", "card": CARDS[card].face()})

    def _reshuffle(self, s: MojoState) -> None:
        """Every discard but the top card(s) becomes the new draw pile."""
        pool = [c for p in s.discard_piles for c in p[:-1]]
        s.discard_piles = [p[-1:] for p in s.discard_piles]
        _mark_shuffle(s, pool)
        s.draw_pile = s.rng.shuffled(pool)
        self._event(s, {"type": "reshuffle", "count": len(pool)})

    def _end_turn(self, s: MojoState, seat: int) -> None:
        s.turn_pile = None
        s.chaining = False
        hand = s.hands[seat]
        if hand and len(hand) <= self._limit(s):
            s.face_down[seat].extend(hand)
            s.hands[seat] = []
            self._event(s, {"type": "mojo_time", "seat": seat, "count": len(s.face_down[seat])})
        s.current = (seat + s.direction) % s.players

    def _reveal(self, s: MojoState, seat: int, card: int) -> None:
        s.face_down[seat].remove(card)
        s.revealed[seat].append(card)
        self._event(s, {"type": "reveal", "seat": seat, "card": CARDS[card].face()})
        if not s.face_down[seat]:
            self._end_round(s, seat)
        else:
            s.current = (seat + s.direction) % s.players

    def _end_round(self, s: MojoState, ender: int) -> None:
        held = [s.hands[i] + s.face_down[i] + s.revealed[i] for i in range(s.players)]
        raw = [score_cards(cards) for cards in held]
        scores, face = apply_mojo_card(raw, ender)
        s.round_scores = [*s.round_scores, scores]
        s.mojo_face = face
        s.last_round = {
            "round": s.round,
            "ender": ender,
            "scores": scores,
            "mojo_face": face,
            "counted": [
                sorted((CARDS[c].face() for c in cards), key=lambda f: (f["value"], f["colour"]))
                for cards in held
            ],
        }
        self._event(
            s,
            {
                "type": "round_end",
                "round": s.round,
                "seat": ender,
                "scores": scores,
                "mojo_face": face,
                # Why: per seat the highest card of each colour held (what counts), and their sum
                # before the Mojo card. Every hand is shown at a round's end, so all may see this.
                "best": [best_cards(cards) for cards in held],
                "raw": raw,
            },
        )
        if max(s.totals()) >= s.target:
            s.over = True
            s.turn_pile = None
            s.chaining = False
            return
        self._start_round(s, ender)

    # -- results ------------------------------------------------------------
    def scorepad(self, state: MojoState) -> Scorepad:
        return Scorepad(rounds=[list(r) for r in state.round_scores], totals=state.totals())

    def result(self, state: MojoState) -> Result | None:
        if not state.over:
            return None
        totals = state.totals()
        best = min(totals)
        return Result(winners=[s for s, t in enumerate(totals) if t == best], scores=totals)

    # -- views --------------------------------------------------------------
    def foreseeable(self, state: MojoState, seat: int, action: Action, after: MojoState) -> bool:
        """A move that took no card from the deck and shuffled nothing, within the round: it moved
        only the seat's own cards and face-up ones, so its outcome follows from what the seat saw.
        A draw from the deck, a reshuffle and a round's end (every hand shown, a new deal) are left
        to the takeback's re-deals."""
        return (
            len(after.draw_pile) == len(state.draw_pile)
            and after.rng.counter == state.rng.counter
            and after.round == state.round
            and not after.over
        )

    def shows_nothing(self, state: MojoState, seat: int, action: Action, after: MojoState) -> bool:
        """A foreseeable card played from the hand, or a face-down card of the seat's own turned up,
        that brought no card into the hand and uncovered no card of a pile: only a card the seat held
        came into view. A draw from a pile (it uncovers the card beneath) is left to the test."""
        kind = action["type"]
        if kind not in ("play", "reveal") or not self.foreseeable(state, seat, action, after):
            return False
        held = len(state.hands[seat]) + len(state.face_down[seat]) + len(state.revealed[seat])
        now = len(after.hands[seat]) + len(after.face_down[seat]) + len(after.revealed[seat])
        return now == held - (kind == "play") and all(
            len(pile) >= len(was) for pile, was in zip(after.discard_piles, state.discard_piles, strict=True)
        )

    def shows_the_mover_a_card(self, state: MojoState, seat: int, action: Action, after: MojoState) -> bool:
        """The top card of the deck went into the seat's hand (or, with the rest of it, face down),
        within the round and with no reshuffle: the seat now knows a card it could not see."""
        if not state.draw_pile or after.round != state.round or after.over:
            return False
        drawn = state.draw_pile[-1]
        return (
            after.rng.counter == state.rng.counter
            and len(after.draw_pile) == len(state.draw_pile) - 1
            and (drawn in after.hands[seat] or drawn in after.face_down[seat])
        )

    def hidden_ids(self, state: MojoState, seat: int | None) -> frozenset[int]:
        hidden = set(state.draw_pile)
        for other in range(state.players):
            if other != seat:
                hidden.update(state.hands[other])
                hidden.update(state.face_down[other])
        return frozenset(hidden)

    def view(self, state: MojoState, seat: int | None) -> dict[str, Any]:
        s = state
        check_seat(seat, s.players)
        # Logged events never change, so the view hands them on as they are (the fan-out builds a view
        # per viewer per move: copying 40 events each time was a fifth of the server's work).
        events = _log_seen_by(s, seat)
        return {
            "game": "mojo",
            "seat": seat,
            "players": s.players,
            "round": s.round,
            "target": s.target,
            "double_discard": s.double_discard,
            "direction": "clockwise" if s.direction == 1 else "counterclockwise",
            # The Mojo card lies in the centre during a round; it stays with the last ender at the end.
            "mojo": {
                "face": s.mojo_face,
                "holder": s.last_round["ender"] if s.over and s.last_round else None,
            },
            "current": None if s.over else s.current,
            "turn": {"pile": s.turn_pile, "chain": s.chaining, "awaiting_draw": s.awaiting_draw},
            "draw_pile": len(s.draw_pile),
            "discard_piles": [
                {"top": CARDS[p[-1]].to_json() if p else None, "count": len(p)} for p in s.discard_piles
            ],
            "seats": [
                {
                    "seat": i,
                    "hand_count": len(s.hands[i]),
                    "face_down_count": len(s.face_down[i]),
                    "revealed": [CARDS[c].to_json() for c in s.revealed[i]],
                    "mojo_time": bool(s.face_down[i] or s.revealed[i]),
                }
                for i in range(s.players)
            ],
            "hand": [CARDS[c].to_json() for c in sorted(s.hands[seat], key=_hand_order)]
            if seat is not None
            else [],
            "face_down": [CARDS[c].to_json() for c in s.face_down[seat]] if seat is not None else [],
            "events": events,
            "last_round": view_copy(s.last_round),
        }

    def own_view(self, state: MojoState, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        """Only what `seat` sees and a spectator does not: its seat number, hand and face-down cards,
        and the log when it names a card the seat drew from the deck."""
        s = state
        check_seat(seat, s.players)
        own: dict[str, Any] = {
            "seat": seat,
            "hand": [CARDS[c].to_json() for c in sorted(s.hands[seat], key=_hand_order)],
            "face_down": [CARDS[c].to_json() for c in s.face_down[seat]],
        }
        shown = public.get("events")
        if not isinstance(shown, list) or len(shown) != len(s.events):
            shown = _public_log(s)
        # The public log differs from the logged events only where a deck draw is redacted: the
        # seat's own draws among those are what its log shows otherwise.
        if any(e is not p and e["seat"] == seat for e, p in zip(s.events, shown, strict=True)):
            own["events"] = [
                e if e is not p and e["seat"] == seat else p for e, p in zip(s.events, shown, strict=True)
            ]
        return own

    def resample(self, state: MojoState, seat: int, rng: random.Random) -> MojoState:
        """The draw pile and the other seats' hands and face-down cards dealt again (see
        `Engine.resample`). What stays: the seat's own cards, both discard piles whole (every card
        in them was played face up, or counted face up at a round's end), the revealed cards, and
        a card another seat drew from a discard pile (`PUBLIC`). The rest moves only among cards
        of one shuffle (`origin`): a seat that watched a reshuffle knows which cards it took, and
        that a hand which has not drawn since holds none of them. Every place keeps its count;
        the seed of the future shuffles is drawn again too (it is no more public than the deck),
        and the log keeps only what the seat read in it: the cards others drew from the deck go,
        as they would no longer match the hands.
        """
        check_seat(seat, state.players)
        s = state.clone()
        s.rng = Rng(rng.getrandbits(64), s.rng.counter)
        s.events = _log_seen_by(s, seat)
        others = [o for o in range(s.players) if o != seat]
        places = [s.draw_pile, *(s.hands[o] for o in others), *(s.face_down[o] for o in others)]
        slots: dict[int, list[tuple[list[int], int]]] = {}
        for place in places:
            for i, card in enumerate(place):
                if s.origin[card] != PUBLIC:
                    slots.setdefault(s.origin[card], []).append((place, i))
        for shuffle in sorted(slots):
            cards = sorted(place[i] for place, i in slots[shuffle])
            rng.shuffle(cards)
            for (place, i), card in zip(slots[shuffle], cards, strict=True):
                place[i] = card
        return s

    # -- persistence --------------------------------------------------------
    def dump(self, state: MojoState) -> dict[str, Any]:
        return CODEC.dump(state)

    def load(self, data: dict[str, Any]) -> MojoState:
        return CODEC.load(data)


def _upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """States stored before events had seq/type (their events said "kind")."""
    data["events"], data["event_seq"] = upgrade_events(data["events"], "kind", data.get("event_seq"))
    # States stored before origins were kept: one shuffle for all (a card drawn from a pile since is
    # then dealt again by resample like any hidden card; the engine's play does not read origins).
    data.setdefault("origin", [0] * len(CARDS))
    return data


def _public(event: dict[str, Any]) -> dict[str, Any]:
    """A logged event as the seats other than its own read it: a deck draw without its card."""
    if event["type"] == "draw" and event.get("source") == "deck":
        return {k: v for k, v in event.items() if k != "card"}
    return event


def _public_log(s: MojoState) -> tuple[dict[str, Any], ...]:
    """`s.public_events`, brought up to date with `s.events`. The cache is the log of an earlier
    position of the same match (the one this state was cloned from), and both are windows of one
    log in seq order whose events never change: the twins of the events both hold are kept, from
    the first event still logged on, and only the events logged since are redacted anew."""
    public, events = s.public_events, s.events
    if len(public) == len(events) and (
        not events or (public[0]["seq"] == events[0]["seq"] and public[-1]["seq"] == events[-1]["seq"])
    ):
        return public
    if not events:
        s.public_events = ()
        return s.public_events
    first = events[0]["seq"]
    start = next((i for i, p in enumerate(public) if p["seq"] == first), len(public))
    kept = len(public) - start
    if kept > len(events) or (kept and events[kept - 1]["seq"] != public[-1]["seq"]):
        start, kept = len(public), 0  # not the same log (a state put together by hand): anew
    s.public_events = public[start:] + tuple(_public(e) for e in events[kept:])
    return s.public_events


def _log_seen_by(s: MojoState, seat: int | None) -> list[dict[str, Any]]:
    """The log as `seat` reads it (a fresh list of shared events): the card someone else drew from
    the deck is not named."""
    public = _public_log(s)
    if seat is None:
        return list(public)
    return [e if e is not p and e["seat"] == seat else p for e, p in zip(s.events, public, strict=True)]


def _mark_shuffle(s: MojoState, pool: list[int]) -> None:
    """Note that `pool` goes into the draw pile by a new shuffle."""
    number = max(s.origin) + 1
    for card in pool:
        s.origin[card] = number


CODEC = StateCodec(MojoState, upgrade=_upgrade)


def _hand_order(card: int) -> tuple[int, int]:
    return (VALUE[card], card)
