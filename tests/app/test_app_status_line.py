"""Notifications go to the status line: never over the hand, the pile, the
action bar or the top line, at any size and however quickly keys come."""

from __future__ import annotations

import pytest
from app_fakes import ScriptedClient
from app_helpers import wait_for
from table_states import open_table, played_until, table_app
from text_fit import cut_text
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets._toast import Toast

from threeup_tui.app.widgets.action_bar import ActionBar
from threeup_tui.app.widgets.pile import PileView
from threeup_tui.app.widgets.status import StatusBar
from threeup_tui.app.widgets.status_line import StatusLine
from threeup_tui.client import ActionRejected, Notice
from threeup_tui.rules import seat_view


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (40, 12)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_notifications_never_cover_the_game(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    state = played_until(["you", "bot"], lambda s, v: v.my_turn and len(v.hand) >= 3)
    app = table_app(client)
    async with app.run_test(size=size, notifications=True) as pilot:
        screen = await open_table(pilot, client, state)
        # Quick keys: a hint, numbers with no cards, a refused pick-up.
        missing = next(
            n for n in range(1, 10) if not any(c[1:] == str(n) for c in seat_view(state, 0).hand)
        )
        await pilot.press("h", str(missing), "u", str(missing))
        client.emit(ActionRejected("you may not pick up while you have a legal discard (D12)"))
        await wait_for(pilot, lambda: "while you can play" in screen.query_one(StatusLine).text)
        await pilot.pause()
        assert not app.screen.query(Toast), "a toast is drawn over the table"
        line = shown_region(screen.query_one(StatusLine))
        assert line.height >= 1
        for widget in (StatusBar, PileView, ActionBar, screen.query_one("#hand-box")):
            other = shown_region(screen.query_one(widget) if isinstance(widget, type) else widget)
            assert not line.overlaps(other), f"the status line covers {widget}"
        if size != (40, 12):  # 40x12 has no room for every word (it says so with …)
            assert not cut_text(app), cut_text(app)


def shown_region(widget: Widget) -> Region:
    """The part of ``widget`` the terminal shows (clipped by its containers)."""
    geometry = widget.screen._compositor.find_widget(widget)
    return geometry.region.intersection(geometry.clip)


async def test_the_newest_note_shows_and_the_line_clears_when_it_expires(
    client: ScriptedClient,
) -> None:
    state = played_until(["you", "bot"], lambda s, v: v.my_turn)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        line = screen.query_one(StatusLine)
        app.notify("first", timeout=0.3)
        app.notify("second", timeout=0.6)
        await wait_for(pilot, lambda: "second" in line.text)
        await wait_for(pilot, lambda: line.text == "", timeout=3)


async def test_a_long_note_wraps_to_two_rows_and_ends_with_an_ellipsis(
    client: ScriptedClient,
) -> None:
    state = played_until(["you", "bot"], lambda s, v: v.my_turn)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        line = screen.query_one(StatusLine)
        app.notify("word " * 60, markup=False)
        await wait_for(pilot, lambda: "word" in line.text)
        await pilot.pause()
        assert line.size.height == 2
        assert str(line.render()).rstrip().endswith("…")


async def test_a_table_notice_shows_on_the_status_line(client: ScriptedClient) -> None:
    state = played_until(["you", "bot"], lambda s, v: v.my_turn)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        client.emit(Notice("the bot played R4 for you\x1b[2J"))
        line = screen.query_one(StatusLine)
        await wait_for(pilot, lambda: "the bot played R4 for you" in line.text)
        assert "\x1b" not in line.text


async def test_a_screen_without_a_status_line_is_given_one(client: ScriptedClient) -> None:
    from threeup_tui.app.app import StartSpec, create_app
    from threeup_tui.app.screens.start import StartScreen

    app = create_app(None, StartSpec())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        app.notify("hello from the start screen")
        await wait_for(pilot, lambda: bool(app.screen.query(StatusLine)))
        line = app.screen.query_one(StatusLine)
        await wait_for(pilot, lambda: "hello" in line.text)
        footer = Region(0, 23, 80, 1)
        assert line.region.y == 22 and not line.region.overlaps(footer)
        assert not app.screen.query(Toast)


async def test_ctrl_c_asks_its_question_without_a_colon_after_the_question_mark(
    client: ScriptedClient,
) -> None:
    """Textual's ctrl+c note has a question for a title: "Do you want to
    quit? Press ctrl+q…", not "Do you want to quit?: Press ctrl+q…"."""
    state = played_until(["you", "bot"], lambda s, v: v.my_turn)
    app = table_app(client)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await open_table(pilot, client, state)
        line = screen.query_one(StatusLine)
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: "quit" in line.text)
        assert "?:" not in line.text, line.text
        assert "Do you want to quit? Press ctrl+q" in line.text, line.text
