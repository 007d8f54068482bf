"""A game against bots survives its app being killed: real processes in a
tmux pane at 80x24, `kill -9`, and the next `threeup` continues it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable

from .conftest import Tmux

ENV = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}
TURN = re.compile(r"YOUR TURN.*turn (\d+)")


def table_lines(screen: str) -> list[str]:
    """What must come back: the turn, the bots' rows and our own cards."""
    keep = ("YOUR TURN", "greedy bot", "Up ", "Hand ")
    return [line.rstrip() for line in screen.splitlines() if line.lstrip().startswith(keep)]


def turn_of(screen: str) -> int:
    found = TURN.search(screen)
    assert found is not None, screen
    return int(found.group(1))


def wait_for_turn_after(tmux: Tmux, name: str, turn: int, timeout: float = 30.0) -> str:
    """The screen once it is our turn again, after turn ``turn``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = tmux.screen(name)
        found = TURN.search(screen)
        if found is not None and int(found.group(1)) > turn:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"our turn after turn {turn} never came:\n{tmux.screen(name)}")


def wait_until(ready: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def app_pid(tmux: Tmux, name: str) -> int:
    pane = tmux.flag(name, "#{pane_pid}")
    children = subprocess.run(["pgrep", "-P", pane], capture_output=True, text=True)
    (pid,) = children.stdout.split()
    return int(pid)


def test_a_game_against_bots_killed_mid_game_is_continued_from_the_start_screen(
    tmux: Tmux,
) -> None:
    app = f"{sys.executable} -m threeup_tui"
    shell = f"{app} play --players 3 --seed 21 --name Ann; echo EXIT=$?; sleep 60"
    tmux.new("first", shell, env=ENV)
    tmux.wait_for("first", "Choose 3 cards")
    tmux.keys("first", "h")  # the hint selects three cards...
    tmux.wait_for("first", "Chosen 3/3")
    tmux.keys("first", "Enter")  # ...and Enter lays them
    ours = turn_of(tmux.wait_for("first", TURN))
    tmux.keys("first", "h")  # the hint selects our move (thought out off the UI loop)...
    wait_until(lambda: "to do it" in tmux.screen("first"), "the hint's cards")
    tmux.keys("first", "Enter")  # ...and Enter plays it; then the bots play
    screen = wait_for_turn_after(tmux, "first", ours)
    before = table_lines(screen)
    os.kill(app_pid(tmux, "first"), signal.SIGKILL)
    tmux.wait_for("first", "EXIT=137")

    tmux.new("second", f"{app}; echo EXIT=$?; sleep 60", env=ENV)
    start = tmux.wait_for("second", "Continue your game")
    assert "2 greedy bots" in start
    tmux.keys("second", "Enter")  # Continue is first on the menu
    again = tmux.wait_for("second", TURN)
    assert table_lines(again) == before  # the same game, where it was left
    # (A game against bots has no chat pane since e598cff: the table's "Ann
    # came back to seat 1", which this once read there, is nobody's to read.)
    assert "came back" not in again
