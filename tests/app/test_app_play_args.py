"""`threeup play` with options: what the command line gives is for this
run, and the start screen after the game offers it again, and plays what
it shows; what is changed there is remembered (the play command's help).

A real app (``run_test``), the real argument parser, a real game against
bots and a real settings file in the test's own config directory.
"""

from __future__ import annotations

from app_helpers import fast_launcher, screen_text, wait_for, wait_for_setup
from test_app_home import on
from textual.widgets import Input

from threeup_tui.app.app import create_app
from threeup_tui.app.main import spec_from_args
from threeup_tui.app.screens.confirm import ConfirmScreen
from threeup_tui.app.screens.name import NameScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.cli import build_parser
from threeup_tui.settings import Settings, SettingsFile


async def test_after_threeup_play_the_start_screen_plays_what_it_shows() -> None:
    SettingsFile().change(players=3, bot_level="expert", name="Ann")
    args = build_parser().parse_args(
        ["play", "--players", "6", "--bot-level", "greedy", "--name", "Zed"]
    )
    settings = SettingsFile()
    app = create_app(fast_launcher(), spec_from_args(args, settings.settings), settings=settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_setup(pilot)
        assert app.session is not None and app.session.client.name == "Zed"
        await pilot.press("q")
        await wait_for(pilot, lambda: on(app, ConfirmScreen), what="the leave question")
        await pilot.press("y")
        await wait_for(pilot, lambda: on(app, StartScreen), what="the start screen")
        # This run's: the command line's table, and its player's name.
        await wait_for(pilot, lambda: "Zed against 5 greedy bots" in screen_text(app))
        await pilot.press("n")
        await wait_for(pilot, lambda: on(app, NameScreen))
        assert app.screen.query_one(Input).value == "Zed"
        await pilot.press("ctrl+u", *"Amy", "enter")
        await wait_for(pilot, lambda: "Amy against 5 greedy bots" in screen_text(app))
        await pilot.press("down", "enter")  # Play against bots (the kept game is first)
        await wait_for(pilot, lambda: on(app, ConfirmScreen), what="start a new game?")
        await pilot.press("y")
        await wait_for(pilot, lambda: app.session is not None and app.session.view is not None)
        assert app.session is not None
        assert app.session.client.name == "Amy"  # the name shown, not the command line's
        assert len(app.session.view.names) == 6  # type: ignore[union-attr]
        await app.action_quit()
    # Only the name was changed there: the rest stays as last chosen.
    assert SettingsFile().settings == Settings(players=3, bot_level="expert", name="Amy")
