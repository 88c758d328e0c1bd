"""Taking back a misclick, for any game: the log entry that undoes the last action, and the one test of
whether an action showed anyone anything (decided from the views alone, so no engine knows about it).

A takeback is written into the match's action log as an entry of its own, `{"takeback": seq}`, by the
seat whose action `seq` it undoes; replaying it returns the match to the state before that action. Only
the action just before the entry can be taken back, so a replay needs to remember one state only.

An action may be taken back only when it showed nobody anything the actor could not already see
(docs/playing.md, "Takeback"), checked in two ways:

1. Cards: every card (an object with an "id") that any viewer's view gains, or sees with a new face,
   must already have been in the actor's own view before the action, with the same face. A card drawn
   fails (the actor learns a card), a round end that shows every hand fails, a card played from the
   actor's own hand passes.
2. Everything else (counts, flags, whose turn it is, the log of events): the action is replayed on
   positions the actor cannot tell from the real one (`Engine.resample`: every card the actor cannot
   see dealt again). The actor's view and the spectators' (the public part, which the actor sees too)
   are the same before on each of them; if either is different after, the outcome depended on
   something hidden from the actor, so it told the table something: refused. (Another seat's private
   view cannot be compared this way, as its own hand is dealt again too; what it may gain beyond the
   public part is a card, which check 1 covers.)
"""

from __future__ import annotations

import random
from typing import Any

from .errors import EngineError
from .protocol import Action, Engine
from .words import N_, Words

TAKEBACK = "takeback"

# Why an action that put a card into its actor's own view cannot be taken back.
SHOWED_YOU = Words(N_("it showed you a card you had not seen (taking it back would let you know it)"))

# Positions the actor cannot tell apart that an action is replayed on (check 2). Each is a full re-deal
# of the unseen cards: three make a hidden outcome that looks the same by chance very unlikely.
RESAMPLES = 3


def takeback_entry(seq: int) -> dict[str, int]:
    """The log entry's action that takes back the action numbered `seq`."""
    return {TAKEBACK: seq}


def taken_back(action: Any) -> int | None:
    """The seq a takeback entry undoes; None for a game's own action."""
    if isinstance(action, dict) and len(action) == 1:
        seq = action.get(TAKEBACK)
        if isinstance(seq, int) and not isinstance(seq, bool):
            return seq
    return None


class History:
    """The state of a match replayed entry by entry, with the one earlier state a takeback needs."""

    def __init__(self, engine: Engine[Any], state: Any, before: Any = None) -> None:
        self.engine = engine
        self.state = state
        # The state before the last entry when that entry is a game action (None: nothing to take back).
        self.before = before

    def apply(self, seat: int, action: Action) -> Any:
        """Apply one log entry; a takeback with nothing to undo raises EngineError."""
        if taken_back(action) is not None:
            if self.before is None:
                raise EngineError(N_("a takeback that follows no action it can undo"), "illegal_action")
            self.state, self.before = self.before, None
        else:
            self.state, self.before = self.engine.apply(self.state, seat, action), self.state
        return self.state


# -- the reveal test ---------------------------------------------------------------------------------


_CONTAINERS = (dict, list)


