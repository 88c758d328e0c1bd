"""Ending background tasks without losing a cancellation.

`task.cancel()` then `with suppress(CancelledError): await task` cannot tell the task's own end from a
cancellation of the one waiting: a shutdown cancelled while it waits carries on as if nothing was
asked. `asyncio.wait` raises neither the task's end nor swallows the waiter's own cancellation.
"""

from __future__ import annotations

import asyncio
from typing import Any


async def cancel_and_wait(*tasks: asyncio.Task[Any] | asyncio.Future[Any] | None) -> None:
    """Cancel each task (None: there is none) and return once all have finished. A task that ended in
    an error other than its cancellation raises it here, as awaiting it would have."""
    running = [task for task in tasks if task is not None]
    for task in running:
        task.cancel()
    if not running:
        return
    await asyncio.wait(running)
    for task in running:
        if not task.cancelled() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
