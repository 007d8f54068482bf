"""A FIFO where threeup expects one of its files: never a wait.

Opening a FIFO for writing waits until something opens it for reading,
which nothing ever does: a FIFO for a kept game's lock file kept the start
screen from ever showing, and one for the history (or its lock) held the
app's history worker, and with it the app's exit, forever.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from threeup_tui.client.local import bot_game
from threeup_tui.history import FinishedGame, History, HistoryError, SeatEntry
from threeup_tui.netplay.tokens import TokenStore
from threeup_tui.recordfile import lock_path
from threeup_tui.savedgame import kept_games, new_journal

WAIT = 5.0  # seconds: far more than any of these takes


def without_waiting(call: Callable[[], Any], fifo: Path) -> Any:
    """What ``call`` returns (or raises), failing the test if it waits on
    ``fifo``; then the FIFO is opened for reading, to let the call go."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as err:  # handed to the test below
            outcome["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(WAIT)
    if thread.is_alive():
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))  # the writer's open returns
        thread.join(WAIT)
        pytest.fail(f"waited on the FIFO {fifo.name}")
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def a_game() -> FinishedGame:
    seats = (SeatEntry("me", "you"), SeatEntry("bot", "bot", "greedy"))
    return FinishedGame(seats, 0, 1, True, False, 20, 15)


async def test_a_fifo_for_a_kept_games_lock_is_no_wait_and_the_game_is_offered() -> None:
    journal = new_journal()
    client = bot_game(players=2, seed=3, bot_delay=0.0, journal=journal)
    await client.start()
    await client.close()  # in its set-up: kept
    fifo = lock_path(journal)
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)
    games, aside = without_waiting(kept_games, fifo)
    assert [g.journal for g in games] == [journal] and aside == []


def test_a_fifo_for_the_historys_lock_is_no_wait_and_the_game_counts() -> None:
    history = History()
    history.path.parent.mkdir(parents=True)
    fifo = lock_path(history.path)
    os.mkfifo(fifo)
    without_waiting(lambda: history.add(a_game()), fifo)
    assert history.stats().total.games == 1


def test_a_fifo_for_the_history_is_one_line_not_a_wait() -> None:
    history = History()
    history.path.parent.mkdir(parents=True)
    os.mkfifo(history.path)
    with pytest.raises(HistoryError) as caught:
        without_waiting(lambda: history.add(a_game()), history.path)
    words = "not a regular file (a FIFO, a device or a socket)"
    assert str(caught.value) == f"Your games: cannot use {history.path}: {words}"


@pytest.mark.parametrize("what", ["fifo", "device"])
def test_a_history_that_is_no_file_is_told_so_when_read(what: str) -> None:
    """Your games read a FIFO or a device in the history's place (here a
    link to /dev/zero) and said "disk I/O error"; adding a game said what
    it is, and now reading says the same."""
    history = History()
    history.path.parent.mkdir(parents=True)
    if what == "fifo":
        os.mkfifo(history.path)
    else:
        history.path.symlink_to("/dev/zero")
    words = "not a regular file (a FIFO, a device or a socket)"
    for read in (history.stats, history.games):
        with pytest.raises(HistoryError) as caught:
            without_waiting(read, history.path)
        assert str(caught.value) == f"Your games: cannot use {history.path}: {words}"


def test_a_fifo_for_the_seat_tokens_lock_is_no_wait_and_the_token_is_kept(
    tmp_path: Path,
) -> None:
    store = TokenStore(tmp_path / "seats.json")
    fifo = lock_path(store.path)
    os.mkfifo(fifo)
    without_waiting(lambda: store.remember("127.0.0.1:43001", "Tia", "table", "t" * 32), fifo)
    assert store.token_for("127.0.0.1:43001", "Tia") == "t" * 32
