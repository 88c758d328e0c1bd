"""The engine protocol every game implements, and the JSON shapes it returns."""

from __future__ import annotations

import copy
import functools
import random
import string
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar, get_args

import orjson
from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import GameOver, IllegalAction, InvalidOptions, MalformedAction, NotYourTurn
from .rng import Rng
from .words import N_, Words

Action = dict[str, Any]
"""An action is a small JSON object with a "type" key; legal_actions lists them."""

S = TypeVar("S")


SEAT_WIDGET: dict[str, Any] = {"x-motable-widget": "seat"}
"""Schema hint for an integer option naming a seat: clients offer player positions, not numbers."""


def option_words(*, choices: dict[str, str] | None = None, rules: str | None = None) -> dict[str, Any]:
    """Schema hints for an option as the lobby shows it, beside its short title and one-line hint
    (`description`): `choices` the words for each value of a choice ({"auto": "With 3 or more
    players"}; a value without words is shown as it is), `rules` the id of the section of the
    game's rules page that tells the option in full (templates/rules/<id>.html), linked."""
    hints: dict[str, Any] = {}
    if choices:
        hints["x-motable-choices"] = dict(choices)
    if rules:
        hints["x-motable-rules"] = rules
    return hints


def seat_widget(last: int) -> dict[str, Any]:
    """SEAT_WIDGET for an integer-or-null option, with the seat range at the top of its schema
    (pydantic puts the bounds inside the `anyOf`, where a simple form builder does not look)."""
    return {**SEAT_WIDGET, "minimum": 0, "maximum": last}


class Options(BaseModel):
    """Base of every game's options (variants); unknown keys are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


Winner = Literal["lowest_total", "highest_total", "first_to_goal"]
"""Who wins: the lowest final total, the highest, or the first to reach the goal."""

Panel = Literal["points", "stars", "progress"]

Ties = Literal["shared", "broken"]
"""Equal final totals: the players share the win, or the rules break the tie (Mooki Island's
youngest); then the result's winners, not the totals, decide who ranks first."""
"""The side panel a table wants: a points score pad, a star count, or a progress track."""


@dataclass(frozen=True)
class Starter:
    """The seat option (an integer or null) that says who starts, and how to ask for it.

    Null lets the engine pick the starting seat from the seed.
    """

    option: str
    question: str

    def to_json(self) -> dict[str, str]:
        return {"option": self.option, "question": self.question}


Reaching = Literal["ends_game", "wins"]
"""What reaching the goal means: the game ends (after the round in which a total reaches it; the
`winner` rule then decides), or the seat that reaches it wins at once."""


@dataclass(frozen=True)
class Goal:
    """The total that ends the game, as every view carries it: `view[view_key]`, an integer.

    `option` names the option that sets it when the room chooses it (the lobby's "Play to"); None
    when the game derives it (Mokuru's Grandmaster is one step past the last belt of the set played).
    """

    view_key: str
    reaching: Reaching
    option: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"view_key": self.view_key, "reaching": self.reaching, "option": self.option}


@dataclass(frozen=True)
class Standing:
    """Where each seat's standing now is read off the view, when it moves within a round: the list
    `view[view_key]` (one entry per seat, in seat order), each entry's `key` (None: the entry is the
    number). A game without one is read off the score pad's totals."""

    view_key: str
    key: str | None = None

    def read(self, view: dict[str, Any]) -> list[Any] | None:
        """Each seat's standing in `view`, or None when the view does not carry the list."""
        entries = view.get(self.view_key)
        if not isinstance(entries, list):
            return None
        if self.key is None:
            return list(entries)
        return [e.get(self.key) if isinstance(e, dict) else None for e in entries]

    def to_json(self) -> dict[str, Any]:
        return {"view_key": self.view_key, "key": self.key}


