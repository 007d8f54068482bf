"""Keys that reach the app together (typed fast, one tmux send-keys) land
in a line in the order they were typed: the real app in a tmux pane at
80x24, its own config directory (the suite's)."""

from __future__ import annotations

import sys

from .conftest import Tmux

NAME_LINE = "█  {}"  # the name box's line, as the pane shows it


def test_keys_typed_at_once_into_the_name_box_land_in_order(tmux: Tmux) -> None:
    """With "Ann" in the box, "BSpace BSpace BSpace K i m" sent at once left
    it empty ("you", its placeholder): the letters were typed in the box's
    own queue, over the selected "Ann", and the Backspaces, run by the app
    after them, erased them.  "BSpace J" changed nothing."""
    tmux.new("app", f"{sys.executable} -m threeup_tui; echo EXIT=$?; sleep 60")
    tmux.wait_for("app", "Play against bots")
    tmux.keys("app", "n")
    tmux.wait_for("app", "Your name at the table")
    for key in ("A", "n", "n"):  # one at a time: the box's line, slowly
        tmux.keys("app", key)
    tmux.wait_for("app", NAME_LINE.format("Ann"))
    tmux.keys("app", "Enter")
    tmux.wait_for("app", "Ann against 3 greedy bots")

    tmux.keys("app", "n")
    tmux.wait_for("app", NAME_LINE.format("Ann"))  # shown, and selected
    tmux.keys("app", "BSpace", "BSpace", "BSpace", "K", "i", "m")  # one burst
    tmux.wait_for("app", NAME_LINE.format("Kim "))
    tmux.keys("app", "BSpace", "J")
    tmux.wait_for("app", NAME_LINE.format("KiJ "))
    tmux.keys("app", "Enter")
    tmux.wait_for("app", "KiJ against 3 greedy bots")
    tmux.keys("app", "q")
    assert "EXIT=0" in tmux.wait_for("app", "EXIT=")


def test_a_name_pasted_into_the_name_box_is_typed_there(tmux: Tmux) -> None:
    """A bracketed paste (tmux paste-buffer -p) goes in, as the keys do: in
    the app's turn, over the box's selected text, its first line only."""
    tmux.new("app", f"{sys.executable} -m threeup_tui; echo EXIT=$?; sleep 60")
    tmux.wait_for("app", "Play against bots")
    tmux.keys("app", "n")
    tmux.wait_for("app", "Your name at the table")
    tmux.run("set-buffer", "-b", "name", "Zoe Smith\nrm -rf ~")
    tmux.run("paste-buffer", "-p", "-b", "name", "-t", "app")
    tmux.wait_for("app", NAME_LINE.format("Zoe Smith "))
    tmux.keys("app", "Enter")
    tmux.wait_for("app", "Zoe Smith against 3 greedy bots")
    tmux.keys("app", "q")
    assert "EXIT=0" in tmux.wait_for("app", "EXIT=")
