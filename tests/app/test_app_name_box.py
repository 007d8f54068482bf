"""The start screen's name box saves only a name its player chose.

"name Zed⏎", typed at the start screen at once (a player who thought they
were back at the shell, typing fast; a paste into a terminal that does not
bracket pastes), was read with the `n` that opened the box: "ame Zed" went
into the box and its ⏎ saved it as the player's name before the box was
ever on the screen (seen so in tmux).  A real app (``run_test``) and the
real settings file of the test's own config directory.
"""

from __future__ import annotations

import time

from app_helpers import fast_launcher, wait_for
from test_app_home import on
from textual import events
from textual.widgets import Input

from threeup_tui.app.app import create_app
from threeup_tui.app.screens.name import NameScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.settings import SettingsFile


async def test_an_enter_typed_with_the_n_that_opened_the_name_box_saves_nothing() -> None:
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        typed_at = time.monotonic()  # all read at once, before the box was drawn
        for name, character in (("n", "n"), ("Z", "Z"), ("e", "e"), ("d", "d"), ("enter", "\r")):
            key = events.Key(name, character)
            key.time = typed_at
            app.post_message(key)

        def typed_in_the_box() -> bool:
            return on(app, NameScreen) and app.screen.query_one(Input).value == "Zed"

        await wait_for(pilot, typed_in_the_box, what="the keys typed into the box")
        await pilot.pause(0.2)
        assert on(app, NameScreen)  # still asked: the ⏎ was typed unseen
        assert SettingsFile().settings.name == ""
        await pilot.press("enter")  # typed with the box in sight: the player's choice
        await wait_for(pilot, lambda: on(app, StartScreen))
    assert SettingsFile().settings.name == "Zed"
