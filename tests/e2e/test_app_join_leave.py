"""`threeup join` in a real terminal (a tmux pane at 80x24, a shell around
it) against a headless host on loopback: leaving the table ends the
command, and the shell shows how to come back.

It once went on to the start screen: a player who took the command for
ended typed a shell command there, `n` opened the name box, and the rest
of the line was saved as their name.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from .conftest import Tmux

ENV = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}


def test_leaving_a_table_joined_from_the_shell_ends_the_command(
    tmux: Tmux, headless_host: Callable[..., tuple[object, int]], own_directories: dict[str, Path]
) -> None:
    _, port = headless_host("--players", "2", "--bots", "1", "--code", "pizza")
    join = f"{sys.executable} -m threeup_tui join 127.0.0.1:{port} --name Ann --code pizza"
    # After the command, the next to read the terminal (as the shell would).
    after = 'read -r line; echo "read: $line"'
    tmux.new("ann", f"{join}; echo EXIT=$?; {after}; sleep 60", env=ENV)
    tmux.wait_for("ann", "Chosen 0/3")  # dealt: the game has begun
    tmux.keys("ann", "q")
    tmux.wait_for("ann", "Your seat waits")
    tmux.keys("ann", "y")
    shown = tmux.wait_for("ann", "EXIT=")
    # Typed after leaving, as the player did: the shell reads it, not the app.
    tmux.keys("ann", "n", "ame Zed", "Enter")
    read = tmux.wait_for("ann", "read: ")
    said = " ".join(shown[: shown.index("EXIT=")].split())  # the lines, as one
    assert said == (
        "threeup: you left the table; your seat waits (after a while a bot plays it): "
        f"`threeup join 127.0.0.1:{port} --name Ann --code pizza` takes it back"
    ), shown
    assert "EXIT=0" in shown
    assert "read: name Zed" in read, read
    assert "Traceback" not in read
    settings = own_directories["THREEUP_CONFIG_DIR"] / "settings.toml"
    assert not settings.exists() or "name" not in settings.read_text()
