"""The table's journal and record files.

The host writes the record after every move (encoding only the new moves)
and the table file only when what it holds changes: the seats and tokens,
the settings and the chat, which a move does not change.  Record files put
one move per line.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from threeup_tui import recordfile
from threeup_tui.recordfile import JournalWriter, load_record, record_text, save_record
from threeup_tui.rules import GameState, Options, Phase, record_of, verify
from threeup_tui.table import Table, TableConfig, TableError, open_table


def bot_table(journal: Path, seed: int = 5) -> Table:
    return open_table(TableConfig(players=3, seed=seed, journal=journal), bots=3)


def test_a_saved_record_is_written_over_no_file(tmp_path: Path) -> None:
    """Save writes a new file: another game's record (or anything else)
    already at that name is kept, and the player is told to choose another."""
    table = bot_table(tmp_path / "game.json")
    table.start(None)
    while table.step_bot():
        pass
    earlier = tmp_path / "threeup-game.json"
    earlier.write_text("the record of last night's game")
    with pytest.raises(TableError, match="already exists: give the record another name"):
        table.save(earlier)
    assert earlier.read_text() == "the record of last night's game"
    fresh = recordfile.free_path(tmp_path, "threeup-game")
    assert fresh == tmp_path / "threeup-game-2.json"
    assert table.save(fresh) == str(fresh)
    assert verify(json.loads(fresh.read_text())).ok
    assert recordfile.free_path(tmp_path, "threeup-game") == tmp_path / "threeup-game-3.json"


def test_a_record_saved_where_no_file_can_be_says_why(tmp_path: Path) -> None:
    """A name in the game-over box whose directory is a file, or that names
    a directory, was refused as "already exists: give the record another
    name", which sent the player looking for a record that was not there."""
    table = bot_table(tmp_path / "game.json")
    table.start(None)
    while table.step_bot():
        pass
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    before = sorted(tmp_path.iterdir())
    with pytest.raises(TableError) as refused:
        table.save(notes / "game.json")
    assert str(refused.value) == f"cannot save to {notes / 'game.json'}: Not a directory"
    assert notes.read_text() == "my notes"
    with pytest.raises(TableError) as refused:
        table.save(tmp_path)
    assert str(refused.value) == f"{tmp_path} is a directory: give the record a file name"
    assert sorted(tmp_path.iterdir()) == before  # nothing made, nothing left half-written


def test_a_record_is_saved_into_no_directory_that_is_not_there(tmp_path: Path) -> None:
    """A name in the game-over box in a directory that is not there (a
    typo: "gmaes/x.json") made that directory, and its parents: the record
    went into a new tree where nobody would look.  Refused, naming it."""
    table = bot_table(tmp_path / "game.json")
    table.start(None)
    while table.step_bot():
        pass
    typo = tmp_path / "gmaes" / "2026" / "x.json"
    with pytest.raises(TableError) as refused:
        table.save_for(None, str(typo))
    assert str(refused.value) == f"no directory {typo.parent}"
    assert not (tmp_path / "gmaes").exists()
    (tmp_path / "games").mkdir()
    table.save_for(None, str(tmp_path / "games" / "x.json"))  # one that is there
    assert verify(json.loads((tmp_path / "games" / "x.json").read_text())).ok


_JOURNAL_DIR_BECOMES_A_FILE = """
import shutil, sys
from pathlib import Path
from threeup_tui.rules import Phase
from threeup_tui.table import TableConfig, open_table
folder = Path(sys.argv[1])
table = open_table(TableConfig(players=3, seed=5, journal=folder / "game.json"), bots=3)
table.start(None)
for _ in range(40):
    table.step_bot()
shutil.rmtree(folder)
folder.write_text("a file where the journal's directory was")
while table.step_bot():
    pass
print("over" if table.state.phase == Phase.OVER else "not over")
"""


