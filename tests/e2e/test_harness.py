"""The end-to-end tests' own parts (conftest): what they promise holds."""

from __future__ import annotations

import pytest

from .conftest import Tmux


def test_a_pane_is_as_large_as_it_is_made_whatever_the_test_runners_environment(
    tmux: Tmux, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pytest-xdist's workers have COLUMNS=80 and LINES=24, which tmux gave
    every pane, and the app believes them before its terminal: under
    ``pytest -n`` every app in a pane drew at 80 x 24 whatever the pane's
    size, and no window change reached it."""
    monkeypatch.setenv("COLUMNS", "80")  # as in a worker of pytest -n
    monkeypatch.setenv("LINES", "24")
    tmux.kill()  # a server started now, in that environment
    tmux.new("keeper", "sleep 3600")
    tmux.new("pane", "sh -c 'echo size=${COLUMNS:-none}x${LINES:-none}; sleep 60'", 100, 30)
    tmux.wait_for("pane", "size=nonexnone", timeout=10)
