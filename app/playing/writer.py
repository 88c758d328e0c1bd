"""Group commit: one writer per process applies the moves queued by every room in one transaction.

While a batch commits (an fsync on SQLite), the moves that arrive queue up and go together in the
next one, so the commit rate, not the move rate, is what the disk must keep up with. Moves keep their
order (a room's second move builds on its first), each is checked and refused on its own, and every
caller is answered only once the commit that holds its move is done.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool

from app.services.matches import Applied
from app.services.moves import Move

# The most moves one transaction holds.
MAX_BATCH = 256

Batch = Callable[[list[Move]], list[Applied | Exception]]


def _seen(future: asyncio.Future[Applied]) -> None:
    if not future.cancelled():
        future.exception()


class Writer:
    def __init__(self, apply_batch: Batch, max_batch: int = MAX_BATCH) -> None:
        self._apply_batch = apply_batch
        self._max_batch = max_batch
        self._queue: asyncio.Queue[tuple[Move, asyncio.Future[Applied]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    async def submit(self, move: Move) -> Applied:
        """Apply `move`; returns once it is committed (raises what refused it)."""
        future: asyncio.Future[Applied] = asyncio.get_running_loop().create_future()
        # Marks the outcome as seen even when the caller has gone: no "never retrieved" noise.
        future.add_done_callback(_seen)
        self._queue.put_nowait((move, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())
        # Shielded: a caller that goes away (a closed socket) must not take its move out of a batch
        # that may already be committing.
        return await asyncio.shield(future)

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while len(batch) < self._max_batch and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                results = await run_in_threadpool(self._apply_batch, [move for move, _ in batch])
                if len(results) != len(batch):
                    raise RuntimeError(f"{len(results)} results for {len(batch)} moves")
            except BaseException as error:
                # Not known to be committed: every caller hears why (none is ever left waiting).
                failure = error if isinstance(error, Exception) else RuntimeError("the server is stopping")
                for _, future in batch:
                    if not future.done():
                        future.set_exception(failure)
                if not isinstance(error, Exception):
                    raise
                continue
            for (_, future), result in zip(batch, results, strict=True):
                if future.done():
                    continue
                if isinstance(result, Exception):
                    future.set_exception(result)
                else:
                    future.set_result(result)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        while not self._queue.empty():
            _, future = self._queue.get_nowait()
            if not future.done():
                future.set_exception(RuntimeError("the server is stopping"))
