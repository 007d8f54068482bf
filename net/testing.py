"""Helpers for tests and benchmarks of code built on ``net``.

Loopback only: nothing here resolves names or talks to other hosts on its
own; callers pass the loopback address of a server they started.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import asyncio_dgram

from net.config import NetConfig
from net.events import Address, Event, Message
from net.server import Accept, Refuse
from net.transport import normalize_address

E = TypeVar("E")

QUICK_CONFIG = NetConfig(
    idle_timeout=2.0,
    heartbeat_interval=0.2,
    close_linger=0.5,
    connect_timeout=3.0,
)
"""Short timers so tests of timeouts and retries stay fast."""


def has_ipv6_loopback() -> bool:
    """Whether a UDP socket can be bound to ``::1`` here (a container may
    have no IPv6 at all): tests of IPv6 skip, saying so, where not."""
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


NO_IPV6_LOOPBACK = "this machine has no IPv6 loopback (::1)"


def accept_all(addr: Address, hello: Any) -> Accept | Refuse:
    """An ``authorize`` callback admitting everyone, with a fake seat token."""
    return Accept({"token": f"seat-token-{hello!r}"})


async def next_event_of(
    get: Callable[[], Awaitable[Event]], kind: type[E], timeout: float = 5.0
) -> E:
    """The next event of type ``kind`` from ``get`` (e.g. ``server.next_event``),
    skipping other events; raises TimeoutError."""

    async def wait() -> E:
        while True:
            event = await get()
            if isinstance(event, kind):
                return event

    return await asyncio.wait_for(wait(), timeout)


async def collect_messages(
    get: Callable[[], Awaitable[Event]], count: int, timeout: float = 20.0
) -> list[Any]:
    """Payloads of the next ``count`` ``Message`` events, skipping others."""

    async def wait() -> list[Any]:
        payloads: list[Any] = []
        while len(payloads) < count:
            event = await get()
            if isinstance(event, Message):
                payloads.append(event.payload)
        return payloads

    return await asyncio.wait_for(wait(), timeout)


class RawPeer:
    """A bare connected UDP socket for speaking (possibly bad) protocol by
    hand to a server."""

    def __init__(self, stream: asyncio_dgram.aio.DatagramClient) -> None:
        self.stream = stream

    @property
    def address(self) -> Address:
        return normalize_address(self.stream.sockname)

    async def send(self, data: bytes) -> None:
        await self.stream.send(data)

    async def recv(self, timeout: float = 1.0) -> bytes | None:
        """The next datagram, or None after ``timeout`` seconds."""
        try:
            data, _ = await asyncio.wait_for(self.stream.recv(), timeout)
        except TimeoutError:
            return None
        return data

    async def recv_all(self, quiet: float = 0.2) -> list[bytes]:
        """Everything that arrives until ``quiet`` seconds pass in silence."""
        received = []
        while (data := await self.recv(quiet)) is not None:
            received.append(data)
        return received


@asynccontextmanager
async def open_raw_peer(address: Address) -> AsyncIterator[RawPeer]:
    peer = RawPeer(await asyncio_dgram.connect(address))
    try:
        yield peer
    finally:
        peer.stream.close()
        await asyncio.sleep(0)  # let the transport close while the loop runs
