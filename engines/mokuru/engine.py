"""Mokuru rules: Motable referees a dexterity game played with real wooden Mokuru.

The players perform the tricks with their own hands and report each try; the
engine draws the cards, counts the tries, applies the action cards, moves the
pawns on the belts board and declares the Grandmaster. See
docs/rules-decisions.md for every reading of the rulebook taken here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Literal

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
    Standing,
    Starter,
    StateCodec,
    check_seat,
    json_copy,
    log_event,
    option_words,
    seat_widget,
    who_starts,
)
from engines.core.words import N_

from .cards import CARDS, TABLE, Card

# The key, in an option's JSON schema, of the value a match started around one device uses
# instead of the option's default (app/services/rooms.py applies it).
ONE_DEVICE_KEY = "one_device"

EVENTS_KEPT = 40

# Difficulty: what the player starts and stops the Mokuru with, and the tries per trick.
LEVELS: dict[str, tuple[str, int]] = {
    "easy": (N_("one hand"), 3),
    "normal": (N_("two fingers"), 3),
    "hard": (N_("one finger"), 3),
    "extreme": (N_("one finger"), 1),
}

# Phases.
DIFFICULTY = "difficulty"  # every seat picks its difficulty, all at once
DRAW = "draw"  # `turn` draws (the first card of the turn, or on after an action card)
TARGET = "target"  # `turn` names the player an action card or a Battle card aims at
DARKNESS = "darkness"  # `turn` (possessed) looks through the tricks deck and picks a trick
PERFORM = "perform"  # one performer reports a try (a trick, a Duel, The Doom, a Marathon)
BATTLE = "battle"  # two performers race; the first "done" wins
CONFIRM = "confirm"  # witness option: another seat confirms or disputes a reported success
SPENT = "spent"  # tries spent: the performer may still win the trick with Immunity
OVER = "over"

# Sources of the trick being performed.
FROM_DECK, FROM_MASTERS, GIVEN, STOLEN, FROM_DARKNESS = "deck", "masters", "given", "stolen", "darkness"

# Action cards whose effect a targeted holder of Immunity may block while the window is open.
BLOCKABLE = frozenset({"negative_boost", "swap", "belt_steal", "duel", "the_doom"})


class MokuruOptions(Options):
    # The lobby shows each option as a short title, a one-line hint and a link to the rules section
    # that tells it in full (option_words); the rules page holds the fine print.
    belts: Literal["full", "short"] = Field(
        "full",
        title=N_("Belts"),
        description=N_("Short skips some, for a quicker game."),
        json_schema_extra=option_words(
            choices={"full": N_("Every belt"), "short": N_("Short: fewer belts")}, rules="the-belts"
        ),
    )
    witness: Literal["auto", "on", "off"] = Field(
        "auto",
        title=N_("Witnesses"),
        description=N_("Another player confirms each success."),
        # A match started from a page holding several seats (everyone watches the same tries)
        # turns an "auto" witness off: see ONE_DEVICE_KEY.
        json_schema_extra={
            ONE_DEVICE_KEY: "off",
            **option_words(
                choices={"auto": N_("With 3 or more players"), "on": N_("Always"), "off": N_("Never")},
                rules="witness",
            ),
        },
    )
    duel_tries: Literal["difficulty", "three"] = Field(
        "difficulty",
        title=N_("Tries in a Duel"),
        description=N_("Each player's own tries, or three each."),
        json_schema_extra=option_words(
            choices={"difficulty": N_("By difficulty"), "three": N_("Three each, as printed")}, rules="duel"
        ),
    )
    darkness_immunity: bool = Field(
        False,
        title=N_("Immunity at black belt"),
        description=N_("On: it can count a Darkness trick."),
        json_schema_extra=option_words(rules="black-belt"),
    )
    first_seat: int | None = Field(
        None,
        ge=0,
        le=5,
        title=N_("Who starts"),
        description=(
            N_("The most senior in a martial art starts, otherwise the youngest (empty: chosen at random).")
        ),
        json_schema_extra=seat_widget(5),
    )


def rules_data() -> dict[str, Any]:
    """The belts and card tables for the rules page (the file the engine plays, as checked)."""
    return TABLE.to_json()


@dataclass
class MokuruState:
    players: int
    rng: Rng
    witness: bool
    belt_names: list[str]
    duel_tries: str = "difficulty"
    darkness_immunity: bool = False
    phase: str = DIFFICULTY
    difficulty: list[str | None] = field(default_factory=list)
    belts: list[int] = field(default_factory=list)  # index into belt_names; len(belt_names) = Grandmaster
    kept: list[list[int]] = field(default_factory=list)  # action cards kept in front of each seat
    # Tricks each seat must perform on coming turns: {"card", "source": given|stolen, "from": seat}.
    imposed: list[list[dict[str, Any]]] = field(default_factory=list)
    # Darkness tricks on the table: {"card", "owner", "waiting": seats still to perform it}.
    darkness: list[dict[str, Any]] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)  # tricks deck, top first
    discard: list[int] = field(default_factory=list)
    masters: list[int] = field(default_factory=list)  # master tricks deck, top first
    master_discard: list[int] = field(default_factory=list)
    turn: int = 0
    turns: int = 0  # turns begun
    first_draw: bool = True  # the turn's first draw (imposed tricks, master tricks) is still to come
    draw_mode: str = "turn"  # in DRAW: "turn", "duel" or "doom"
    action_used: bool = False  # one action card per turn: later ones are discarded
    mini_now: bool = False
    mini_next: list[bool] = field(default_factory=list)
    choosing: str | None = None  # in TARGET: the action key, or "battle"
    effect: dict[str, Any] | None = None  # a Duel or The Doom in progress: {"action", "target"}
    pending: dict[str, Any] | None = None  # an effect a holder of Immunity may still block
    trick: dict[str, Any] | None = None
    # A success awaiting a witness: {"seat", "back", "witnesses": seats that may decide,
    # "neutral": whether they have no stake in it, "interested": {seat: why} (str keys),
    # "disputed_by": the first witness who disputed, when a second one now decides}.
    claim: dict[str, Any] | None = None
    winner: int | None = None
    # Belts at the start of each round (one turn of every player), for the progress chart.
    marks: list[list[int]] = field(default_factory=list)
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def black(self) -> int:
        return len(self.belt_names) - 1

    @property
    def grandmaster(self) -> int:
        return len(self.belt_names)


CODEC = StateCodec(MokuruState)
"""dump/load/clone read off MokuruState's fields. The dicts in it (the trick in play, the Darkness
tricks, the imposed tricks, the effect, the pending effect, the claim) are values: the rules
replace them, never edit them in place, so a clone may share them with the state it came from.
The dumped JSON is the shape stored matches hold (one key per field, the Rng as [seed, counter])."""


def tries_for(state: MokuruState, seat: int) -> int:
    level = state.difficulty[seat]
    return LEVELS[level][1] if level is not None else 3


def holds(state: MokuruState, seat: int, action: str) -> int | None:
    """The id of a kept action card of that kind, or None."""
    for card_id in state.kept[seat]:
        if CARDS[card_id].action == action:
            return card_id
    return None


def performer(state: MokuruState) -> int | None:
    """The seat whose try is due (None outside PERFORM)."""
    trick = state.trick
    if trick is None or state.phase not in (PERFORM, SPENT):
        return None
    seat: int = trick["players"][trick["at"]]
    return seat


def targets(state: MokuruState, choosing: str) -> list[int]:
    """Seats an action card (or a Battle card) may aim at."""
    me, black = state.turn, state.black
    everyone = range(state.players)
    if choosing == "positive_boost":
        return [s for s in everyone if state.belts[s] < black]
    if choosing == "negative_boost":
        return list(everyone)
    if choosing == "swap":
        if state.belts[me] >= black:
            return []
        return [s for s in everyone if s != me and state.belts[s] < black]
    return [s for s in everyone if s != me]


def own_immunity_allowed(state: MokuruState, seat: int) -> bool:
    """May `seat` win the trick it is performing with Immunity? Not a master trick, not a contest,
    and not while on the black belt (it would buy the Grandmaster belt), unless the table's
    `darkness_immunity` option lets it win a Darkness trick there."""
    trick = state.trick
    if trick is None or trick["mode"] != "solo" or holds(state, seat, "immunity") is None:
        return False
    if CARDS[trick["card"]].is_master:
        return False
    if state.belts[seat] < state.black:
        return True
    return state.darkness_immunity and trick["source"] == FROM_DARKNESS


def interested(state: MokuruState, claimant: int) -> dict[int, str]:
    """The players with a stake in `claimant`'s reported success, and their stake: the other side
    of a Duel or a Battle, the Marathon's players still in, The Doom's victim, the giver of a given
    trick. None of them decides a disputed try while a neutral player can."""
    trick, effect = state.trick, state.effect
    assert trick is not None
    mode = trick["mode"]
    stakes: dict[int, str] = {}
    if mode == "duel":
        stakes = {s: "opponent" for s in trick["players"]}
    elif mode == "battle":
        stakes = {s: "opponent" for s in trick.get("racers", trick["players"])}
    elif mode == "marathon":
        stakes = {s: "rival" for s in trick["players"]}
    elif mode == "doom" and effect is not None:
        stakes = {effect["target"]: "victim"}
    elif trick["source"] == GIVEN and trick.get("from") is not None:
        stakes = {trick["from"]: "giver"}
    stakes.pop(claimant, None)
    return stakes


def card_brief(card: Card) -> dict[str, Any]:
    """A card as events name it: never its id (the card may later go back into the deck)."""
    if card.is_action:
        return {"card": card.name, "action": card.action}
    return {"card": card.name, "category": card.category}


class MokuruEngine(Engine[MokuruState]):
    spec = GameSpec(
        id="mokuru",
        title="Mokuru",
        min_players=2,
        max_players=6,
        options_model=MokuruOptions,
        blurb=N_("Perform Mokuru tricks with your own hands; Motable referees your climb to Grandmaster."),
        winner="first_to_goal",
        panel="progress",
        starter=Starter(
            option="first_seat",
            question=N_("Who is the most senior in a martial art (or else the youngest)?"),
        ),
        data=rules_data,
        # The decks are face down, and Darkness shows the tricks deck to the possessed player alone,
        # while they choose: that player holds the device then, so around one device it stays open.
        hides_information=True,
        open_table=True,
        default_bot="strong",
        fallback_bot="random",
        goal=Goal(view_key="grandmaster", reaching="wins"),
        standing=Standing(view_key="seats", key="belt"),
        action_words={
            "difficulty": ActionWords(
                done=N_("chose the {level} level"),
                otherwise=N_("chose a level"),
                ask=N_("choose a level"),
                values={
                    "level": {
                        "easy": N_("easy"),
                        "normal": N_("normal"),
                        "hard": N_("hard"),
                        "extreme": N_("extreme"),
                    }
                },
            ),
            "draw": ActionWords(done=N_("drew a card"), ask=N_("draw")),
            "target": ActionWords(
                done=N_("picked {seat}"), otherwise=N_("picked a player"), ask=N_("pick a player")
            ),
            "give": ActionWords(
                done=N_("gave a card to {seat}"), otherwise=N_("gave a card away"), ask=N_("give a card")
            ),
            "impose": ActionWords(done=N_("imposed a trick"), ask=N_("impose a trick")),
            "report": ActionWords(
                done="{outcome}",
                otherwise=N_("reported the trick"),
                ask=N_("report the trick"),
                values={
                    "outcome": {
                        "landed": N_("landed the trick"),
                        "done": N_("did the battle trick"),
                        "missed": N_("missed the trick"),
                    }
                },
            ),
            "witness": ActionWords(
                done=N_("{verdict} as a witness"),
                otherwise=N_("answered as a witness"),
                ask=N_("confirm or dispute the success"),
                values={
                    "verdict": {
                        "confirm": N_("confirmed the success"),
                        "dispute": N_("disputed the success"),
                    }
                },
            ),
            "immunity": ActionWords(done=N_("used Immunity"), ask=N_("use Immunity")),
            "accept_miss": ActionWords(done=N_("accepted the miss"), ask=N_("accept the miss")),
            "steal": ActionWords(done=N_("stole a trick"), ask=N_("steal a trick")),
        },
    )

    # -- setup ------------------------------------------------------------
    def deal(self, players: int, rng: Rng, options: Options, first: int | None) -> MokuruState:
        assert isinstance(options, MokuruOptions)
        witness = options.witness == "on" or (options.witness == "auto" and players >= 3)
        state = MokuruState(
            players=players,
            rng=rng,
            witness=witness,
            duel_tries=options.duel_tries,
            darkness_immunity=options.darkness_immunity,
            belt_names=TABLE.belt_names(short=options.belts == "short"),
            difficulty=[None] * players,
            belts=[0] * players,
            kept=[[] for _ in range(players)],
            imposed=[[] for _ in range(players)],
            mini_next=[False] * players,
        )
        state.deck = rng.shuffled(list(TABLE.deck))
        state.masters = rng.shuffled(list(TABLE.masters))
        state.turn = who_starts(first, players, rng)  # drawn after both shuffles
        return state

    # -- flow -------------------------------------------------------------
    def to_act(self, state: MokuruState) -> frozenset[int]:
        phase = state.phase
        if phase == OVER:
            return frozenset()
        if phase == DIFFICULTY:
            return frozenset(s for s, d in enumerate(state.difficulty) if d is None)
        if phase in (PERFORM, SPENT):
            seat = performer(state)
            assert seat is not None
            return frozenset((seat,))
        if phase == BATTLE:
            assert state.trick is not None
            return frozenset(state.trick["players"])
        if phase == CONFIRM:
            assert state.claim is not None
            # A claim stored before witnesses were chosen has every other seat as a witness.
            others = [s for s in range(state.players) if s != state.claim["seat"]]
            return frozenset(state.claim.get("witnesses", others))
        return frozenset((state.turn,))

    def legal_actions(self, state: MokuruState, seat: int) -> list[Action]:
        actions = self._waited_actions(state, seat) if seat in self.to_act(state) else []
        return actions + [a for a in self._optional_actions(state, seat) if a not in actions]

    def bot_leaves_to_people(self, state: MokuruState, seat: int, people: frozenset[int]) -> bool:
        """A bot's "confirm" proves nothing: it never witnesses a person's try while a person
        may. With only bots to witness, a bot answers and the reported success stands."""
        claim = state.claim
        if state.phase != CONFIRM or claim is None or claim["seat"] not in people:
            return False
        return bool(self.to_act(state) & people)

    def _waited_actions(self, state: MokuruState, seat: int) -> list[Action]:
        phase = state.phase
        if phase == DIFFICULTY:
            return [{"type": "difficulty", "level": level} for level in LEVELS]
        if phase == DRAW:
            return [{"type": "draw"}]
        if phase == TARGET:
            assert state.choosing is not None
            actions: list[Action] = [{"type": "target", "seat": s} for s in targets(state, state.choosing)]
            return actions + self._give_actions(state, seat)
        if phase == DARKNESS:
            choices = sorted(c for c in state.deck if CARDS[c].is_trick)
            return [{"type": "impose", "card": c} for c in choices]
        if phase == PERFORM:
            actions = [{"type": "report", "outcome": "landed"}, {"type": "report", "outcome": "missed"}]
            if own_immunity_allowed(state, seat):
                actions.append({"type": "immunity"})
            return actions + self._give_actions(state, seat)
        if phase == BATTLE:
            return [{"type": "report", "outcome": "done"}, {"type": "report", "outcome": "missed"}]
        if phase == CONFIRM:
            return [{"type": "witness", "verdict": "confirm"}, {"type": "witness", "verdict": "dispute"}]
        if phase == SPENT:
            return [{"type": "immunity"}, {"type": "accept_miss"}]
        return []

    def _give_actions(self, state: MokuruState, seat: int) -> list[Action]:
        """Give a Trick: right after drawing a trick on your turn, before anything is done with it."""
        trick = state.trick
        if trick is None or not trick["fresh"] or seat != state.turn or seat != trick["performer"]:
            return []
        if holds(state, seat, "give_a_trick") is None:
            return []
        # "If you are a black belt, you can only give to another black belt player": the
        # giver's belt decides, not the trick's deck.
        black_giver = state.belts[seat] >= state.black
        return [
            {"type": "give", "seat": s}
            for s in range(state.players)
            if s != seat and (not black_giver or state.belts[s] >= state.black)
        ]

    def _optional_actions(self, state: MokuruState, seat: int) -> list[Action]:
        """Actions the game does not wait for: Immunity against an effect aimed at you while its
        window is open, and Steal a Trick while a freshly drawn trick is still untouched."""
        if state.phase == OVER:
            return []
        pending = state.pending
        if pending is not None and pending["target"] == seat and holds(state, seat, "immunity") is not None:
            return [{"type": "immunity"}]
        trick = state.trick
        if (
            trick is not None
            and trick["fresh"]
            and seat != trick["performer"]
            and holds(state, seat, "steal_a_trick") is not None
            # "If you are a black belt, you can only steal from another black belt player."
            and (state.belts[seat] < state.black or state.belts[trick["performer"]] >= state.black)
        ):
            return [{"type": "steal"}]
        return []

    def _apply(self, state: MokuruState, seat: int, action: Action) -> MokuruState:
        state = CODEC.clone(state)
        self.advance(state, seat, action)
        return state

    def advance(self, state: MokuruState, seat: int, action: Action) -> None:
        """Apply a legal action to `state` in place, unchecked."""
        kind = action["type"]
        pending = state.pending
        if pending is not None and not (kind == "immunity" and seat == pending["target"]):
            # The window for Immunity closes with the next action the game was waiting for.
            self._resolve_pending(state)
        if kind == "difficulty":
            self._difficulty(state, seat, action["level"])
        elif kind == "draw":
            self._draw(state)
        elif kind == "target":
            self._target(state, action["seat"])
        elif kind == "impose":
            self._impose(state, action["card"])
        elif kind == "report":
            self._report(state, seat, action["outcome"])
        elif kind == "witness":
            self._witness(state, seat, action["verdict"])
        elif kind == "immunity":
            self._immunity(state, seat)
        elif kind == "accept_miss":
            self._log(state, {"type": "miss", "seat": seat, "final": True})
            self._end_turn(state)
        elif kind == "give":
            self._give(state, seat, action["seat"])
        elif kind == "steal":
            self._steal(state, seat)
        else:  # pragma: no cover - legal_actions lists no other type
            raise AssertionError(kind)

    # -- events -----------------------------------------------------------
    @staticmethod
    def _log(state: MokuruState, event: dict[str, Any]) -> None:
        fields = {k: v for k, v in event.items() if k != "type"}
        state.seq = log_event(state.events, state.seq, event["type"], fields, EVENTS_KEPT)

    # -- belts ------------------------------------------------------------
    def _move(self, state: MokuruState, seat: int, steps: int, why: str) -> None:
        """Move a pawn, never below white nor (by these moves) past black."""
        before = state.belts[seat]
        after = max(0, min(state.black, before + steps))
        if after != before:
            state.belts[seat] = after
        self._log(state, {"type": "belt", "seat": seat, "from": before, "to": after, "why": why})

    def _to_white(self, state: MokuruState, seat: int, why: str) -> None:
        self._move(state, seat, -state.belts[seat], why)

    def _grandmaster(self, state: MokuruState, seat: int) -> None:
        state.belts[seat] = state.grandmaster
        state.winner = seat
        state.phase = OVER
        state.pending = None
        self._dispose_trick(state)
        self._log(state, {"type": "grandmaster", "seat": seat})

    # -- turns ------------------------------------------------------------
    def _difficulty(self, state: MokuruState, seat: int, level: str) -> None:
        state.difficulty[seat] = level
        self._log(state, {"type": "difficulty", "seat": seat, "level": level, "tries": LEVELS[level][1]})
        if None not in state.difficulty:
            self._start_turn(state, state.turn)

    def _start_turn(self, state: MokuruState, seat: int) -> None:
        state.turn = seat
        state.turns += 1
        if (state.turns - 1) % state.players == 0:
            state.marks = [*state.marks, list(state.belts)]
        state.phase = DRAW
        state.draw_mode = "turn"
        state.first_draw = True
        state.action_used = False
        state.mini_now = state.mini_next[seat]
        state.mini_next[seat] = False
        state.choosing = None
        state.effect = None
        state.trick = None
        state.claim = None
        self._log(state, {"type": "turn", "seat": seat, "round": self.round_number(state)})

    def _dispose_trick(self, state: MokuruState) -> None:
        trick = state.trick
        state.trick = None
        if trick is None:
            return
        card_id = trick["card"]
        if trick["source"] == FROM_DARKNESS:
            entry = next(d for d in state.darkness if d["card"] == card_id)
            if not entry["waiting"]:
                state.darkness.remove(entry)
                state.discard.append(card_id)
        elif CARDS[card_id].is_master:
            state.master_discard.append(card_id)
        else:
            state.discard.append(card_id)

    def _end_turn(self, state: MokuruState) -> None:
        self._dispose_trick(state)
        state.effect = None
        state.choosing = None
        state.claim = None
        self._start_turn(state, (state.turn + 1) % state.players)

    # -- drawing ----------------------------------------------------------
    def _pop(self, state: MokuruState, master: bool, refilled: list[bool]) -> int | None:
        """The top card of a deck; an empty deck is refilled once from its discard pile."""
        deck, pile = (state.masters, state.master_discard) if master else (state.deck, state.discard)
        if not deck:
            if refilled[0] or not pile:
                return None
            refilled[0] = True
            deck.extend(state.rng.shuffled(pile))
            pile.clear()
            self._log(state, {"type": "shuffle", "deck": "masters" if master else "tricks"})
        return deck.pop(0)

    def _draw(self, state: MokuruState) -> None:
        seat = state.turn
        if state.draw_mode in ("duel", "doom"):
            card_id = self._draw_plain_trick(state, master=False, skip_marathon=True)
            if card_id is None:
                self._log(state, {"type": "no_trick", "seat": seat})
                self._end_turn(state)
                return
            self._begin_contest(state, card_id)
            return
        if state.first_draw:
            state.first_draw = False
            for n, entry in enumerate(state.darkness):
                if seat in entry["waiting"]:
                    waiting = [s for s in entry["waiting"] if s != seat]
                    state.darkness[n] = {**entry, "waiting": waiting}
                    self._begin_trick(state, entry["card"], FROM_DARKNESS)
                    return
            if state.imposed[seat]:
                received = state.imposed[seat].pop(0)
                self._begin_trick(state, received["card"], received["source"], received["from"])
                return
            if state.belts[seat] >= state.black:
                card_id = self._draw_plain_trick(state, master=True, skip_marathon=False)
                if card_id is None:
                    self._log(state, {"type": "no_trick", "seat": seat, "deck": "masters"})
                    self._end_turn(state)
                else:
                    self._begin_trick(state, card_id, FROM_MASTERS)
                return
        self._draw_on(state)

    def _draw_plain_trick(self, state: MokuruState, master: bool, skip_marathon: bool) -> int | None:
        """Draw until a trick turns up; action cards (and, if asked, the Marathon) are discarded."""
        refilled = [False]
        while (card_id := self._pop(state, master, refilled)) is not None:
            card = CARDS[card_id]
            if card.is_action or (skip_marathon and card.is_marathon):
                state.discard.append(card_id)
                self._log(state, {"type": "discarded", "seat": state.turn, **card_brief(card)})
                continue
            return card_id
        return None

    def _draw_on(self, state: MokuruState) -> None:
        """A turn's draw from the tricks deck: action cards take effect until a trick turns up."""
        seat = state.turn
        refilled = [False]
        while (card_id := self._pop(state, False, refilled)) is not None:
            card = CARDS[card_id]
            if not card.is_action:
                self._begin_trick(state, card_id, FROM_DECK)
                return
            if state.action_used:
                state.discard.append(card_id)
                self._log(state, {"type": "discarded", "seat": seat, **card_brief(card)})
                continue
            state.action_used = True
            self._log(state, {"type": "action", "seat": seat, **card_brief(card)})
            if card.mode == "keep":
                state.kept[seat].append(card_id)
                continue
            state.discard.append(card_id)
            assert card.action is not None
            if self._play_card(state, card.action):
                return
        self._log(state, {"type": "no_trick", "seat": seat})
        self._end_turn(state)

    def _play_card(self, state: MokuruState, action: str) -> bool:
        """Start a "play it" card's effect; True when it needs a decision (or ended the turn)."""
        seat = state.turn
        if action == "mini_mokuru":
            state.mini_now = True
            for s in range(state.players):
                if s != seat:
                    state.mini_next[s] = True
            return False
        if action == "darkness":
            if any(CARDS[c].is_trick for c in state.deck):
                state.phase = DARKNESS
            else:
                # Nothing to choose: the spirit still grants its belt.
                self._log(state, {"type": "darkness", "seat": seat, "card": None})
                self._move(state, seat, 1, "darkness")
                self._end_turn(state)
            return True
        if not targets(state, action):
            self._log(state, {"type": "no_target", "seat": seat, "action": action})
            return False
        state.phase = TARGET
        state.choosing = action
        return True

    # -- action card effects ----------------------------------------------
    def _target(self, state: MokuruState, target: int) -> None:
        choosing, seat = state.choosing, state.turn
        state.choosing = None
        self._log(state, {"type": "target", "seat": seat, "action": choosing, "target": target})
        if choosing == "battle":
            trick = state.trick
            assert trick is not None
            # A race: each racer finishes or drops out once.
            # `racers` keeps both sides after one drops out (the other has a stake in the finish).
            state.trick = {
                **trick,
                "fresh": False,
                "players": [seat, target],
                "tries": [1, 1],
                "racers": [seat, target],
            }
            state.phase = BATTLE
            return
        state.phase = DRAW
        assert choosing is not None
        if choosing in ("duel", "the_doom"):
            state.effect = {"action": choosing, "target": target}
            state.draw_mode = "duel" if choosing == "duel" else "doom"
            if choosing == "duel" and holds(state, target, "immunity") is not None:
                state.pending = {"action": "duel", "source": seat, "target": target}
            return
        if choosing == "positive_boost":
            self._move(state, target, 1, "positive_boost")
        elif holds(state, target, "immunity") is not None and target != seat:
            state.pending = {"action": choosing, "source": seat, "target": target}
        else:
            self._effect(state, choosing, seat, target)

    def _effect(self, state: MokuruState, action: str, source: int, target: int) -> None:
        if action == "negative_boost":
            self._move(state, target, -1, action)
        elif action == "swap":
            mine, theirs = state.belts[source], state.belts[target]
            state.belts[source], state.belts[target] = theirs, mine
            self._log(state, {"type": "swap", "seat": source, "target": target})
        elif action == "belt_steal":
            if state.belts[source] < state.black:
                self._move(state, source, 1, action)
            self._move(state, target, -1, action)
        elif action == "the_doom":
            self._to_white(state, target, action)

    def _resolve_pending(self, state: MokuruState) -> None:
        pending = state.pending
        assert pending is not None
        state.pending = None
        if pending["action"] != "duel":
            self._effect(state, pending["action"], pending["source"], pending["target"])

    def _immunity(self, state: MokuruState, seat: int) -> None:
        card_id = holds(state, seat, "immunity")
        assert card_id is not None
        state.kept[seat].remove(card_id)
        state.discard.append(card_id)
        pending = state.pending
        if pending is not None and pending["target"] == seat:
            state.pending = None
            self._log(state, {"type": "immunity", "seat": seat, "against": pending["action"]})
            if pending["action"] == "duel":
                self._end_turn(state)  # a refused duel has no winner; the challenger's turn ends
            elif pending["action"] == "the_doom":
                self._to_white(state, pending["source"], "the_doom")
            return
        self._log(state, {"type": "immunity", "seat": seat, "against": None})
        self._succeed(state, seat)

    def _impose(self, state: MokuruState, card_id: int) -> None:
        seat = state.turn
        state.deck.remove(card_id)
        waiting = [(seat + k) % state.players for k in range(1, state.players)]
        state.darkness.append({"card": card_id, "owner": seat, "waiting": waiting})
        state.deck = state.rng.shuffled(state.deck)
        self._log(state, {"type": "darkness", "seat": seat, **card_brief(CARDS[card_id])})
        self._move(state, seat, 1, "darkness")
        self._end_turn(state)

    def _give(self, state: MokuruState, seat: int, target: int) -> None:
        trick = state.trick
        assert trick is not None
        card_id = holds(state, seat, "give_a_trick")
        assert card_id is not None
        state.kept[seat].remove(card_id)
        state.discard.append(card_id)
        state.imposed[target].append({"card": trick["card"], "source": GIVEN, "from": seat})
        self._log(state, {"type": "give", "seat": seat, "target": target, **card_brief(CARDS[trick["card"]])})
        self._replace_trick(state, CARDS[trick["card"]].is_master)

    def _steal(self, state: MokuruState, seat: int) -> None:
        trick = state.trick
        assert trick is not None
        card_id = holds(state, seat, "steal_a_trick")
        assert card_id is not None
        state.kept[seat].remove(card_id)
        state.discard.append(card_id)
        victim = trick["performer"]
        state.imposed[seat].append({"card": trick["card"], "source": STOLEN, "from": victim})
        self._log(
            state, {"type": "steal", "seat": seat, "victim": victim, **card_brief(CARDS[trick["card"]])}
        )
        self._replace_trick(state, CARDS[trick["card"]].is_master)

    def _replace_trick(self, state: MokuruState, master: bool) -> None:
        """The drawer lost the trick (given or stolen) and draws another from the same deck."""
        state.trick = None
        state.choosing = None
        card_id = self._draw_plain_trick(state, master=master, skip_marathon=False)
        if card_id is None:
            self._log(state, {"type": "no_trick", "seat": state.turn})
            self._end_turn(state)
            return
        self._begin_trick(state, card_id, FROM_MASTERS if master else FROM_DECK)

    # -- performing -------------------------------------------------------
    def _new_trick(self, state: MokuruState, card_id: int, source: str, mode: str) -> dict[str, Any]:
        return {
            "card": card_id,
            "source": source,
            "mode": mode,
            "performer": state.turn,
            "players": [state.turn],
            "tries": [tries_for(state, state.turn)],
            "at": 0,
            "fresh": source in (FROM_DECK, FROM_MASTERS),
            "mini": state.mini_now,
        }

    def _begin_trick(self, state: MokuruState, card_id: int, source: str, giver: int | None = None) -> None:
        card = CARDS[card_id]
        seat = state.turn
        self._log(state, {"type": "trick", "seat": seat, "source": source, **card_brief(card)})
        if card.category == "Battle":
            state.trick = self._new_trick(state, card_id, source, "battle")
            state.phase = TARGET
            state.choosing = "battle"
        elif card.is_marathon:
            trick = self._new_trick(state, card_id, source, "marathon")
            trick["players"] = [(seat + k) % state.players for k in range(state.players)]
            trick["tries"] = [1] * state.players
            state.trick = trick
            state.phase = PERFORM
        else:
            state.trick = self._new_trick(state, card_id, source, "solo")
            state.phase = PERFORM
        if giver is not None and state.trick is not None:
            # Who gave or lost the trick: a giver has a stake in the receiver's try (the witness).
            state.trick = {**state.trick, "from": giver}

    def _begin_contest(self, state: MokuruState, card_id: int) -> None:
        """The trick of a Duel or of The Doom, drawn after naming the opponent."""
        effect = state.effect
        assert effect is not None
        seat = state.turn
        self._log(
            state, {"type": "trick", "seat": seat, "source": effect["action"], **card_brief(CARDS[card_id])}
        )
        if effect["action"] == "duel":
            trick = self._new_trick(state, card_id, "duel", "duel")
            victim = effect["target"]
            trick["players"] = [seat, victim]
            if state.duel_tries == "three":
                trick["tries"] = [3, 3]  # "Each player has three tries", as the card prints
            else:
                trick["tries"] = [tries_for(state, seat), tries_for(state, victim)]
        else:
            trick = self._new_trick(state, card_id, "doom", "doom")
            trick["tries"] = [1]  # The Doom allows a single try
        trick["fresh"] = False
        state.trick = trick
        state.phase = PERFORM

    def _report(self, state: MokuruState, seat: int, outcome: str) -> None:
        trick = state.trick
        assert trick is not None
        state.trick = {**trick, "fresh": False}
        self._log(state, {"type": "report", "seat": seat, "outcome": outcome})
        if outcome == "missed":
            self._missed(state, seat)
        elif state.witness:
            stakes = interested(state, seat)
            others = [s for s in range(state.players) if s != seat]
            neutral = [s for s in others if s not in stakes]
            state.claim = {
                "seat": seat,
                "back": state.phase,
                # Only players without a stake decide; with none at the table, everyone else may.
                "witnesses": neutral or others,
                "neutral": bool(neutral),
                "interested": {str(s): why for s, why in stakes.items()},
                "disputed_by": None,
            }
            state.phase = CONFIRM
        else:
            self._landed(state, seat)

    def _witness(self, state: MokuruState, seat: int, verdict: str) -> None:
        claim = state.claim
        assert claim is not None
        second = [s for s in claim.get("witnesses", ()) if s != seat]
        if verdict == "dispute" and claim.get("neutral") and claim.get("disputed_by") is None and second:
            # A dispute goes to a second neutral witness, whose word is final.
            appeal = {"seat": seat, "claimant": claim["seat"], "verdict": verdict, "appeal": True}
            self._log(state, {"type": "witness", **appeal})
            state.claim = {**claim, "witnesses": second, "disputed_by": seat}
            return
        state.claim = None
        state.phase = claim["back"]
        self._log(state, {"type": "witness", "seat": seat, "claimant": claim["seat"], "verdict": verdict})
        if verdict == "confirm":
            self._landed(state, claim["seat"])
        else:
            self._missed(state, claim["seat"])

    def _landed(self, state: MokuruState, seat: int) -> None:
        trick = state.trick
        assert trick is not None
        mode = trick["mode"]
        if mode == "solo":
            self._succeed(state, seat)
        elif mode in ("duel", "battle"):
            self._log(state, {"type": "winner", "seat": seat, "mode": mode})
            self._contest_won(state, seat, mode)
        elif mode == "doom":
            effect = state.effect
            assert effect is not None
            victim = effect["target"]
            self._log(state, {"type": "winner", "seat": seat, "mode": mode})
            if holds(state, victim, "immunity") is not None:
                state.pending = {"action": "the_doom", "source": seat, "target": victim}
            else:
                self._to_white(state, victim, "the_doom")
            self._end_turn(state)
        else:  # marathon: stayed in, the next player goes
            state.trick = {**trick, "at": (trick["at"] + 1) % len(trick["players"])}

    def _missed(self, state: MokuruState, seat: int) -> None:
        trick = state.trick
        assert trick is not None
        mode = trick["mode"]
        at = trick["players"].index(seat)
        if mode == "doom":
            self._log(state, {"type": "miss", "seat": seat, "final": True})
            self._to_white(state, seat, "the_doom")
            self._end_turn(state)
            return
        players, tries = list(trick["players"]), list(trick["tries"])
        if mode in ("battle", "marathon"):
            players.pop(at)
            tries.pop(at)
            due = trick["at"]
            if mode == "marathon" and due >= len(players):
                due = 0
            state.trick = {**trick, "players": players, "tries": tries, "at": due}
            self._log(state, {"type": "out", "seat": seat, "mode": mode})
            if mode == "marathon":
                if len(players) == 1:
                    last = players[0]
                    self._log(state, {"type": "winner", "seat": last, "mode": mode})
                    self._contest_won(state, last, mode)
            elif not players:
                self._log(state, {"type": "winner", "seat": None, "mode": mode})
                self._end_turn(state)
            return
        tries[at] -= 1
        state.trick = {**trick, "tries": tries}
        if mode == "duel":
            other = 1 - at
            if tries[other] > 0:
                state.trick = {**trick, "tries": tries, "at": other}
            elif tries[at] <= 0:
                self._log(state, {"type": "winner", "seat": None, "mode": mode})
                self._end_turn(state)
            return
        if tries[at] > 0:
            return
        if own_immunity_allowed(state, seat):
            state.phase = SPENT
            return
        self._log(state, {"type": "miss", "seat": seat, "final": True})
        self._end_turn(state)

    def _succeed(self, state: MokuruState, seat: int) -> None:
        """A trick of your own landed: up one belt; from black only by a master or Darkness trick."""
        trick = state.trick
        assert trick is not None
        card = CARDS[trick["card"]]
        self._log(state, {"type": "success", "seat": seat, **card_brief(card)})
        if state.belts[seat] >= state.black:
            if card.is_master or trick["source"] == FROM_DARKNESS:
                self._grandmaster(state, seat)
                return
            self._log(
                state, {"type": "belt", "seat": seat, "from": state.black, "to": state.black, "why": "black"}
            )
        else:
            self._move(state, seat, 1, "trick")
        self._end_turn(state)

    def _contest_won(self, state: MokuruState, seat: int, mode: str) -> None:
        """A Duel, Battle or Marathon won: up one belt, but a black belt stays where it is, unless
        the contest is the Darkness trick imposed on them: then they are Grandmaster."""
        trick = state.trick
        assert trick is not None
        if state.belts[seat] < state.black:
            self._move(state, seat, 1, mode)
        elif trick["source"] == FROM_DARKNESS and seat == state.turn:
            self._log(state, {"type": "success", "seat": seat, **card_brief(CARDS[trick["card"]])})
            self._grandmaster(state, seat)
            return
        self._end_turn(state)

    # -- what leaves the engine -------------------------------------------
    def round_number(self, state: MokuruState) -> int:
        return max(1, (state.turns - 1) // state.players + 1)

    def _seat_json(self, state: MokuruState, seat: int) -> dict[str, Any]:
        level = state.difficulty[seat]
        belt = state.belts[seat]
        return {
            "seat": seat,
            "belt": belt,
            "belt_name": TABLE.grandmaster.name if belt >= state.grandmaster else state.belt_names[belt],
            "difficulty": level,
            "hand": LEVELS[level][0] if level is not None else None,
            "tries_per_trick": LEVELS[level][1] if level is not None else None,
            "kept": [CARDS[c].to_json() for c in state.kept[seat]],
            "imposed": [
                {"card": CARDS[r["card"]].to_json(), "source": r["source"], "from": r["from"]}
                for r in state.imposed[seat]
            ],
            "darkness_due": any(seat in d["waiting"] for d in state.darkness),
            "mini_next": state.mini_next[seat],
        }

    def view(self, state: MokuruState, seat: int | None) -> dict[str, Any]:
        check_seat(seat, state.players)
        trick = state.trick
        trick_json = None
        if trick is not None:
            trick_json = {
                **json_copy({k: v for k, v in trick.items() if k != "card"}),
                "card": CARDS[trick["card"]].to_json(),
                "current": performer(state),
            }
        colours = [b.colour for b in TABLE.belts if b.name in state.belt_names]
        result = self.result(state)
        return {
            "game": self.spec.id,
            "seat": seat,
            "players": state.players,
            "round": self.round_number(state),
            # Logged events never change: handed on uncopied (docs/engines.md).
            "events": list(state.events),
            "phase": state.phase,
            "turn": state.turn,
            "to_act": sorted(self.to_act(state)),
            "belts": list(state.belt_names),
            "belt_colours": colours,
            "grandmaster": state.grandmaster,
            "levels": {k: {"hand": h, "tries": t} for k, (h, t) in LEVELS.items()},
            "witness": state.witness,
            "seats": [self._seat_json(state, s) for s in range(state.players)],
            "deck_count": len(state.deck),
            "master_count": len(state.masters),
            "discard": [CARDS[c].to_json() for c in state.discard],
            "master_discard": [CARDS[c].to_json() for c in state.master_discard],
            "mini": state.mini_now,
            "action_used": state.action_used,
            "trick": trick_json,
            "choosing": (
                {"action": state.choosing, "targets": targets(state, state.choosing)}
                if state.phase == TARGET and state.choosing is not None
                else None
            ),
            "effect": json_copy(state.effect),
            "pending": json_copy(state.pending),
            "claim": self._claim_json(state),
            # Who may act out of turn now, and how (public: kept cards are face up). Tables give
            # a person shown such a move a moment before the next waited move closes its window.
            "out_of_turn": [
                {"seat": s, "action": a["type"]}
                for s in range(state.players)
                for a in self._optional_actions(state, s)
            ],
            "darkness": [
                {"card": CARDS[d["card"]].to_json(), "owner": d["owner"], "waiting": list(d["waiting"])}
                for d in state.darkness
            ],
            "darkness_deck": _darkness_deck(state, seat),
            "winner": state.winner,
            "result": result.to_json() if result else None,
        }

    def own_view(self, state: MokuruState, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        """Only what `seat` sees and a spectator does not: its seat number and, while it is the
        possessed player choosing, the deck. Every other key of a view is the same for everyone."""
        check_seat(seat, state.players)
        return {"seat": seat, "darkness_deck": _darkness_deck(state, seat)}

    def _claim_json(self, state: MokuruState) -> dict[str, Any] | None:
        """The success awaiting a witness: who claims it, who may decide, and (when nobody without
        a stake can) each decider's stake, for the table to say so."""
        claim = state.claim
        if claim is None:
            return None
        return {
            "seat": claim["seat"],
            "witnesses": sorted(self.to_act(state)),
            "neutral": claim.get("neutral", True),
            "interested": [
                {"seat": int(s), "stake": why} for s, why in sorted(claim.get("interested", {}).items())
            ],
            "disputed_by": claim.get("disputed_by"),
        }

    def foreseeable(self, state: MokuruState, seat: int, action: Action, after: MokuruState) -> bool:
        """A move that drew from neither deck and shuffled nothing, with the match going on: a try
        reported, a witness's word, a target or a difficulty chosen, a kept card used. Its outcome
        follows from the table and the seat's own cards. A draw (it turns up a hidden card) is left
        to the takeback's re-deals."""
        return (
            len(after.deck) == len(state.deck)
            and len(after.masters) == len(state.masters)
            and after.rng.counter == state.rng.counter
            and after.winner is None
        )

    def shows_nothing(self, state: MokuruState, seat: int, action: Action, after: MokuruState) -> bool:
        """Every foreseeable move: with neither deck drawn from and nothing shuffled, every card a move
        shows was face up already or is the seat's own."""
        return self.foreseeable(state, seat, action, after)

    def hidden_ids(self, state: MokuruState, seat: int | None) -> frozenset[int]:
        hidden = set(state.masters)
        if not (state.phase == DARKNESS and seat == state.turn):
            hidden.update(state.deck)
        else:
            hidden.update(c for c in state.deck if not CARDS[c].is_trick)
        return frozenset(hidden)

    def resample(self, state: MokuruState, seat: int, rng: random.Random) -> MokuruState:
        """The same match with both decks in another order and another seed for later shuffles.

        Every card is face up from the moment it is drawn (kept, imposed, Darkness and discarded
        cards, the trick in play: all in every view), so what each deck holds is public; only the
        order of the tricks deck and of the master deck is hidden, from every seat alike (the
        possessed player looks through the tricks deck sorted, never in order). The seed is hidden
        too: it decides the shuffles to come.
        """
        check_seat(seat, state.players)
        new = CODEC.clone(state)
        rng.shuffle(new.deck)
        rng.shuffle(new.masters)
        new.rng = Rng(rng.getrandbits(64), state.rng.counter)
        return new

    def scorepad(self, state: MokuruState) -> Scorepad:
        """Belts won (or lost) in each finished round; the totals are the belts now.

        The round in play counts once the game is over, so the rows add up to the final belts."""
        marks = [*state.marks, list(state.belts)] if state.winner is not None else state.marks
        rounds = [[b - a for a, b in zip(x, y, strict=True)] for x, y in pairwise(marks)]
        return Scorepad(rounds=rounds, totals=list(state.belts))

    def result(self, state: MokuruState) -> Result | None:
        if state.winner is None:
            return None
        return Result(winners=[state.winner], scores=list(state.belts))

    # -- persistence ------------------------------------------------------
    def dump(self, state: MokuruState) -> dict[str, Any]:
        return CODEC.dump(state)

    def load(self, data: dict[str, Any]) -> MokuruState:
        return CODEC.load(data)


__all__ = ["LEVELS", "MokuruEngine", "MokuruOptions", "MokuruState"]


def _darkness_deck(state: MokuruState, seat: int | None) -> list[dict[str, Any]] | None:
    """Only the possessed player looks through the deck, and only while choosing."""
    if state.phase == DARKNESS and seat == state.turn:
        return [CARDS[c].to_json() for c in sorted(state.deck) if CARDS[c].is_trick]
    return None
