"""The line the app that hosts a table leaves on the terminal as it stops
the table to be resumed: one line at 80 columns for any game the table can
reach, and at 40 columns lines broken between words, never inside one."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len

from threeup_tui.launcher import stopped_goodbye
from threeup_tui.limits import MAX_GAMES
from threeup_tui.paths import tables_dir
from threeup_tui.terminals import fitted_lines


@pytest.mark.parametrize("number", [0, 1, 123, 99_999, MAX_GAMES])
@pytest.mark.parametrize("in_game", [True, False], ids=["in a game", "between games"])
def test_the_app_hosts_goodbye_fits_80_columns_and_wraps_between_words_at_40(
    number: int, in_game: bool
) -> None:
    """ "threeup: stopped between games 123 and 124; start threeup, then
    "Resume your table"" took 82 columns (96 at a billion games), and the
    terminal broke the last word onto a line of its own."""
    said = stopped_goodbye(number, in_game and number > 0, tables_dir() / "table-1.json")
    assert cell_len(said) <= 80, said
    assert fitted_lines(said, 80) == said  # one line
    lines = fitted_lines(said, 40).split("\n")
    assert all(cell_len(line) <= 40 for line in lines), lines
    assert " ".join(lines) == said  # broken only between words
    assert lines[-1] == 'start threeup, then "Resume your table"', lines


def test_a_resume_command_is_never_broken_across_lines(tmp_path: Path) -> None:
    """A table hosted with --record is brought back by its command: broken
    at its spaces (one inside its quoted path), pasted it was two commands."""
    journal = tmp_path / "our party; night" / "game night.json"
    said = stopped_goodbye(12, False, journal)
    for columns in (40, 60, 80):
        lines = fitted_lines(said, columns).split("\n")
        (command,) = [line for line in lines if "--resume" in line]
        assert command.startswith("`threeup host --resume ") and command.endswith("`"), lines
        assert " ".join(lines) == said
