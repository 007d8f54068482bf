"""The app draws in UTF-8 whatever the locale's encoding: a real terminal
(tmux at 80x24) and the real app, started under a Latin-1 locale."""

from __future__ import annotations

import sys

from .conftest import Tmux


def test_the_app_draws_its_boxes_under_a_locale_that_is_not_utf8(tmux: Tmux) -> None:
    # PYTHONIOENCODING stands in for an installed ISO-8859-1 locale (this
    # machine has none): either way Python's stderr writes Latin-1.
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "PYTHONIOENCODING": "latin-1"}
    tmux.new("app", f"{sys.executable} -m threeup_tui; echo EXIT=$?; sleep 60", env=env)
    screen = tmux.wait_for("app", "Play against bots")
    assert "\\u" not in screen  # no box or card back written as an escape
    assert "▊ Play against bots" in screen  # the menu's frame, as drawn in UTF-8
    tmux.keys("app", "q")
    assert "EXIT=0" in tmux.wait_for("app", "EXIT=")
