"""A server bound to ``::`` listens on IPv6 and IPv4 at once, and an IPv4
client has one address there: its IPv4 address, never ``::ffff:...``.

Real sockets on loopback only: the servers bound to ``::`` here are sent
to at ``::1`` and ``127.0.0.1`` alone.  Where a system behaves otherwise
(IPv6 sockets that are IPv6-only by default, as on the BSDs; no IPv6 at
all), the module that makes sockets is given a ``socket`` function that
behaves so, and everything else is real.
"""

from __future__ import annotations

import errno
import socket
import types
from typing import Any

import pytest

import net.dualstack
from net import Client, Connected, ImpairmentProxy, Message, NetConfig, PortClosed, Server
from net.codec import encode
from net.dualstack import for_family, unmapped
from net.packets import MIN_HELLO_SIZE, HelloPacket
from net.testing import (
    NO_IPV6_LOOPBACK,
    QUICK_CONFIG,
    accept_all,
    collect_messages,
    has_ipv6_loopback,
    next_event_of,
    open_raw_peer,
)

needs_ipv6 = pytest.mark.skipif(not has_ipv6_loopback(), reason=NO_IPV6_LOOPBACK)
# A client that finds nothing listening gives up in about a second.
SHORT = NetConfig(connect_timeout=1.5, idle_timeout=2.0, heartbeat_interval=0.2)


async def meets(server: Server, host: str) -> tuple[str, int]:
    """Connect from ``host`` (a loopback address), talk both ways; the
    address the server saw."""
    port = server.address[1]
    async with await Client.connect(host, port, "ann", QUICK_CONFIG) as client:
        connected = await next_event_of(server.next_event, Connected)
        assert server.session_address(connected.session_id) == connected.address
        client.send({"from": host})
        assert (await next_event_of(server.next_event, Message)).payload == {"from": host}
        server.send(connected.session_id, "seen")
        assert await collect_messages(client.next_event, 1) == ["seen"]
        return connected.address


@needs_ipv6
async def test_a_server_on_every_address_takes_ipv6_and_ipv4_clients_as_themselves() -> None:
    async with await Server.start("::", 0, accept_all, QUICK_CONFIG) as server:
        assert server.address[0] == "::"
        assert (await meets(server, "::1"))[0] == "::1"
        # Not "::ffff:127.0.0.1": the same client bound to 0.0.0.0 is
        # "127.0.0.1", and limits, logs and "this machine" go by it.
        assert (await meets(server, "127.0.0.1"))[0] == "127.0.0.1"


@needs_ipv6
async def test_an_ipv4_senders_allowances_are_kept_under_its_ipv4_address() -> None:
    """The per-address tables (here the amplification ledger, beside the
    rate limiter and the replay guard) know an IPv4 sender by one name."""
    async with (
        await Server.start("::", 0, accept_all, QUICK_CONFIG) as server,
        open_raw_peer(("127.0.0.1", server.address[1])) as peer,
    ):
        hello = encode(HelloPacket(7, 64, 4096, None))
        await peer.send(hello + bytes(MIN_HELLO_SIZE - len(hello)))
        assert await peer.recv() is not None  # the CHALLENGE reached it
        received, sent = server.amplification_usage(peer.address)
        assert peer.address[0] == "127.0.0.1"
        assert received >= MIN_HELLO_SIZE and sent > 0


def socket_module(make: Any) -> types.SimpleNamespace:
    """The ``socket`` module with ``socket.socket`` replaced by ``make``."""
    return types.SimpleNamespace(**{**vars(socket), "socket": make})


class Ipv6OnlyByDefault(socket.socket):
    """A socket as the BSDs and Windows make one: IPv6 is IPv6-only unless told."""

    def __init__(self, family: int = -1, type: int = -1, proto: int = -1, fileno: Any = None):
        super().__init__(family, type, proto, fileno)
        if fileno is None and self.family == socket.AF_INET6:
            self.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)


