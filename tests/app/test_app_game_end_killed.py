"""A game against bots whose app is killed as the game ends is counted at
the next start, once, with its record.

The table writes the last move and the result to its journal, then tells
the seats; the app keeps the game aside as its view shows the game over.
An app killed in between (a few milliseconds) left a journal that said
the game was over and nothing else: the next start discarded it, and the
game was in no row and no record.  Real apps, each killed for real
(SIGKILL, from inside, at a chosen step), a real SQLite history and real
state and data directories.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from app_helpers import fast_launcher, wait_for, writing
from test_app_home import games_now, notes, on
from test_app_kept_game import on_start_screen

from threeup_tui import history as history_module
from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.help import HelpScreen
from threeup_tui.history import History
from threeup_tui.leftgame import keep_left_games
from threeup_tui.paths import games_dir, tables_dir
from threeup_tui.pendinggames import add_pending_games, pending_dir, pending_games
from threeup_tui.rules import parse_record, replay
from threeup_tui.tablefile import table_file_path

# A whole game against a greedy bot in the real app, killed at STEP:
# "journal": the moment the table has written the finished game's journal
# (before it tells the seats); "counted": once the app's row is in;
# "rematch": once the next game is dealt (the host's rematch) and in the
# table file, in its set-up, beside the finished game's journal.  WHERE:
# "play", a game against bots; "host", a table hosted on 127.0.0.1 with a bot.
PLAY_UNTIL_KILLED = """
import asyncio, os, signal, sys
import json
from threeup_tui import recordfile
from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.bots import GreedyBot
from threeup_tui.history import History
from threeup_tui.launcher import HostSettings, Launcher
from threeup_tui.table import Table
from threeup_tui.tablefile import table_file_path

step, where = sys.argv[1:3]

def kill():
    os.kill(os.getpid(), signal.SIGKILL)

write, add = recordfile.JournalWriter.write, History.add

def write_then_kill(self, path, state):
    write(self, path, state)
    if step == "journal" and state.over:
        kill()

def add_then_kill(self, game):
    add(self, game)
    if step == "counted":
        kill()

recordfile.JournalWriter.write, History.add = write_then_kill, add_then_kill

save = Table.save_table_file

def save_then_kill(self):
    save(self)
    deal = json.loads(table_file_path(self.config.journal).read_text()).get("deal")
    if step == "rematch" and deal is not None and deal["game"] == 2:
        kill()

Table.save_table_file = save_then_kill

class Loopback(Launcher):
    async def host(self, _):
        settings = HostSettings(name="me", bind="127.0.0.1", port=0, players=2, bots=1, seed=12)
        return await super().host(settings)

async def main():
    launcher = Loopback(announce_address="off")
    launcher.bot_delay = 0
    spec = StartSpec(mode=where, players=2, seed=12, name="me")
    app = create_app(launcher, spec)
    async with app.run_test(size=(100, 30)):
        bot = GreedyBot(3)
        while app.session is None or app.session.lobby is None:
            await asyncio.sleep(0.01)
        if where == "host":
            app.session.client.start_game()
        while app.session.view is None:
            await asyncio.sleep(0.01)
        session = app.session
        session.client.choose_face_up(bot.choose_face_up(session.view))
        acted = -1
        for _ in range(20000):
            await asyncio.sleep(0.005)
            view = session.view
            if step == "rematch" and view.phase == "over" and History().games():
                session.client.rematch()  # the host's r, once the game is counted
            mine = view is not None and view.phase != "setup" and view.my_turn
            if mine and view.moves_played > acted:
                acted = view.moves_played
                session.client.submit(bot.choose_move(view))

asyncio.run(main())
"""

# The next start, as far as the games kept: its worker's look at the games
# left over by killed apps, then the games kept aside counted.  Each waits
# for GO to appear first, so that two start at once.
START = """
import sys, time
from pathlib import Path
from threeup_tui.history import History
from threeup_tui.launcher import Launcher
from threeup_tui.pendinggames import add_pending_games