WordKind = Literal["card", "seat", "position", "text"]
"""How a placeholder of an action's words reads the action's value: a card id (named as the reader's
view shows the card), a seat (by name, "You" for the reader), a 0-based place said from 1 (pile 0 is
"pile 1"), or a word (underscores and dashes read as spaces)."""

# A placeholder named like this reads its value this way unless `ActionWords.params` says otherwise.
_KIND_BY_NAME: dict[str, WordKind] = {"card": "card", "seat": "seat"}


@dataclass(frozen=True)
class ActionWords:
    """How one type of action is said to the people at the table: data, not code, so the log's
    words, "Since you left" and "Your games" need no table of every game's actions.

    `done` follows the mover's name, in the past tense ("played {card}": "Bo played a red 5");
    `otherwise` says the same when a placeholder has nothing to say (the action lacks the key, or
    the card is hidden from the reader: "played a card"); `ask` is what the action asks of a
    player ("play a card", in "Your turn: play a card or draw"). A placeholder `{key}` reads the
    action's value under `key`, worded by its kind (`WordKind`): a key named "card" is a card and
    one named "seat" a seat unless `params` says otherwise; any other key is a word. A word
    placeholder whose action values are the game's own codes ("confirm", "landed") says them as
    players do through `values`: per placeholder, the words for each value ({"verdict": {"confirm":
    "confirmed the success"}}); the conformance suite checks every value an action carries has
    them. Whole sentences with named placeholders, never pieces joined in code, so they can be
    translated.
    """

    done: str
    ask: str
    otherwise: str | None = None
    params: dict[str, WordKind] = field(default_factory=dict, hash=False)
    values: dict[str, dict[str, str]] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        names = _placeholders(self.done)
        for text in (self.ask, self.otherwise):
            if text is not None and _placeholders(text):
                raise ValueError(f"only `done` has placeholders, not {text!r}")
        if names and self.otherwise is None:
            raise ValueError(f"{self.done!r} has placeholders: say `otherwise` for when one is unknown")
        unknown = set(self.params) - set(names)
        if unknown:
            raise ValueError(f"params {sorted(unknown)} are not placeholders of {self.done!r}")
        kinds = get_args(WordKind)
        resolved = {name: self.params.get(name, _KIND_BY_NAME.get(name, "text")) for name in names}
        for name, kind in resolved.items():
            if kind not in kinds:
                raise ValueError(f"{{{name}}} is a {kind!r}; a placeholder is one of {kinds}")
        object.__setattr__(self, "params", resolved)
        for name, table in self.values.items():
            if resolved.get(name) != "text":
                raise ValueError(f"values are for the word placeholders of {self.done!r}, not {{{name}}}")
            if not table or not all(isinstance(words, str) and words.strip() for words in table.values()):
                raise ValueError(f"the values of {{{name}}} need words for each value")

    def to_json(self) -> dict[str, Any]:
        return {
            "done": self.done,
            "otherwise": self.otherwise,
            "ask": self.ask,
            "params": dict(self.params),
            "values": {name: dict(table) for name, table in self.values.items()},
        }


def _placeholders(text: str) -> list[str]:
    """The `{name}` placeholders of `text`, in order; anything else in braces is refused."""
    names: list[str] = []
    for _literal, name, spec, conversion in string.Formatter().parse(text):
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise ValueError(f"a placeholder is a plain {{name}}, not {{{name}}} in {text!r}")
        names.append(name)
    return names


def seat_option(options: Options, name: str, players: int) -> int | None:
    """The seat a who-starts option names, checked against the real player count.

    None means "not chosen" (the engine picks from the seed). A seat nobody sits
    in is refused with InvalidOptions, which the server answers as 422.
    """
    value = getattr(options, name)
    if value is not None and not 0 <= value < players:
        raise InvalidOptions(
            N_("%(option)s names seat %(seat)s, but a %(players)s-player game has seats 0 to %(last)s"),
            option=name,
            seat=value,
            players=players,
            last=players - 1,
        )
    return value if value is None else int(value)


