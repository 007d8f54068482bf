"""What a ``Server`` and a ``Client`` share: the event queue, stats, liveness."""

from __future__ import annotations

from collections.abc import AsyncIterator
from types import TracebackType
from typing import Self

from net.engine import Engine
from net.errors import SessionClosed
from net.events import Event
from net.stats import NetStats


class Endpoint:
    """One UDP socket's engine, seen from the application."""

    _engine: Engine
    _close_reason = ""  # what a plain close() tells the peers

    async def close(self, reason: str | None = None) -> None:
        """Flush (up to ``close_linger``), send CLOSE to every session, stop.
        Idempotent."""
        if self._engine.stopped:
            return
        try:
            await self._engine.close_sessions(self._close_reason if reason is None else reason)
        finally:
            # Even when the linger is cut short (the close itself cancelled:
            # a spectator's old session closed as it sits down, and the app
            # quits meanwhile): the socket must not outlive the loop.
            await self._engine.shutdown()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

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