go = Path(sys.argv[1])
while not go.exists():
    time.sleep(0.001)
Launcher().keep_left_games(History())
add_pending_games(History())
"""


def play_until_killed(step: str, where: str = "play") -> str:
    """Play a game in an app killed at ``step``; the journal it left."""
    played = subprocess.run(
        [sys.executable, "-c", PLAY_UNTIL_KILLED, step, where],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == -signal.SIGKILL, played.stderr[-2000:]
    (journal,) = (games_dir() if where == "play" else tables_dir()).glob("*.json")
    return journal.read_text()


def counted_once(journal: str, venue: str = "bots") -> None:
    """One row of the game the journal holds, its record that very game,
    and nothing left behind: no kept game, no game or record kept aside
    (a hosted table's journal stays in tables/, for --resume)."""
    (row,) = History().games()
    _state, verdict = replay(parse_record(json.loads(journal)))
    assert verdict.ok and verdict.finished
    assert (row.won, row.moves, row.venue) == (verdict.winner == 0, verdict.moves, venue)
    assert row.record is not None
    assert json.loads(Path(row.record).read_text()) == json.loads(journal)  # it replays
    assert [p.name for p in History().records_dir.iterdir()] == [Path(row.record).name]
    assert not games_dir().exists() or list(games_dir().iterdir()) == []
    assert list(pending_dir().iterdir()) == []


async def start_app_and_wait_for_the_history() -> list[str]:
    """Start the app as a player does; what it said once the history is written."""
    app = create_app(fast_launcher(), StartSpec(name="me"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        start = await on_start_screen(pilot)
        await wait_for(pilot, lambda: bool(games_now()), timeout=20, what="the game counted")
        await wait_for(pilot, lambda: not writing(app), what="the history written")
        assert start.saved is None  # over: nothing to continue
        return notes(app)


async def test_an_app_killed_as_the_journal_ends_the_game_loses_no_game() -> None:
    """Killed right after the table wrote the finished game's journal: the
    next start counts the game, with its record; the one after adds nothing."""
    journal = play_until_killed("journal")
    assert not History().path.exists() or History().games() == []  # lost, as it was
    said = await start_app_and_wait_for_the_history()
    counted_once(journal)
    # Told as it is: the history could be written all along.
    assert said == ["Your games: 1 finished game not counted yet is added now"]
    await start_app_and_wait_for_the_history()
    counted_once(journal)


async def test_an_app_killed_at_the_game_over_box_counts_its_game_once() -> None:
    """Killed once the game is counted (the journal still there, over): the
    next start counts it no second time, and leaves no copy of its record."""
    journal = play_until_killed("counted")
    assert len(History().games()) == 1
    await start_app_and_wait_for_the_history()
    counted_once(journal)


def test_two_apps_starting_at_once_count_the_game_left_once(tmp_path: Path) -> None:
    """Two starts of one account at the same moment, each a real process:
    the game left by a killed app is one row, with one record."""
    journal = play_until_killed("journal")
    go = tmp_path / "go"
    starts = [
        subprocess.Popen([sys.executable, "-c", START, str(go)], stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    time.sleep(1.0)  # both are waiting, their imports done
    go.touch()
    for start in starts:
        _out, err = start.communicate(timeout=60)
        assert start.returncode == 0, err
    counted_once(journal)


@pytest.mark.parametrize("step", ["journal", "counted"])
async def test_a_table_hosted_from_the_app_killed_as_its_game_ends_counts_it_once(
    step: str,
) -> None:
    """The same window at a table hosted from the app: the host's game was
    lost (its journal in tables/, over, offered by no start screen).  The
    next start counts it once, and the start after that keeps it no more."""
    journal = play_until_killed(step, "host")
    await start_app_and_wait_for_the_history()
    counted_once(journal, "host")
    keep_left_games(History())  # a start's: the game the history holds is not kept aside again
    assert pending_games() == []
    await start_app_and_wait_for_the_history()
    counted_once(journal, "host")
    assert len(list(tables_dir().glob("*.json"))) == 1  # still there, for --resume


def test_a_table_stopped_in_its_next_games_set_up_counts_the_game_before_once() -> None:
    """A table hosted from the app, stopped (here killed) once its next game
    is dealt: the table file numbers that game, beside the journal of the
    game before.  The next start counted the finished game a second time,
    as the next game's number (two rows of one game, and the next game,
    played after a resume, read as counted already); now it is the one row
    it was."""
    journal = play_until_killed("rematch", "host")
    (table_file,) = tables_dir().glob("*.json.table")
    assert json.loads(table_file.read_text())["game_number"] == 2
    keep_left_games(History())  # a start's
    add_pending_games(History())
    (row,) = History().games()
    assert row.game_number == 1
    counted_once(journal, "host")


async def test_a_start_answers_keys_while_a_locked_history_is_asked_of_a_game_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game left over by a killed app, found by the next start while
    another program holds the history locked: the history was asked on the
    UI thread, and the start screen froze for the lock's wait (a second)
    before it painted or answered a key.  Now the start screen answers at
    once, the game is kept aside only once the lock's wait is over, and it
    is counted once the lock is let go."""
    journal = play_until_killed("journal")
    # Waited long here, so that the frozen start is told from a quick one
    # without timing anything: a key is answered long before it ends.
    monkeypatch.setattr(history_module, "LOCK_WAIT", 30.0)
    History().path.parent.mkdir(parents=True, exist_ok=True)
    holder = sqlite3.connect(History().path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the history
    locked = True
    app = create_app(fast_launcher(), StartSpec(name="me"))
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await on_start_screen(pilot)
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: on(app, HelpScreen), what="the rules, on ?")
            # Answered while the history is still asked: nothing kept aside
            # yet, the journal where it was.
            assert writing(app) and pending_games() == []
            assert [p.name for p in games_dir().glob("*.json")] != []
            holder.execute("ROLLBACK")
            locked = False
            await wait_for(pilot, lambda: bool(games_now()), timeout=40, what="the game counted")
            await wait_for(pilot, lambda: not writing(app), timeout=40, what="the history written")
    finally:
        if locked:
            holder.execute("ROLLBACK")
        holder.close()
    counted_once(journal)


class CountingHistory(History):
    """The real history file, counting how often it is asked whether it holds a game."""

    asked = 0

    def holds(self, table_id: str, game_number: int, seat: int) -> bool:
        self.asked += 1
        return super().holds(table_id, game_number, seat)


def test_a_locked_history_is_asked_once_by_a_start_that_finds_many_tables() -> None:
    """Three tables stopped with their games over, found by a start while
    another program holds the history locked: each question waited out the
    lock (a second), a start finding 50 tables waited 50 s in its worker,
    and quitting the app waited for it on a blank screen.  The history is
    asked once; the games are kept aside all the same, and counted, each
    once, when it can be written."""
    journal = play_until_killed("counted", "host")
    (table_file,) = tables_dir().glob("*.json.table")
    for i in range(2):  # two more tables, each with a game of its own
        copy = tables_dir() / f"table-copy-{i}.json"
        copy.write_text(journal)
        info = json.loads(table_file.read_text())
        info["table_id"] = f"{info['table_id']}-copy-{i}"
        table_file_path(copy).write_text(json.dumps(info))
        table_file_path(copy).chmod(0o600)
    holder = sqlite3.connect(History().path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the history
    try:
        history = CountingHistory()
        keep_left_games(history)
        assert history.asked == 1
        assert len(pending_games()) == 3  # the one counted too: it could not be told
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    add_pending_games(History())
    assert sorted(row.table_id or "" for row in History().games()) == sorted(
        json.loads(path.read_text())["table_id"] for path in tables_dir().glob("*.json.table")
    )
    assert pending_games() == []
