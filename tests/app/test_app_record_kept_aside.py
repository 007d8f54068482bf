"""A hosted game that ends while neither the history nor its records/ can
be written keeps its record: "Your games" later replays it.

It was kept aside without one ("the game is counted without it"), and
once added, its row had nothing to replay.  The real app playing a real
game against a bot; a real data directory made read-only, then writable.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from app_helpers import fast_launcher, notes_heard, wait_for
from test_app_home import games_now, play_a_game

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.game_over import REMATCH_GRACE, GameOverScreen
from threeup_tui.history import History
from threeup_tui.pendinggames import pending_dir, pending_games
from threeup_tui.recordfile import load_record


async def test_a_game_kept_aside_keeps_its_record_and_is_replayed_once_added(
    read_only: Callable[[Path], AbstractContextManager[None]],
) -> None:
    history = History()
    history.path.parent.mkdir(parents=True)
    with read_only(history.path.parent):
        app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12, name="me"))
        said = notes_heard(app)
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await play_a_game(app, pilot)
            await wait_for(pilot, lambda: bool(pending_games()), timeout=20)
    # One line: the game is kept (its record with it), never "counted without it".
    (told,) = [line for line in said if "Your games" in line]
    assert told.endswith("this game is kept, and added when the history can be written"), said
    (record,) = pending_dir().glob("record-*.json")
    assert record.stat().st_mode & 0o077 == 0  # every card of the game: yours alone
    # Writable again: the next app adds the game, its record in records/.
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, name="me"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await wait_for(pilot, lambda: not pending_games() and bool(history.games()), timeout=20)
    (row,) = history.games()
    assert row.record is not None and Path(row.record).parent == history.records_dir
    record = load_record(row.record)  # the whole game, to replay
    assert record.players[0] == "me" and len(record.moves) == row.moves
    assert list(pending_dir().iterdir()) == []


async def test_a_records_dir_that_cannot_be_written_is_told_once_for_a_table() -> None:
    """The history writable, its records/ not (a file in its place): each
    game is counted without its record, and the player was told so after
    every game ("the game's record could not be kept ..."), where once a
    table was said before records kept aside came in.  Two real games, one
    line; the rows are there, without records."""
    history = History()
    history.path.parent.mkdir(parents=True)
    history.records_dir.write_text("a file where records/ should be")
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12, name="me"))
    said = notes_heard(app)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await play_a_game(app, pilot)
        await wait_for(pilot, lambda: len(games_now()) == 1, timeout=20)
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await asyncio.sleep(REMATCH_GRACE)  # the button ignores a press that early
        await pilot.press("r")
        await play_a_game(app, pilot)
        await wait_for(pilot, lambda: len(games_now()) == 2, timeout=20)
        await pilot.pause(0.3)
    told = [line for line in said if "counted without it" in line]
    assert len(told) == 1, said
    assert told[0].startswith("Your games: the game's record could not be kept: cannot keep")
    assert [row.record for row in history.games()] == [None, None]
    assert list(pending_dir().iterdir()) == []  # no record left waiting for nothing
