"""Leaving a table opened by its own command (`threeup join`, `threeup
host`) ends the app, and the line it leaves on the shell says how to come
back; `threeup` alone goes back to its start screen.

At a LAN party, a player who had typed `threeup join HOST --name Ann` left
with q, thought the command had ended and typed a shell command: the keys
went to the start screen, where `n` opened the name box and the rest of
the line was saved as the player's name.

A real table on loopback, the app (Pilot, 80x24) made from the real
command line (``spec_from_args``), and the real settings file of the
test's own config directory.
"""

from __future__ import annotations

from app_helpers import screen_text, wait_for, wait_for_setup
from netplay_support import LOOPBACK, free_udp_port, start_host
from textual.widgets import Input
from waiting import until

from threeup_tui.app.app import ThreeUpApp, create_app
from threeup_tui.app.main import spec_from_args
from threeup_tui.app.screens.confirm import ConfirmScreen
from threeup_tui.app.screens.join import JoinScreen
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.cli import build_parser
from threeup_tui.launcher import Launcher
from threeup_tui.netplay.wire import CLOSE_TABLE_CLOSED
from threeup_tui.settings import SettingsFile
from threeup_tui.table import Table, TableConfig


def app_for(*argv: str) -> ThreeUpApp:
    """The app the command line ``threeup ARGV`` starts."""
    settings = SettingsFile()
    args = build_parser().parse_args(list(argv))
    launcher = Launcher(announce_address="off", listen_port=free_udp_port())
    return create_app(launcher, spec_from_args(args, settings.settings), settings=settings)


async def ended(app: ThreeUpApp) -> None:
    await until(lambda: app.return_code is not None, "the app to end", 10)


async def test_leaving_a_game_joined_from_the_shell_ends_the_app_with_the_way_back() -> None:
    table = Table(TableConfig(players=2, seed=5, auto_start=True, code="pizza night"))
    table.add_bot(None, "greedy")
    host = await start_host(table)
    address = f"{LOOPBACK}:{host.address[1]}"
    try:
        app = app_for("join", address, "--name", "Ann", "--code", "pizza night")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for_setup(pilot)
            await pilot.press("q")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            # The question still says the seat waits (D17).
            assert "Your seat waits" in screen_text(app)
            await pilot.press("y")
            await ended(app)
            assert not isinstance(app.screen, StartScreen)
        assert app.return_code == 0
        assert app.goodbye == (
            "threeup: you left the table; your seat waits (after a while a bot plays it): "
            f"`threeup join {address} --name Ann --code 'pizza night'` takes it back"
        )
        seat = table.seats[1]  # and it does wait, for Ann
        assert (seat.kind, seat.name) == ("human", "Ann")
        await until(lambda: not seat.connected, "Ann's app to say bye", 10)
    finally:
        await host.close()
    # Nothing was typed into a start screen: no name was saved.
    assert SettingsFile().settings.name == ""


async def test_leaving_a_lobby_joined_from_the_shell_ends_the_app_and_frees_the_seat() -> None:
    table = Table(TableConfig(players=3, seed=5))
    host = await start_host(table)
    address = f"{LOOPBACK}:{host.address[1]}"
    try:
        app = app_for("join", address, "--name=-Bo")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("q")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await ended(app)
        assert app.return_code == 0
        # A name that begins with "-" is joined to its option, or `threeup
        # join` would take it for one.
        assert app.goodbye == (
            f"threeup: you left the table; `threeup join {address} --name=-Bo` joins it again"
        )
        await until(lambda: all(seat.kind == "open" for seat in table.seats), "the seat open", 10)
    finally:
        await host.close()


async def test_leaving_a_table_hosted_from_the_shell_ends_the_app_with_the_way_back() -> None:
    app = app_for(
        "host", "--bind", "127.0.0.1", "--port", "0", "--players", "2", "--bots", "1",
        "--announce", "off", "--name", "Nora",
    )  # fmt: skip
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("s")
        await wait_for_setup(pilot)
        await pilot.press("q")
        await wait_for(pilot, lambda: "it closes for everyone" in screen_text(app))
        await pilot.press("y")
        await ended(app)
    assert app.return_code == 0
    # Closed in the middle of a game: the start screen brings it back.
    assert app.goodbye == (
        'threeup: you left, and your table is closed; start threeup, then "Resume your table"'
    )


async def test_threeup_alone_goes_back_to_its_start_screen_after_a_table() -> None:
    table = Table(TableConfig(players=3, seed=5))
    host = await start_host(table)
    app = app_for()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
            app.open_join_form()
            await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen))
            app.screen.query_one("#join-address", Input).focus()
            await pilot.press(*f"{LOOPBACK}:{host.address[1]}", "enter")
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("q")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
            assert app.is_running and app.return_code is None and app.goodbye is None
    finally:
        await host.close()


async def test_leaving_a_table_its_host_closed_says_so_and_no_way_back() -> None:
    table = Table(TableConfig(players=3, seed=5))
    host = await start_host(table)
    try:
        app = app_for("join", f"{LOOPBACK}:{host.address[1]}", "--name", "Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await host.close(CLOSE_TABLE_CLOSED)  # as a host's app leaving its table
            await wait_for(pilot, lambda: app.session is not None and not app.session.live)
            await pilot.press("q")  # nothing is lost at a closed table: not asked
            await ended(app)
        assert app.return_code == 0
        # No command to come back to a table that is gone: the host's words.
        assert app.goodbye == "threeup: the host closed the table"
    finally:
        await host.close()
