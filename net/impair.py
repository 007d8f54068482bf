"""An in-process UDP impairment proxy for tests and benchmarks.

Clients talk to ``proxy.address`` instead of the server; each client
address gets its own upstream socket, so the server sees one distinct
address per client (as it would without the proxy). Every datagram passing
through can be lost, duplicated, held back and released after the next one
(reordering) and delayed, using a seeded RNG. Loopback only: the proxy binds
to the upstream host (127.0.0.1 or ::1) and forwards only to the upstream.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import TracebackType

import asyncio_dgram

from net.dualstack import for_family
from net.events import Address
from net.transport import normalize_address

Emit = Callable[[bytes], Awaitable[None]]


@dataclass(frozen=True)
class Impairment:
    loss_to_server: float = 0.0
    loss_to_client: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0
    """Probability that a datagram is held back and sent right after the
    next one in the same direction."""
    delay: float = 0.0
    jitter: float = 0.0
    """Extra uniform random delay in [0, jitter) seconds (also reorders)."""
    max_hold: float = 0.05
    """A held-back datagram is released after this long even if no other
    datagram follows, so reordering never turns into loss."""


@dataclass
class DirectionCounters:
    received: int = 0
    forwarded: int = 0
    dropped: int = 0
    duplicated: int = 0
    reordered: int = 0
    send_errors: int = 0


@dataclass
class _Direction:
    counters: DirectionCounters = field(default_factory=DirectionCounters)
    held: bytes | None = None
    held_emit: Emit | None = None
    held_timer: asyncio.TimerHandle | None = None


@dataclass
class _Link:
    client: Address
    upstream: asyncio_dgram.aio.DatagramClient
    task: asyncio.Task[None] | None = None


class ImpairmentProxy:
    def __init__(
        self,
        front: asyncio_dgram.aio.DatagramServer,
        upstream: Address,
        impairment: Impairment,
        seed: int,
    ) -> None:
        self._front = front
        self._upstream = upstream
        self.impairment = impairment
        """May be replaced at any time, e.g. to cut the link (loss 1.0)."""
        self.drop_to_client: Callable[[bytes], bool] | None = None
        """May be set at any time: datagrams to the client it says True of
        are lost, every one (a test's scalpel: lose exactly the CLOSE)."""
        self._rng = random.Random(seed)
        self._loop = asyncio.get_running_loop()
        self._links: dict[Address, _Link] = {}
        self._to_server = _Direction()
        self._to_client = _Direction()
        self._outbox: asyncio.Queue[tuple[Emit, bytes, DirectionCounters]] = asyncio.Queue()
        self._timers: set[asyncio.TimerHandle] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self._stopped = False

    @classmethod
    async def start(
        cls, upstream: Address, impairment: Impairment | None = None, *, seed: int = 0
    ) -> ImpairmentProxy:
        front = await asyncio_dgram.bind((upstream[0], 0))
        proxy = cls(front, upstream, impairment or Impairment(), seed)
        proxy._tasks = [
            asyncio.create_task(proxy._front_loop(), name="impair-front"),
            asyncio.create_task(proxy._writer(), name="impair-writer"),
        ]
        return proxy

    @property
    def address(self) -> Address:
        return normalize_address(self._front.sockname)

    @property
    def to_server(self) -> DirectionCounters:
        return self._to_server.counters

    @property
    def to_client(self) -> DirectionCounters:
        return self._to_client.counters

    # --- plumbing -----------------------------------------------------------------

    async def _front_loop(self) -> None:
        while True:
            try:
                data, raw_addr = await self._front.recv()
            except asyncio_dgram.TransportClosed:
                return
            except OSError:
                continue
            client = normalize_address(raw_addr)
            link = self._links.get(client)
            if link is None:
                link = _Link(client, await asyncio_dgram.connect(self._upstream))
                link.task = asyncio.create_task(self._upstream_loop(link), name="impair-upstream")
                self._links[client] = link
            upstream = link.upstream
            self._pass(data, self._to_server, self.impairment.loss_to_server, upstream.send)

    async def _upstream_loop(self, link: _Link) -> None:
        # The client is known by its IPv4 address even on a front socket
        # bound to "::" (normalize_address); that socket sends to it mapped.
        host, port = link.client
        back_to = (for_family(self._front.socket.family, host), port)

        async def to_client(data: bytes) -> None:
            await self._front.send(data, back_to)

        while True:
            try:
                data, _ = await link.upstream.recv()
            except asyncio_dgram.TransportClosed:
                return
            except OSError:  # ICMP from a server that went away
                continue
            drop = self.drop_to_client
            loss = 1.0 if drop is not None and drop(data) else self.impairment.loss_to_client
            self._pass(data, self._to_client, loss, to_client)

    async def _writer(self) -> None:
        while True:
            emit, data, counters = await self._outbox.get()
            try:
                await emit(data)
            except asyncio_dgram.TransportClosed:
                continue
            except OSError:
                counters.send_errors += 1

    # --- impairment -----------------------------------------------------------------

    def _pass(self, data: bytes, direction: _Direction, loss: float, emit: Emit) -> None:
        counters = direction.counters
        counters.received += 1
        rng = self._rng
        if rng.random() < loss:
            counters.dropped += 1
            return
        copies = 1
        if rng.random() < self.impairment.duplicate:
            counters.duplicated += 1
            copies = 2
        for _ in range(copies):
            if direction.held is None and rng.random() < self.impairment.reorder:
                counters.reordered += 1
                direction.held, direction.held_emit = data, emit
                direction.held_timer = self._loop.call_later(
                    self.impairment.max_hold, self._release, direction
                )
                continue
            self._schedule(data, emit, counters)
            self._release(direction)

    def _release(self, direction: _Direction) -> None:
        if direction.held_timer is not None:
            direction.held_timer.cancel()
            direction.held_timer = None
        if direction.held is not None and direction.held_emit is not None:
            self._schedule(direction.held, direction.held_emit, direction.counters)
        direction.held = direction.held_emit = None

    def _schedule(self, data: bytes, emit: Emit, counters: DirectionCounters) -> None:
        counters.forwarded += 1
        delay = self.impairment.delay
        if self.impairment.jitter > 0:
            delay += self._rng.uniform(0, self.impairment.jitter)
        if delay <= 0:
            self._outbox.put_nowait((emit, data, counters))
            return

        def fire() -> None:
            self._timers.discard(timer)
            if not self._stopped:
                self._outbox.put_nowait((emit, data, counters))

        timer = self._loop.call_later(delay, fire)
        self._timers.add(timer)

    # --- lifecycle ------------------------------------------------------------------

    async def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        for timer in self._timers:
            timer.cancel()
        for direction in (self._to_server, self._to_client):
            if direction.held_timer is not None:
                direction.held_timer.cancel()
        tasks = self._tasks + [link.task for link in self._links.values() if link.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._front.close()
        for link in self._links.values():
            link.upstream.close()
        await asyncio.sleep(0)  # let the transports finish closing

    async def __aenter__(self) -> ImpairmentProxy:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()
