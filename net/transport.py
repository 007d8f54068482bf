"""A thin, typed wrapper around an asyncio-dgram socket.

It enforces the datagram size limit on send, counts traffic, feeds the
``on_datagram_sent`` tap, and deals with asyncio-dgram's error model: an
error the OS reported for an earlier datagram (typically ICMP "port
unreachable" turned into ConnectionRefusedError) sits in a queue and is
raised by the *next* ``send()`` *before* it calls ``sendto``, so that
datagram never leaves. We count the error and send the same datagram once
more.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable
from typing import Any

import asyncio_dgram

from net.dualstack import bind_every_address, for_family, is_every_address, unmapped
from net.events import Address
from net.packets import MAX_DATAGRAM
from net.stats import NetStats

log = logging.getLogger(__name__)

DatagramTap = Callable[[Address, bytes], None]


class TransportClosed(Exception):
    """The socket was closed; the loops using it should stop."""


def normalize_address(raw: Any) -> Address:
    """(host, port) from an AF_INET or AF_INET6 socket address tuple; an
    IPv4 peer of a dual-stack socket (``::ffff:127.0.0.1``) as the IPv4
    address it is, so that it has one address whichever socket heard it."""
    return unmapped(str(raw[0])), int(raw[1])


class UdpSocket:
    def __init__(
        self,
        stream: asyncio_dgram.aio.DatagramServer | asyncio_dgram.aio.DatagramClient,
        stats: NetStats,
        tap: DatagramTap | None,
        buffer_bytes: int,
    ) -> None:
        self._stream = stream
        self._stats = stats
        self._tap = tap
        self._family = stream.socket.family
        # ICMP "port unreachable" reports (ConnectionRefusedError) since a
        # datagram last arrived: on a connected socket, that nothing listens
        # at the peer's port now.
        self.refused_in_a_row = 0
        for option in (socket.SO_RCVBUF, socket.SO_SNDBUF):
            # A bigger buffer is an optimisation only; the OS may refuse it.
            with contextlib.suppress(OSError):
                stream.socket.setsockopt(socket.SOL_SOCKET, option, buffer_bytes)

    @classmethod
    async def bind(
        cls, host: str, port: int, stats: NetStats, tap: DatagramTap | None, buffer_bytes: int
    ) -> UdpSocket:
        """A socket bound to ``host:port``; ``::`` is every address, IPv6 and
        IPv4 on one socket where the system allows (``net.dualstack``)."""
        if is_every_address(host):
            stream = await bind_every_address(port)
        else:
            stream = await asyncio_dgram.bind((host, port))
        return cls(stream, stats, tap, buffer_bytes)

    @classmethod
    async def connect(
        cls, host: str, port: int, stats: NetStats, tap: DatagramTap | None, buffer_bytes: int
    ) -> UdpSocket:
        """A socket connected to one peer: the kernel filters out datagrams
        from anyone else and reports ICMP errors for it."""
        return cls(await asyncio_dgram.connect((host, port)), stats, tap, buffer_bytes)

    @property
    def local_address(self) -> Address:
        return normalize_address(self._stream.sockname)

    @property
    def peer_address(self) -> Address | None:
        peer = self._stream.peername
        return None if peer is None else normalize_address(peer)

    async def recv(self) -> tuple[bytes, Address]:
        """Next datagram. Raises TransportClosed, or OSError for an error
        the OS queued on the socket (the caller counts it and carries on)."""
        try:
            data, addr = await self._stream.recv()
        except asyncio_dgram.TransportClosed:
            raise TransportClosed from None
        except ConnectionRefusedError:
            self.refused_in_a_row += 1
            raise
        self.refused_in_a_row = 0
        self._stats.datagrams_received += 1
        self._stats.bytes_received += len(data)
        return data, normalize_address(addr)

    async def _send_once(self, data: bytes, addr: Address) -> None:
        if isinstance(self._stream, asyncio_dgram.aio.DatagramClient):
            await self._stream.send(data)
        else:
            # An IPv4 peer of a dual-stack socket is known by its IPv4
            # address (normalize_address); the socket sends to it mapped.
            host, port = addr
            await self._stream.send(data, (for_family(self._family, host), port))

    def _take_queued_error(self) -> OSError | None:
        try:
            _ = self._stream.exception
        except OSError as exc:
            return exc
        return None

    def count_queued_error(self) -> None:
        """Count an error the OS reported for an earlier datagram now,
        rather than when the next datagram is sent."""
        queued = self._take_queued_error()
        if queued is not None:
            self._count_error(queued)

    def _count_error(self, exc: BaseException) -> None:
        self._stats.send_errors[type(exc).__name__] += 1
        if isinstance(exc, ConnectionRefusedError):
            self.refused_in_a_row += 1

    async def send(self, data: bytes, addr: Address) -> bool:
        """Send one datagram; never raises except TransportClosed."""
        if len(data) > MAX_DATAGRAM:
            self._stats.drop("send_oversize")
            return False
        for attempt in range(2):
            if attempt:
                self._stats.resent_after_error += 1
            try:
                await self._send_once(data, addr)
            except asyncio_dgram.TransportClosed:
                raise TransportClosed from None
            except OSError as exc:
                # Queued by an earlier datagram and raised before sendto:
                # this datagram has not left yet, so send it once more.
                self._count_error(exc)
                continue
            self._record(data, addr)
            # asyncio gives an error from this very sendto to the protocol's
            # queue instead of raising it. Look now, so that it is charged to
            # this datagram (possibly lost: resend it, a duplicate is
            # harmless) rather than swallowing the next one.
            late_error = self._take_queued_error()
            if late_error is None:
                return True
            self._count_error(late_error)
            if attempt:
                return True
        self._stats.drop("send_failed")
        return False

    def _record(self, data: bytes, addr: Address) -> None:
        self._stats.datagrams_sent += 1
        self._stats.bytes_sent += len(data)
        if self._tap is not None:
            try:
                self._tap(addr, data)
            except Exception:  # a test hook must not break the send loop
                log.exception("on_datagram_sent tap failed")

    async def close(self) -> None:
        self._stream.close()
        # Let the transport run connection_lost now, while the loop is alive.
        await asyncio.sleep(0)
