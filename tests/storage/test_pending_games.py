"""A finished game the history cannot take now is kept aside, and added
later exactly once: a real SQLite file, held by a second connection."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from threeup_tui import history as history_module
from threeup_tui.history import FinishedGame, History, SeatEntry
from threeup_tui.pendinggames import (
    KEPT_ASIDE,
    RECORD_WAITS,
    add_pending_games,
    count_game,
    keep_record_aside,
    line_severity,
    pending_dir,
    pending_games,
    remove_stray_records,
)
from threeup_tui.recordfile import write_atomic


@pytest.fixture(autouse=True)
def short_lock_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app gives up on a history another program holds after a second
    (LOCK_WAIT); here every hold lasts until the test lets go, so giving up
    after 0.1 s is the same, and the tests that hold it no longer wait a
    second at each try.  (The programs run by crash_at wait as the app does.)"""
    monkeypatch.setattr(history_module, "LOCK_WAIT", 0.1)


def game(place: int = 1, table_id: str | None = None, number: int | None = None) -> FinishedGame:
    return FinishedGame(
        seats=(SeatEntry("me", "you"), SeatEntry("Bo", "bot", "greedy"), SeatEntry("Cy", "human")),
        my_seat=0,
        place=place,
        won=place == 1,
        stalemate=False,
        moves=50,
        turns=40,
        venue="bots" if table_id is None else "join",
        table_id=table_id,
        game_number=number,
    )


@contextlib.contextmanager
def held(history: History) -> Iterator[None]:
    """Another program holds the history locked (longer than threeup waits)."""
    holder = sqlite3.connect(history.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def rows(history: History) -> int:
    with sqlite3.connect(history.path) as db:
        (count,) = db.execute("SELECT COUNT(*) FROM games").fetchone()
    return int(count)


def test_a_game_ended_while_the_history_is_locked_is_added_later_once(
    own_directories: dict[str, Path],
) -> None:
    history = History()
    history.add(game(1))
    with held(history):
        game_id, lines = count_game(history, game(2))
    assert game_id == -1
    assert len(lines) == 1 and "locked by another program" in lines[0]
    assert lines[0].endswith("this game is kept, and added when the history can be written")
    assert "not counted" not in lines[0]
    (kept,) = pending_games()
    assert kept.parent == own_directories["THREEUP_STATE_DIR"] / "pending-games"
    assert kept.stat().st_mode & 0o077 == 0  # whom you played: yours alone
    assert rows(history) == 1
    assert add_pending_games(history) == [
        "Your games: 1 finished game not counted yet is added now"
    ]
    assert pending_games() == []
    assert add_pending_games(history) == []  # once
    stats = history.stats()
    assert stats.total.games == 2 and [g.place for g in stats.last] == [2, 1]


def test_kept_games_go_in_before_the_next_game_in_the_order_they_ended() -> None:
    """A streak is read in the order rows were added: the games kept aside
    are older than the one that ends once the history can be written."""
    history = History()
    history.add(game(2))
    with held(history):
        count_game(history, game(1))
        count_game(history, game(1))
    game_id, lines = count_game(history, game(3))
    assert game_id is not None and game_id > 0
    assert lines == ["Your games: 2 finished games not counted yet are added now"]
    stats = history.stats()
    assert [g.place for g in stats.last] == [3, 1, 1, 2]
    assert stats.best_streak == 2


def test_a_game_against_bots_added_twice_is_one_row() -> None:
    """A crash between adding a kept game and removing its file: the file
    is read again next time, and the game's identity keeps it one row."""
    history = History()
    history.add(game(1))
    with held(history):
        count_game(history, game(2))
    (kept,) = pending_games()
    copy = kept.read_bytes()
    add_pending_games(history)
    kept.write_bytes(copy)  # as if the app had died before removing it
    assert add_pending_games(history) == []  # read again, and nothing to tell:
    assert rows(history) == 2  # not added twice
    assert pending_games() == []


def test_a_network_game_seen_end_by_two_apps_while_locked_is_one_row() -> None:
    history = History()
    history.add(game(1))
    with held(history):
        count_game(history, game(2, "table-abcdefgh", 4))
        count_game(history, game(2, "table-abcdefgh", 4))  # another terminal of the account
    assert len(pending_games()) == 2
    add_pending_games(history)
    assert rows(history) == 2 and pending_games() == []


def test_a_newer_schema_keeps_the_game_until_it_can_be_written() -> None:
    history = History()
    history.add(game(1))
    with sqlite3.connect(history.path) as db:
        db.execute("PRAGMA user_version = 99")
    game_id, lines = count_game(history, game(2))
    assert game_id == -1 and "newer threeup" in lines[0] and "kept" in lines[0]
    assert add_pending_games(history) == []  # still newer: left for later, unsaid
    assert len(pending_games()) == 1
    with sqlite3.connect(history.path) as db:  # the newer threeup's file set right
        db.execute("PRAGMA user_version = 2")
    add_pending_games(history)
    assert rows(history) == 2 and pending_games() == []


def test_a_read_only_history_keeps_the_game(
    read_only: Callable[[Path], AbstractContextManager[None]],
) -> None:
    history = History()
    history.add(game(1))
    with read_only(history.path.parent):
        game_id, lines = count_game(history, game(2))
        assert game_id == -1 and lines[0].endswith("added when the history can be written")
        assert len(pending_games()) == 1
    add_pending_games(history)
    assert rows(history) == 2 and pending_games() == []


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        '{"format": "threeup-pending-game/1"}',
        '{"format": "something else"}',
        '{"format": "threeup-pending-game/1", "seats": "me"}',
        "",
    ],
)
def test_a_damaged_kept_game_is_set_aside_with_a_word(text: str) -> None:
    history = History()
    history.add(game(1))
    with held(history):
        count_game(history, game(2))
    (good,) = pending_games()
    bad = good.with_name("game-00000000-000000-000000-bad.json")  # older: read first
    bad.write_text(text)
    lines = add_pending_games(history)
    assert len(lines) == 2 and all("\n" not in line for line in lines)
    assert "cannot be read" in lines[1] and str(bad) + ".damaged" in lines[1]
    assert "Traceback" not in lines[1]
    assert bad.with_name(bad.name + ".damaged").read_text() == text  # kept, for the player
    assert rows(history) == 2  # the good one is in all the same
    assert pending_games() == []


