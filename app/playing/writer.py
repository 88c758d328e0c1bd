"""Group commit: one writer per process applies the moves queued by every room in one transaction.
A closed socket's "away since" rides in the same batches (written after the moves, in one transaction
for all of a batch's closes): four sockets of a table closing need no worker-thread hop each and
share transactions with the other rooms' closes.

While a batch commits (an fsync on SQLite), the moves that arrive queue up and go together in the
next one, so the commit rate, not the move rate, is what the disk must keep up with. Moves keep their
order (a room's second move builds on its first), each is checked and refused on its own, and every
caller is answered only once the commit that holds its move is done.

The batches run on one dedicated thread fed by a plain queue, and each batch's callers are answered
with one `call_soon_threadsafe` per event loop: no thread-pool hand-off (capacity limiter, cancel
scope, a condition notified per call) for every batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import overload

from app.services.matches import Applied
from app.services.moves import Closed, Move, Touched

# The most moves one transaction holds.
MAX_BATCH = 256

Item = Move | Closed | Touched
# A Move is answered with what it did (or what refused it), a mark (Closed, Touched) with None.
Outcome = Applied | None
Batch = Callable[[list[Item]], list[Outcome | Exception]]

_Item = tuple[Item, "asyncio.Future[Outcome]", asyncio.AbstractEventLoop]
_Outcome = tuple["asyncio.Future[Outcome]", "Outcome | BaseException"]

STOPPING = "the server is stopping"


def _seen(future: asyncio.Future[Outcome]) -> None:
    if not future.cancelled():
        future.exception()


def _resolve(outcomes: list[_Outcome]) -> None:
    """On the callers' loop: answer each future of a batch (one that is done already is left)."""
    for future, outcome in outcomes:
        if future.done():
            continue
        if isinstance(outcome, BaseException):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)


class Writer:
    def __init__(self, apply_batch: Batch, max_batch: int = MAX_BATCH) -> None:
        self._apply_batch = apply_batch
        self._max_batch = max_batch
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._stopping = False

    @overload
    async def submit(self, item: Move) -> Applied: ...

    @overload
    async def submit(self, item: Closed | Touched) -> None: ...

    async def submit(self, item: Item) -> Outcome:
        """Apply a move (or write a closed socket's mark); returns once it is committed (raises what
        refused it)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Outcome] = loop.create_future()
        # Marks the outcome as seen even when the caller has gone: no "never retrieved" noise.
        future.add_done_callback(_seen)
        thread = self._thread
        if thread is None or not thread.is_alive():
            self._start()
        self._queue.put((item, future, loop))
        # A caller that goes away (a closed socket) cancels only its wait: the writer applies what
        # it queued all the same (it never looks at the future before answering it), so a move is
        # never taken out of a batch that may already be committing. No shield: one future a move.
        return await future

    def _start(self) -> None:
        with self._start_lock:
            if self._thread is not None and self._thread.is_alive():
                return
            self._stopping = False
            self._thread = threading.Thread(target=self._run, name="motable-writer", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        get, get_nowait = self._queue.get, self._queue.get_nowait
        while True:
            first = get()
            if first is None or self._stopping:
                if first is not None:
                    self._answer([(first[1], RuntimeError(STOPPING))], first[2])
                self._fail_queued()
                return
            batch = [first]
            stop_after = False
            while len(batch) < self._max_batch:
                try:
                    item = get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop_after = True
                    break
                batch.append(item)
            outcomes: list[Outcome | BaseException]
            fatal: BaseException | None = None
            try:
                results = self._apply_batch([item for item, _, _ in batch])
                if len(results) != len(batch):
                    raise RuntimeError(f"{len(results)} results for {len(batch)} moves")
                outcomes = list(results)
            except BaseException as error:
                # Not known to be committed: every caller hears why (none is ever left waiting).
                failure = error if isinstance(error, Exception) else RuntimeError(STOPPING)
                outcomes = [failure] * len(batch)
                if not isinstance(error, Exception):
                    fatal = error
            by_loop: dict[asyncio.AbstractEventLoop, list[_Outcome]] = {}
            for (_, future, loop), outcome in zip(batch, outcomes, strict=True):
                by_loop.setdefault(loop, []).append((future, outcome))
            for loop, answered in by_loop.items():
                self._answer(answered, loop)
            if fatal is not None:
                self._fail_queued()
                raise fatal
            if stop_after:
                self._fail_queued()
                return

    @staticmethod
    def _answer(outcomes: list[_Outcome], loop: asyncio.AbstractEventLoop) -> None:
        # RuntimeError: that loop is closed, nobody is left to answer.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(_resolve, outcomes)

    def _fail_queued(self) -> None:
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return
            if item is not None:
                self._answer([(item[1], RuntimeError(STOPPING))], item[2])

    async def stop(self) -> None:
        """Finish the batch under way (it may be committing), refuse the moves still queued."""
        thread = self._thread
        if thread is None:
            return
        self._stopping = True
        self._queue.put(None)
        if thread.is_alive():
            await asyncio.get_running_loop().run_in_executor(None, thread.join)
        self._thread = None
        # Whatever a submit queued after the thread had left.
        self._fail_queued()
