"""A guest's lobby on a small terminal: what they wait for and their own
seat in sight without scrolling, and the chat a c away."""

from __future__ import annotations

import pytest
from app_helpers import screen_text, wait_for
from text_fit import cut_text
from textual.widgets import OptionList, Static

from threeup_tui.app.scenes import scene
from threeup_tui.app.screens.lobby import LobbyScreen


def in_sight(app: object, widget: Static | OptionList) -> bool:
    """Whether all of ``widget`` is on screen, where it is, without scrolling."""
    region = widget.region
    clip = app.screen.find_widget(widget).clip  # type: ignore[attr-defined]
    return bool(region.height) and clip.contains_region(region)


@pytest.mark.parametrize("size", [(40, 15), (50, 16)], ids=["40x15", "50x16"])
async def test_a_small_guest_lobby_shows_the_wait_and_the_seat_and_chats_on_c(
    size: tuple[int, int],
) -> None:
    """At 40x15 the chat kept its 32 cells (or 40%) beside a 24-cell
    column: the seats wrapped in two lines each and "Waiting for the host
    to start the game…" was scrolled out of sight (at 50x16 too).  Under
    the table's 60 columns a guest's chat gives its room to the column, and
    c brings it in the column's place while a line is written."""
    lobby_scene = scene("lobby-guest", rules_text=None)
    app = lobby_scene.app()
    async with app.run_test(size=size) as pilot:
        await lobby_scene.drive(pilot)
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        shown = screen_text(app)
        wait = screen.query_one("#lobby-wait", Static)
        seats = screen.query_one("#seats", OptionList)
        assert in_sight(app, wait) and in_sight(app, seats), shown
        assert "Waiting for the host" in shown and "(you)" in shown, shown
        assert not seats.max_scroll_y, f"the seats scroll:\n{shown}"
        assert not cut_text(app), cut_text(app)

        await pilot.press("c", "h", "i")
        await wait_for(pilot, lambda: "Ana: welcome!" in screen_text(app), what="the chat")
        assert "Waiting for the host" not in screen_text(app)  # in the column's place
        assert not cut_text(app), cut_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Bo: hi" in screen_text(app), what="the line said")
        await pilot.press("enter")  # an empty line: the column is back
        await wait_for(pilot, lambda: "Waiting for the host" in screen_text(app))
        assert "Ana: welcome!" not in screen_text(app)