def test_a_confined_guest_keeps_nothing_aside(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("THREEUP_GUEST", "1")
    history = History()
    assert count_game(history, game(1)) == (-1, [])
    assert not pending_dir().exists() and not history.path.exists()


def test_a_game_that_cannot_be_kept_aside_either_says_so(own_directories: dict[str, Path]) -> None:
    history = History()
    history.add(game(1))
    state = own_directories["THREEUP_STATE_DIR"]
    shutil.rmtree(state, ignore_errors=True)
    state.write_text("a file where the state dir should be")
    with held(history):
        game_id, lines = count_game(history, game(2))
    assert game_id == -1 and len(lines) == 1
    assert "not counted (nor kept aside:" in lines[0] and "\n" not in lines[0]
    assert lines[0].endswith(f"(nor kept aside: {state} is a file, not a directory)")


# ------------------------------------------------ a record kept with the game
RECORD_TEXT = '{\n "format": "a record, as the table writes it"\n}\n'


def write_record(path: Path) -> str | None:
    """What the app's writer does (the table's save): a new file, atomically."""
    try:
        write_atomic(path, RECORD_TEXT, new=True)
    except OSError as err:
        return str(err.strerror or err)
    return None


def hosted_game_ending_now(history: History) -> FinishedGame:
    """A hosted game ends: its record goes in records/, or, when that cannot
    be written, beside the games kept aside (as the app does)."""
    kept, _why = history.keep_record(write_record)
    if kept is None:
        kept, _why = keep_record_aside(write_record)
    return replace(game(2), record=None if kept is None else str(kept))


def test_a_game_kept_aside_with_no_records_dir_keeps_its_record_and_replays_later(
    read_only: Callable[[Path], AbstractContextManager[None]],
) -> None:
    """The data directory could not be written: the record was "not kept",
    the game kept aside without it, and "Your games" later showed a game
    with nothing to replay.  The record waits beside the game (owner-only,
    as the game's file), and goes into records/ as the game is added."""
    history = History()
    history.add(game(1))
    with read_only(history.path.parent):
        ended = hosted_game_ending_now(history)
        game_id, lines = count_game(history, ended)
    assert game_id == -1 and lines[0].endswith(KEPT_ASIDE)
    (waiting,) = pending_dir().glob("record-*.json")
    assert ended.record == str(waiting)
    assert waiting.stat().st_mode & 0o077 == 0  # whom you played and every card: yours alone
    assert add_pending_games(history)  # the history can be written again
    (row, _first) = history.games()
    assert row.record is not None and Path(row.record).parent == history.records_dir
    assert Path(row.record).read_text() == RECORD_TEXT  # the game replays
    assert list(pending_dir().iterdir()) == []  # nothing left behind


def test_a_record_kept_aside_waits_while_the_history_is_still_locked() -> None:
    """Added while the history is still held: no copy is left in records/,
    and the record still waits with its game; once free, one copy in records/."""
    history = History()
    history.add(game(1))
    history.records_dir.parent.mkdir(parents=True, exist_ok=True)
    history.records_dir.write_text("a file where records/ should be")  # no record kept there
    ended = hosted_game_ending_now(history)
    with held(history):
        count_game(history, ended)
    history.records_dir.unlink()
    with held(history):
        assert add_pending_games(history) == []  # still locked: left for later
    assert not history.records_dir.exists() or list(history.records_dir.iterdir()) == []
    assert len(list(pending_dir().glob("record-*.json"))) == 1 and len(pending_games()) == 1
    add_pending_games(history)
    assert [p.read_text() for p in history.records_dir.iterdir()] == [RECORD_TEXT]
    assert history.games()[0].record == str(next(history.records_dir.iterdir()))
    assert list(pending_dir().iterdir()) == []


def test_a_record_that_records_cannot_take_waits_with_its_game_until_it_can() -> None:
    """The history writable, records/ not (a file in its place): the game
    was counted without its record, and the record that sat safely in
    pending-games/ was deleted.  The game is counted at once, its row
    naming the record where it waits (it replays from there), the player
    told once where; no hour's sweep removes it; and once records/ can
    take it (a later start of the app), it moves there, its row with it."""
    history = History()
    history.add(game(1))
    history.records_dir.write_text("a file where records/ should be")
    ended = hosted_game_ending_now(history)
    assert ended.record is not None and Path(ended.record).parent == pending_dir()
    game_id, lines = count_game(history, ended)
    assert game_id is not None and game_id > 0 and pending_games() == []
    (line,) = lines
    where = f"{RECORD_WAITS} {pending_dir()} until records/ can take it (cannot keep records in"
    assert line.startswith(where) and line.endswith(")") and "\n" not in line, line
    assert history.games()[0].record == ended.record  # the row names it: "Your games" replays it
    assert Path(ended.record).read_text() == RECORD_TEXT
    later = hosted_game_ending_now(history)
    assert count_game(history, later)[1] == []  # said once while records/ stays so
    in_two_hours = datetime.now(UTC) + timedelta(hours=2)
    assert remove_stray_records(history, now=in_two_hours) == []  # named by rows: not strays
    waiting = sorted(pending_dir().glob("record-*.json"))
    assert waiting == sorted(Path(g.record or "") for g in (ended, later))
    history.records_dir.unlink()
    again = History()  # a later start of the app
    assert add_pending_games(again) == [
        f"Your games: 2 game records that waited in {pending_dir()} are in {again.records_dir} now"
    ]
    rows = history.games()
    for row in rows[:2]:
        assert row.record is not None and Path(row.record).parent == again.records_dir
        assert Path(row.record).read_text() == RECORD_TEXT
    assert rows[2].record is None  # the first game, kept before any of this, had none
    assert list(pending_dir().iterdir()) == []
    assert add_pending_games(again) == []  # once
    assert len(list(again.records_dir.iterdir())) == 2


def test_a_waiting_record_is_kept_when_its_game_is_read_again_after_a_crash() -> None:
    """The app died after adding a kept game (its record waiting, named by
    the row) and before removing its file: read again, the game is kept
    already, and its record, the row's, must stay."""
    history = History()
    history.add(game(1))
    history.records_dir.write_text("a file where records/ should be")
    ended = hosted_game_ending_now(history)
    with held(history):
        count_game(history, ended)
    (kept,) = pending_games()
    copy = kept.read_bytes()
    add_pending_games(history)
    kept.write_bytes(copy)  # as if the app had died before removing it
    add_pending_games(history)
    assert rows(history) == 2 and pending_games() == []
    assert history.games()[0].record == ended.record
    assert Path(ended.record or "").read_text() == RECORD_TEXT


def test_a_waiting_record_moved_by_another_app_first_is_not_moved_twice() -> None:
    history = History()
    history.records_dir.parent.mkdir(parents=True)
    history.records_dir.write_text("a file where records/ should be")
    game_id, _ = count_game(history, hosted_game_ending_now(history))
    assert game_id is not None
    (row,) = history.games()
    assert row.record is not None
    assert not history.move_record(game_id, "another path", "somewhere")  # not what it names
    assert history.move_record(game_id, row.record, "somewhere")
    assert history.games()[0].record == "somewhere"


def test_a_records_dir_that_cannot_be_written_is_told_again_only_after_it_could() -> None:
    """Every game at a table meets the same records/: "the game's record
    could not be kept" was said after each of them.  Said once while it
    lasts; again only once a record has gone in since, and then it failed."""
    history = History()
    history.add(game(1))

    def lines_of_a_game_ending() -> list[str]:
        return count_game(history, hosted_game_ending_now(history))[1]

    history.records_dir.write_text("a file where records/ should be")
    first, second = lines_of_a_game_ending(), lines_of_a_game_ending()
    assert len(first) == 1 and first[0].startswith(RECORD_WAITS)
    assert second == []
    history.records_dir.unlink()
    # Its record is in records/, and the two that waited go in with it.
    (back,) = lines_of_a_game_ending()
    assert back.startswith("Your games: 2 game records that waited in")
    shutil.rmtree(history.records_dir)
    history.records_dir.write_text("a file again")
    assert lines_of_a_game_ending() == first  # news again
    where = [Path(g.record).parent if g.record else None for g in history.games()]
    assert where == [pending_dir(), *[history.records_dir] * 3, None]  # the first game had none


def test_a_kept_record_gone_missing_does_not_hush_a_records_dir_that_fails_later() -> None:
    """A game kept aside whose record file went from pending-games/ (cleaned
    up by hand) is counted without it, and said so; that once took the
    "said once" of a records/ that cannot be written, and the first game
    records/ then refused was counted without its record, in silence."""
    history = History()
    history.add(game(1))
    history.records_dir.parent.mkdir(parents=True, exist_ok=True)
    history.records_dir.write_text("a file where records/ should be")
    ended = hosted_game_ending_now(history)  # its record kept aside
    with held(history):
        count_game(history, ended)  # and the game with it
    assert ended.record is not None
    Path(ended.record).unlink()
    (gone,) = [line for line in add_pending_games(history) if "could not be kept" in line]
    assert f"cannot read {ended.record}: No such file or directory" in gone
    lines = count_game(history, hosted_game_ending_now(history))[1]
    (refused,) = lines
    assert refused.startswith(RECORD_WAITS)
    assert f"cannot keep records in {history.records_dir}" in refused
    assert count_game(history, hosted_game_ending_now(history))[1] == []  # once while it lasts


# ------------------------------------------------ a record its game never joined
def record_kept_aside_at(when: datetime) -> Path:
    """A record kept aside ``when`` as keep_record_aside names and writes
    it, with the file's own time then: what an app that died before keeping
    its game aside left behind that long ago."""
    stamp = when.strftime("%Y%m%d-%H%M%S-%f")
    path = pending_dir() / f"record-{stamp}-{secrets.token_hex(4)}.json"
    write_atomic(path, RECORD_TEXT, new=True)
    os.utime(path, (when.timestamp(), when.timestamp()))
    return path


def test_a_record_whose_game_was_never_kept_aside_is_removed_once_old() -> None:
    """The app died between keeping a record aside and keeping its game:
    the record was left in pending-games/, read and removed by nothing, for
    ever.  Removed when the games kept aside are next read, once older than
    a game's way into the history; never another's file, nor a record a
    game kept aside (or set aside as damaged) names, nor a fresh one."""
    history = History()
    history.add(game(1))
    long_ago = datetime.now(UTC) - timedelta(hours=3)
    stray = record_kept_aside_at(long_ago)
    waiting = record_kept_aside_at(long_ago)  # its game is kept aside, below
    with held(history):
        count_game(history, replace(game(2), record=str(waiting)))
    damaged_game = record_kept_aside_at(long_ago)
    (pending_dir() / "game-20260101-000000-000000-0a0b0c0d.json.damaged").write_text(
        f'{{"record": "{damaged_game}", "cut short'
    )
    fresh, _ = keep_record_aside(write_record)  # a running app's, its game on the way
    theirs = [pending_dir() / "record-notes.json", pending_dir() / f"{stray.name}.bak"]
    for path in theirs:
        path.write_text("the player's")
        os.utime(path, (long_ago.timestamp(), long_ago.timestamp()))
    with held(history):
        assert add_pending_games(history) == []  # the history still held: the game waits
    # Nor while the history cannot be read: a row of it may name the record
    # (its game added while records/ could not take it).
    assert stray.exists()
    add_pending_games(history)  # the game goes in, its record with it
    assert not stray.exists()
    assert damaged_game.exists() and fresh is not None and fresh.exists()
    assert all(path.exists() for path in theirs)
    assert history.games()[0].record is not None and not waiting.exists()
    assert Path(history.games()[0].record or "").read_text() == RECORD_TEXT


def test_no_record_is_removed_while_a_game_kept_aside_cannot_be_read() -> None:
    """A game file that cannot be read may name any record: none goes."""
    history = History()
    stray = record_kept_aside_at(datetime.now(UTC) - timedelta(hours=3))
    (pending_dir() / "game-20260101-000000-000000-0a0b0c0d.json").mkdir()
    assert remove_stray_records(history) == []
    assert stray.exists()
    shutil.rmtree(pending_dir() / "game-20260101-000000-000000-0a0b0c0d.json")
    add_pending_games(history)
    assert not stray.exists()


# ------------------------------------------------ a record that waited, moved in later
def record_writer(text: str) -> Callable[[Path], str | None]:
    """The app's writer for a record of its own: games differ in their deals."""

    def write(path: Path) -> str | None:
        try:
            write_atomic(path, text, new=True)
        except OSError as err:
            return str(err.strerror or err)
        return None

    return write


def hosted_game_ended(history: History, when: datetime, text: str = RECORD_TEXT) -> FinishedGame:
    """A hosted game that ended ``when``, its record where the app keeps it."""
    kept, _why = history.keep_record(record_writer(text), when)
    if kept is None:
        kept, _why = keep_record_aside(record_writer(text))
    return replace(game(2), record=None if kept is None else str(kept), finished_at=when)


def test_a_record_that_waited_is_named_by_its_games_end_not_by_when_it_moved() -> None:
    """Records that waited in pending-games/ went into records/ named by the
    second they moved (three games of three days, all "game-<today>.json",
    "-2", "-3"): "Your games" lists games by their end, the directory by
    the day the disk was freed.  One counted with its record waiting, one
    kept aside whole (the history held too), each named by its own end."""
    history = History()
    history.records_dir.parent.mkdir(parents=True)
    history.records_dir.write_text("a file where records/ should be")
    ends = [datetime(2026, 3, day, 20, 0, 5, tzinfo=UTC) for day in (1, 2, 3)]
    count_game(history, hosted_game_ended(history, ends[0]))  # counted, its record waiting
    count_game(history, hosted_game_ended(history, ends[1]))
    with held(history):
        count_game(history, hosted_game_ended(history, ends[2]))  # kept aside, record and all
    history.records_dir.unlink()
    lines = add_pending_games(history)
    assert len(lines) == 2, lines  # the game kept aside is in; the records that waited are in
    names = sorted(path.name for path in history.records_dir.iterdir())
    assert names == [f"game-202603{day:02}-200005.json" for day in (1, 2, 3)]
    rows = history.games()  # newest first
    assert [Path(row.record or "").name for row in rows] == names[::-1]
    assert list(pending_dir().iterdir()) == []


def test_the_news_that_waiting_games_and_records_are_in_is_not_a_warning() -> None:
    """The app marked every line at a game's end with a warning's ⚠, "2
    game records that waited ... are in ... now" too.  Good news is marked
    as news; trouble (a record that waits, a game kept aside) still warns."""
    history = History()
    history.records_dir.parent.mkdir(parents=True)
    history.records_dir.write_text("a file where records/ should be")
    (waits,) = count_game(history, hosted_game_ending_now(history))[1]
    with held(history):
        (kept,) = count_game(history, game(3))[1]
    assert [line_severity(waits), line_severity(kept)] == ["warning", "warning"]
    history.records_dir.unlink()
    game_id, lines = count_game(history, hosted_game_ending_now(history))
    assert game_id is not None and game_id > 0
    assert [
        (line.split(" not counted")[0].split(" that")[0], line_severity(line)) for line in lines
    ] == [
        ("Your games: 1 finished game", "information"),
        ("Your games: 1 game record", "information"),
    ]


# The app halted at one step by a real signal: ``OWNER.STEP`` (a method of
# History, or a name pendinggames or recordfile calls) gets SIGNAL (SIGKILL:
# killed; SIGSTOP: stopped until SIGCONT, then it goes on) as its NTH call is
# made ("before"), or once that call has done its work ("after").  Then the
# app does WHAT: "start" adds the games kept aside, as a start does; "end"
# ends a hosted game against bots, as the app does, its record RECORD (the
# last argument) written by ``recordfile.write_atomic``.
HALTED_AT = """
import os, signal, sys
from datetime import UTC, datetime
from threeup_tui import pendinggames, recordfile
from threeup_tui.history import FinishedGame, History, SeatEntry

sig, owner, step, when, nth, what = sys.argv[1:7]
sig = getattr(signal, sig)
owner = {"History": History, "pendinggames": pendinggames, "recordfile": recordfile}[owner]
real = getattr(owner, step)
calls = []

def halt(*args, **kwargs):
    calls.append(step)
    if len(calls) != int(nth):
        return real(*args, **kwargs)
    if when == "after":
        done = real(*args, **kwargs)
        os.kill(os.getpid(), sig)
        return done
    os.kill(os.getpid(), sig)
    return real(*args, **kwargs)

setattr(owner, step, halt)
if what == "start":
    pendinggames.add_pending_games(History())
else:
    def write(path):
        recordfile.write_atomic(path, sys.argv[7], new=True)
        return None

    history = History()
    ended = FinishedGame(
        seats=(SeatEntry("me", "you"), SeatEntry("Bo", "bot", "greedy")),
        my_seat=0, place=1, won=True, stalemate=False, moves=50, turns=40, venue="bots",
        finished_at=datetime(2026, 3, 1, 20, 0, 5, tzinfo=UTC),
    )

    def keep(named):  # as the app does: in records/, else beside the games kept aside
        kept = history.keep_record(named(write))[0]
        return kept or pendinggames.keep_record_aside(named(write))[0]

    game, kept = pendinggames.keep_game_ending(ended, keep)
    pendinggames.count_game(history, game, kept=kept)
"""


def halted_at(
    sig: str, owner: str, step: str, when: str, what: str, *more: str, nth: int = 1
) -> list[str]:
    """The command that runs the app's ``what`` halted by ``sig`` at ``OWNER.STEP`` (HALTED_AT)."""
    return [sys.executable, "-c", HALTED_AT, sig, owner, step, when, str(nth), what, *more]


def crash_at(owner: str, step: str, when: str, what: str, *more: str, nth: int = 1) -> None:
    """Run the app's ``what`` in a process killed at ``OWNER.STEP``."""
    command = halted_at("SIGKILL", owner, step, when, what, *more, nth=nth)
    crashed = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr


@pytest.mark.parametrize(
    ("step", "when", "copied"),
    [
        ("add", "before", 1),  # a game kept aside: its record copied, its row not written
        ("move_record", "before", 2),  # a record that waited: copied, its row not moved
        ("move_record", "after", 2),  # moved, the one that waited not removed
    ],
)
def test_a_crash_while_moving_a_record_in_leaves_one_file_of_each_game(
    step: str, when: str, copied: int
) -> None:
    """The app copies a record that waited into records/, then names the
    copy in the game's row.  Killed in between, the copy stayed; the next
    start copied it again: two files of one game in records/ (``ls`` showed
    both, "Your games" one).  Killed at each step, for real: the next start
    leaves one file of each game, the one its row names, whole."""
    history = History()
    history.records_dir.parent.mkdir(parents=True)
    history.records_dir.write_text("a file where records/ should be")
    ends = [datetime(2026, 3, 1, 20, 0, 5, tzinfo=UTC), datetime(2026, 3, 2, 9, 0, 0, tzinfo=UTC)]
    texts = [RECORD_TEXT.replace("a record", f"game {n}") for n in (1, 2)]
    count_game(history, hosted_game_ended(history, ends[0], texts[0]))  # its record waits
    with held(history):
        count_game(history, hosted_game_ended(history, ends[1], texts[1]))  # kept aside whole
    history.records_dir.unlink()
    crash_at("History", step, when, "start")
    assert len(list(history.records_dir.iterdir())) == copied  # made before the crash
    add_pending_games(History())  # the app's next start
    files = sorted(history.records_dir.iterdir())
    assert [path.read_text() for path in files] == texts  # one file of each game
    rows = sorted(history.games(), key=lambda row: row.finished_at)
    assert [row.record for row in rows] == [str(path) for path in files]
    assert pending_games() == []


@pytest.mark.parametrize(
    ("owner", "step", "when", "nth", "replays", "blocked"),
    [
        ("pendinggames", "write_atomic", "after", 1, False, False),  # the game kept, no record
        ("pendinggames", "write_atomic", "after", 2, False, False),  # its record named, not written
        ("History", "keep_record", "after", 1, True, False),  # the record written and named
        ("History", "add", "before", 1, True, False),  # the history not tried yet
        ("History", "add", "after", 1, True, False),  # counted, its file kept aside not removed
        # records/ cannot be written: the record is kept beside the game
        ("pendinggames", "write_atomic", "after", 2, False, True),  # named there, not written
        ("pendinggames", "keep_record_aside", "after", 1, True, True),  # written and named
        ("History", "add", "before", 1, True, True),
    ],
)
def test_a_game_against_bots_killed_as_it_ends_is_counted_once_at_the_next_start(
    owner: str, step: str, when: str, nth: int, replays: bool, blocked: bool
) -> None:
    """The app kept a game's record, then counted the game from a worker
    thread: killed in between, the game was never counted, and its record
    was no row's (one kept aside was even removed as a stray).  Killed for
    real at each step of a game's end, the next start counts the game
    once, with its record whenever that was written, and leaves nothing."""
    history = History()
    if blocked:
        history.records_dir.parent.mkdir(parents=True)
        history.records_dir.write_text("a file where records/ should be")
    crash_at(owner, step, when, "end", RECORD_TEXT, nth=nth)
    if blocked:
        history.records_dir.unlink()  # records/ can be written at the next start
    add_pending_games(history)  # the app's next start
    add_pending_games(history)  # and the one after: still one row
    (row,) = history.games()
    assert (row.won, row.moves) == (True, 50)
    records = sorted(history.records_dir.iterdir()) if history.records_dir.exists() else []
    if replays:
        assert row.record == str(records[0]) and records[0].read_text() == RECORD_TEXT
    else:
        assert row.record is None
    assert len(records) == replays  # no copy that no row names
    assert list(pending_dir().glob("*")) == []


def test_a_write_killed_before_its_rename_leaves_no_hidden_file_for_ever() -> None:
    """An app killed inside an atomic write (the new file written under a
    hidden temporary name, not yet renamed) left ``.game-….json.XXXXXXXX``
    in records/ for ever: nothing read it or removed it.  Killed for real
    as the record is written, the leftover is removed once an hour old (a
    younger one may be a running app's write), the game counted anyway."""
    # The 1st new file is the game's, kept aside; the 2nd, its record.
    crash_at("recordfile", "_publish_new", "before", "end", RECORD_TEXT, nth=2)
    history = History()
    (left,) = history.records_dir.iterdir()
    assert left.name.startswith(".game-") and left.read_text() == RECORD_TEXT
    add_pending_games(history)  # the next start, at once: it may be a running app's
    (row,) = history.games()
    assert row.record is None  # named, never written: counted without it
    assert left.exists()
    hours_ago = (datetime.now(UTC) - timedelta(hours=1, minutes=1)).timestamp()
    os.utime(left, (hours_ago, hours_ago))
    mine = history.records_dir / "notes.json.abcdefgh"  # not a write of threeup's: left alone
    mine.write_text("mine")
    os.utime(mine, (hours_ago, hours_ago))
    add_pending_games(history)  # a start an hour later
    assert list(history.records_dir.iterdir()) == [mine]
    assert list(pending_dir().glob("*")) == []


class FullAfter(History):
    """A history whose file another program holds locked once ``room``
    games have gone in: what a disk with room for one more game's row and
    record, not the next, looks like to the app (a real lock, a real file)."""

    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room
        self.holder: sqlite3.Connection | None = None

    def add(self, game: FinishedGame) -> tuple[int | None, str | None]:
        added = super().add(game)
        self.room -= 1
        if self.room == 0:
            self.holder = sqlite3.connect(self.path, isolation_level=None)
            self.holder.execute("BEGIN EXCLUSIVE")
        return added


def test_games_kept_aside_that_go_in_only_in_part_say_the_rest_still_wait() -> None:
    """Three games kept aside, a disk freed with room for one: "Your games:
    1 finished game kept while the history could not be written is added
    now", and not a word of the other two, while "Your games" showed one
    game of three.  The line says the rest wait, and why."""
    history = History()
    history.add(game(1))
    with held(history):
        for place in (1, 2, 3):
            count_game(history, game(place))
    partly = FullAfter(room=1)
    lines = add_pending_games(partly)
    assert partly.holder is not None
    partly.holder.execute("ROLLBACK")
    partly.holder.close()
    assert lines == [
        "Your games: 1 finished game not counted yet is added now",
        f"Your games: 2 more finished games kept aside are not added yet ({history.path} is"
        " locked by another program); they are added when the history can be written",
    ]
    assert [line_severity(line) for line in lines] == ["information", "warning"]
    assert len(pending_games()) == 2
    assert add_pending_games(history) == [
        "Your games: 2 finished games not counted yet are added now"
    ]
    assert rows(history) == 4


def test_a_game_still_being_kept_is_left_to_its_app_by_another_apps_count() -> None:
    """Two apps of one account: one keeps the game it just ended (its
    file first, naming its record, then the record), while the other
    counts the games kept aside (its start, its "Your games").  That count
    took the game before its record was written: its row had no record,
    for good, and the record written a moment later was named by nothing.
    Now a game being kept is passed over, and its own app counts it, with
    its record, once it is kept whole."""
    # An app ending a game against bots, stopped (SIGSTOP, for real) as it
    # writes the record its game's file names now, nothing more done.
    keeper = subprocess.Popen(
        halted_at("SIGSTOP", "recordfile", "write_atomic", "before", "end", RECORD_TEXT),
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _pid, status = os.waitpid(keeper.pid, os.WUNTRACED)
        assert os.WIFSTOPPED(status), keeper.stderr.read() if keeper.stderr else status
        (being_kept,) = pending_games()
        assert add_pending_games(History()) == []  # the other app's count, meanwhile
        assert pending_games() == [being_kept]
        assert not History().path.exists() or History().games() == []
    finally:
        keeper.send_signal(signal.SIGCONT)
    _out, err = keeper.communicate(timeout=60)
    assert keeper.returncode == 0, err
    (row,) = History().games()
    assert row.record is not None and Path(row.record).read_text() == RECORD_TEXT
    add_pending_games(History())  # the next count: nothing left, nothing doubled
    assert len(History().games()) == 1
    assert list(pending_dir().iterdir()) == []  # its lock file gone with it
