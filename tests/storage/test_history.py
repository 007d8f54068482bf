"""The history of finished games, in a real SQLite file in the per-test data dir."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sqlite3
import stat
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from threeup_tui.history import (
    HISTORY_FILE,
    FinishedGame,
    History,
    HistoryError,
    SeatEntry,
    opponents_label,
)
from threeup_tui.history import _streaks as streaks
from threeup_tui.recordfile import write_atomic


def game(
    place: int | None,
    players: int = 3,
    level: str = "greedy",
    won: bool | None = None,
    record: str | None = None,
) -> FinishedGame:
    bots = [SeatEntry(f"{level}-{i}", "bot", level) for i in range(2, players + 1)]
    seats = (SeatEntry("me", "you"), *bots)
    return FinishedGame(
        seats=seats,
        my_seat=0,
        place=place,
        won=place == 1 if won is None else won,
        stalemate=False,
        moves=50,
        turns=40,
        finish="places" if place not in (None, 1) else "first_out",
        record=record,
    )


def test_the_history_lives_in_the_tests_data_dir(own_directories: dict[str, Path]) -> None:
    history = History()
    history.add(game(1))
    assert history.path == own_directories["THREEUP_DATA_DIR"] / HISTORY_FILE
    assert history.path.is_file()
    with sqlite3.connect(history.path) as db:  # a real SQLite file others can read
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (1,)
        assert db.execute("SELECT COUNT(*) FROM seats").fetchone() == (3,)


def test_a_game_comes_back_as_it_went_in() -> None:
    history = History()
    when = datetime(2024, 5, 1, 12, 30, tzinfo=UTC)
    mixed = FinishedGame(
        seats=(SeatEntry("Ann", "human"), SeatEntry("me", "you"), SeatEntry("g", "bot", "greedy")),
        my_seat=1,
        place=2,
        won=False,
        stalemate=False,
        moves=88,
        turns=70,
        finish="places",
        venue="join",
        record=None,
        finished_at=when,
    )
    game_id, note = history.add(mixed)
    assert note is None
    (back,) = history.games()
    assert back == FinishedGame(**{**mixed.__dict__, "id": game_id})
    assert back.opponents == "mixed" and back.players == 3


def test_the_history_and_its_records_are_the_players_alone() -> None:
    """On a machine others log in to (an SSH party), nobody else reads whom
    you played and how it went."""
    history = History()
    history.add(game(1))
    assert stat.S_IMODE(history.path.stat().st_mode) == 0o600
    record = history.new_record_path()
    write_atomic(record, "{}")  # as the table saves a record (recordfile.save_record)
    assert stat.S_IMODE(record.stat().st_mode) == 0o600


def test_nothing_yet_is_empty_stats_and_no_file() -> None:
    history = History()
    stats = history.stats()
    assert stats.total.games == 0 and stats.last == () and stats.streak == 0
    assert not history.path.exists()  # looking creates nothing


def test_an_empty_history_file_reads_as_no_games_and_stays_empty() -> None:
    """A zero-byte history.sqlite3 (a `touch`, a copy cut short) has no
    tables yet: reading it wrote the schema into it (a read-only one told
    "is read-only" on "Your games").  It holds no games, and reading
    changes nothing; the first game added makes the history in it."""
    history = History()
    history.path.parent.mkdir(parents=True)
    history.path.touch()
    stats = history.stats()
    assert stats.total.games == 0 and stats.last == () and history.games() == []
    assert history.path.stat().st_size == 0  # read, not written
    history.add(game(1))
    assert history.stats().total.games == 1


def test_an_empty_read_only_history_file_is_no_games_yet(
    read_only: Callable[[Path], AbstractContextManager[None]],
) -> None:
    history = History()
    history.path.parent.mkdir(parents=True)
    history.path.touch()
    with read_only(history.path.parent):
        stats = history.stats()
        assert stats.total.games == 0 and history.games() == []
        with pytest.raises(HistoryError, match=r"(?i)read-only"):  # writing it is still told
            history.add(game(1))


def test_stats_by_opponents_and_players() -> None:
    history = History()
    for g in [
        game(1, 2, "greedy"),
        game(None, 2, "greedy"),
        game(2, 4, "greedy"),
        game(1, 4, "random"),
        game(3, 4, "random"),
        game(1, 4, "random"),
    ]:
        history.add(g)
    stats = history.stats()
    assert (stats.total.games, stats.total.wins) == (6, 3)
    by_level = {t.label: t for t in stats.by_opponents}
    assert (by_level["random"].games, by_level["random"].wins) == (3, 2)
    assert by_level["random"].places == (2, 0, 1)
    assert (by_level["greedy"].games, by_level["greedy"].wins) == (3, 1)
    assert by_level["greedy"].places == (1, 1)  # the unplaced game counts in games only
    assert [t.label for t in stats.by_opponents] == ["greedy", "random"]
    by_players = {t.label: t for t in stats.by_players}
    assert (by_players["2"].games, by_players["2"].wins) == (2, 1)
    assert (by_players["4"].games, by_players["4"].wins) == (4, 2)
    assert stats.streak == 1 and stats.best_streak == 1
    assert [g.place for g in stats.last] == [1, 3, 1, 2, None, 1]  # newest first


def test_the_last_games_are_limited_and_newest_first() -> None:
    history = History()
    for i in range(25):
        history.add(game(1 if i % 2 else 2))
    stats = history.stats(last=20)
    assert len(stats.last) == 20 and stats.total.games == 25
    assert stats.last[0].id == 25


def test_a_persons_seat_a_bot_finished_is_a_person_and_a_bot() -> None:
    dan = SeatEntry("Dan", "human", "greedy")  # gone; the bot finished his seat (D17)
    assert dan.bot_finished and not SeatEntry("g", "bot", "greedy").bot_finished
    assert opponents_label([SeatEntry("me", "you"), dan]) == "mixed"
    assert opponents_label([SeatEntry("me", "you", "greedy"), SeatEntry("Ann", "human")]) == (
        "people"
    )  # your own seat's bot is not an opponent


def test_opponents_label() -> None:
    me = SeatEntry("me", "you")
    assert opponents_label([me, SeatEntry("a", "bot", "greedy")]) == "greedy"
    assert opponents_label([me, SeatEntry("a", "human")]) == "people"
    assert opponents_label([SeatEntry("a", "bot", "random"), me, SeatEntry("b", "human")]) == (
        "mixed"
    )
    assert opponents_label([me, SeatEntry("a", "bot", "greedy"), SeatEntry("b", "bot", "random")])
    assert opponents_label([me]) == "nobody"


@given(st.lists(st.booleans(), max_size=40))
def test_streaks_match_counting_by_hand(results: list[bool]) -> None:
    current, best = streaks(results)
    longest = max((len(r) for r in "".join("w" if w else " " for w in results).split()), default=0)
    assert best == longest
    if not results:
        assert current == 0
    else:
        last = results[-1]
        run = 0
        for won in reversed(results):
            if won != last:
                break
            run += 1
        assert current == (run if last else -run)


def test_a_record_path_is_beside_the_history_and_new() -> None:
    history = History()
    when = datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)
    first = history.new_record_path(when)
    assert first.parent == history.path.parent / "records"
    first.parent.mkdir(parents=True)
    first.write_text("{}")
    second = history.new_record_path(when)
    assert second != first and second.parent == first.parent


def test_a_record_name_another_app_takes_first_is_not_written_over_nor_lost() -> None:
    """Two apps of one account ending games in the same second look for a
    free record name at once and find the same one.  The first to write
    keeps it; the second was refused ("already exists: give the record
    another name", which the player never gave) and kept no record.  It
    takes the next name, and neither record is written over."""
    history = History()
    tried: list[Path] = []

    def write(path: Path) -> str | None:
        # As the app's table does it (Table.save): a new file, never over one.
        tried.append(path)
        if len(tried) == 1:  # the other app, which found this name free too, writes first
            write_atomic(path, "the other app's record\n", new=True)
        try:
            write_atomic(path, "this app's record\n", new=True)
        except FileExistsError:
            return f"{path} already exists: give the record another name"
        return None

    kept, why = history.keep_record(write)
    assert why is None and kept is not None and kept != tried[0]
    assert kept.parent == history.records_dir
    assert tried[0].read_text() == "the other app's record\n"
    assert kept.read_text() == "this app's record\n"


def test_a_record_refused_for_another_reason_is_not_tried_again() -> None:
    history = History()
    tried: list[Path] = []
    kept, why = history.keep_record(lambda path: tried.append(path) or "no space left")
    assert (kept, why) == (None, "no space left") and len(tried) == 1


def test_record_trouble_is_news_once_a_kind_until_records_takes_one_again() -> None:
    """Each kind of trouble (records waiting elsewhere, records not kept
    at all) is told once while it lasts: a record lost is news after
    records that only waited, and both are news again once records/ has
    taken a record since."""
    history = History()
    assert history.record_trouble_news("waits")
    assert not history.record_trouble_news("waits")
    assert history.record_trouble_news("not kept")  # a loss is never hushed by a wait
    assert not history.record_trouble_news("not kept")
    kept, _ = history.keep_record(lambda path: write_atomic(path, "{}\n", new=True))
    assert kept is not None
    assert history.record_trouble_news("waits") and history.record_trouble_news("not kept")


# ---------------------------------------------------------------- bad files
def test_a_file_that_is_not_a_database_is_one_line_then_kept_aside() -> None:
    history = History()
    history.path.parent.mkdir(parents=True)
    history.path.write_bytes(b"this is not a database, it is a shopping list\n" * 100)
    with pytest.raises(HistoryError) as caught:
        history.stats()
    assert "damaged" in str(caught.value) and "\n" not in str(caught.value)
    assert history.path.read_bytes().startswith(b"this is not")  # reading changes nothing
    # A finished game still counts: the damaged file is kept aside, a new one starts.
    game_id, note = history.add(game(1))
    assert game_id == 1 and note is not None and "damaged" in note and "\n" not in note
    aside = history.path.with_name(HISTORY_FILE + ".damaged")
    assert aside.read_bytes().startswith(b"this is not")
    assert history.stats().total.games == 1


def _add_when_all_are_ready(path: str, barrier: Any, n: int) -> None:
    barrier.wait()
    History(Path(path), enabled=True).add(game(1, record=f"game {n}"))


def test_apps_that_finish_at_once_keep_every_game_when_the_history_is_damaged() -> None:
    """Two apps of one account (a LAN game played in two terminals) end
    their game together, on a damaged history: each must count its game, and
    one of them keeps the damaged file aside, not the other's new one."""
    history = History()
    ctx = multiprocessing.get_context("fork")
    for _round in range(5):
        history.path.parent.mkdir(parents=True, exist_ok=True)
        history.path.write_bytes(b"this is not a database" * 100)
        barrier = ctx.Barrier(4)
        apps = [
            ctx.Process(target=_add_when_all_are_ready, args=(str(history.path), barrier, n))
            for n in range(4)
        ]
        for app in apps:
            app.start()
        for app in apps:
            app.join(30)
        assert [app.exitcode for app in apps] == [0, 0, 0, 0]
        kept = sorted(g.record or "" for g in history.games())
        assert kept == ["game 0", "game 1", "game 2", "game 3"]
        aside = sorted(history.path.parent.glob(HISTORY_FILE + ".damaged*"))
        assert [f.read_bytes()[:22] for f in aside] == [b"this is not a database"]
        for file in (*aside, history.path):
            file.unlink()


def test_a_truncated_database_is_damaged_too() -> None:
    history = History()
    for _ in range(30):
        history.add(game(1))
    data = history.path.read_bytes()
    history.path.write_bytes(data[: len(data) // 2])  # pages cut off mid-file
    broken = data[:100] + b"\xff" * 2000 + data[2100:]  # and a scribbled header page
    for bad in (data[: len(data) // 2], broken):
        history.path.write_bytes(bad)
        try:
            history.stats()
        except HistoryError as err:
            assert "\n" not in str(err)
        # Whatever SQLite makes of it, adding a game never raises anything but HistoryError.
        try:
            history.add(game(2))
        except HistoryError as err:
            assert "\n" not in str(err)


def test_a_locked_database_is_one_line_and_loses_nothing() -> None:
    history = History()
    history.add(game(1))
    holder = sqlite3.connect(history.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the file
    try:
        started = time.monotonic()
        with pytest.raises(HistoryError) as caught:
            history.add(game(2))
        assert "locked by another program" in str(caught.value) and "\n" not in str(caught.value)
        assert time.monotonic() - started < 5  # a short wait, not a hang
        with pytest.raises(HistoryError, match="locked"):
            history.stats()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert history.stats().total.games == 1  # the old game is all there
    assert not history.path.with_name(HISTORY_FILE + ".damaged").exists()  # locked is not damaged
    history.add(game(2))
    assert history.stats().total.games == 2


def test_a_lock_file_held_by_another_program_does_not_hold_the_game_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Something other than threeup holding `history.sqlite3.lock` (threeup
    holds it for milliseconds) kept the game from being counted, and its
    app from ending, until it let go.  After LOCK_WAIT the game is written
    without the lock (SQLite's own locking still guards the file)."""
    import subprocess
    import sys
    import threading

    from threeup_tui import recordfile

    monkeypatch.setattr(recordfile, "LOCK_WAIT", 0.5)
    history = History()
    history.add(game(1))
    lock = history.path.with_name(history.path.name + ".lock")
    hold = "import fcntl,sys,time; f=open(sys.argv[1],'a'); fcntl.flock(f, fcntl.LOCK_EX); "
    hold += "print('held', flush=True); time.sleep(60)"
    holder = subprocess.Popen(
        [sys.executable, "-c", hold, str(lock)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        adding = threading.Thread(target=history.add, args=(game(2),), daemon=True)
        adding.start()
        adding.join(10)
        assert not adding.is_alive()  # not waiting for the other program
        assert holder.poll() is None  # which still holds its lock
    finally:
        holder.kill()
        holder.wait()
    assert history.stats().total.games == 2


@pytest.mark.parametrize("below", ["", "sub/deeper"])
def test_a_file_in_the_way_of_the_data_dir_is_told_in_words(
    own_directories: dict[str, Path], monkeypatch: pytest.MonkeyPatch, below: str
) -> None:
    """A file where the data directory (or one above it) should be: adding
    said Python's "File exists" (or "Not a directory"), and reading said
    there were no games, while each game was being kept aside for it."""
    in_the_way = own_directories["THREEUP_DATA_DIR"]
    in_the_way.write_text("a file where the data dir should be")
    monkeypatch.setenv("THREEUP_DATA_DIR", str(in_the_way / below))
    history = History()
    words = f"{in_the_way} is a file, not a directory"
    for use in (lambda: history.add(game(1)), history.stats, history.games):
        with pytest.raises(HistoryError) as caught:
            use()
        told = str(caught.value)
        assert told == f"Your games: cannot keep the history in {history.path.parent}: {words}"
    kept, why = history.keep_record(lambda path: pytest.fail(f"written to {path}"))
    assert kept is None and why == f"cannot keep records in {history.records_dir}: {words}"
    assert in_the_way.read_text() == "a file where the data dir should be"


def test_a_newer_schema_is_left_alone() -> None:
    history = History()
    history.add(game(1))
    with sqlite3.connect(history.path) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(HistoryError, match="newer"):
        history.add(game(1))
    assert not history.path.with_name(HISTORY_FILE + ".damaged").exists()


def test_a_confined_guest_keeps_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("THREEUP_GUEST", "1")
    history = History()
    with pytest.raises(HistoryError):
        history.add(game(1))
    assert history.stats().total.games == 0
    assert not history.path.exists() and not history.path.parent.exists()


def test_a_database_that_is_not_a_history_is_one_line_then_kept_aside() -> None:
    """A SQLite file of another shape at the history's place (another
    program's "games" table) failed every query with SQLite's words ("no
    such column: finished_at"), so no game ever counted again; it is kept
    aside like a damaged file, and a new history starts."""
    history = History()
    history.path.parent.mkdir(parents=True)
    with contextlib.closing(sqlite3.connect(history.path)) as db, db:
        db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT)")
        db.execute("INSERT INTO games (title) VALUES ('Chess')")
    for _ in range(2):  # the first look stamps nothing that hides it from the second
        with pytest.raises(HistoryError) as caught:
            history.stats()
        assert "not a threeup history" in str(caught.value), caught.value
        assert "\n" not in str(caught.value)
    game_id, note = history.add(game(1))
    assert note is not None and "is not a threeup history" in note and "kept as" in note
    assert game_id == 1
    aside = history.path.with_name(HISTORY_FILE + ".damaged")
    with contextlib.closing(sqlite3.connect(aside)) as db:
        assert db.execute("SELECT title FROM games").fetchall() == [("Chess",)]
    assert history.stats().total.games == 1


def test_another_programs_database_with_none_of_our_tables_is_kept_aside_untouched() -> None:
    """Found with a SQLite file of another program's "notes" table at the
    history's place: threeup added its own tables into that database, beside
    the notes, and read it as "no finished games yet".  It is told as not a
    history, and the first game moves it aside as it was."""
    history = History()
    history.path.parent.mkdir(parents=True)
    with contextlib.closing(sqlite3.connect(history.path)) as db, db:
        db.execute("CREATE TABLE notes (text TEXT)")
        db.execute("INSERT INTO notes VALUES ('buy milk')")
    with pytest.raises(HistoryError) as caught:
        history.stats()
    assert "not a threeup history" in str(caught.value) and "notes" in str(caught.value)
    game_id, note = history.add(game(1))
    assert note is not None and "not a threeup history" in note and "kept as" in note
    aside = history.path.with_name(HISTORY_FILE + ".damaged")
    with contextlib.closing(sqlite3.connect(aside)) as db:
        tables = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        assert tables == [("notes",)], "nothing of ours added into it"
        assert db.execute("SELECT text FROM notes").fetchall() == [("buy milk",)]
    assert history.stats().total.games == 1 and game_id == 1


@pytest.mark.parametrize(
    "change",
    [
        "finished_at = 'yesterday'",
        "finished_at = x'32303236'",  # the bytes of '2026', not text
        "finished_at = '0001-01-01T00:00:00+14:00'",  # no local time can show it
        "place = 'first'",
        "won = 'yes'",
        "moves = 'many'",
        "players = 2.5",
        "record = x'00'",
        # Numbers no game has: one placed 300000000th took 7 GB to tally.
        "place = 4",  # of 3 players
        "place = 0",
        "players = 7",
        "my_seat = 3",
    ],
)
def test_a_game_row_changed_by_hand_is_passed_over_and_counted(change: str) -> None:
    """The file is the user's: a row another program or a hand changed once
    made "Your games" end the app with a traceback (Invalid isoformat
    string; '>' not supported between str and int).  The other games are
    read, the changed one is counted as unreadable, and the file is left."""
    history = History()
    for place in (1, 2, 1):
        history.add(game(place))
    with contextlib.closing(sqlite3.connect(history.path)) as db, db:
        db.execute(f"UPDATE games SET {change} WHERE id = 2")
    before = history.path.read_bytes()
    stats = history.stats()
    assert stats.unreadable == 1
    assert stats.total.games == 2 and stats.total.wins == 2 and stats.total.places == (2,)
    assert [g.id for g in stats.last] == [3, 1] == [g.id for g in history.games()]
    assert (stats.streak, stats.best_streak) == (2, 2)
    assert history.path.read_bytes() == before
    history.add(game(3))  # and the next game is counted as ever
    assert history.stats().total.games == 3


def test_a_seat_row_changed_by_hand_is_passed_over() -> None:
    history = History()
    history.add(game(1, players=3))
    with contextlib.closing(sqlite3.connect(history.path)) as db, db:
        db.execute("UPDATE seats SET name = x'00ff' WHERE seat = 1")
    (back,) = history.games()
    assert [s.name for s in back.seats] == ["me", "greedy-3"]
    assert history.stats().unreadable == 0


@pytest.mark.parametrize(
    "why",
    [
        pytest.param(
            "unsearchable",
            marks=pytest.mark.skipif(os.geteuid() == 0, reason="root searches any directory"),
        ),
        "a-name-too-long",
    ],
)
def test_a_data_dir_that_cannot_be_looked_in_is_one_line(
    own_directories: dict[str, Path], monkeypatch: pytest.MonkeyPatch, why: str
) -> None:
    """Whether the history is there at all was asked outside the file's own
    error handling: a data dir of mode 000 (or a name longer than the file
    system allows) raised PermissionError (OSError) from "Your games"."""
    data = own_directories["THREEUP_DATA_DIR"]
    if why == "unsearchable":
        History().add(game(1))
        data.chmod(0)
    else:
        data.mkdir(parents=True)
        monkeypatch.setenv("THREEUP_DATA_DIR", str(data / ("x" * 300)))
    try:
        history = History()
        for read in (history.stats, history.games, lambda: history.add(game(2))):
            with pytest.raises(HistoryError) as caught:
                read()
            assert str(caught.value).startswith(f"Your games: cannot use {history.path}: ")
            assert "\n" not in str(caught.value)
    finally:
        data.chmod(0o700)
    if why == "unsearchable":
        assert History().stats().total.games == 1  # nothing was lost


def test_a_damaged_history_moved_aside_on_a_full_disk_is_told(
    own_directories: dict[str, Path], monkeypatch: pytest.MonkeyPatch, small_disk: Any
) -> None:
    """The damaged file was moved aside, the new history could not be made
    (no space), and only "database or disk is full" was told: once space
    came back the next game began a new history, and the old games seemed
    gone, with no word of history.sqlite3.damaged."""
    monkeypatch.setenv("THREEUP_DATA_DIR", str(small_disk.path / "data"))
    history = History()
    history.path.parent.mkdir(parents=True)
    history.path.write_bytes(b"this is not a database, it is a shopping list\n" * 20)
    small_disk.fill()
    with pytest.raises(HistoryError) as caught:
        history.add(game(1))
    told = str(caught.value)
    assert "damaged" in told and f"kept as {HISTORY_FILE}.damaged" in told
    assert "full" in told and "\n" not in told and told.count("Your games") == 1
    aside = history.path.with_name(HISTORY_FILE + ".damaged")
    assert aside.read_bytes().startswith(b"this is not")  # nothing lost
    small_disk.free()
    assert history.add(game(1))[0] == 1  # space back: the next game is kept
    assert history.stats().total.games == 1


# ------------------------------------------------------ a network game's identity
# The history's shape before games had an identity (schema version 1), as
# threeup wrote it: a file of that shape must keep working and keep its rows.
SCHEMA_1 = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY, finished_at TEXT NOT NULL, venue TEXT NOT NULL,
    players INTEGER NOT NULL, my_seat INTEGER NOT NULL, place INTEGER,
    won INTEGER NOT NULL, stalemate INTEGER NOT NULL, moves INTEGER NOT NULL,
    turns INTEGER NOT NULL, finish TEXT NOT NULL, opponents TEXT NOT NULL, record TEXT
);
CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, bot_level TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX games_by_time ON games(finished_at);
PRAGMA user_version = 1;
"""


def a_version_1_history(history: History) -> None:
    history.path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.closing(sqlite3.connect(history.path)) as db, db:
        db.executescript(SCHEMA_1)
        for place in (1, 2):
            db.execute(
                "INSERT INTO games (finished_at, venue, players, my_seat, place, won, stalemate,"
                " moves, turns, finish, opponents) VALUES"
                " ('2026-01-02T03:04:05+00:00', 'join', 2, 0, ?, ?, 0, 30, 20, 'places', 'people')",
                (place, int(place == 1)),
            )
            (game_id,) = db.execute("SELECT last_insert_rowid()").fetchone()
            db.execute(
                "INSERT INTO seats VALUES (?, 0, 'me', 'you', NULL), (?, 1, 'Ann', 'human', NULL)",
                (game_id, game_id),
            )


def at(table_id: str | None, number: int | None, seat: int = 0) -> FinishedGame:
    return FinishedGame(
        (SeatEntry("me", "you"), SeatEntry("Ann", "human")), seat, 1, True, False, 30, 20,
        venue="join", table_id=table_id, game_number=number,
    )  # fmt: skip


def test_a_history_of_the_shape_before_identities_keeps_its_rows_and_counts_on() -> None:
    """Read first (changing nothing: the file may be read-only), then a game
    added: the file gains the identity columns, and its games stay."""
    history = History()
    a_version_1_history(history)
    before = history.path.read_bytes()
    assert [g.place for g in history.games()] == [2, 1]
    assert history.stats().total.games == 2
    assert history.path.read_bytes() == before
    game_id, note = history.add(at("table-aaaa", 1))
    assert game_id == 3 and note is None
    assert history.add(at("table-aaaa", 1)) == (None, None)  # kept already
    games = history.games()
    identities = [(g.table_id, g.game_number) for g in games]
    assert identities == [("table-aaaa", 1), (None, None), (None, None)]
    assert [s.name for s in games[2].seats] == ["me", "Ann"]
    with contextlib.closing(sqlite3.connect(history.path)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (2,)
    assert not history.path.with_name(HISTORY_FILE + ".damaged").exists()


def test_a_network_game_is_kept_once_per_identity_and_seat() -> None:
    history = History()
    first, _ = history.add(at("table-aaaa", 1))
    assert first is not None
    assert history.add(at("table-aaaa", 1))[0] is None  # the same game, seen again
    assert history.add(at("table-aaaa", 2))[0] is not None  # the next game there
    assert history.add(at("table-bbbb", 1))[0] is not None  # another table's first
    assert history.add(at("table-aaaa", 1, seat=1))[0] is not None  # another seat of it
    assert history.add(at(None, None))[0] is not None  # games against bots: no identity
    assert history.add(at(None, None))[0] is not None
    assert history.stats().total.games == 6


@given(
    st.lists(
        st.tuples(st.integers(0, 1), st.sampled_from(["t-1", "t-2"]), st.integers(1, 3)),
        max_size=12,
    )
)
def test_no_order_of_apps_adding_games_keeps_one_twice(
    adds: list[tuple[int, str, int]],
) -> None:
    """Two apps of one account (two History objects on one file), each
    adding the games it saw end, in any order and as often as it saw them
    (a reconnect, the game-over box seen twice): each game is kept once."""
    history = History()
    if history.path.exists():
        history.path.unlink()
    apps = [History(history.path), History(history.path)]
    for app, table_id, number in adds:
        apps[app].add(at(table_id, number))
    kept = [(g.table_id, g.game_number) for g in history.games()]
    assert sorted(kept) == sorted({(t, n) for _app, t, n in adds})


@pytest.mark.parametrize("host_first", [False, True])
def test_a_game_seen_again_learns_the_bot_that_finished_a_seat(host_first: bool) -> None:
    """Dan's app back at the game-over box sees the lobby after his seat was
    handed back to him (no bot); the host's "played" result says the bot
    finished it.  In either order the history keeps one row that says so."""
    told = FinishedGame((SeatEntry("Dan", "you", "greedy"), SeatEntry("Ann", "human", "random")),
                        0, 1, True, False, 30, 20, venue="join", table_id="table-aaaa",
                        game_number=1)  # fmt: skip
    seen = replace(told, seats=(SeatEntry("Dan", "you"), SeatEntry("Ann", "human")))
    history = History()
    for game in (told, seen) if host_first else (seen, told):
        history.add(game)
    (kept,) = history.games()
    assert kept.seats == told.seats and kept.opponents == "mixed"