def who_starts(first: int | None, players: int, rng: Rng) -> int:
    """The starting seat: the one the room chose (`first`, already checked), else one drawn from
    the seed. A game calls it inside `Engine.deal` at the point of its deal where it has always
    drawn the starter: that point is part of the game's seeded stream, so moving it would deal
    every stored match differently."""
    return first if first is not None else rng.randrange(players)


def no_data() -> dict[str, Any]:
    return {}


@functools.cache
def _json_schema(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema()


@dataclass(frozen=True)
class GameSpec:
    """Everything the lobby, the pages, the API and the client need to know about a game."""

    id: str
    title: str
    min_players: int
    max_players: int
    options_model: type[Options]
    blurb: str = ""
    winner: Winner = "highest_total"
    panel: Panel = "points"
    ties: Ties = "shared"
    starter: Starter | None = None
    # The game's validated card tables, for its rules page (JSON-ready, a fresh copy per call).
    data: Callable[[], dict[str, Any]] = no_data
    # Some view hides a card at some point (`hidden_ids` not always empty); the safe default.
    hides_information: bool = True
    # Around one device the table is handed over uncovered: a seat sees more than a spectator only
    # while it is to act (it holds the device then). None: open exactly when nothing is hidden.
    open_table: bool | None = None
    # The bot kind (a key of the game's BOTS) a bot seat gets, and the one that stands in when a
    # bot's moves keep failing; the registry checks both against BOTS when it loads the game.
    default_bot: str = "random"
    fallback_bot: str = "random"
    goal: Goal | None = None
    standing: Standing | None = None
    # Per action type, how a move is said (the log, "Since you left", "Your games"); the conformance
    # suite checks every action `legal_actions` lists has its words.
    action_words: dict[str, ActionWords] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if self.open_table is None:
            object.__setattr__(self, "open_table", not self.hides_information)
        elif not self.open_table and not self.hides_information:
            raise ValueError(f"{self.id}: a game that hides nothing has an open table")
        if self.goal is not None and self.goal.reaching not in get_args(Reaching):
            raise ValueError(f"{self.id}: goal.reaching must be one of {get_args(Reaching)}")
        if self.goal is not None and self.goal.option not in (None, *self.options_model.model_fields):
            raise ValueError(f"{self.id}: the goal option {self.goal.option!r} is not an option")
        if self.winner not in get_args(Winner):
            raise ValueError(f"{self.id}: winner must be one of {get_args(Winner)}, not {self.winner!r}")
        if self.ties not in get_args(Ties):
            raise ValueError(f"{self.id}: ties must be one of {get_args(Ties)}, not {self.ties!r}")
        if self.panel not in get_args(Panel):
            raise ValueError(f"{self.id}: panel must be one of {get_args(Panel)}, not {self.panel!r}")
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"{self.id}: player counts {self.min_players}-{self.max_players} make no sense")
        if self.starter is not None and self.starter.option not in self.options_model.model_fields:
            raise ValueError(f"{self.id}: the starter option {self.starter.option!r} is not an option")
        for kind, words in self.action_words.items():
            if not isinstance(words, ActionWords):
                raise TypeError(f"{self.id}: action_words[{kind!r}] must be an ActionWords")

    def options_schema(self) -> dict[str, Any]:
        # A fresh copy of the schema worked out once per model (working it out is most of a GET
        # /api/games: 2.3 ms of server CPU a request before).
        return copy.deepcopy(_json_schema(self.options_model))

    def describe(self) -> dict[str, Any]:
        """The game as GET /api/games lists it."""
        return {
            "id": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options_schema": self.options_schema(),
            "blurb": self.blurb,
            "winner": self.winner,
            "panel": self.panel,
            "ties": self.ties,
            "starter": self.starter.to_json() if self.starter is not None else None,
            "hides_information": self.hides_information,
            "open_table": self.open_table,
            "default_bot": self.default_bot,
            "fallback_bot": self.fallback_bot,
            "goal": self.goal.to_json() if self.goal is not None else None,
            "standing": self.standing.to_json() if self.standing is not None else None,
            "action_words": {kind: words.to_json() for kind, words in self.action_words.items()},
        }

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                N_("%(game)s is for %(least)s to %(most)s players, not %(players)s"),
                game=self.title,
                least=self.min_players,
                most=self.max_players,
                players=players,
            )

    def game_options(self, options: Options) -> Options:
        """`options` as an instance of `options_model` (another model's values are parsed again)."""
        if isinstance(options, self.options_model):
            return options
        return self.parse_options(options.model_dump())

    def parse_options(self, raw: dict[str, Any] | None) -> Options:
        try:
            return self.options_model.model_validate(raw or {})
        except ValidationError as exc:
            found = [option_problem(self.options_model, dict(err)) for err in exc.errors()]
            problems = found[0]
            for more in found[1:]:
                # Not marked: only a joint, whose parts are worded each in the reader's language.
                problems = Words("%(problems)s; %(more)s", problems=problems, more=more)
            raise InvalidOptions(N_("%(game)s: %(problems)s"), game=self.title, problems=problems) from exc


