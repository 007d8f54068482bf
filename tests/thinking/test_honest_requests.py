"""What a thinking bot's worker is sent for a decision: the bot (its seed
and budget) and its seat's view, nothing of the cards the seat cannot see.

Two tables are resumed from table files that differ only in cards nobody
at the table has seen (seats 2 and 3 have swapped their face-down cards).
Every seat's view is then the same at both tables, move after move, and
so must be every request the pool sends a worker, to the byte.
"""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path
from typing import Any

import pytest
from thinking_bots import CountedExpertBot
from waiting import until

from threeup_tui.bots import BOT_LEVELS
from threeup_tui.bots.pool import ThinkPool, _decide_in_worker
from threeup_tui.rules import Phase, View
from threeup_tui.table import Table, TableConfig, TableRunner
from threeup_tui.tablefile import table_file_path

PLAYERS = 3
DECISIONS = 24  # the three face-up choices and 21 moves: long before any face-down card is turned


class RecordingPool(ThinkPool):
    """The real pool, noting each decision's arguments as the executor
    pickles them for the worker."""

    def __init__(self) -> None:
        super().__init__(workers=1)
        self.sent: list[bytes] = []
        self.views: list[View] = []

    def _submit_to(self, executor: Any, fn: Any, *args: Any) -> Any:
        if fn is _decide_in_worker:
            self.sent.append(pickle.dumps((fn, args)))
            self.views.append(args[1])
        return super()._submit_to(executor, fn, *args)


@pytest.fixture
def counted_experts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``counted`` level: experts that decide alike at both tables."""
    monkeypatch.setitem(BOT_LEVELS, "counted", CountedExpertBot)


def dealt_table(tmp_path: Path) -> Path:
    """A table of three thinking bots, dealt and in its set-up, kept in a
    journal's table file: its path."""
    journal = tmp_path / "first" / "game.json"
    journal.parent.mkdir()
    config = TableConfig(players=PLAYERS, seed=17, auto_start=True, journal=journal)
    table = Table(config)
    for _ in range(PLAYERS):
        table.add_bot(None, "counted")
    assert table.state is not None and table.state.phase == Phase.SETUP
    table.save_table_file()
    return journal


def twin_of(journal: Path, tmp_path: Path) -> Path:
    """A copy of the table whose seats 2 and 3 hold each other's face-down cards."""
    twin = tmp_path / "twin" / "game.json"
    twin.parent.mkdir()
    shutil.copy(table_file_path(journal), table_file_path(twin))
    data = json.loads(table_file_path(twin).read_text())
    deck = data["deal"]["deck"]
    for slot in range(3):  # the deal's first 3 * PLAYERS cards are the face-down ones
        a, b = slot * PLAYERS + 1, slot * PLAYERS + 2
        deck[a], deck[b] = deck[b], deck[a]
    table_file_path(twin).write_text(json.dumps(data))
    return twin


async def requests_of(journal: Path) -> tuple[Table, RecordingPool]:
    """The first DECISIONS requests the resumed table's bots send the pool."""
    table = Table.resume(journal)
    pool = RecordingPool()
    runner = TableRunner(table, pool)
    runner.start()
    try:
        await until(lambda: len(pool.sent) >= DECISIONS, what=f"{DECISIONS} decisions")
    finally:
        await runner.stop()
        pool.close()
    return table, pool


async def test_a_worker_is_sent_the_same_request_for_deals_no_seat_can_tell_apart(
    tmp_path: Path, counted_experts: None
) -> None:
    journal = dealt_table(tmp_path)
    twin = twin_of(journal, tmp_path)
    first, first_pool = await requests_of(journal)
    second, second_pool = await requests_of(twin)
    assert first.state is not None and second.state is not None
    assert first.state.down[1] == second.state.down[2] != first.state.down[2]  # hidden, apart
    views = list(zip(first_pool.views, second_pool.views, strict=False))[:DECISIONS]
    assert len(views) == DECISIONS and all(a == b for a, b in views)  # no seat can tell
    assert {view.seat for view, _ in views} == set(range(PLAYERS))
    assert first_pool.sent[:DECISIONS] == second_pool.sent[:DECISIONS]
