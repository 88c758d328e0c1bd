"""One record per committed move, kept per process: the state the move reached, every viewer's view of
that state (built once, when first needed) and whether its mover may take it back (decided once, when
first asked).

`Verdicts.made` (app/services/takebacks.py) is the one way a record is made, whoever makes it: the
writer's process, with what the writer applied (app/playing/played.py); another process told of the
move by its event, with the state it holds from before the move and the move replayed on it
(app/playing/views.py); a reader that holds neither, with both states read from the database
(`takebacks.can_take_back`). The fan-out builds every viewer's body from it (app/playing/views.py
`split_bodies`), so a move is applied once per process and its views are built once.
"""

from __future__ import annotations

from typing import Any

from engines.core import get_engine
from engines.core.takeback import Position, taken_back, why_not_reversible

BOTS_MOVE = "a bot's move is not taken back"


def ruled_out(engine: Any, before: Any, action: Any, after: Any) -> str | None:
    """Why an action is never taken back whatever it showed, in words; None: the reveal test decides."""
    if taken_back(action) is not None:
        return "it was itself a takeback"
    if engine.result(after) is not None:
        return "it ended the match"
    if engine.round_number(after) != engine.round_number(before):
        return "it ended the round, and the round's scores are written"
    return None


def reveal_seed(match_id: int, version: int) -> int:
    """The seed of the reveal test's re-deals: from the match and version, so every process decides
    the same."""
    return match_id * 1_000_003 + version


class MoveRecord:
    """A committed move: match, version, who made it, what it was, the match's status after it and the
    state it reached. Immutable as its readers see it; the views and the verdict are worked out on
    first use (by any thread: both are deterministic, so two threads working one out at once agree),
    and what only the verdict needs (the state before, the previous position) is let go then."""

    __slots__ = (
        "_before",
        "_bot",
        "_position",
        "_verdict",
        "_was",
        "action",
        "game",
        "match_id",
        "seat",
        "state",
        "status",
        "version",
    )

    def __init__(
        self,
        match_id: int,
        game: str,
        version: int,
        seat: int,
        action: Any,
        status: str,
        before: Any,
        state: Any,
        bot: bool = False,
        was: Position | None = None,
    ) -> None:
        self.match_id = match_id
        self.game = game
        self.version = version
        self.seat = seat
        self.action = action
        self.status = status
        self.state = state
        self._bot = bot
        self._before = before
        # The views of the state before, when the record before this one built them: the reveal test
        # compares the two positions, and the cards each view holds are found once per position.
        self._was = was
        self._position: Position | None = None
        self._verdict: tuple[str | None] | None = None

    @property
    def position(self) -> Position:
        """Every viewer's view of the state the move reached, built once."""
        position = self._position
        if position is None:
            engine = get_engine(self.game)
            # The score pad has a total per seat from the deal on.
            position = Position(engine, self.state, len(engine.scorepad(self.state).totals))
            self._position = position
        return position

    def built_position(self) -> Position | None:
        """The views, if something asked for them already (never builds them)."""
        return self._position

    def verdict(self) -> str | None:
        """Why the mover may not take the move back, in words; None: they may."""
        known = self._verdict
        if known is None:
            known = (self._decide(),)
            self._verdict = known
            self._before = self._was = None
        return known[0]

    def _decide(self) -> str | None:
        if self._bot:
            return BOTS_MOVE
        if taken_back(self.action) is not None:
            return "it was itself a takeback"
        engine = get_engine(self.game)
        before, after = self._before, self.state
        reason = ruled_out(engine, before, self.action, after)
        if reason is not None:
            return reason
        now = self.position
        seed = reveal_seed(self.match_id, self.version)
        return why_not_reversible(
            engine, before, self.seat, self.action, after, now.players, seed, None, self._was, now
        )