def option_problem(model: type[BaseModel], err: dict[str, Any]) -> Words:
    """One option error in a player's words: the field's title and what to enter there."""
    loc = err.get("loc") or ()
    key = str(loc[0]) if loc else ""
    info = model.model_fields.get(key)
    if info is None:
        if key:
            return Words(N_("“%(option)s” is not an option of this game"), option=key)
        return Words(N_("the options must be a set of named values"))
    label = info.title or key.replace("_", " ")
    ctx = err.get("ctx") or {}
    low = next((m.ge for m in info.metadata if getattr(m, "ge", None) is not None), None)
    high = next((m.le for m in info.metadata if getattr(m, "le", None) is not None), None)
    kind = str(err.get("type", ""))
    if kind.startswith("bool"):
        want = Words(N_("choose yes or no"))
    elif low is not None and high is not None:
        want = Words(N_("enter a whole number from %(least)s to %(most)s"), least=low, most=high)
    elif low is not None or "ge" in ctx:
        least = low if low is not None else ctx["ge"]
        want = Words(N_("enter a whole number of at least %(least)s"), least=least)
    elif high is not None or "le" in ctx:
        most = high if high is not None else ctx["le"]
        want = Words(N_("enter a whole number of at most %(most)s"), most=most)
    elif kind.startswith("int"):
        want = Words(N_("enter a whole number"))
    else:
        want = Words(N_("enter a valid value"))
    return Words(N_("“%(option)s”: %(want)s"), option=label, want=want)


@dataclass
class Scorepad:
    """Points per finished round and per seat, plus running totals."""

    rounds: list[list[int]] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"rounds": [list(r) for r in self.rounds], "totals": list(self.totals)}


@dataclass
class Result:
    winners: list[int]
    scores: list[int]

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "scores": list(self.scores)}


def json_copy(value: Any) -> Any:
    """A copy of a JSON value sharing no list or object with it (cheaper than deepcopy).

    Views hand logged events and score lines to the server; copying them keeps an
    edit of a view from reaching the state it was made from.
    """
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


def view_copy(value: Any) -> Any:
    """`json_copy` for what goes into a view (plain JSON: string keys, lists, no tuples), done by
    orjson in C: a Mojo round summary copies in a third of the time. Falls back to `json_copy`
    for what orjson refuses (a non-string key, an integer beyond 64 bits)."""
    try:
        return orjson.loads(orjson.dumps(value))
    except TypeError:
        return json_copy(value)


def _same_json(sent: Any, listed: Any) -> bool:
    """Equal as JSON, not just as Python: 1.0 and true are not the listed 1."""
    if type(sent) is not type(listed):
        return False
    if isinstance(listed, dict):
        return sent.keys() == listed.keys() and all(_same_json(sent[k], listed[k]) for k in listed)
    if isinstance(listed, list):
        return len(sent) == len(listed) and all(_same_json(a, b) for a, b in zip(sent, listed, strict=True))
    return bool(sent == listed)