@needs_ipv6
@pytest.mark.parametrize("every", ["::", "0:0:0:0:0:0:0:0"])
async def test_every_address_is_both_where_ipv6_sockets_are_ipv6_only_by_default(
    monkeypatch: pytest.MonkeyPatch, every: str
) -> None:
    """The BSDs and Windows (and Linux with net.ipv6.bindv6only=1) make an
    IPv6 socket IPv6-only unless told: an IPv4 friend was never answered.
    Every address spelt otherwise is every address all the same."""
    monkeypatch.setattr(socket, "socket", Ipv6OnlyByDefault)
    async with await Server.start(every, 0, accept_all, QUICK_CONFIG) as server:
        assert (await meets(server, "127.0.0.1"))[0] == "127.0.0.1"
        assert (await meets(server, "::1"))[0] == "::1"


async def test_every_address_is_ipv4_alone_on_a_system_without_ipv6(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_ipv6(family: int, kind: int) -> socket.socket:
        if family == socket.AF_INET6:
            raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
        return socket.socket(family, kind)

    monkeypatch.setattr(net.dualstack, "socket", socket_module(no_ipv6))
    async with await Server.start("::", 0, accept_all, QUICK_CONFIG) as server:
        assert server.address[0] == "0.0.0.0"  # what it listens on, told as it is
        assert (await meets(server, "127.0.0.1"))[0] == "127.0.0.1"


async def test_a_port_taken_is_told_not_hidden_by_the_fall_back() -> None:
    async with await Server.start("0.0.0.0", 0, accept_all, QUICK_CONFIG) as taken:
        with pytest.raises(OSError) as raised:
            await Server.start("::", taken.address[1], accept_all, QUICK_CONFIG)
        assert raised.value.errno == errno.EADDRINUSE


@needs_ipv6
@pytest.mark.parametrize(("bind", "other"), [("0.0.0.0", "::1"), ("127.0.0.1", "::1")])
async def test_an_ipv4_bind_is_ipv4_alone(bind: str, other: str) -> None:
    async with await Server.start(bind, 0, accept_all, QUICK_CONFIG) as server:
        assert (await meets(server, "127.0.0.1"))[0] == "127.0.0.1"
        with pytest.raises(PortClosed):
            await Client.connect(other, server.address[1], "bo", SHORT)


@needs_ipv6
async def test_ipv6_loopback_is_ipv6_alone() -> None:
    async with await Server.start("::1", 0, accept_all, QUICK_CONFIG) as server:
        assert (await meets(server, "::1"))[0] == "::1"
        with pytest.raises(PortClosed):
            await Client.connect("127.0.0.1", server.address[1], "bo", SHORT)


@needs_ipv6
async def test_the_impairment_proxy_in_front_of_every_address_answers_ipv4() -> None:
    """The proxy binds its front where the server listens; on "::" its
    IPv4 client is known as 127.0.0.1, and the answers must still reach it."""
    async with (
        await Server.start("::", 0, accept_all, QUICK_CONFIG) as server,
        await ImpairmentProxy.start(server.address) as proxy,
    ):
        port = proxy.address[1]
        async with await Client.connect("127.0.0.1", port, "ann", QUICK_CONFIG) as client:
            client.send("through")
            assert (await next_event_of(server.next_event, Message)).payload == "through"


def test_mapped_addresses_are_their_ipv4_and_back() -> None:
    assert unmapped("::ffff:127.0.0.1") == "127.0.0.1"
    assert unmapped("::FFFF:192.0.2.7") == "192.0.2.7"
    for unchanged in ("127.0.0.1", "::1", "::ffff:7f00:1:2", "2001:db8::1", "fe80::1%eth0"):
        assert unmapped(unchanged) == unchanged
    assert for_family(socket.AF_INET6, "127.0.0.1") == "::ffff:127.0.0.1"
    assert for_family(socket.AF_INET6, "::1") == "::1"
    assert for_family(socket.AF_INET, "127.0.0.1") == "127.0.0.1"
