"""The SSH door of a table that stops (cleanly, or killed) and comes back
with ``threeup host --resume``: its players come back with their keys and
seat words to their seats, with the real OpenSSH client in tmux panes
(80x24) and a headless host.
"""

from __future__ import annotations

import re
import signal
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .conftest import THREEUP, Tmux, host_env, stop_hosts, wait_for_line
from .test_ssh_identity import (
    door_command,
    keygen,
    log_lines_for,
    open_pane,
    shown_hand,
    sit_without_a_key,
    start_door,
    wait_exit,
)

Resume = Callable[[], subprocess.Popen[str]]


@pytest.fixture
def resume_host(tmp_path: Path) -> Iterator[Resume]:
    """Starts ``threeup host --headless --resume`` on the journal (and the
    state directory) the ``headless_host`` fixture uses: the same table, on
    the ports it kept."""
    procs: list[subprocess.Popen[str]] = []

    def start() -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            [*THREEUP, "host", "--headless", "--resume", str(tmp_path / "game.json")],
            stderr=subprocess.PIPE,
            text=True,
            env=host_env(tmp_path),
        )
        procs.append(proc)
        wait_for_line(proc, r"(ssh door listening on 127\.0\.0\.1:\d+)")
        return proc

    yield start
    stop_hosts(procs)


def come_back_with(tmux: Tmux, pane: str, door: int, user: str, word: str) -> str:
    """A keyless player gives their seat word at the door; the door's
    prompt as it asked, then the screen once the app shows the table (or
    the door's answer, if it refuses)."""
    open_pane(tmux, pane, door_command(door, user, None))
    asked = tmux.wait_for(pane, "Your seat word, or Enter")
    tmux.keys(pane, word, "Enter")
    answer = tmux.wait_for(pane, re.compile(r"Chat|No seat has that seat word"), timeout=60)
    return asked + answer


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGKILL], ids=["stopped", "killed"])
def test_a_seat_word_given_in_the_lobby_seats_its_player_after_a_stop_and_resume(
    headless_host, resume_host: Resume, tmux: Tmux, stop: signal.Signals
) -> None:
    """A table stopped (or killed) in its lobby comes back with its lobby
    seats open again; the door of the resumed table did not know the words
    the first door gave ("No seat has that seat word"), and a keyless
    player could not get back in as themselves."""
    proc, door = start_door(headless_host, "--players", "3", "--bots", "1")
    word = sit_without_a_key(tmux, door, "ida")
    tmux.wait_for("ida", "2. ida", timeout=60)
    proc.send_signal(stop)
    assert proc.wait(10) == (0 if stop == signal.SIGINT else -stop)
    wait_exit(tmux, "ida")
    resume_host()
    seated = come_back_with(tmux, "ida-again", door, "ida", word)
    assert "No seat has that seat word" not in seated
    seated = tmux.wait_for("ida-again", re.compile(r"2\. ida +● here +\(you\)"), timeout=30)
    assert "Your seat word is" not in seated  # no new word: the same identity


def test_a_seat_word_takes_its_player_back_to_their_hand_after_a_kill_and_resume(
    headless_host, resume_host: Resume, tmux: Tmux, tmp_path: Path
) -> None:
    """Killed mid-game (kill -9: nothing said, nothing saved at the stop),
    the resumed table gives a keyless player their seat and their cards."""
    proc, door = start_door(headless_host, "--players", "2", "--bots", "1")
    word = sit_without_a_key(tmux, door, "ida")
    hand = shown_hand(tmux.wait_for("ida", "Choose 3 cards", timeout=60))
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    wait_exit(tmux, "ida")  # the connection is gone with the host
    resume_host()
    seated = come_back_with(tmux, "ida-again", door, "ida", word)
    assert "No seat has that seat word" not in seated
    # Before the word, the door cannot know the seat is theirs, nor say it is not.
    assert "none of its seats is yours" not in seated
    assert "your seat word takes you back to your seat" in seated
    again = tmux.wait_for("ida-again", "Choose 3 cards", timeout=60)
    assert shown_hand(again) == hand


def test_a_new_table_honours_no_word_an_old_table_gave(
    headless_host, tmux: Tmux, tmp_path: Path
) -> None:
    """A word is a player's identity at one table: a new table (another
    journal, in the same state directory) does not take it back."""
    proc, door = start_door(headless_host, "--players", "3", "--bots", "1")
    word = sit_without_a_key(tmux, door, "ida")
    tmux.wait_for("ida", "2. ida", timeout=60)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(10) == 0
    (tmp_path / "game.json.table").rename(tmp_path / "old.json.table")  # a new table's name
    _proc, door = start_door(headless_host, "--players", "3", "--bots", "1")
    told = come_back_with(tmux, "ida-again", door, "ida", word)
    assert "No seat has that seat word" in told


def test_a_word_whose_seat_went_to_another_watches_as_its_player(
    headless_host, tmux: Tmux, tmp_path: Path
) -> None:
    """A keyless player's seat opens when they drop in the lobby, and may go
    to someone else before they are back (or before a resumed table sees
    them). Their word was then "No seat has that seat word", a wrong try
    that slowed their address as a guesser's; it is who they are, and they
    watch, as a key without a seat does."""
    proc, door = start_door(headless_host, "--players", "2", "--bots", "1")
    open_pane(tmux, "ida", door_command(door, "ida", None))
    tmux.wait_for("ida", "or Enter for a new seat")
    tmux.keys("ida", "Enter")
    shown = tmux.wait_for("ida", re.compile(r"Your seat word is [a-z]+-\d{3}"))
    word = re.findall(r"Your seat word is ([a-z]+-\d{3})", shown)[-1]
    tmux.keys("ida", "C-c")  # gone before she sat down (as after a lobby drop): anyone's seat
    wait_exit(tmux, "ida")
    open_pane(tmux, "ann", door_command(door, "ann", keygen(tmp_path / "ann")))
    tmux.wait_for("ann", "Choose 3 cards", timeout=60)  # the last seat: the game begins
    told = come_back_with(tmux, "ida-again", door, "ida", word)
    assert "No seat has that seat word" not in told
    tmux.wait_for("ida-again", "1 watching", timeout=30)
    assert "unknown seat word" not in log_lines_for(proc, 1.0, until="watches")
