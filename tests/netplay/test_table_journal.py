"""The table's journal: the record after every move, the seats file only
when what it holds changes (it holds the seats and tokens, which a game
does not change; rewriting and syncing it after every move cost a host
about a millisecond a move)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from threeup_tui.recordfile import load_record
from threeup_tui.rules import Phase, verify
from threeup_tui.table import Table, TableConfig, open_table


def bot_table(journal: Path, seed: int = 5) -> Table:
    return open_table(TableConfig(players=3, seed=seed, journal=journal), bots=3)


def test_the_record_is_rewritten_every_move_and_the_seats_file_once(tmp_path: Path) -> None:
    journal = tmp_path / "game.json"
    seats_file = tmp_path / "game.json.seats"
    table = bot_table(journal)
    table.start(None)
    held = None  # the first seats file, held open so its inode cannot be reused
    moves = 0
    try:
        while table.step_bot():
            state = table.state
            assert state is not None
            if state.phase == Phase.SETUP or not state.history:
                continue
            moves += 1
            # The journal holds the game so far after every move.
            assert len(load_record(journal).moves) == len(state.history)
            if held is None:
                held = seats_file.open("rb")
            # Still the very file written with the first move: not replaced.
            assert os.fstat(held.fileno()).st_ino == seats_file.stat().st_ino
    finally:
        if held is not None:
            held.close()
    assert moves > 10
    seats = json.loads(seats_file.read_text())
    assert [s["kind"] for s in seats["seats"]] == ["bot", "bot", "bot"]
    assert verify(json.loads(journal.read_text())).ok


def test_a_rematch_rewrites_the_seats_file_and_a_resume_reads_it(tmp_path: Path) -> None:
    journal = tmp_path / "game.json"
    seats_file = tmp_path / "game.json.seats"
    table = bot_table(journal)
    table.start(None)
    while table.step_bot():
        pass
    first = json.loads(seats_file.read_text())
    table.start(None)  # the rematch: game number 2
    while table.step_bot():
        pass
    second = json.loads(seats_file.read_text())
    assert second != first
    assert second["game_number"] == first["game_number"] + 1
    resumed = Table.resume(TableConfig(), journal)
    assert resumed.game_number == second["game_number"]
    assert [s.kind for s in resumed.seats] == ["bot", "bot", "bot"]
