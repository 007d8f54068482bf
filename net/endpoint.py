"""What a ``Server`` and a ``Client`` share: the event queue, stats, liveness."""

from __future__ import annotations

from collections.abc import AsyncIterator

from net.engine import Engine
from net.errors import SessionClosed
from net.events import Event
from net.stats import NetStats


class Endpoint:
    """One UDP socket's engine, seen from the application."""

    _engine: Engine

    @property
    def stats(self) -> NetStats:
        return self._engine.stats

    async def next_event(self) -> Event:
        """Wait for the next event. Raises ``SessionClosed`` once the endpoint
        is closed (or its session ended) and every queued event was taken."""
        return await self._engine.events.get()

    def poll_event(self) -> Event | None:
        """The next event if one is queued, without waiting."""
        return self._engine.events.get_nowait()

    @property
    def running(self) -> bool:
        """True until ``close``; False if an internal task died (a bug)."""
        return self._engine.running

    async def events(self) -> AsyncIterator[Event]:
        """``async for event in endpoint.events()``; ends when closed."""
        while True:
            try:
                yield await self._engine.events.get()
            except SessionClosed:
                return
