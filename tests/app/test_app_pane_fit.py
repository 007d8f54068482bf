"""Text in a pane that scrolls, read whole once scrolled into sight: a pane
shows the part scrolled to, but what it shows must not be cut at its side
(a box as wide as its words, in a narrower pane, lost its last words past
the pane's edge without a sign)."""

from __future__ import annotations

import pytest
from app_helpers import screen_text, wait_for, words_shown
from text_fit import footer_keys
from textual.app import App, ComposeResult
from textual.containers import Vertical

from threeup_tui.app.scenes import finish, scene
from threeup_tui.app.screens.lobby import LobbyScreen, open_seats
from threeup_tui.app.widgets.tickbox import TickBox


async def scrolled_to_end(name: str, size: tuple[int, int], pane: str) -> str:
    """The screen of scene ``name`` at ``size``, its ``pane`` scrolled to the end."""
    app = scene(name).app()
    async with app.run_test(size=size) as pilot:
        await scene(name).drive(pilot)
        app.screen.query_one(pane).scroll_end(animate=False)
        await finish(pilot)
        return screen_text(app)


@pytest.mark.parametrize("size", [(40, 15), (50, 16)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_join_forms_watch_box_says_all_its_words(size: tuple[int, int]) -> None:
    """At 40x15 the box read "Only watch (a spectator, no" and its last
    word went past the form's edge: a checkbox is one line as wide as its
    words.  It wraps now."""
    shown = await scrolled_to_end("join", size, "#join-form")
    assert "Only watch (a spectator, no seat)" in " ".join(shown.split()), shown


class OneTickBox(App[None]):
    """A tick box in a column exactly as wide as its words (not its blank)."""

    CSS = "Vertical { width: 35; height: auto; }"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield TickBox("Voluntary pick-up (at any time)", compact=True)


async def test_a_tick_box_one_cell_too_narrow_wraps_no_word() -> None:
    """Textual ends the box's label with a blank: in the lobby at 64x18,
    a column of 35 cells, the box showed "Voluntary pick-up (at any time…"
    (its words fitted, its blank did not), and "time)" was lost."""
    app = OneTickBox()
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        box = app.query_one(TickBox)
        assert words_shown(app, box) == "▐ ▌ Voluntary pick-up (at any time)"


HOST_CONTROLS = [
    ("#bot-level", "greedy ▼"),
    ("#remove", "Remove (x)"),
    ("#finish", "first out ▼"),
    ("#first", "random ▼"),
    ("#turn-time-label", "Turn time (then a bot acts):"),
    ("#turn-time", "off ▼"),
    ("#voluntary", "Voluntary pick-up (at any time)"),
]


@pytest.mark.parametrize(
    "size",
    [(74, 20), (73, 20), (70, 20), (69, 20), (64, 18), (60, 18), (50, 16), (40, 15)],
    ids=lambda s: f"{s[0]}x{s[1]}",
)
async def test_the_hosts_lobby_shows_each_control_whole(size: tuple[int, int]) -> None:
    """In a row with no room for them, the host's controls were cut at the
    column's edge or squeezed: at 60x18 the drop-downs read "g ▼", "firs
    ▼", "o" (and "▼" past the edge), "Remove (x)" was "Remove (x" under the
    chat and "Turn time (then a bot acts):" lost "acts):"; up to 73
    columns "first out ▼" read "first ▼".  Below 74 columns the finish and
    who-starts drop-downs take a line each, below 70 every row stacks its
    parts; scrolled into sight, each control shows all its words."""
    app = scene("lobby").app()
    async with app.run_test(size=size) as pilot:
        await scene("lobby").drive(pilot)
        pane = app.screen.query_one("#lobby-main")
        for selector, words in HOST_CONTROLS:
            widget = app.screen.query_one(selector)
            pane.scroll_to_widget(widget, animate=False)
            await finish(pilot)
            shown = words_shown(app, widget)
            assert words in shown, f"{selector}: {shown!r}\n{screen_text(app)}"


@pytest.mark.parametrize(
    "size", [(80, 24), (60, 18), (50, 16), (40, 15)], ids=lambda s: f"{s[0]}x{s[1]}"
)
async def test_the_hosts_start_button_is_in_sight_without_scrolling(size: tuple[int, int]) -> None:
    """Narrower than 70 columns the host's controls stack, and "Start the
    game (s)", last in the scrolling column, was below its end: at 60x18
    the host saw "Add bot (a)" and no way to start (under 60 columns the
    footer drops "s Start the game" too); at 80x24 it was a line out of
    sight.  It sits under the column, in sight whatever the column shows,
    and a click on it starts the game.  Its key is in the footer at every
    size: at 40x15 the footer dropped "s", the rightmost key it could, under
    the button's "(s)"."""
    app = scene("lobby").app()
    async with app.run_test(size=size) as pilot:
        await scene("lobby").drive(pilot)
        await finish(pilot)
        start = app.screen.query_one("#start")
        shown = screen_text(app)
        assert start.region.bottom <= size[1] - 1, f"{start.region}:\n{shown}"
        assert "Start game (s)" in shown, shown
        # The footer recomposes after a refresh: its keys, not a fixed pause.
        await wait_for(pilot, lambda: "s Start game" in footer_keys(app), what="s in the footer")
        assert "a Add bot" in footer_keys(app), footer_keys(app)  # the button out of sight
        session = app.session
        assert session is not None
        await pilot.press("a")  # the open seat to a bot: a table of four starts
        await wait_for(pilot, lambda: bool(session.lobby) and open_seats(session.lobby) == 0)
        assert await pilot.click("#start"), f"the click landed elsewhere:\n{shown}"
        await wait_for(pilot, lambda: not isinstance(app.screen, LobbyScreen), what="the game")