def is_listed(action: Any, legal: list[Action]) -> bool:
    """`action` is one of `legal`, equal as JSON: what apply accepts and what a bot must choose.

    A seat outside to_act may still have legal actions: optional ones the game does not
    wait for (Mokuru's Immunity "at any time"); apply accepts them like any other.
    """
    return any(action == ok and _same_json(action, ok) for ok in legal)


class Engine(ABC, Generic[S]):
    """A game's rules. Pure: no I/O, no global randomness, states never mutated
    in place by `apply` (it returns a new state).

    View convention: every card object in a view is a dict with an "id" key
    (unique within the match) and no other view object uses the key "id". A card
    a seat may not see appears only as a count.
    """

    spec: GameSpec

    # -- setup and flow -------------------------------------------------
    def setup(self, players: int, seed: int, options: Options) -> S:
        """The opening position, the same way for every game (a template: games write `deal`).

        1. the options as the game's own model (another `Options` is parsed again, so a wrong
           key or value is refused with InvalidOptions);
        2. the player count checked against the spec;
        3. the who-starts seat the room chose, checked (`spec.starter`; None when not chosen or
           the game has no starter option);
        4. one seeded `Rng(seed)`, the only randomness the match will ever use;
        5. the game's own `deal(players, rng, options, first)`.

        A game overrides `deal`, not this (a test engine that must skip a step may).
        """
        options = self.spec.game_options(options)
        self.spec.check_players(players)
        starter = self.spec.starter
        first = None if starter is None else seat_option(options, starter.option, players)
        return self.deal(players, Rng(seed), options, first)

    @abstractmethod
    def deal(self, players: int, rng: Rng, options: Options, first: int | None) -> S:
        """The game's own setup, after `setup`'s shared steps: `options` is an instance of
        `spec.options_model`, `players` is allowed, `first` is the chosen starting seat or None
        (`who_starts(first, players, rng)` resolves it), and `rng` is fresh from the seed."""

    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """Seats that may act now; empty exactly when the game is over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """What `seat` may do now. For a seat in to_act: what the game waits for (never
        empty). For any other seat: its optional actions, usually none."""

    @abstractmethod
    def _apply(self, state: S, seat: int, action: Action) -> S:
        """Apply an action already known to be legal; return a new state."""

    def apply(self, state: S, seat: int, action: Action) -> S:
        """Validate, then apply. Raises an EngineError and leaves `state` alone."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise MalformedAction(N_('an action is a JSON object with a string "type"'))
        acting = self.to_act(state)
        if not acting:
            raise GameOver(N_("the game is over"))
        legal = self.legal_actions(state, seat)
        if seat not in acting and not is_listed(action, legal):
            raise NotYourTurn(N_("seat %(seat)s may not act now"), seat=seat)
        if not is_listed(action, legal):
            raise IllegalAction(N_("that move is not possible at this point of the game"))
        return self._apply(state, seat, action)

    # -- what leaves the engine -------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator). JSON-serialisable."""

    def own_view(self, state: S, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        """The keys of `seat`'s view whose values differ from the spectator's view `public`
        (`view(state, None)`, built once per move for every viewer): `view(state, seat)` equals
        `{**public, **own_view(state, seat, public)}`. A game may build only these keys; this
        default builds the whole view and keeps what differs. A key of `public` the seat's view
        lacks cannot be told apart: every view of a game has the same keys (the conformance
        suite checks it)."""
        view = self.view(state, seat)
        return {
            key: value
            for key, value in view.items()
            if key not in public or type(public[key]) is not type(value) or public[key] != value
        }

    @abstractmethod
    def hidden_ids(self, state: S, seat: int | None) -> frozenset[int]:
        """Ids of the cards `seat` may not see now; used by leak checks."""

    @abstractmethod
    def scorepad(self, state: S) -> Scorepad: ...

    @abstractmethod
    def result(self, state: S) -> Result | None: ...

    def round_number(self, state: S) -> int:
        """1-based round in play; the server snapshots when it changes."""
        return 1

    @abstractmethod
    def resample(self, state: S, seat: int, rng: random.Random) -> S:
        """A new state `seat` cannot tell from `state`, its hidden part dealt again from `rng`.

        Equal to `state` in everything `seat` may see or remember: its own hand, every public
        card, the public history and log, the scores, whose turn it is, the options, and every
        card the seat saw once and still knows the place of (a card drawn from a face-up pile, a
        card gone face down after it was shown). Everything else (the other hands, the order of
        the deck, face-down cards the seat never saw) is dealt again consistently: the same cards
        (ids included, none invented or dropped), as many in each hidden place as before, and a
        position the rules can reach that agrees with every public deduction (a suit a player
        showed it lacks stays out of its hand). So `view(resample(s, seat, rng), seat) ==
        view(s, seat)`, and a fair bot chooses the same for both (the conformance suite checks
        both, `engines.core.conformance.check_resample`).

        Pure: never edits `state`; the same `rng` state gives the same result.
        """

    def foreseeable(self, state: S, seat: int, action: Action, after: S) -> bool:
        """Whether `seat` could have foretold what `action` did from what it saw: True promises that
        `action` applied to any `resample(state, seat, rng)` gives the same view to `seat` and to a
        spectator as `after` does (nothing hidden from the seat, no shuffle, decided the outcome).
        The takeback's reveal test (engines/core/takeback.py) then skips its re-deals, which cost
        more than the rest of the test. False means "not known": the re-deals decide. A game may
        answer True only where its own rules make it plain (a card played from the seat's hand onto
        a face-up pile); the conformance suite holds every True against many re-deals
        (`engines.core.conformance.check_foreseeable`). The default: False."""
        return False

    def shows_nothing(self, state: S, seat: int, action: Action, after: S) -> bool:
        """Whether `action` by `seat` showed nobody anything the seat could not already see, so it may
        be taken back: True promises that the takeback's whole reveal test (engines/core/takeback.py)
        passes: no viewer's view gains a card, or a card's face, that was not in the seat's own view
        before, and the outcome is the same on every re-deal (as `foreseeable` promises). The server
        then skips the test, which walks every viewer's view for cards on every person's move. False
        means "not known": the test decides. A game answers True only where its rules make it plain
        (a card played from the seat's own hand, nothing drawn in its wake); the conformance suite
        holds every True against the test itself (`engines.core.conformance.check_reveal_hooks`).
        The default: False."""
        return False

    def shows_the_mover_a_card(self, state: S, seat: int, action: Action, after: S) -> bool:
        """Whether `action` put into `seat`'s view a card the seat had not seen (a card drawn from a
        hidden deck): True promises that the takeback's reveal test refuses the move for just that
        reason (its words: `engines.core.takeback.SHOWED_YOU`), so the server gives that answer
        without walking every viewer's view. False means "not known": the test decides. Held
        against the test like `shows_nothing` (`engines.core.conformance.check_reveal_hooks`).
        The default: False."""
        return False

    def bot_leaves_to_people(self, state: S, seat: int, people: frozenset[int]) -> bool:
        """Whether a bot in to_act at `seat` must leave this decision to the people among the
        seats waited for (`people`: the seats no bot plays), taking it only when none of them
        can. The default: never (a bot answers what it is asked)."""
        return False

    def public_action(self, action: Action, seat: int, viewer: int | None) -> Action:
        """The action as `viewer` may read it in the log. Every action in our
        games is a public act at the moment it is made, so the default keeps it."""
        return action

    # -- persistence ------------------------------------------------------
    @abstractmethod
    def dump(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def load(self, data: dict[str, Any]) -> S: ...
