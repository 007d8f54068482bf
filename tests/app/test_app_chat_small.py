"""The chat on a small terminal, where it is out of sight until c: it
stays open while a line is written, says where Esc goes back to, and
counts the lines that came while it was hidden."""

from __future__ import annotations

import pytest
from app_helpers import screen_text, wait_for
from textual.widgets import Input

from threeup_tui.app.scenes import scene
from threeup_tui.app.screens.lobby import LobbyScreen


async def test_a_guest_writing_in_a_narrow_lobby_keeps_the_chat_through_a_resize() -> None:
    """A guest wrote in the chat of a narrow lobby (c), the terminal grew
    wide and narrow again: the lobby had put the chat away when it grew
    (the table and the set-up leave that to the chat line losing the
    keys), so the box kept the keys, out of sight, and the letters typed
    next went into a line nobody could see."""
    lobby_scene = scene("lobby-guest", rules_text=None)
    app = lobby_scene.app()
    async with app.run_test(size=(40, 15)) as pilot:
        await lobby_scene.drive(pilot)
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("c")
        await wait_for(pilot, lambda: "Ana: welcome!" in screen_text(app), what="the chat")
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.resize_terminal(40, 15)
        await pilot.pause()
        await pilot.press("h", "i")
        box = app.screen.query_one("#chat-input", Input)
        assert box.has_focus and box.value == "hi"
        await wait_for(
            pilot,
            lambda: "hi" in screen_text(app) and "Ana: welcome!" in screen_text(app),
            what=f"the line written, in sight: {screen_text(app)}",
        )
        assert "Waiting for the host" not in screen_text(app)  # the chat in the column's place


@pytest.mark.parametrize(
    ("name", "size"),
    [("lobby-guest", (40, 15)), ("lobby", (80, 24)), ("setup", (40, 15))],
    ids=["guest-lobby-40x15", "host-lobby-80x24", "setup-40x15"],
)
async def test_the_chat_line_says_where_esc_goes_back_to(name: str, size: tuple[int, int]) -> None:
    """The chat line's Esc read "Back to the table" in a lobby too, where
    there is no table yet: it says the lobby there, the table elsewhere."""
    chat_scene = scene(name, rules_text=None)
    app = chat_scene.app()
    async with app.run_test(size=size) as pilot:
        await chat_scene.drive(pilot)
        await pilot.press("c")
        place = "lobby" if isinstance(app.screen, LobbyScreen) else "table"
        await wait_for(
            pilot,
            lambda: f"esc Back to the {place}" in screen_text(app).splitlines()[-1],
            what=f"the footer's Esc: {screen_text(app).splitlines()[-1]}",
        )
        await pilot.press("escape")
        assert "Back to the" not in screen_text(app).splitlines()[-1]
