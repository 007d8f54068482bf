"""A LAN party through the app: a table hosted from one app (``Launcher.host``
on loopback, announced to 127.255.255.255 on a port of the test's own), and
friends' apps that find it in the join form's list, or a host that reopens
the app after it stopped in the middle of a game."""

from __future__ import annotations

import asyncio

from app_helpers import screen_text, wait_for
from netplay_support import LOOPBACK, free_udp_port
from textual.widgets import Input

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.join import JoinScreen
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.launcher import HostedClient, HostSettings, JoinSettings, Launcher

LOOPBACK_BROADCAST = "127.255.255.255"


def lan_launcher() -> Launcher:
    """Announces and listens on loopback only, on a port no other test uses."""
    port = free_udp_port()
    launcher = Launcher(announce_address=LOOPBACK_BROADCAST, announce_port=port, listen_port=port)
    launcher.bot_delay = 0
    return launcher


async def test_a_name_typed_then_enter_joins_the_table_highlighted_in_the_list() -> None:
    """A friend opens the join form, sees the table highlighted in the list,
    types their name and presses ⏎: they were told "type the host's address
    (HOST or HOST:PORT), or pick a table", the table highlighted above."""
    launcher = lan_launcher()
    host = await launcher.host(HostSettings(players=3, name="Ann", port=0, bind=LOOPBACK))
    assert isinstance(host, HostedClient)
    app = create_app(launcher, StartSpec(mode="join", join=JoinSettings("", "player")))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, JoinScreen) and len(app.screen.found) == 1,
                timeout=20,
                what="the table heard",
            )
            app.screen.query_one("#join-name", Input).focus()
            await pilot.press("ctrl+u", *"Bob", "enter")
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, LobbyScreen),
                timeout=20,
                what=f"the lobby, not: {screen_text(app)}",
            )
            assert [seat.name for seat in host.table.seats][:2] == ["Ann", "Bob"]
    finally:
        await host.close()
        await asyncio.sleep(0)
