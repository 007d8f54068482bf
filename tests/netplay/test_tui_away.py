"""A player whose turns timed out three times in a row is marked away: the
bot plays their seat at once until they act.  At a real table on loopback,
the player's app (Pilot, 80x24, joined over UDP) says so on its top line,
and a key of theirs gives them the seat back.

Before, nothing on their screen said it (the notice passed in the status
line), and no key of theirs reached the table: a move out of turn was
refused by the app itself, a card chosen stayed in the app, and on the
seat's turn the bot had played before a key could.  Only a chat line
brought the seat back, and nothing said so."""

from __future__ import annotations

from pathlib import Path

from app_helpers import screen_text, wait_for
from netplay_support import LOOPBACK, free_udp_port, start_host

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.widgets.status import StatusBar
from threeup_tui.launcher import HostedClient, HostSettings, JoinSettings, Launcher
from threeup_tui.table import Table, TableConfig, TableRunner


def my_turn(app: ThreeUpApp) -> bool:
    session = app.session
    return session is not None and session.view is not None and session.view.my_turn


def banner_of(app: ThreeUpApp) -> str:
    """The table's top line, as shown (empty on any other screen)."""
    screen = app.screen
    return screen.query_one(StatusBar).text if isinstance(screen, TableScreen) else ""


async def test_an_away_player_is_told_so_and_a_key_gives_the_seat_back(tmp_path: Path) -> None:
    table = Table(
        TableConfig(
            players=2,
            seed=5,
            auto_start=True,
            journal=tmp_path / "journal.json",
            turn_time=0.4,
            bot_delay=0.2,
            takeover_after=600.0,
        )
    )
    table.add_bot(None, "greedy")
    host = await start_host(table)
    runner = TableRunner(table)  # the bots, and the turn clock
    runner.start()
    join = JoinSettings(f"{LOOPBACK}:{host.address[1]}", "Bo")
    app = create_app(
        Launcher(announce_address="off", listen_port=free_udp_port()),
        StartSpec(mode="join", join=join),
    )
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            assert isinstance(app, ThreeUpApp)
            bo = next(i for i, seat in enumerate(table.seats) if seat.name == "Bo")
            await wait_for(pilot, lambda: table.seats[bo].away, 30, "Bo's turns timed out")
            # No more time-outs, and a slower bot: the game lasts the test.
            table.config.turn_time = None
            table.config.bot_delay = 1.0

            def banner() -> str:
                return banner_of(app)

            await wait_for(pilot, lambda: "You are away" in banner(), 10, "the away banner")
            assert "any key to play again" in banner(), banner()
            assert "greedy bot plays for you" in screen_text(app), screen_text(app)
            assert table.seats[bo].away  # the banner alone gives nothing back
            # Bo's turn, which the bot plays (a second later): no "Your turn"
            # calls Bo to it, nor rings.
            await wait_for(pilot, lambda: my_turn(app), 20, "a turn of Bo's, away")
            await pilot.pause(0.3)
            assert "Your turn" not in screen_text(app), screen_text(app)

            await pilot.press("right")  # a key that moves the cursor, nothing more
            await wait_for(pilot, lambda: not table.seats[bo].away, 10, "Bo's seat back")
            await wait_for(pilot, lambda: "away" not in banner(), 10, "the banner of the game")
            assert table.seats[bo].bot is None
    finally:
        await runner.stop()
        await host.close()


async def test_the_hosts_own_seat_comes_back_on_a_key_too() -> None:
    """The host's app plays its seat in this process (as the SSH door's
    guests do): a key there gives the seat back the same way."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0.2
    settings = HostSettings(players=2, name="Hana", port=0, bind=LOOPBACK, turn_time=0.4)
    app = create_app(launcher, StartSpec(mode="host", host=settings))
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app, ThreeUpApp)
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), 20, "the lobby")
        client = app.session.client if app.session is not None else None
        assert isinstance(client, HostedClient)
        table = client.table
        await pilot.press("a")  # a bot in seat 2
        await wait_for(pilot, lambda: table.seats[1].bot is not None, 10, "the bot seated")
        await pilot.press("s")
        await wait_for(pilot, lambda: table.seats[0].away, 30, "Hana's turns timed out")
        table.config.turn_time = None
        table.config.bot_delay = 1.0
        await wait_for(pilot, lambda: "You are away" in banner_of(app), 10, "the away banner")
        await pilot.press("right")
        await wait_for(pilot, lambda: not table.seats[0].away, 10, "Hana's seat back")
        await wait_for(pilot, lambda: "away" not in banner_of(app), 10, "the game's banner")
        await pilot.press("q")
