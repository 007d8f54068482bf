"""Ctrl+Q, Textual's quit key: in a game it asks first, as q does, in what
quitting does to that game; anywhere else it quits at once.

Real apps (``run_test``) at 80x24: a real game against bots (kept in the
test's own state directory), and a real host on loopback for a joined seat.
"""

from __future__ import annotations

from pathlib import Path

from app_helpers import (
    fast_launcher,
    joined_at_a_real_host,
    lay_by_keys,
    play_by_keys,
    play_to_the_end,
    screen_text,
    wait_for,
    wait_for_setup,
    writing,
)
from test_app_home import loopback_host, on
from test_app_kept_game import on_start_screen

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.rules_text import KEYS_HELP
from threeup_tui.app.screens.confirm import ConfirmScreen
from threeup_tui.app.screens.game_over import GameOverScreen
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.bots import GreedyBot
from threeup_tui.history import History
from threeup_tui.savedgame import saved_games


async def test_ctrl_q_in_a_game_against_bots_asks_and_n_plays_on() -> None:
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=16, name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_setup(pilot)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: on(app, ConfirmScreen), what="the question")
        assert "Quit threeup? Your game is kept" in screen_text(app)
        await pilot.press("n")
        await wait_for(pilot, lambda: on(app, SetupScreen), what="the game again")
        assert app.is_running and app.session is not None
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: on(app, ConfirmScreen), what="the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")
    (kept,) = saved_games()  # as the question said
    assert kept.players == 2


async def test_ctrl_c_then_ctrl_q_asks_without_the_ctrl_c_notice() -> None:
    """Ctrl+C, which a newcomer tries first, says "Press ctrl+q to quit the
    app"; the question Ctrl+Q then asked showed that line still, inside
    its box, where a second Ctrl+Q does nothing: y and n answer it."""
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=16, name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_setup(pilot)
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: "Press ctrl+q" in screen_text(app), what="the notice")
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: on(app, ConfirmScreen), what="the question")
        await pilot.pause(0.2)
        shown = screen_text(app)
        assert "Quit threeup?" in shown
        assert "Press ctrl+q" not in shown, shown


async def test_ctrl_q_on_the_start_screen_quits_at_once() -> None:
    app = create_app(fast_launcher(), StartSpec(name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        await on_start_screen(pilot)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")


async def test_ctrl_q_at_a_joined_table_says_the_seat_waits() -> None:
    async with joined_at_a_real_host("Bo") as (table, app, pilot):
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: on(app, ConfirmScreen), what="the question")
        assert "Your seat waits" in screen_text(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")
    seat = table.seats[1]  # it waits, for the same player
    assert (seat.kind, seat.name, seat.connected) == ("human", "Bo", False)


async def test_ctrl_q_as_the_result_box_comes_up_at_a_hosted_table_quits_cleanly() -> None:
    """Quitting closes the table, whose last lobby ("closes after this
    game") reached the app after Textual was told to exit: the result box
    mounted its new line into a box already taken down, and the app ended
    in Textual's MountError.  It ends cleanly, the game counted with its record."""
    launcher = loopback_host(bots=1, players=2, seed=12)
    launcher.bot_delay = 0
    app = create_app(launcher, StartSpec(mode="host"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, LobbyScreen) and app.session is not None)
        await pilot.press("s")  # Start the game
        bot = GreedyBot(0)
        await lay_by_keys(pilot, bot)
        await play_to_the_end(pilot, bot, play_by_keys)
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("ctrl+q")  # nothing to lose: no question
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")
        await wait_for(pilot, lambda: not writing(app), what="the history written")
    assert app.return_code == 0
    (game,) = History().games()
    assert game.venue == "host" and game.record is not None and Path(game.record).is_file()


def test_the_keys_page_says_ctrl_q_asks_in_a_game() -> None:
    row = next(line for line in KEYS_HELP.splitlines() if line.startswith("| ctrl+q"))
    assert "asks" in row
