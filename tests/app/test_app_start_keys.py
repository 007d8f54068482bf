"""The start screen acts only on keys typed with it in sight.

Back from a `threeup play` table (the start screen comes back when the
player leaves), keys typed ahead by someone who thought the command had
ended came to the start screen: "-" took a player off the next table and
"b" changed the bot level (both saved), "n" opened the name box, and a ⏎
dealt a new game.  Keys typed at it in sight work at once.  A real app
(``run_test``) and the real settings file of the test's own config
directory; the keys typed ahead are read at once, as the terminal's bytes
are after a busy spell (their Key.time, before the screen was shown).
"""

from __future__ import annotations

import time

from app_helpers import fast_launcher, screen_text, wait_for, wait_for_setup
from test_app_home import on
from textual import events

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.confirm import ConfirmScreen
from threeup_tui.app.screens.name import NameScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.settings import SettingsFile

TYPED_AHEAD = (("minus", "-"), ("b", "b"), ("n", "n"), ("enter", "\r"))


def read_at_once(app: ThreeUpApp, keys: tuple[tuple[str, str], ...], typed_at: float) -> None:
    for name, character in keys:
        key = events.Key(name, character)
        key.time = typed_at
        app.post_message(key)


def start_screen_shown(app: ThreeUpApp) -> bool:
    screen = app.screen
    return isinstance(screen, StartScreen) and screen.shown_at is not None


async def test_keys_typed_before_the_start_screen_came_back_change_nothing() -> None:
    app = create_app(fast_launcher(), StartSpec(mode="play", players=4, seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_setup(pilot)
        await pilot.press("q")
        await wait_for(pilot, lambda: on(app, ConfirmScreen), what="the leave question")
        typed_at = time.monotonic()  # typed with the y, read once the table had gone
        await pilot.press("y")
        await wait_for(pilot, lambda: start_screen_shown(app), what="the start screen")
        read_at_once(app, TYPED_AHEAD, typed_at)
        await pilot.pause(0.3)
        assert on(app, StartScreen) and app.session is None  # no box, no new game
        assert "You against 3 greedy bots" in screen_text(app)
        assert SettingsFile().settings.players == 4
        assert SettingsFile().settings.bot_level == "greedy"

        await pilot.press("minus", "b")  # typed at the screen in sight: at once
        await wait_for(pilot, lambda: "You against 2 expert bots" in screen_text(app))
    assert SettingsFile().settings.players == 3
    assert SettingsFile().settings.bot_level == "expert"


async def test_keys_typed_before_the_start_screen_was_first_shown_change_nothing() -> None:
    typed_at = time.monotonic()  # typed with the command, before the app was up
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: start_screen_shown(app), what="the start screen")
        read_at_once(app, TYPED_AHEAD, typed_at)
        await pilot.pause(0.3)
        assert on(app, StartScreen) and app.session is None
        assert "You against 3 greedy bots" in screen_text(app)
        assert SettingsFile().settings.players == 4

        await pilot.press("n")
        await wait_for(pilot, lambda: on(app, NameScreen), what="the name box")
