"""Finding the server: every address of a name, and the address it answers from.

A host bound to every address of its machine answers from the address its
system picks for the way back (a second address of one interface, an IPv6
temporary address, 127.0.0.1 for a client that asked 127.0.0.2).  The test
stands such a machine up on loopback without binding a wildcard address: a
relay takes datagrams at one address and sends every answer from another.

No test looks a name up: the running loop's resolver is replaced by a table.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncio_dgram
import pytest

from net import Client, Connected, Message, Server
from net.events import Address
from net.testing import QUICK_CONFIG, accept_all, collect_messages, next_event_of

FRONT = "127.0.0.2"  # where clients send
BACK = "127.0.0.3"  # where every answer comes from


@asynccontextmanager
async def answering_from_elsewhere(server: Address) -> AsyncIterator[tuple[Address, Address]]:
    """(the address to ask, the address that answers): both reach ``server``."""
    front = await asyncio_dgram.bind((FRONT, 0))
    back = await asyncio_dgram.bind((BACK, 0))
    relays: dict[Address, Any] = {}
    tasks: list[asyncio.Task[None]] = []

    async def answers(client: Address, relay: Any) -> None:
        while True:
            data, _ = await relay.recv()
            await back.send(data, client)

    async def take(face: Any) -> None:
        while True:
            data, addr = await face.recv()
            client = (str(addr[0]), int(addr[1]))
            if client not in relays:
                relays[client] = await asyncio_dgram.connect(server)
                tasks.append(asyncio.create_task(answers(client, relays[client])))
            await relays[client].send(data)

    tasks += [asyncio.create_task(take(front)), asyncio.create_task(take(back))]
    try:
        yield (FRONT, int(front.sockname[1])), (BACK, int(back.sockname[1]))
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for sock in (front, back, *relays.values()):
            sock.close()
        await asyncio.sleep(0)


async def test_a_client_follows_a_server_that_answers_from_another_address() -> None:
    async with (
        await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG) as server,
        answering_from_elsewhere(server.address) as (asked, answering),
    ):
        client = await Client.connect(*asked, "ann", QUICK_CONFIG)
        async with client:
            assert client.server_address == answering
            assert client.accept_payload == {"token": "seat-token-'ann'"}
            connected = await next_event_of(server.next_event, Connected)
            client.send({"move": 1})
            assert (await next_event_of(server.next_event, Message)).payload == {"move": 1}
            server.send(connected.session_id, "seen")
            assert await collect_messages(client.next_event, 1) == ["seen"]


async def test_a_name_is_tried_at_each_of_its_addresses_while_nothing_listens_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``localhost`` is ::1 first on many systems (Debian, Fedora, macOS),
    and a host listens on IPv4 unless told otherwise: `threeup join
    localhost` asked ::1 alone and never found the table."""
    async with await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG) as server:
        port = server.address[1]
        table = {
            "table.test": [
                (socket.AF_INET6, socket.SOCK_DGRAM, 17, "", ("::1", port, 0, 0)),
                (socket.AF_INET, socket.SOCK_DGRAM, 17, "", ("127.0.0.1", port)),
            ]
        }

        async def resolve(host: str, port: object, **_: object) -> list[Any]:
            return table[host]  # a KeyError for any other name: no real lookups

        monkeypatch.setattr(asyncio.get_running_loop(), "getaddrinfo", resolve)
        async with await Client.connect("table.test", port, "ann", QUICK_CONFIG) as client:
            assert client.server_address == ("127.0.0.1", port)
            await next_event_of(server.next_event, Connected)
