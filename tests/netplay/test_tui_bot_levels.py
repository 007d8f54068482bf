"""Which bot plays a seat, as the people at a real table on loopback see it:
the host's app (Pilot, 80x24), a ``threeup join --bot random`` under a name
of its own, and a friend whose seat the table's expert bot takes over."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from app_helpers import screen_text, wait_for
from netplay_support import LOOPBACK, make_client

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.bots import make_bot
from threeup_tui.client import TableClient
from threeup_tui.client.botseat import BotSeat
from threeup_tui.client.events import ViewChanged
from threeup_tui.launcher import HostedClient, HostSettings, Launcher
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.tokens import TokenStore


async def play_as_bot(client: TableClient, level: str) -> None:
    """The seat played as ``threeup join --bot LEVEL`` plays it."""
    seat = BotSeat(client, make_bot(level, 3))
    try:
        while True:
            event = await client.next_event()
            if isinstance(event, ViewChanged):
                seat.on_view(event.view)
    finally:
        await seat.stop()


async def test_the_table_shows_the_level_of_a_network_bot_and_of_a_take_over(
    tmp_path: Path,
) -> None:
    """A seat shown as "Robo ⚙ bot" said nothing of how Robo plays (a ``join --bot random
    --name Robo``: only its name is seen), and a friend's seat the bot took
    over read "away, bot plays", whatever the table's level.  Now the lobby
    and the table say "random bot" and "away, expert bot plays"; a bot the
    lobby added, whose name says its level, still reads "⚙ bot"."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    settings = HostSettings(
        players=4, name="Hana", port=0, bind=LOOPBACK, bot_level="expert", takeover_after=0.3
    )
    app = create_app(launcher, StartSpec(mode="host", host=settings))
    clients: list[NetClient] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), 20, "the lobby")
            host = app.session.client if app.session is not None else None
            assert isinstance(host, HostedClient) and host.address is not None
            address = (LOOPBACK, host.address[1])
            robo = NetClient(
                *address, "Robo", tokens=TokenStore(tmp_path / "robo.json"), bot="random"
            )
            fred = make_client(address, "Fred", tmp_path / "fred.json")
            clients += [robo, fred]
            await robo.start()
            tasks.append(asyncio.ensure_future(play_as_bot(robo, "random")))
            await fred.start()
            await pilot.press("a")  # the lobby's Add bot, at the table's level
            await wait_for(
                pilot, lambda: "Robo  ⚙ random bot" in screen_text(app), 20, "Robo's level"
            )
            assert "expert bot 4  ⚙ bot" in screen_text(app)

            await pilot.press("s")
            await wait_for(pilot, lambda: host.table.state is not None, 20, "the game")
            await fred.close()  # Fred's app is gone: the table's expert bot plays for him
            assert app.session is not None and app.session.view is not None
            host.choose_face_up(make_bot("greedy", 1).choose_face_up(app.session.view))
            await wait_for(
                pilot,
                lambda: (
                    isinstance(app.screen, TableScreen)
                    and "Fred ◐ away, expert bot plays" in screen_text(app)
                ),
                20,
                "Fred's seat played by the expert bot",
            )
            text = screen_text(app)
            assert "Robo ⚙ random bot" in text
            assert "expert bot 4 ⚙ bot" in text
    finally:
        for task in tasks:
            task.cancel()
        for client in clients:
            with contextlib.suppress(Exception):
                await client.close()
        await asyncio.sleep(0)
