"""Your games past the last 20: every game in the history is reached from
the list, a page read at a time as the cursor nears its end, and replays.

Once the list held the last 20 games only: a player with 300 could never
see, replay or find their 21st-last game, though the history and the
records kept them all."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from app_helpers import fast_launcher, screen_text, send_at_once, wait_for
from textual.pilot import Pilot
from textual.widgets import DataTable

from threeup_tui import history as history_module
from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.messages import StatsRequested
from threeup_tui.app.scenes import demo_record
from threeup_tui.app.screens.replay import ReplayScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.app.screens.stats import MORE_GAMES, StatsScreen
from threeup_tui.history import LAST_GAMES, FinishedGame, History, SeatEntry
from threeup_tui.recordfile import record_text
from threeup_tui.settings import SettingsFile

GAMES = 300


@pytest.fixture(scope="module")
def history_of_300(tmp_path_factory: pytest.TempPathFactory) -> History:
    return history_of(tmp_path_factory.mktemp("games"), GAMES)


def history_of(folder: Path, games: int) -> History:
    """A real history file of ``games`` games against a greedy bot, each with
    a record of its own name (game-1.json is the oldest): a replay says by
    its title which game it is."""
    history = History(folder / "history.sqlite3", enabled=True)
    add_games(history, 1, games)
    return history


def add_games(history: History, first: int, last: int) -> None:
    folder = history.path.parent
    record = demo_record(players=2, seed=7)
    text = record_text(record)
    seats = (SeatEntry("you", "you"), SeatEntry("greedy", "bot", "greedy"))
    for number in range(first, last + 1):
        path = folder / f"game-{number}.json"
        path.write_text(text)
        won = number % 3 != 0
        game = FinishedGame(seats, 0, 1 if won else 2, won, False, len(record.moves), 20)
        assert history.add(FinishedGame(**{**vars(game), "record": str(path)}))[1] is None


def app_over(history: History) -> ThreeUpApp:
    return create_app(
        fast_launcher(), StartSpec(), settings=SettingsFile.in_memory(), history=history
    )


async def open_your_games(app: ThreeUpApp, pilot: Pilot[int]) -> StatsScreen:
    await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
    app.post_message(StatsRequested())
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, StatsScreen) and bool(app.screen.games),
        what="Your games",
    )
    screen = app.screen
    assert isinstance(screen, StatsScreen)
    return screen


async def go_down(app: ThreeUpApp, pilot: Pilot[int], table: DataTable[str], rows: int) -> None:
    """↓ ``rows`` times, a few keys at once as a player's quick fingers send
    them (a burst of many at once stops at the end of the rows read yet)."""
    goal = table.cursor_row + rows
    while table.cursor_row < goal:
        here = table.cursor_row
        send_at_once(app, ["down"] * min(5, goal - here))
        await wait_for(
            pilot, lambda here=here: table.cursor_row > here, what=f"the cursor past row {here}"
        )
    assert table.cursor_row == goal


async def replay_under_cursor(app: ThreeUpApp, pilot: Pilot[int], number: int) -> None:
    """Enter replays the game under the cursor: game-``number``.json."""
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), what="the replay")
    replay = app.screen
    assert isinstance(replay, ReplayScreen)
    assert replay.title_text == f"game-{number}.json"
    await pilot.press("q")
    await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen))


@pytest.mark.parametrize("size", [(80, 24), (40, 15)], ids=str)
async def test_the_21st_the_100th_and_the_oldest_game_are_reached_and_replay(
    history_of_300: History, size: tuple[int, int]
) -> None:
    app = app_over(history_of_300)
    async with app.run_test(size=size) as pilot:
        screen = await open_your_games(app, pilot)
        table = screen.query_one(DataTable)
        await wait_for(pilot, lambda: "300 games" in screen_text(app), what="the summary")
        # Opened with the newest few, not the whole history.
        assert table.row_count <= LAST_GAMES + MORE_GAMES
        # Down, key after key, past the 20 the list once ended at.
        await go_down(app, pilot, table, 20)
        await replay_under_cursor(app, pilot, GAMES - 20)
        assert table.cursor_row == 20, "back from the replay, the cursor is where it was"
        assert "Game 21 of 300" in screen_text(app) or "21/300" in screen_text(app)
        await go_down(app, pilot, table, 79)
        await replay_under_cursor(app, pilot, GAMES - 99)
        # End: the oldest of all, read a page at a time behind the cursor.
        await pilot.press("end")
        await wait_for(
            pilot,
            lambda: table.row_count == GAMES and table.cursor_row == GAMES - 1,
            what="the oldest game",
        )
        await replay_under_cursor(app, pilot, 1)
        assert "300 of 300" in screen_text(app) or "300/300" in screen_text(app)
        text = screen_text(app)
        assert "300 games" in text, "the totals count every game"
        await pilot.press("home")
        await wait_for(pilot, lambda: table.cursor_row == 0, what="back at the newest")
        await replay_under_cursor(app, pilot, GAMES)


async def test_page_down_reads_on_and_the_cursor_keeps_its_game(history_of_300: History) -> None:
    app = app_over(history_of_300)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_your_games(app, pilot)
        table = screen.query_one(DataTable)
        for _ in range(30):
            await pilot.press("pagedown")
        await wait_for(pilot, lambda: table.row_count == GAMES, what="every game read")
        await pilot.pause()
        assert table.cursor_row == GAMES - 1
        keys = [row.key.value for row in table.ordered_rows]
        assert keys == [str(i) for i in range(GAMES, 0, -1)], "each game once, newest first"
        await replay_under_cursor(app, pilot, 1)


async def test_a_game_added_while_the_list_is_open_leaves_the_older_games_read(
    tmp_path: Path,
) -> None:
    """Read again while open (a game ended in another app), the list kept
    the games read so far, and the cursor its game."""
    history = history_of(tmp_path, 150)
    app = app_over(history)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_your_games(app, pilot)
        table = screen.query_one(DataTable)
        await pilot.press("end")
        await wait_for(pilot, lambda: table.row_count == 150 and table.cursor_row == 149)
        await pilot.press(*["up"] * 10)
        assert table.cursor_row == 139
        add_games(history, 151, 151)
        await wait_for(pilot, lambda: table.row_count == 151, timeout=15, what="the new game")
        await wait_for(pilot, lambda: "151 games" in screen_text(app), what="the new total")
        assert table.cursor_row == 140, "the cursor stays on its game"
        await replay_under_cursor(app, pilot, 11)
        keys = [row.key.value for row in table.ordered_rows]
        assert keys == [str(i) for i in range(151, 0, -1)]


async def test_a_history_locked_as_the_list_reads_on_is_told_once_and_read_later(
    tmp_path: Path,
) -> None:
    """Another program holds the history as the cursor nears the list's
    end: the page waits in a worker (the keys still move the cursor), the
    lock is told in one line, once, and the next key there reads it."""
    history = history_of(tmp_path, 200)
    app = app_over(history)
    holder = sqlite3.connect(history.path, isolation_level=None)
    read_ahead = LAST_GAMES + MORE_GAMES  # read as the list opens, ahead of the cursor
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            screen = await open_your_games(app, pilot)
            table = screen.query_one(DataTable)
            await wait_for(pilot, lambda: table.row_count == read_ahead, what="a page ahead")
            holder.execute("BEGIN EXCLUSIVE")
            await go_down(app, pilot, table, read_ahead - 1)  # the last row read
            await pilot.press("up")  # not held up by the page waiting on the lock
            assert table.cursor_row == read_ahead - 2
            await wait_for(pilot, lambda: bool(told(app)), timeout=10, what="the lock told")
            (line,) = told(app)
            assert "locked by another program" in line and "\n" not in line
            await pilot.press("down")  # at the end again: tried again, still locked
            await pilot.pause(1.5)
            assert table.row_count == read_ahead and len(told(app)) == 1, "told once"
            holder.execute("ROLLBACK")
            await pilot.press("up", "down")
            await wait_for(pilot, lambda: table.row_count == 200, what="the rest read")
            await pilot.press("end")
            await wait_for(pilot, lambda: table.cursor_row == 199, what="the oldest")
            await replay_under_cursor(app, pilot, 1)
    finally:
        if holder.in_transaction:
            holder.execute("ROLLBACK")
        holder.close()


async def test_down_held_at_the_last_row_read_goes_on_as_the_page_comes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """↓ held down (a burst of keys at once) past the last row read while
    the next page is on its way: the cursor stopped at that row, and the
    presses past it were lost; it goes on by as many once the page comes."""
    history = history_of(tmp_path, 200)
    app = app_over(history)
    monkeypatch.setattr(history_module, "LOCK_WAIT", 30.0)  # the page waits for the lock
    holder = sqlite3.connect(history.path, isolation_level=None)
    read_ahead = LAST_GAMES + MORE_GAMES  # read as the list opens, ahead of the cursor
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_your_games(app, pilot)
            table = screen.query_one(DataTable)
            await wait_for(pilot, lambda: table.row_count == read_ahead, what="a page ahead")
            holder.execute("BEGIN EXCLUSIVE")
            await go_down(app, pilot, table, read_ahead - MORE_GAMES // 2)  # the next page asked
            to_the_last = read_ahead - 1 - table.cursor_row
            send_at_once(app, ["down"] * (to_the_last + 10))  # 10 past the last row read
            await wait_for(pilot, lambda: table.cursor_row == read_ahead - 1, what="the last row")
            await pilot.pause(0.3)  # every key handled
            assert table.row_count == read_ahead, "the page still waits for the lock"
            holder.execute("ROLLBACK")
            await wait_for(pilot, lambda: table.row_count == 200, what="the page")
            await wait_for(pilot, lambda: table.cursor_row == read_ahead + 9, what="10 rows on")
            await pilot.pause(0.3)
            assert table.cursor_row == read_ahead + 9, "no press lost, none taken twice"
            await replay_under_cursor(app, pilot, 200 - (read_ahead + 9))
    finally:
        if holder.in_transaction:
            holder.execute("ROLLBACK")
        holder.close()


def told(app: ThreeUpApp) -> list[str]:
    return [str(n.message) for n in app._notifications if "locked" in str(n.message)]
