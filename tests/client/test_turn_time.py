"""The host sets the turn time in the lobby, before a game; nobody else may."""

from __future__ import annotations

import asyncio

import pytest

from threeup_tui.client.events import ActionRejected, LobbyChanged
from threeup_tui.client.local import LocalClient
from threeup_tui.netplay.client import NetClient
from threeup_tui.table import Table, TableConfig, TableError


def table() -> Table:
    return Table(TableConfig(players=2))


def test_the_host_sets_it_and_the_lobby_says_it() -> None:
    t = table()
    host, _token = t.seat_human("ann", None, host=True)
    assert t.lobby().turn_time is None
    t.set_turn_time(host, 30)
    assert t.lobby().turn_time == 30 and t.config.turn_time == 30
    t.set_turn_time(host, None)
    assert t.lobby().turn_time is None


def test_only_the_host_only_before_the_game_and_within_bounds() -> None:
    t = table()
    host, _ = t.seat_human("ann", None, host=True)
    guest, _ = t.seat_human("bob", None)
    with pytest.raises(TableError):
        t.set_turn_time(guest, 30)
    for bad in (0, 0.5, 3601, -1):
        with pytest.raises(TableError, match="1 to 3600"):
            t.set_turn_time(host, bad)
    t.start(host)
    with pytest.raises(TableError, match="before the game"):
        t.set_turn_time(host, 30)
    assert t.config.turn_time is None


async def test_a_local_client_asks_the_table_and_hears_a_refusal() -> None:
    t = table()
    host = LocalClient(t, "ann", as_host=True, owns_runner=False)
    await host.start()
    guest = LocalClient(t, "bob", as_host=False, owns_runner=False)
    await guest.start()
    host.set_turn_time(45)
    assert t.config.turn_time == 45
    guest.set_turn_time(10)
    events = []
    while not guest._events.empty():
        events.append(guest._events.get_nowait())
    assert any(isinstance(e, ActionRejected) for e in events)
    assert any(isinstance(e, LobbyChanged) and e.lobby.turn_time == 45 for e in events)
    assert t.config.turn_time == 45


async def test_a_network_client_is_told_it_cannot() -> None:
    client = NetClient("127.0.0.1", 9, "bob")  # never started: nothing is sent
    client.set_turn_time(30)
    event = await asyncio.wait_for(client.next_event(), 1)
    assert isinstance(event, ActionRejected) and "host" in event.reason
