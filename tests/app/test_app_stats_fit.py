"""Your games on a small terminal: the tallies say how the games went
against whom and at how many players, in two lines where their tables do
not fit, and the last games keep rows to show."""

from __future__ import annotations

import pytest
from app_helpers import screen_text, wait_for
from textual.widgets import DataTable

from threeup_tui.app.scenes import scenes
from threeup_tui.app.screens.stats import StatsScreen


def stats_scene():  # type: ignore[no-untyped-def]
    return next(scene for scene in scenes(rules_text=None) if scene.name == "stats")


@pytest.mark.parametrize("size", [(60, 18), (50, 16), (50, 30)], ids=str)
async def test_the_tallies_show_in_two_lines_where_their_tables_do_not_fit(
    size: tuple[int, int],
) -> None:
    """At 60x18 the tables of wins by opponents and by players hid (they
    need 20 lines) and nothing took their place: the screen said "8 games
    · 5 won" and no more about whom they were won against.  Two lines say
    it now, and at least three of the last games still show."""
    scene = stats_scene()
    app = scene.app()
    async with app.run_test(size=size) as pilot:
        await scene.drive(pilot)
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        lines = ("Won against greedy 3/5", "Won with 2 players 2/2")
        shown = lambda: all(line in screen_text(app) for line in lines)  # noqa: E731
        await wait_for(pilot, shown, what="the two lines of tallies")
        text = screen_text(app)
        assert not screen.query_one("#stats-tallies").region.height, "the tables too"
        table = screen.query_one(DataTable)
        assert table.region.height >= 4, f"the last games squeezed out:\n{text}"


@pytest.mark.parametrize(
    ("size", "tables"), [((80, 24), True), ((40, 15), False), ((40, 12), False)], ids=str
)
async def test_the_two_lines_are_left_out_where_the_tables_show_or_nothing_fits(
    size: tuple[int, int], tables: bool
) -> None:
    scene = stats_scene()
    app = scene.app()
    async with app.run_test(size=size) as pilot:
        await scene.drive(pilot)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        assert not screen.query_one("#stats-compact").region.height
        assert bool(screen.query_one("#stats-tallies").region.height) == tables
        assert screen.query_one(DataTable).region.height >= 3, screen_text(app)


@pytest.mark.parametrize(
    ("size", "columns"),
    [
        ((80, 24), "When Players Against Result Moves Where Record"),
        ((60, 18), "When Players Against Result Moves Record"),
        ((50, 16), "When Against Result Record"),
        ((40, 15), "When Against Result Record"),
    ],
    ids=str,
)
async def test_the_last_games_show_whole_columns_that_fit(
    size: tuple[int, int], columns: str
) -> None:
    """The seven columns of the last games need 69 cells: narrower, the
    table scrolled sideways and its edge cut a column in two ("Wher" and
    "join" at 60x18, "M" and "1" of 109 at 50x16).  Now the date gets
    shorter and the least needed columns go, whole, until the rest fit."""
    scene = stats_scene()
    app = scene.app()
    async with app.run_test(size=size) as pilot:
        await scene.drive(pilot)
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        shown = screen_text(app)
        assert " ".join(str(c.label) for c in table.ordered_columns) == columns, shown
        assert not table.max_scroll_x, f"the table scrolls sideways:\n{shown}"
        assert "⏎ replay" in shown and "greedy" in shown, shown


async def test_the_last_games_refit_their_columns_when_the_terminal_narrows() -> None:
    scene = stats_scene()
    app = scene.app()
    async with app.run_test(size=(80, 24)) as pilot:
        await scene.drive(pilot)
        table = app.screen.query_one(DataTable)
        await pilot.press("down", "down")
        await pilot.resize_terminal(50, 16)
        await wait_for(pilot, lambda: len(table.ordered_columns) == 4, what="four columns")
        await pilot.pause()
        assert not table.max_scroll_x, screen_text(app)
        assert table.cursor_row == 2, "the cursor stays on the game it was on"