def test_a_journals_directory_turned_file_does_not_hang_the_table(tmp_path: Path) -> None:
    """The end of a game keeps its record beside the journal, trying the
    next free name while the write says the name is taken.  With the
    journal's directory replaced by a file, making the directory said
    "File exists" for every name, and the table looped for ever at the last
    move (in its own process here: the loop never ends)."""
    folder = tmp_path / "tables"
    folder.mkdir()
    run = subprocess.run(
        [sys.executable, "-c", _JOURNAL_DIR_BECOMES_A_FILE, str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.stdout.strip() == "over", run.stderr
    assert "Not a directory" in run.stderr and "File exists" not in run.stderr
    assert folder.read_text() == "a file where the journal's directory was"


def test_a_new_tables_journal_and_kept_records_write_over_no_file(tmp_path: Path) -> None:
    """A new table's journal is a new file (one already there may be a
    journal that --resume could bring back), and a finished game's kept
    record takes the next free name rather than an earlier party's."""
    journal = tmp_path / "party.json"
    for taken in (journal, tmp_path / "party.json.table"):
        taken.write_text("last night's table")
        with pytest.raises(TableError, match="already there: a new table's journal"):
            bot_table(journal)
        assert taken.read_text() == "last night's table"
        taken.unlink()
    earlier = tmp_path / "party-1.json"
    earlier.write_text("the record of last night's first game")
    table = bot_table(journal)
    table.start(None)
    while table.step_bot():
        pass
    assert earlier.read_text() == "the record of last night's first game"
    assert table.kept_records == [tmp_path / "party-1-2.json"]
    assert verify(json.loads((tmp_path / "party-1-2.json").read_text())).ok


def test_a_new_file_is_never_written_over_not_even_one_made_a_moment_ago(
    tmp_path: Path,
) -> None:
    """``new=True`` publishes by a hard link, which fails on any name taken,
    a dangling link's included, however recently; the temporary file goes."""
    taken = tmp_path / "taken.json"
    taken.write_text("the other program's record")
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "nowhere")
    for path in (taken, dangling):
        with pytest.raises(FileExistsError):
            recordfile.write_atomic(path, "mine", new=True)
    assert taken.read_text() == "the other program's record"
    assert dangling.is_symlink() and not (tmp_path / "nowhere").exists()
    recordfile.write_atomic(tmp_path / "free.json", "mine", new=True)
    assert (tmp_path / "free.json").read_text() == "mine"
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary
    assert recordfile.free_path(tmp_path, "dangling") == tmp_path / "dangling-2.json"


def test_a_kept_record_whose_name_is_taken_meanwhile_goes_to_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between finding a free name and writing, another program may take it."""
    import threeup_tui.tablerecords as tablerecords

    first = tmp_path / "party-1.json"
    looks: list[Path] = []

    def racing_free_path(folder: Path, stem: str, suffix: str = ".json") -> Path:
        found = recordfile.free_path(folder, stem, suffix)
        if not looks:
            first.write_text("another program's file")  # right after our look
        looks.append(found)
        return found

    monkeypatch.setattr(tablerecords, "free_path", racing_free_path)
    table = bot_table(tmp_path / "party.json")
    table.start(None)
    while table.step_bot():
        pass
    assert looks == [first, tmp_path / "party-1-2.json"]
    assert first.read_text() == "another program's file"
    assert table.kept_records == [tmp_path / "party-1-2.json"]


def test_the_record_is_rewritten_every_move_and_the_table_file_not(tmp_path: Path) -> None:
    journal = tmp_path / "game.json"
    seats_file = tmp_path / "game.json.table"
    table = bot_table(journal)
    table.start(None)
    held = None  # the table file, held open so its inode cannot be reused
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
            if state.phase != Phase.OVER:
                # Still the very file written before the first move: not
                # replaced (the result's chat line at the end is written).
                assert os.fstat(held.fileno()).st_ino == seats_file.stat().st_ino
    finally:
        if held is not None:
            held.close()
    assert moves > 10
    seats = json.loads(seats_file.read_text())
    assert [s["kind"] for s in seats["seats"]] == ["bot", "bot", "bot"]
    assert seats["chat"][-1][2] == table.result_words(table.state)  # type: ignore[arg-type]
    assert seats_file.stat().st_mode & 0o777 == 0o600  # the room code and tokens: owner only
    assert verify(json.loads(journal.read_text())).ok


def test_a_rematch_rewrites_the_table_file_and_a_resume_reads_it(tmp_path: Path) -> None:
    journal = tmp_path / "game.json"
    seats_file = tmp_path / "game.json.table"
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
    resumed = Table.resume(journal)
    assert resumed.game_number == second["game_number"]
    assert [s.kind for s in resumed.seats] == ["bot", "bot", "bot"]


def test_the_journal_after_every_move_is_the_whole_record_so_far(tmp_path: Path) -> None:
    """The journal encodes only new moves each time; what it writes is the
    record of the game so far, field for field, through a rematch too."""
    path = tmp_path / "j.json"
    writer = JournalWriter()
    for seed in (1, 2):  # the second game: a rematch through the same writer
        state = GameState.new(["ann", "bo", "cy", "di"], Options(finish="places"), seed=seed)
        rng = random.Random(seed)
        for s in range(4):
            state.choose_face_up(s, rng.sample(state.setup_hand(s), 3))
        while state.phase == Phase.PLAY:
            state.apply(rng.choice(state.legal_actions()))
            writer.write(path, state)
            text = path.read_text()
            assert json.loads(text) == record_of(state).to_json()
            assert text == record_text(record_of(state))
        assert json.loads(path.read_text())["result"] == record_of(state).result
        assert verify(json.loads(path.read_text())).ok


def test_a_record_file_has_one_move_per_line_and_reads_back(tmp_path: Path) -> None:
    state = GameState.new(["ann", "bo"], seed=4)
    rng = random.Random(4)
    for s in range(2):
        state.choose_face_up(s, rng.sample(state.setup_hand(s), 3))
    for _ in range(5):
        state.apply(rng.choice(state.legal_actions()))
    record = record_of(state)
    save_record(tmp_path / "r.json", record)
    lines = (tmp_path / "r.json").read_text().splitlines()
    assert lines[0] == "{" and lines[-1] == "}"
    assert sum(line.startswith('  {"seat"') for line in lines) == 5
    assert load_record(tmp_path / "r.json") == record
    fresh = GameState.new(["ann", "bo"], seed=4)
    empty = tmp_path / "empty.json"
    for s in range(2):
        fresh.choose_face_up(s, list(state.setup[s]))
    save_record(empty, record_of(fresh))
    assert json.loads(empty.read_text())["moves"] == []


async def test_in_a_running_loop_the_disk_flush_runs_beside_it_one_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moves do not wait for fsync: the journal file is replaced before
    ``write`` returns and flushed in a worker thread, one flush at a time,
    the last write always flushed; a game's final record is flushed before
    ``write`` returns."""
    flushes: list[tuple[str, bool]] = []
    real_sync = recordfile.sync_file
    loop_thread = threading.get_ident()

    def spy(path: str | os.PathLike[str]) -> None:
        time.sleep(0.002)  # a slow disk: writes pile up behind a flush
        real_sync(path)
        flushes.append((Path(path).name, threading.get_ident() == loop_thread))

    monkeypatch.setattr(recordfile, "sync_file", spy)
    path = tmp_path / "j.json"
    writer = JournalWriter()
    state = GameState.new(["ann", "bo", "cy"], seed=8)
    rng = random.Random(8)
    for s in range(3):
        state.choose_face_up(s, rng.sample(state.setup_hand(s), 3))
    writes = 0
    while state.phase == Phase.PLAY:
        state.apply(rng.choice(state.legal_actions()))
        writer.write(path, state)
        writes += 1
        assert json.loads(path.read_text()) == record_of(state).to_json()
        await asyncio.sleep(0)
    # During play every flush ran in a worker thread, and writes that came
    # while one ran shared the next; the final record was flushed at once,
    # in this thread, before write returned.
    await asyncio.sleep(0.1)  # a flush still running when the game ended
    # (The final write fsyncs the file itself, then its directory here.)
    assert [name for name, in_loop in flushes if in_loop] == [tmp_path.name]
    in_workers = [name for name, in_loop in flushes if not in_loop]
    assert 0 < in_workers.count("j.json") < writes
    assert in_workers.count(tmp_path.name) == in_workers.count("j.json")  # file, then dir


def test_a_finished_game_the_host_stopped_before_keeping_is_kept_on_resume(
    tmp_path: Path,
) -> None:
    """A game's last move is written to the journal first, and its record
    kept as party-1.json just after: a host killed between the two left the
    finished game in the journal only, and the resumed table's next game
    wrote over it (the game was lost).  Resumed, the table keeps it, and a
    resume after one that kept it keeps no second copy."""
    journal = tmp_path / "party.json"
    table = bot_table(journal, seed=8)
    table.start(None)
    while table.step_bot():
        pass
    kept = tmp_path / "party-1.json"
    assert table.kept_records == [kept]
    finished = json.loads(journal.read_text())
    kept.unlink()  # the host was killed before it kept the record
    resumed = Table.resume(journal)
    assert resumed.kept_records == [kept]
    assert json.loads(kept.read_text()) == finished
    again = Table.resume(journal)
    assert again.kept_records == [kept]
    assert sorted(p.name for p in tmp_path.glob("party-*")) == ["party-1.json"]
    # The next game writes over the journal; the first game stays kept.
    again.start(None)
    while again.step_bot():
        pass
    assert json.loads(kept.read_text()) == finished
    assert again.kept_records == [kept, tmp_path / "party-2.json"]


def test_a_resume_moved_by_record_writes_over_no_file(tmp_path: Path) -> None:
    """`threeup host --resume party.json --record precious.json` took the
    table to precious.json: last night's record there (and its table file)
    was written over at the next move, where a new table refuses any file.
    The resume is refused in one line and both files stay; a free name, or
    the journal's own, is taken."""
    journal = tmp_path / "party.json"
    table = bot_table(journal)
    table.start(None)
    for _ in range(6):
        table.step_bot()
    precious = tmp_path / "precious.json"
    precious.write_text("last night's record")
    (tmp_path / "precious.json.table").write_text("last night's table")
    with pytest.raises(TableError) as refused:
        Table.resume(journal, {"journal": precious})
    assert str(refused.value) == (
        f"cannot resume with --record {precious}: {precious} is already there, and a table "
        f"writes over no file: --resume {precious} takes that table up, or give --record a "
        "new name"
    )
    assert precious.read_text() == "last night's record"
    assert (tmp_path / "precious.json.table").read_text() == "last night's table"
    Table.resume(journal, {"journal": tmp_path / "." / "party.json"})  # its own: as saved
    moved = Table.resume(journal, {"journal": tmp_path / "tonight.json"})
    assert moved.step_bot()
    state = moved.state
    assert state is not None
    tonight = json.loads((tmp_path / "tonight.json").read_text())
    assert len(tonight["moves"]) == len(state.history) > 0
