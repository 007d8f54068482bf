"""A host's goodbye is its "closed" message, then CLOSE with the same
reason.  On a bad network the CLOSE can be lost while the message came
through: the client's session then ends in silence (its idle time-out), and
the client must still do what the message said.  Real UDP on loopback,
through the impairment proxy, which loses exactly the CLOSE datagrams."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from netplay_support import LOOPBACK, make_client, make_table, start_host

from net import Impairment, ImpairmentProxy, NetConfig
from net.codec import decode
from net.packets import ClosePacket
from threeup_tui.client.events import ChatReceived, ConnectionChanged, LobbyChanged, ViewChanged
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.host import HOST_NET, NetHost
from threeup_tui.netplay.wire import (
    CLOSE_HOST_STOPPED,
    CLOSE_HOST_STOPPED_BETWEEN_GAMES,
    CLOSE_HOST_STOPPED_IN_LOBBY,
    CLOSE_RESUMABLE,
    CLOSE_TABLE_CLOSED,
)
from threeup_tui.table import Table

# Silence ends a session after a second: the test need not wait 5 s.
QUICK = NetConfig(idle_timeout=1.0, heartbeat_interval=0.2, connect_timeout=3.0)


def is_close(data: bytes) -> bool:
    return isinstance(decode(data), ClosePacket)


async def told(client: NetClient, said: list[str] | None = None) -> ConnectionChanged:
    """The first connection change after the client was seated (and the
    table's lines before it, in ``said``)."""
    while True:
        event = await client.next_event()
        if isinstance(event, ChatReceived) and event.seat is None and said is not None:
            said.append(event.text)
        if isinstance(event, ConnectionChanged) and event.state != "connected":
            return event


async def seated(client: NetClient) -> None:
    while not isinstance(await client.next_event(), LobbyChanged):
        pass


@pytest.mark.parametrize(
    ("goodbye", "then"),
    [
        # Closed for good: not "reconnecting: nothing received for 1 s", and
        # no knocking on a table that said it is gone.
        (CLOSE_TABLE_CLOSED, ("closed", CLOSE_TABLE_CLOSED)),
        # Stopped, may resume: the client waits for the table, and keeps no
        # stale goodbye that a later, different one could be mistaken for.
        (CLOSE_HOST_STOPPED, ("reconnecting", CLOSE_HOST_STOPPED)),
        # So are a stop between games and one in the lobby.
        (CLOSE_HOST_STOPPED_BETWEEN_GAMES, ("reconnecting", CLOSE_HOST_STOPPED_BETWEEN_GAMES)),
        (CLOSE_HOST_STOPPED_IN_LOBBY, ("reconnecting", CLOSE_HOST_STOPPED_IN_LOBBY)),
    ],
)
async def test_a_goodbye_whose_close_is_lost_is_done_as_it_said(
    tmp_path: Path, goodbye: str, then: tuple[str, str]
) -> None:
    table = make_table(tmp_path, players=3, seed=5)
    host = await start_host(table)
    proxy = await ImpairmentProxy.start(host.address)
    proxy.drop_to_client = is_close
    client = make_client(proxy.address, "ann", tmp_path / "a.json", config=QUICK)
    try:
        await client.start()
        await asyncio.wait_for(seated(client), 10)
        await host.close(goodbye)
        said: list[str] = []
        change = await asyncio.wait_for(told(client, said), 10)
        assert (change.state, change.detail) == then
        # A stop is told in full where it stays (a banner cuts it at 80 columns).
        waits = f"{goodbye}; this seat waits for it"
        assert (waits in said) == (goodbye in CLOSE_RESUMABLE)
        assert proxy.to_client.dropped > 0  # the CLOSE copies were lost
        if goodbye == CLOSE_TABLE_CLOSED:
            assert client.reconnects == 0 and client.closed_by_host == CLOSE_TABLE_CLOSED
        else:
            assert client.closed_by_host is None
    finally:
        await client.close()
        await proxy.stop()


async def test_a_spectator_told_the_host_stopped_is_not_told_of_a_seat(tmp_path: Path) -> None:
    """A spectator's app read "this seat waits for it" when the host
    stopped mid-game: a spectator has no seat.  It reads that it watches on
    once the table is back, and it does wait (reconnecting), as a seat's app does."""
    table = make_table(tmp_path, players=2, seed=6, bots=1)
    host = await start_host(table)
    watcher = make_client(host.address, "eve", tmp_path / "e.json", watch=True, config=QUICK)
    try:
        await watcher.start()
        await asyncio.wait_for(seated(watcher), 10)
        await host.close(CLOSE_HOST_STOPPED)
        said: list[str] = []
        change = await asyncio.wait_for(told(watcher, said), 10)
        assert (change.state, change.detail) == ("reconnecting", CLOSE_HOST_STOPPED)
        assert said == [f"{CLOSE_HOST_STOPPED}; you watch on when it does"]
    finally:
        await watcher.close()


async def test_a_face_up_choice_lost_with_its_session_is_sent_again(tmp_path: Path) -> None:
    """A choice sent into a session that then dies unacknowledged (the link
    cut, or the host stopped) is lost with it.  The seat would wait for it
    for ever (a bot chooses once; the app's button is spent), so the client
    sends it again once the first view after the reconnect shows the table
    lacks it."""
    table = make_table(tmp_path, players=2, seed=8, bots=1)  # full: the set-up begins
    host = await start_host(table)
    proxy = await ImpairmentProxy.start(host.address)
    client = make_client(proxy.address, "ann", tmp_path / "a.json", config=QUICK)
    try:
        await client.start()

        async def dealt() -> None:
            while not (isinstance(await client.next_event(), ViewChanged) and client.view):
                pass

        await asyncio.wait_for(dealt(), 10)
        assert client.view is not None and client.view.phase == "setup"
        me = client.view.seat
        assert me is not None
        proxy.impairment = Impairment(loss_to_server=1.0, loss_to_client=1.0)  # cut
        client.choose_face_up(client.view.hand[:3])
        assert (await asyncio.wait_for(told(client), 10)).state == "reconnecting"
        state = table.state
        assert state is not None and state.setup[me] is None  # the choice never arrived
        proxy.impairment = Impairment()  # the link is back
        deadline = asyncio.get_running_loop().time() + 10
        while state.setup[me] is None:
            assert asyncio.get_running_loop().time() < deadline, "the choice was not sent again"
            await asyncio.sleep(0.05)
        assert client.reconnects == 1
    finally:
        await client.close()
        await proxy.stop()
        await host.close()


async def test_a_refusal_for_now_keeps_a_returning_player_knocking(tmp_path: Path) -> None:
    """A player whose link dropped comes back while the host still holds the
    old session (until its own idle time-out): with no room for another,
    the host says "server full".  That is for now, not for good: the client
    keeps knocking and gets its seat back once the old session is gone
    (before, it gave up and said the connection is closed)."""
    table = make_table(tmp_path, players=3, seed=5)
    one_session = replace(HOST_NET, max_sessions=1, idle_timeout=2.5, heartbeat_interval=0.2)
    host = await start_host(table, one_session)
    proxy = await ImpairmentProxy.start(host.address)
    client = make_client(proxy.address, "ann", tmp_path / "a.json", config=QUICK)
    try:
        await client.start()
        await asyncio.wait_for(seated(client), 10)
        seat = client.seat
        proxy.impairment = Impairment(loss_to_server=1.0, loss_to_client=1.0)  # the link drops
        assert (await asyncio.wait_for(told(client), 10)).state == "reconnecting"
        await asyncio.sleep(0.3)
        proxy.impairment = Impairment()  # back, while the host still holds the old session
        changes: list[ConnectionChanged] = []

        async def back() -> None:
            while True:
                event = await client.next_event()
                if isinstance(event, ConnectionChanged):
                    changes.append(event)
                    if event.state != "reconnecting":
                        return

        await asyncio.wait_for(back(), 15)
        assert [c.state for c in changes] == ["reconnecting", "connected"], changes
        assert changes[0].detail == "the table refused: server full"
        assert client.seat == seat and client.reconnects == 1
    finally:
        await client.close()
        await proxy.stop()
        await host.close()


async def test_a_player_back_at_a_table_resumed_with_a_new_code_is_told_it_changed(
    tmp_path: Path,
) -> None:
    """The host stopped, and resumed its table with another room code
    (``--resume --code``): each app coming back by itself with the old
    code was refused, and its player, who had typed nothing, read "wrong
    room code".  They read that the code changed and that joining again
    with the new one brings them back, which it does (the seat's token)."""
    table = make_table(tmp_path, players=2, seed=5, bots=1, code="pizza")
    journal = table.config.journal
    assert journal is not None
    host = await start_host(table)
    port = host.address[1]
    tokens = tmp_path / "a.json"
    client = make_client(host.address, "ann", tokens, code="pizza", config=QUICK)
    again = make_client(host.address, "ann", tokens, code="pasta")
    try:
        await client.start()
        await asyncio.wait_for(seated(client), 10)
        seat = client.seat
        await host.close(CLOSE_HOST_STOPPED)
        assert (await asyncio.wait_for(told(client), 10)).state == "reconnecting"
        host = await NetHost.start(Table.resume(journal, {"code": "pasta"}), LOOPBACK, port)

        async def closed() -> ConnectionChanged:
            while True:
                event = await client.next_event()
                if isinstance(event, ConnectionChanged) and event.state == "closed":
                    return event

        change = await asyncio.wait_for(closed(), 15)
        assert change.detail == "the room code has changed: join again with the new one"
        await again.start()
        assert again.seat == seat
    finally:
        await client.close()
        await again.close()
        await host.close()
