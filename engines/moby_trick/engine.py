"""Moby Trick rules: tricks with a movable trump, a two-sided value token and whale bonuses."""

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
    who_starts,
)
from engines.core.words import N_

from .cards import CARDS, FAMILIES, Card, rules_data

HAND_SIZE = 9
TRICKS_PER_ROUND = HAND_SIZE - 1  # one card of the deal becomes the first bonus
MAX_EVENTS = 24

# Phases of a round.
SET_ASIDE = "set_aside"  # every seat picks its first bonus, hidden from the others until all have picked
PLAY = "play"  # `turn` uses bonuses and plays a card
REWARD = "reward"  # `turn` (the trick winner) picks another player's card of the trick
LEAD = "lead"  # `turn` (who played the first 5) names the next leader
OVER = "over"

NO_CARD = -1


class MobyTrickOptions(Options):
    target: int = Field(
        30,
        ge=1,
        le=300,
        title=N_("Play to"),
        description=N_("The game ends after the round in which a total reaches this."),
    )
    first_player: int | None = Field(
        0,
        ge=0,
        le=3,
        title=N_("Who starts"),
        description=N_("The player who last saw a whale leads the first trick (empty: chosen at random)."),
        json_schema_extra=seat_widget(3),
    )
    full_reward: bool = Field(
        True,
        title=N_("Rewards paid in full"),
        description=N_("Pearls no card is left to pay still score, as points."),
        json_schema_extra=option_words(rules="full-reward"),
    )
    fives_can_win: bool = Field(
        False,
        title=N_("A 5 can win a trick"),
        description=N_("A 5 counts as a 5 of the family it joins."),
        json_schema_extra=option_words(rules="fives-can-win"),
    )


@dataclass
class MobyTrickState:
    players: int
    target: int
    first_player: int
    rng: Rng
    fives_can_win: bool = False
    full_reward: bool = True
    round_number: int = 0
    round_leader: int = 0
    trump: str = ""
    token: int = 1  # the token side up: 1 = lowest value wins, 9 = highest wins
    phase: str = SET_ASIDE
    hands: list[list[int]] = field(default_factory=list)
    set_aside: list[int] = field(default_factory=list)
    bonuses: list[list[int]] = field(default_factory=list)
    pearl_piles: list[list[int]] = field(default_factory=list)
    # Pearls of a reward that no card was left to pay, scored like pearl-pile cards.
    pearl_points: list[int] = field(default_factory=list)
    discard_pile: list[int] = field(default_factory=list)
    undealt: list[int] = field(default_factory=list)
    trick_seats: list[int] = field(default_factory=list)
    trick_cards: list[int] = field(default_factory=list)
    leader: int = 0
    turn: int = 0
    trick_number: int = 0
    # Families each seat has shown it lacks this round (it did not follow): public deductions.
    voids: list[list[str]] = field(default_factory=list)
    rounds: list[list[int]] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)  # the newest MAX_EVENTS, oldest first
    event_seq: int = 0  # seq of the last event logged in the match

    def clone(self) -> MobyTrickState:
        """A copy that shares nothing mutable, without deepcopy's cost."""
        return CODEC.clone(self)


def _brief(card: Card) -> dict[str, Any]:
    """A card as an event names it: family and value, never its id."""
    return {"family": card.family, "value": card.value}


def led_family(state: MobyTrickState) -> str | None:
    """The family the trick follows: that of its first whale card (a led 5 waits for one)."""
    for card_id in state.trick_cards:
        family = CARDS[card_id].family
        if family is not None:
            return family
    return None


def trick_winner(state: MobyTrickState) -> int:
    """Seat winning the complete trick on the table, by trump, led family and token."""
    led = led_family(state)
    if led is None:
        return state.trick_seats[0]  # only 5s were played
    # (seat, family, value) in play order; with the option a 5 is a card of the led family.
    played = [
        (seat, CARDS[c].family, CARDS[c].value)
        for seat, c in zip(state.trick_seats, state.trick_cards, strict=True)
    ]
    if state.fives_can_win:
        played = [(seat, led if family is None else family, value) for seat, family, value in played]
    contenders = [p for p in played if p[1] == state.trump]
    if not contenders:
        contenders = [p for p in played if p[1] == led]
    # min and max keep the first of equal values: between two 5s the earlier one wins.
    if state.token == 9:
        return max(contenders, key=lambda p: p[2])[0]
    return min(contenders, key=lambda p: p[2])[0]