def _cards(view: Any, into: dict[int, dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Every card object in a view: id -> its face (the card's plain fields). Walked with a stack and
    exact type checks: views are plain JSON, and a long event log makes this the test's hot spot. A
    card with nothing nested in it (the usual one) is copied whole."""
    stack = [view]
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        if type(node) is dict:
            nested = [v for v in node.values() if type(v) is dict or type(v) is list]
            card_id = node.get("id")
            if type(card_id) is int:
                face = (
                    {k: v for k, v in node.items() if type(v) is not dict and type(v) is not list}
                    if nested
                    else dict(node)
                )
                held = into.get(card_id)
                if held is None:
                    into[card_id] = face
                else:
                    held.update(face)
            if nested:
                extend(nested)
        elif type(node) is list:
            extend([v for v in node if type(v) is dict or type(v) is list])
    return into


def cards_of(view: Any) -> dict[int, dict[str, Any]]:
    return _cards(view, {})


def _agrees(face: dict[str, Any], known: dict[str, Any]) -> bool:
    return all(known[key] == value for key, value in face.items() if key in known)


def viewers(players: int) -> list[int | None]:
    return [*range(players), None]


class Position:
    """What every viewer sees of one position, for the reveal test: each viewer's view and, when
    first asked, the cards in it.

    A seat's view is the spectator's view with the seat's own part (`Engine.own_view`) laid over it
    (equal to `view(state, seat)`: the conformance suite checks it), so the values the viewers share
    are one object each, and the cards in a shared value are found once for every viewer. A position
    is immutable once built; the server keeps the latest one of a match in its latest move's record,
    so the next move's "before" is this move's "after" (app/services/records.py)."""

    def __init__(self, engine: Engine[Any], state: Any, players: int) -> None:
        self.players = players
        self.public: dict[str, Any] = engine.view(state, None)
        # Each seat's own part: the keys of its view that differ from the spectator's.
        self.own: dict[int, dict[str, Any]] = {
            seat: engine.own_view(state, seat, self.public) for seat in range(players)
        }
        self.views: dict[int | None, dict[str, Any]] = {
            seat: {**self.public, **own} for seat, own in self.own.items()
        }
        self.views[None] = self.public
        self._cards: dict[int | None, dict[int, dict[str, Any]]] = {}
        # id of a top-level value of a view (alive as long as the views) -> the cards in it.
        self._parts: dict[int, dict[int, dict[str, Any]]] = {}
        # id of an item of a top-level list (a logged event, a card) -> (the item, the cards in it).
        # The entry holds its item, so the id cannot be reused while it lives; a later position
        # takes the entries of the items it still shows (a log's old events) from this one.
        self._items: dict[int, tuple[Any, dict[int, dict[str, Any]]]] = {}
        # The ids among those whose item holds a card.
        self._carded: set[int] = set()

    def cards(self, viewer: int | None, prior: Position | None = None) -> dict[int, dict[str, Any]]:
        """Every card in `viewer`'s view: id -> its face (as `cards_of(view)`). `prior`: a position
        whose work on the items this one shares may be reused."""
        found = self._cards.get(viewer)
        if found is not None:
            return found
        view = self.views[viewer]
        if type(view.get("id")) is int:  # not a view this project makes; walked whole all the same
            found = cards_of(view)
        else:
            found = {}
            before = prior.views.get(viewer) if prior is not None else None
            for key, value in view.items():
                kind = type(value)
                if kind is not dict and kind is not list:
                    continue
                part = self._parts.get(id(value))
                if part is None:
                    # The cards of a value depend on its content only: a value equal to the one the
                    # prior position showed this viewer under the same key has that value's cards.
                    was = before.get(key) if before is not None else None
                    if prior is not None and was is not None and id(was) in prior._parts and was == value:
                        part = prior._parts[id(was)]
                    elif kind is list:
                        part = self._list_cards(value, prior)
                    else:
                        part = _cards(value, {})
                    self._parts[id(value)] = part
                _merge(found, part)
        self._cards[viewer] = found
        return found

    def _list_cards(self, items: list[Any], prior: Position | None) -> dict[int, dict[str, Any]]:
        # An entry holds its item alive, so an id found in `mine` (or in `prior`'s) is that item.
        mine, carded = self._items, self._carded
        missing = [item for item in items if id(item) not in mine]
        if missing:
            theirs = prior._items if prior is not None else {}
            for item in missing:
                entry = theirs.get(id(item))
                if entry is None:
                    entry = (item, _cards(item, {}) if type(item) in _CONTAINERS else {})
                mine[id(item)] = entry
                if entry[1]:
                    carded.add(id(item))
        found: dict[int, dict[str, Any]] = {}
        for key in [key for key in map(id, items) if key in carded]:
            _merge(found, mine[key][1])
        return found


def _merge(into: dict[int, dict[str, Any]], part: dict[int, dict[str, Any]]) -> None:
    """Add the cards of `part` to `into`; a card in both gets its faces merged, in a new dict (the
    faces of a part are shared, never edited)."""
    for card_id, face in part.items():
        known = into.get(card_id)
        into[card_id] = face if known is None else {**known, **face}


def _both_views(engine: Engine[Any], state: Any, seat: int) -> dict[int | None, Any]:
    """The views of `seat` and of the spectators, built the way `Position` builds them."""
    public = engine.view(state, None)
    return {seat: {**public, **engine.own_view(state, seat, public)}, None: public}


def why_not_reversible(
    engine: Engine[Any],
    before: Any,
    seat: int,
    action: Action,
    after: Any,
    players: int,
    seed: int,
    names: dict[int | None, str] | None = None,
    was: Position | None = None,
    now: Position | None = None,
    trust_engine: bool = True,
) -> str | None:
    """None when the action by `seat` that took `before` to `after` showed nobody anything the seat could
    not already see; else why not, in words. `seed` makes the re-deals repeatable. `was` and `now`:
    the positions before and after when they are at hand (built here otherwise). `trust_engine`: take
    the game's word where it says the move showed nothing (`Engine.shows_nothing`) or showed its
    actor a card (`Engine.shows_the_mover_a_card`), or that its outcome was foreseeable
    (`Engine.foreseeable`); False runs the whole test (the conformance suite holds the game's word
    against it)."""
    if trust_engine:
        if engine.shows_nothing(before, seat, action, after):
            return None
        if engine.shows_the_mover_a_card(before, seat, action, after):
            return SHOWED_YOU
    names = names or {}
    was = was if was is not None else Position(engine, before, players)
    now = now if now is not None else Position(engine, after, players)
    known = was.cards(seat)
    for viewer in viewers(players):
        if now.views[viewer] == was.views[viewer]:
            continue
        seen = was.cards(viewer)
        for card_id, face in now.cards(viewer, was).items():
            if card_id in seen and seen[card_id] == face:
                continue
            if card_id in known and _agrees(face, known[card_id]):
                continue
            if viewer == seat:
                return SHOWED_YOU
            if viewer in names:
                return Words(N_("it showed %(who)s a card that was not yours to show"), who=names[viewer])
            if viewer is None:
                return Words(N_("it showed the spectators a card that was not yours to show"))
            return Words(N_("it showed seat %(seat)s a card that was not yours to show"), seat=viewer)
    # The actor's and the spectators' views before are the same on every re-deal (the spectators see
    # only what is public, which the actor sees too; `Engine.resample` promises both, and the
    # conformance suite checks it): their views after must be the same as well. A game that says the
    # action's outcome was foreseeable from the actor's seat promises just that (`Engine.foreseeable`).
    if trust_engine and engine.foreseeable(before, seat, action, after):
        return None
    rng = random.Random(seed)
    for _ in range(RESAMPLES):
        other = engine.resample(before, seat, rng)
        try:
            other_after = engine.apply(other, seat, action)
        except EngineError:
            return Words(N_("whether it was allowed depended on cards you cannot see"))
        views = _both_views(engine, other_after, seat)
        if views[seat] != now.views[seat] or views[None] != now.views[None]:
            return Words(N_("what it did depended on cards you cannot see, so the table learned something"))
    return None
