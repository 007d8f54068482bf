"""Your games on a small terminal: the tallies say how the games went
against whom and at how many players, in two lines where their tables do
not fit, and the last games keep rows to show."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_helpers import screen_text, wait_for
from textual.app import App
from textual.widgets import DataTable

import threeup_tui.app
from threeup_tui.app.scenes import scenes
from threeup_tui.app.screens.stats import StatsScreen
from threeup_tui.history import FinishedGame, History, SeatEntry


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
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        table = screen.query_one(DataTable)
        await pilot.press("down", "down")
        await pilot.resize_terminal(50, 16)
        await wait_for(
            pilot, lambda: len(table.ordered_columns) == 4 and screen.laid_out(), what="4 columns"
        )
        await pilot.pause()
        assert not table.max_scroll_x, screen_text(app)
        assert table.cursor_row == 2, "the cursor stays on the game it was on"


APP_STYLES = Path(threeup_tui.app.__file__).parent / "styles.tcss"


def _games_against_two_bot_levels(history: History, count: int, records: Path) -> None:
    """``count`` games at 3 seats against a greedy and an expert bot, each
    with its record there: "greedy+expert", the widest Against words."""
    seats = (
        SeatEntry("you", "you"),
        SeatEntry("greedy", "bot", "greedy"),
        SeatEntry("expert", "bot", "expert"),
    )
    for i in range(count):
        record = records / f"game-{i}.json"
        record.write_text("{}")
        game = FinishedGame(seats, 0, 1, True, False, 60 + i, 20, record=str(record))
        assert history.add(game)[1] is None


class StatsOnly(App[None]):
    """The stats screen alone, over a history file, in the app's styles."""

    CSS_PATH = APP_STYLES

    def __init__(self, history: History) -> None:
        super().__init__()
        self.history = history

    def on_mount(self) -> None:
        self.push_screen(StatsScreen(self.history))


@pytest.mark.parametrize("count", [1, 30], ids=["one game", "more than the lines"])
async def test_at_40_columns_the_record_column_shows_whole_against_two_bot_levels(
    tmp_path: Path, count: int
) -> None:
    """Found at 40x15 with a real history of games against greedy and expert
    bots: "greedy+expert" took 13 cells, the fewest columns still did not
    fit, and the table cut its last column: "Recor", "⏎ rep".  The Against
    column says "mixed" there now, the history's own word, as its tally does."""
    history = History(tmp_path / "history.sqlite3", enabled=True)
    _games_against_two_bot_levels(history, count, tmp_path)
    app = StatsOnly(history)
    async with app.run_test(size=(40, 15)) as pilot:
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        table = screen.query_one(DataTable)
        await wait_for(pilot, screen.laid_out, what="the last games")
        await pilot.pause()
        shown = screen_text(app)
        assert not table.max_scroll_x, f"the table scrolls sideways:\n{shown}"
        assert "Record" in shown and "⏎ replay" in shown and "mixed" in shown, shown


async def test_at_40_columns_a_result_finished_by_a_bot_leaves_the_record_column_whole(
    tmp_path: Path,
) -> None:
    """Found at 40x15 over a real history of 300 varied games: with "mixed"
    already, a "lost (bot)" (your seat played to its end by a bot) or a
    "stalemate" among the last games still pushed the table past 40 columns,
    a sideways scroll bar and "⏎ repla".  The Record column says "⏎" there."""
    history = History(tmp_path / "history.sqlite3", enabled=True)
    _games_against_two_bot_levels(history, 10, tmp_path)  # more than the lines: a scroll bar
    you_gone = SeatEntry("you", "you", "greedy")  # the greedy bot finished your seat
    seats = (you_gone, SeatEntry("greedy", "bot", "greedy"), SeatEntry("expert", "bot", "expert"))
    record = tmp_path / "game-lost.json"
    record.write_text("{}")
    game = FinishedGame(seats, 0, None, False, False, 90, 30, record=str(record))
    assert history.add(game)[1] is None
    app = StatsOnly(history)
    async with app.run_test(size=(40, 15)) as pilot:
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        table = screen.query_one(DataTable)
        await wait_for(
            pilot, lambda: table.row_count == 11 and screen.laid_out(), what="the last games"
        )
        await pilot.pause()
        shown = screen_text(app)
        assert not table.max_scroll_x, f"the table scrolls sideways:\n{shown}"
        assert "lost (bot)" in shown and "Record" in shown and " ⏎" in shown, shown
        assert "⏎ repla" not in shown.replace("⏎ replays", ""), shown  # whole, or the short form
