"""Waiting, in async tests, for what the code under test does in its own
time (a worker's decision, a datagram, a repaint): one helper, so every
test polls the same way and says what it waited for when it gives up."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


async def until(
    condition: Callable[[], object],
    what: str,
    timeout: float = 20.0,
    details: Callable[[], str] | None = None,
) -> None:
    """Poll `condition` until it holds; past `timeout` seconds fail with
    `what` (and `details()`, read at that moment: what the screen showed)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            more = f" ({details()})" if details is not None else ""
            raise AssertionError(f"timed out waiting for {what}{more}")
        await asyncio.sleep(0.005)
