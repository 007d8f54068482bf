"""A host's goodbye is its "closed" message, then CLOSE with the same
reason.  On a bad network the CLOSE can be lost while the message came
through: the client's session then ends in silence (its idle time-out), and
the client must still do what the message said.  Real UDP on loopback,
through the impairment proxy, which loses exactly the CLOSE datagrams."""

from __future__ import annotations

import asyncio
from pathlib import Path

from netplay_support import make_client, make_table, start_host

from net import ImpairmentProxy, NetConfig
from net.codec import decode
from net.packets import ClosePacket
from threeup_tui.client.events import ConnectionChanged, LobbyChanged
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.wire import CLOSE_HOST_STOPPED, CLOSE_TABLE_CLOSED

# Silence ends a session after a second: the test need not wait 5 s.
QUICK = NetConfig(idle_timeout=1.0, heartbeat_interval=0.2, connect_timeout=3.0)


def is_close(data: bytes) -> bool:
    return isinstance(decode(data), ClosePacket)


async def told(client: NetClient) -> ConnectionChanged:
    """The first connection change after the client was seated."""
    while True:
        event = await client.next_event()
        if isinstance(event, ConnectionChanged) and event.state != "connected":
            return event


async def seated(client: NetClient) -> None:
    while not isinstance(await client.next_event(), LobbyChanged):
        pass


async def test_a_table_closed_for_good_whose_close_is_lost_ends_for_its_client(
    tmp_path: Path,
) -> None:
    table = make_table(tmp_path, players=3, seed=5)
    host = await start_host(table)
    proxy = await ImpairmentProxy.start(host.address)
    proxy.drop_to_client = is_close
    client = make_client(proxy.address, "ann", tmp_path / "a.json", config=QUICK)
    try:
        await client.start()
        await asyncio.wait_for(seated(client), 10)
        await host.close(CLOSE_TABLE_CLOSED)
        change = await asyncio.wait_for(told(client), 10)
        # Not "reconnecting: nothing received for 1 s", and no knocking on
        # a table that said it is gone.
        assert (change.state, change.detail) == ("closed", CLOSE_TABLE_CLOSED)
        assert client.reconnects == 0 and client.closed_by_host == CLOSE_TABLE_CLOSED
        assert proxy.to_client.dropped > 0  # the CLOSE copies were lost
    finally:
        await client.close()
        await proxy.stop()


async def test_a_host_stopped_mid_game_whose_close_is_lost_is_waited_for(
    tmp_path: Path,
) -> None:
    """The other goodbye, "stopped: it may resume": the client waits for the
    table (reconnecting), and keeps no stale goodbye that a later,
    different one could be mistaken for."""
    table = make_table(tmp_path, players=3, seed=5)
    host = await start_host(table)
    proxy = await ImpairmentProxy.start(host.address)
    proxy.drop_to_client = is_close
    client = make_client(proxy.address, "ann", tmp_path / "a.json", config=QUICK)
    try:
        await client.start()
        await asyncio.wait_for(seated(client), 10)
        await host.close(CLOSE_HOST_STOPPED)
        change = await asyncio.wait_for(told(client), 10)
        assert (change.state, change.detail) == ("reconnecting", CLOSE_HOST_STOPPED)
        assert client.closed_by_host is None
    finally:
        await client.close()
        await proxy.stop()
