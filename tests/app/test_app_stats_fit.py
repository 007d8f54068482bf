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