def playable_cards(state: MobyTrickState, seat: int) -> list[int]:
    hand = state.hands[seat]
    led = led_family(state)
    if led is None or not any(CARDS[c].family == led for c in hand):
        return list(hand)
    return [c for c in hand if CARDS[c].family == led or CARDS[c].is_five]


def usable_bonuses(state: MobyTrickState, seat: int) -> list[int]:
    # A change-trump bonus naming the current trump would change nothing, so it is not offered.
    trump = state.trump
    return [
        c for c in state.bonuses[seat] if CARDS[c].bonus_kind != "trump" or CARDS[c].bonus_family != trump
    ]


def pearls(state: MobyTrickState, seat: int) -> int:
    return len(state.pearl_piles[seat]) + state.pearl_points[seat]


def round_points(state: MobyTrickState, seat: int) -> int:
    return pearls(state, seat) + len(state.bonuses[seat]) // 2


class MobyTrickEngine(Engine[MobyTrickState]):
    spec = GameSpec(
        id="moby-trick",
        title="Moby Trick",
        min_players=2,
        max_players=4,
        options_model=MobyTrickOptions,
        blurb=N_("Win tricks under a shifting trump and value token; collect pearls and whale bonuses."),
        winner="highest_total",
        panel="points",
        starter=Starter(option="first_player", question=N_("Who last saw a whale?")),
        data=rules_data,
        hides_information=True,
        default_bot="strong",
        fallback_bot="random",
        goal=Goal(view_key="target", reaching="ends_game", option="target"),
        action_words={
            # The card set aside is hidden from the others: their log says "a card".
            "set_aside": ActionWords(
                done=N_("set {card} aside"), otherwise=N_("set a card aside"), ask=N_("set a card aside")
            ),
            "use_bonus": ActionWords(done=N_("used a bonus"), ask=N_("use a bonus")),
            "play": ActionWords(
                done=N_("played {card}"), otherwise=N_("played a card"), ask=N_("play a card")
            ),
            "reward": ActionWords(
                done=N_("took the pearls of {card}"),
                otherwise=N_("took the pearls of a card"),
                ask=N_("take the pearls of a card"),
            ),
            "choose_leader": ActionWords(
                done=N_("chose {seat} to lead"), otherwise=N_("chose who leads"), ask=N_("choose who leads")
            ),
        },
    )

    # -- setup and flow -------------------------------------------------
    def deal(self, players: int, rng: Rng, options: Options, first: int | None) -> MobyTrickState:
        assert isinstance(options, MobyTrickOptions)
        first = who_starts(first, players, rng)  # drawn before the round's deal
        state = MobyTrickState(
            players=players,
            target=options.target,
            first_player=first,
            rng=rng,
            fives_can_win=options.fives_can_win,
            full_reward=options.full_reward,
            totals=[0] * players,
        )
        self._start_round(state, first)
        return state

    def _start_round(self, state: MobyTrickState, leader: int) -> None:
        n = state.players
        deck = [c.id for c in CARDS if n > 2 or not c.is_five]
        while True:
            drawn = CARDS[deck[state.rng.randrange(len(deck))]]
            if not drawn.is_five:
                break
        assert drawn.family is not None
        state.trump = drawn.family
        state.token = 1 if drawn.value < 5 else 9
        deck = state.rng.shuffled(deck)
        state.round_number += 1
        state.round_leader = leader
        state.leader = leader
        state.turn = leader
        state.trick_number = 0
        state.phase = SET_ASIDE
        state.hands = [sorted(deck[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(n)]
        state.undealt = sorted(deck[n * HAND_SIZE :])
        state.set_aside = [NO_CARD] * n
        state.bonuses = [[] for _ in range(n)]
        state.pearl_piles = [[] for _ in range(n)]
        state.pearl_points = [0] * n
        state.voids = [[] for _ in range(n)]
        state.discard_pile = []
        state.trick_seats = []
        state.trick_cards = []
        self._log(
            state,
            {
                "type": "round_start",
                "round": state.round_number,
                "drawn": _brief(drawn),
                "trump": state.trump,
                "token": state.token,
                "leader": leader,
            },
        )

    @staticmethod
    def _log(state: MobyTrickState, event: dict[str, Any]) -> None:
        kind = event.pop("type")
        state.event_seq = log_event(state.events, state.event_seq, kind, event, MAX_EVENTS)

    def to_act(self, state: MobyTrickState) -> frozenset[int]:
        if state.phase == SET_ASIDE:
            return frozenset(s for s in range(state.players) if state.set_aside[s] == NO_CARD)
        if state.phase == OVER:
            return frozenset()
        return frozenset((state.turn,))

    def legal_actions(self, state: MobyTrickState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.phase == SET_ASIDE:
            return [{"type": "set_aside", "card": c} for c in state.hands[seat] if not CARDS[c].is_five]
        if state.phase == PLAY:
            actions: list[Action] = [{"type": "use_bonus", "card": c} for c in usable_bonuses(state, seat)]
            actions.extend({"type": "play", "card": c} for c in playable_cards(state, seat))
            return actions
        if state.phase == REWARD:
            return [
                {"type": "reward", "card": c}
                for s, c in zip(state.trick_seats, state.trick_cards, strict=True)
                if s != seat
            ]
        return [{"type": "choose_leader", "seat": s} for s in range(state.players)]

    def _apply(self, state: MobyTrickState, seat: int, action: Action) -> MobyTrickState:
        state = state.clone()
        self.advance(state, seat, action)
        return state

    def advance(self, state: MobyTrickState, seat: int, action: Action) -> None:
        """Apply a legal action to `state` in place, unchecked: for bots searching copies."""
        kind = action["type"]
        if kind == "set_aside":
            self._set_aside(state, seat, action["card"])
        elif kind == "use_bonus":
            self._use_bonus(state, seat, action["card"])
        elif kind == "play":
            self._play(state, seat, action["card"])
        elif kind == "reward":
            self._reward(state, seat, action["card"])
        else:
            chosen = action["seat"]
            self._log(state, {"type": "leader", "chooser": seat, "seat": chosen})
            self._start_trick(state, chosen)

    # -- the steps of a round ---------------------------------------------
    def _set_aside(self, state: MobyTrickState, seat: int, card_id: int) -> None:
        state.hands[seat].remove(card_id)
        state.set_aside[seat] = card_id
        if NO_CARD in state.set_aside:
            return
        # Everyone has picked: the first bonuses are turned face up together.
        for s, c in enumerate(state.set_aside):
            state.bonuses[s].append(c)
            self._log(state, {"type": "set_aside", "seat": s, **_brief(CARDS[c])})
        state.set_aside = [NO_CARD] * state.players
        self._start_trick(state, state.round_leader)

    def _start_trick(self, state: MobyTrickState, leader: int) -> None:
        state.phase = PLAY
        state.trick_number += 1
        state.leader = leader
        state.turn = leader
        state.trick_seats = []
        state.trick_cards = []

    def _use_bonus(self, state: MobyTrickState, seat: int, card_id: int) -> None:
        card = CARDS[card_id]
        state.bonuses[seat].remove(card_id)
        event: dict[str, Any] = {"type": "bonus", "seat": seat, "kind": card.bonus_kind, **_brief(card)}
        if card.bonus_kind == "trump":
            assert card.bonus_family is not None
            state.trump = card.bonus_family
            state.discard_pile.append(card_id)
            event["trump"] = state.trump
        elif card.bonus_kind == "flip":
            state.token = 10 - state.token
            state.discard_pile.append(card_id)
            event["token"] = state.token
        else:
            state.pearl_piles[seat].append(card_id)
        self._log(state, event)

    def _play(self, state: MobyTrickState, seat: int, card_id: int) -> None:
        card = CARDS[card_id]
        led = led_family(state)
        if led is not None and card.family not in (None, led) and led not in state.voids[seat]:
            state.voids[seat].append(led)
        state.hands[seat].remove(card_id)
        state.trick_seats.append(seat)
        state.trick_cards.append(card_id)
        self._log(state, {"type": "play", "seat": seat, **_brief(card)})
        if len(state.trick_cards) < state.players:
            state.turn = (seat + 1) % state.players
            return
        winner = trick_winner(state)
        state.phase = REWARD
        state.turn = winner
        if state.players == 2:
            # Only one card of the trick belongs to another player: nothing to choose.
            self._reward(state, winner, state.trick_cards[state.trick_seats.index(1 - winner)])

    def _reward(self, state: MobyTrickState, winner: int, card_id: int) -> None:
        card = CARDS[card_id]
        owner = state.trick_seats[state.trick_cards.index(card_id)]
        rest = [c for c in state.trick_cards if c != card_id]
        pile = state.pearl_piles[winner]
        from_discard = 0
        if card.is_five:
            pile.append(card_id)
            state.discard_pile.extend(rest)
            points = 1
        else:
            state.bonuses[owner].append(card_id)
            points = card.pearls
            pile.extend(rest[:points])
            state.discard_pile.extend(rest[points:])
            from_discard = min(points - len(rest[:points]), len(state.discard_pile))
            if from_discard > 0:
                # Short trick: the rest comes from the top of the discard pile.
                pile.extend(state.discard_pile[-from_discard:])
                del state.discard_pile[-from_discard:]
            missing = points - len(rest[:points]) - from_discard
            if state.full_reward:
                # The rulebook pays "as many victory points as there are pearls"; the cards
                # set aside at the deal stay hidden, so the rest is noted instead of drawn.
                state.pearl_points[winner] += missing
            else:
                points -= missing
        self._log(
            state,
            {
                "type": "trick",
                "winner": winner,
                "owner": owner,
                **_brief(card),
                "points": points,
                "from_discard": from_discard,
            },
        )
        fives = [s for s, c in zip(state.trick_seats, state.trick_cards, strict=True) if CARDS[c].is_five]
        state.trick_seats = []
        state.trick_cards = []
        if state.trick_number == TRICKS_PER_ROUND:
            self._end_round(state)
        elif fives and not card.is_five:
            state.phase = LEAD
            state.turn = fives[0]
        else:
            self._start_trick(state, winner)

    def _end_round(self, state: MobyTrickState) -> None:
        points = [round_points(state, s) for s in range(state.players)]
        state.rounds.append(points)
        state.totals = [t + p for t, p in zip(state.totals, points, strict=True)]
        top = max(state.totals)
        self._log(
            state,
            {
                "type": "round_end",
                "round": state.round_number,
                "points": points,
                # Why: each seat's pearls, and the pairs of unused bonuses (a point each).
                "pearls": [pearls(state, s) for s in range(state.players)],
                "bonus_pairs": [len(state.bonuses[s]) // 2 for s in range(state.players)],
            },
        )
        if top >= state.target and state.totals.count(top) == 1:
            state.phase = OVER
            self._log(state, {"type": "game_end", "winners": [state.totals.index(top)]})
            return
        if top >= state.target:
            self._log(state, {"type": "tie", "seats": [s for s, t in enumerate(state.totals) if t == top]})
        self._start_round(state, (state.round_leader + 1) % state.players)

    # -- what leaves the engine -------------------------------------------
    def view(self, state: MobyTrickState, seat: int | None) -> dict[str, Any]:
        check_seat(seat, state.players)
        seats = [_seat_row(state, s, seat) for s in range(state.players)]
        result = self.result(state)
        return {
            "game": self.spec.id,
            "seat": seat,
            "players": state.players,
            "round": state.round_number,
            "target": state.target,
            "trick_number": state.trick_number,
            "tricks_per_round": TRICKS_PER_ROUND,
            "phase": state.phase,
            "to_act": sorted(self.to_act(state)),
            "turn": state.turn if state.phase in (PLAY, REWARD, LEAD) else None,
            "leader": state.leader,
            "round_leader": state.round_leader,
            "trump": state.trump,
            "token": state.token,
            "led_family": led_family(state),
            "hand": [CARDS[c].to_json() for c in state.hands[seat]] if seat is not None else [],
            "set_aside": (
                CARDS[state.set_aside[seat]].to_json()
                if seat is not None and state.set_aside[seat] != NO_CARD
                else None
            ),
            "seats": seats,
            "trick": [
                {"seat": s, "card": CARDS[c].to_json()}
                for s, c in zip(state.trick_seats, state.trick_cards, strict=True)
            ],
            "discard_pile": [CARDS[c].to_json() for c in state.discard_pile],
            "undealt_count": len(state.undealt),
            # Logged events never change: handed on uncopied (docs/engines.md).
            "events": list(state.events),
            "scorepad": self.scorepad(state).to_json(),
            "result": result.to_json() if result else None,
        }

    def own_view(self, state: MobyTrickState, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        """Only what `seat` sees and a spectator does not: its seat number, hand, the card it set
        aside, and the rows of `seats` (its own shows its pearl pile). The rows are built afresh: an
        own part shares nothing with the public view, which every socket holds."""
        check_seat(seat, state.players)
        seats = [_seat_row(state, s, seat) for s in range(state.players)]
        return {
            "seat": seat,
            "hand": [CARDS[c].to_json() for c in state.hands[seat]],
            "set_aside": CARDS[state.set_aside[seat]].to_json() if state.set_aside[seat] != NO_CARD else None,
            "seats": seats,
        }

    def foreseeable(self, state: MobyTrickState, seat: int, action: Action, after: MobyTrickState) -> bool:
        """A move within a round: a card played, given as a reward or a bonus used moves only the
        seat's own cards and face-up ones, and who wins a trick follows from the cards in it; a card
        set aside while others still choose theirs. The last card set aside (it turns up everyone's)
        and a round's end (every pile counted, a new deal) are left to the takeback's re-deals."""
        return (
            (action["type"] != "set_aside" or after.phase == SET_ASIDE)
            and after.round_number == state.round_number
            and after.phase != OVER
            and after.rng.counter == state.rng.counter
        )

    def shows_nothing(self, state: MobyTrickState, seat: int, action: Action, after: MobyTrickState) -> bool:
        """Every foreseeable move: the cards it moves are the seat's own (a card played, a bonus used,
        a card set aside while others still choose) or were face up in the trick (the reward); a
        leader chosen moves none."""
        return self.foreseeable(state, seat, action, after)

    def hidden_ids(self, state: MobyTrickState, seat: int | None) -> frozenset[int]:
        hidden = set(state.undealt)
        for s in range(state.players):
            if s != seat:
                hidden.update(state.hands[s])
                hidden.update(state.pearl_piles[s])
                if state.set_aside[s] != NO_CARD:
                    hidden.add(state.set_aside[s])
        return frozenset(hidden)

    def resample(self, state: MobyTrickState, seat: int, rng: random.Random) -> MobyTrickState:
        """The other seats' hands, their first bonuses still face down and the cards set aside at
        the deal, dealt again (see `Engine.resample`). Every other card stays: the trick, the
        bonuses, the discard pile, and every pearl pile (a seat that watched knows each card that
        went into one: the rest of a trick, the top of the discard pile, a cashed pearl bonus).
        Each hidden place keeps its count, no hand gets a family its owner showed it lacks
        (`voids`), and a face-down first bonus is never a 5. The seed of the next deals is drawn
        again too."""
        check_seat(seat, state.players)
        s = state.clone()
        s.rng = Rng(rng.getrandbits(64), s.rng.counter)
        others = [o for o in range(s.players) if o != seat]
        asides = [o for o in others if s.set_aside[o] != NO_CARD]
        everything = frozenset(c.family for c in CARDS)
        places = [(len(s.hands[o]), everything - set(s.voids[o])) for o in others]
        places += [(1, everything - {None}) for _ in asides]
        places.append((len(s.undealt), everything))
        pool = [c for o in others for c in s.hands[o]] + [s.set_aside[o] for o in asides] + s.undealt
        dealt = _deal_hidden(pool, places, rng)
        for o, cards in zip(others, dealt, strict=False):
            s.hands[o] = sorted(cards)
        for o, cards in zip(asides, dealt[len(others) :], strict=False):
            (s.set_aside[o],) = cards
        s.undealt = sorted(dealt[-1])
        return s

    def public_action(self, action: Action, seat: int, viewer: int | None) -> Action:
        # A first bonus is picked in secret and revealed when all have picked; the log
        # cannot tell when that happened, so it never shows another seat's pick.
        if action.get("type") == "set_aside" and viewer != seat:
            return {"type": "set_aside"}
        return action

    def scorepad(self, state: MobyTrickState) -> Scorepad:
        return Scorepad(rounds=[list(r) for r in state.rounds], totals=list(state.totals))

    def result(self, state: MobyTrickState) -> Result | None:
        if state.phase != OVER:
            return None
        top = max(state.totals)
        return Result(winners=[s for s, t in enumerate(state.totals) if t == top], scores=list(state.totals))

    def round_number(self, state: MobyTrickState) -> int:
        return state.round_number

    # -- persistence ------------------------------------------------------
    def dump(self, state: MobyTrickState) -> dict[str, Any]:
        return CODEC.dump(state)

    def load(self, data: dict[str, Any]) -> MobyTrickState:
        return CODEC.load(data)


def _deal_hidden(
    pool: list[int], places: list[tuple[int, frozenset[str | None]]], rng: random.Random
) -> list[list[int]]:
    """Deal `pool` into `places` (how many cards each takes, and the families it may take; None is
    the 5s): card by card in a random order, each to a place with room for it chosen with odds by
    that room (so with no limits every deal is equally likely), among the places that leave the
    rest dealable. The pool came from a real deal, so some deal fits."""
    families = sorted({CARDS[c].family for c in pool}, key=lambda f: (f is None, f or ""))
    bit = {family: 1 << i for i, family in enumerate(families)}
    accepts = [sum(bit[f] for f in families if f in allowed) for _, allowed in places]
    room = [size for size, _ in places]
    subsets = range(1, 1 << len(families))
    # Hall's condition, kept per set of families: the room of the places taking one of them, less
    # the cards of those families still to deal. Some deal fits exactly when no slack is negative.
    slack = {
        subset: sum(r for r, a in zip(room, accepts, strict=True) if a & subset)
        - sum(1 for c in pool if bit[CARDS[c].family] & subset)
        for subset in subsets
    }
    if min(slack.values(), default=0) < 0:
        raise ValueError("the hidden cards fit no deal the public deductions allow")
    touching = [[subset for subset in subsets if a & subset] for a in accepts]
    cards = sorted(pool)
    rng.shuffle(cards)
    dealt: list[list[int]] = [[] for _ in places]
    for card in cards:
        mine = bit[CARDS[card].family]
        for subset in subsets:
            if subset & mine:
                slack[subset] += 1  # one card of these families fewer to deal
        # Putting it in place i takes one room from every set of families the place takes.
        choices = [
            i
            for i, a in enumerate(accepts)
            if room[i] and a & mine and all(slack[subset] > 0 for subset in touching[i])
        ]
        pick = rng.randrange(sum(room[i] for i in choices))
        for chosen in choices:
            pick -= room[chosen]
            if pick < 0:
                break
        room[chosen] -= 1
        for subset in touching[chosen]:
            slack[subset] -= 1
        dealt[chosen].append(card)
    return dealt


def _upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """Fill in what states stored by earlier versions lack."""
    # Matches stored before these options existed were played with 5s that never win and short rewards.
    data.setdefault("fives_can_win", False)
    data.setdefault("full_reward", False)
    data.setdefault("pearl_points", [0] * data["players"])
    # Before events had seq/type, their events said "event".
    data["events"], data["event_seq"] = upgrade_events(data["events"], "event", data.get("event_seq"))
    return data


CODEC = StateCodec(MobyTrickState, upgrade=_upgrade)


__all__ = ["FAMILIES", "MobyTrickEngine", "MobyTrickOptions", "MobyTrickState"]


def _seat_row(state: MobyTrickState, s: int, viewer: int | None) -> dict[str, Any]:
    """Seat `s`'s row of `viewer`'s view: its pearl pile shows only to itself."""
    return {
        "seat": s,
        "hand_count": len(state.hands[s]),
        "has_set_aside": state.set_aside[s] != NO_CARD,
        "bonuses": [CARDS[c].to_json() for c in state.bonuses[s]],
        "pearl_count": pearls(state, s),
        "pearl_pile": [CARDS[c].to_json() for c in state.pearl_piles[s]] if s == viewer else None,
        "known_voids": list(state.voids[s]),
        "round_points": round_points(state, s),
    }
