"""The start screen offers the newest table that may be resumed, in its
first frame, without reading every stopped table's journal first.

Real parts: a table hosted as the app hosts it (on loopback, any free
port), stopped in the middle of its game; its journal and table file,
copied as other stopped tables are left; the real app (``run_test``)."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from pathlib import Path

from app_helpers import wait_for

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.bots import GreedyBot
from threeup_tui.client import ViewChanged
from threeup_tui.launcher import HostSettings, Launcher
from threeup_tui.paths import tables_dir
from threeup_tui.tablefile import table_file_path


async def a_table_stopped_in_its_game() -> Path:
    """Ann's table (a bot in the other seat), stopped after her second move."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    client = await launcher.host(
        HostSettings(name="Ann", bind="127.0.0.1", port=0, bots=1, players=2, seed=3)
    )
    client.start_game()
    moves = 0
    while moves < 2:
        event = await asyncio.wait_for(client.next_event(), 10)
        if not isinstance(event, ViewChanged) or event.view.seat is None:
            continue
        view, bot = event.view, GreedyBot(event.view.seat)
        if view.phase == "setup" and view.me is not None and not view.me.ready:
            client.choose_face_up(bot.choose_face_up(view))
        elif view.phase == "play" and view.my_turn:
            client.submit(bot.choose_move(view))
            moves += 1
    journal = client.journal
    assert journal is not None
    await client.stop()
    return journal


def left_as(journal: Path, name: str, minutes_ago: int) -> Path:
    """A copy of the stopped table's files, left ``minutes_ago``."""
    copy = journal.with_name(f"{name}.json")
    shutil.copy(journal, copy)
    shutil.copy(table_file_path(journal), table_file_path(copy))
    when = time.time() - 60 * minutes_ago
    os.utime(table_file_path(copy), (when, when))
    return copy


async def test_the_start_screen_offers_the_newest_table_that_may_be_resumed() -> None:
    stopped = await a_table_stopped_in_its_game()
    older = left_as(stopped, "table-b-older", 30)
    newer = left_as(stopped, "table-c-newer", 20)
    # The newest of all cannot be resumed: its journal is damaged, and
    # between games nobody but its host waits for it.  It is looked at
    # first, and passed over.
    damaged = left_as(stopped, "table-a-damaged", 10)
    damaged.write_text("{not json")
    for file in (stopped, table_file_path(stopped)):
        file.unlink()
    assert sorted(p.name for p in tables_dir().glob("*.json")) == [
        "table-a-damaged.json", "table-b-older.json", "table-c-newer.json",
    ]  # fmt: skip
    app = create_app(Launcher(announce_address="off"), StartSpec(name="Ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="the start")
        start = app.screen
        assert isinstance(start, StartScreen)
        # Offered as the screen was built, first of all, with where it stopped.
        kept = start.kept_table
        assert kept is not None and kept.journal == newer
        assert kept.where() == "game 1"
        assert str(start.query_one("#menu").get_option_at_index(0).prompt).startswith(
            "Resume your table\n  Ann's table"
        )
        await app.action_quit()
    assert older.is_file() and newer.is_file()  # looked at, never touched
