"""Fixtures for the net/ tests. Everything runs on real UDP sockets on
loopback (127.0.0.1 / ::1) only. Helpers live in ``net.testing`` so test
modules never import this file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import asyncio_dgram
import pytest

from net import Client, Connected, Server
from net.testing import QUICK_CONFIG, RawPeer, accept_all, next_event_of


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    srv = await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG)
    yield srv
    await srv.close()


@pytest.fixture
async def raw_peer_factory(server: Server) -> AsyncIterator[Callable[[], Awaitable[RawPeer]]]:
    """Makes raw sockets connected to the ``server`` fixture."""
    peers: list[RawPeer] = []

    async def make() -> RawPeer:
        peer = RawPeer(await asyncio_dgram.connect(server.address))
        peers.append(peer)
        return peer

    yield make
    for peer in peers:
        peer.stream.close()
    await asyncio.sleep(0)


@pytest.fixture
async def connected(server: Server) -> AsyncIterator[tuple[Server, Client, int]]:
    """(server, client, session id) of one live session."""
    client = await Client.connect(*server.address, "alice", QUICK_CONFIG)
    event = await next_event_of(server.next_event, Connected)
    yield server, client, event.session_id
    await client.close()
