"""Where threeup keeps things on disk: the platformdirs directories.

- state: seat tokens, journals, and records kept aside (``THREEUP_STATE_DIR`` overrides);
- config: the settings file (``THREEUP_CONFIG_DIR``);
- data: the history of finished games and their records (``THREEUP_DATA_DIR``).

The overrides let tests (and anyone) point each at another directory.  A
confined guest (``THREEUP_GUEST=1``: a player of the SSH front door) writes
nothing at all: no settings, no history, no records.
"""

from __future__ import annotations

import os
import shlex
import unicodedata
from pathlib import Path

from platformdirs import user_config_dir, user_data_dir, user_state_dir

APP = "threeup"


def _dir(variable: str, default: str) -> Path:
    """The directory ``variable`` names, else ``default``; made absolute
    against the working directory now: the history keeps its records' paths,
    and a relative one ("data/records/game-1.json") was "gone" to an app
    started anywhere else."""
    override = os.environ.get(variable)
    return (Path(override) if override else Path(default)).absolute()


def state_dir() -> Path:
    return _dir("THREEUP_STATE_DIR", user_state_dir(APP, appauthor=False))


def config_dir() -> Path:
    return _dir("THREEUP_CONFIG_DIR", user_config_dir(APP, appauthor=False))


def data_dir() -> Path:
    return _dir("THREEUP_DATA_DIR", user_data_dir(APP, appauthor=False))


def no_home() -> str | None:
    """Why the directories cannot be named, in one line; None when they can.
    platformdirs raises RuntimeError where there is no home directory (HOME
    not set, and a user with no entry in the password file, as a container
    run as a bare uid has) and no variable names the directory instead."""
    try:
        for directory in (state_dir, config_dir, data_dir):
            directory()
    except RuntimeError:
        return (
            "no home directory to keep settings, games and seat tokens in: "
            "set HOME (or XDG_CONFIG_HOME, XDG_STATE_HOME and XDG_DATA_HOME)"
        )
    return None


def confined_guest() -> bool:
    """A guest of someone else's machine (the SSH door): keep nothing on disk."""
    return os.environ.get("THREEUP_GUEST", "") not in ("", "0")


def tables_dir() -> Path:
    """Where a table hosted from the app keeps its journal, so that a crash
    of the app loses no move (``threeup host --resume FILE``)."""
    return state_dir() / "tables"


def games_dir() -> Path:
    """Where a game against bots keeps its journal until it is over, so that
    leaving, quitting or a crash loses no move ("Continue your game")."""
    return state_dir() / "games"


def records_aside_dir() -> Path:
    """Where a table keeps a finished game's record that the directory of
    its journal cannot take (read-only, full, gone): the next game's
    journal is written over the only other copy.  It is moved beside the
    journal when a later game ends there, or found here on a resume."""
    return state_dir() / "records-aside"


def not_a_directory(directory: Path) -> str | None:
    """What stands where ``directory``, or a directory above it, should be,
    in words ("/x/data is a file, not a directory"); None when nothing
    does.  Making the directory then fails in Python's words: "File exists"
    for the directory itself, "Not a directory" for one below the file,
    neither of which says which path is wrong, nor what to do about it."""
    for place in (directory, *directory.parents):
        try:
            if place.is_dir():
                return None
            if place.is_file():
                return f"{place} is a file, not a directory"
            if os.path.lexists(place):  # a link to nothing, a FIFO, a device
                return f"{place} is not a directory"
        except OSError:
            return None  # a place that cannot be looked at: its own error says so
    return None


def no_directory(folder: Path) -> str | None:
    """Why no file can be written into ``folder`` (a path the user named:
    ``host --record``, ``simulate --records``, the result box's Save), in
    the words every such check says it: "no directory /x/gmaes" when it is
    not there, :func:`not_a_directory`'s when a file stands in its way;
    None when it is a directory, or cannot be looked at (the write's own
    error then says why).  Nothing is made: a typo on the way
    ("gmaes/x.json") made a new tree, the file in it where nobody would look.
    The command line and the result box said it in words of their own."""
    folder = folder.absolute()
    try:
        if folder.is_dir():
            return None
    except OSError:
        return None
    return not_a_directory(folder) or f"no directory {folder}"


def home_short(path: Path) -> str:
    """``path`` with the home directory as ~ (shorter to read and to type);
    the whole path where there is no home (Path.home() raises RuntimeError:
    HOME not set, and a user with no entry in the password file)."""
    absolute = path.absolute()
    try:
        home = Path.home()
    except RuntimeError:
        return str(absolute)
    return f"~/{absolute.relative_to(home)}" if absolute.is_relative_to(home) else str(absolute)


def in_tables_dir(journal: Path) -> bool:
    """Whether ``journal`` is one the app keeps (a table hosted from it
    without --record): the start screen offers it ("Resume your table")."""
    return journal.absolute().parent == tables_dir().absolute()


def resume_command(journal: Path, headless: bool = False) -> str:
    """The command that brings a table back from its journal, as the host
    is told it (the app's chat and goodbye line, a headless host's log):
    one line to copy and paste, the path quoted for the shell where it must
    be (a space or a shell character in it made two words, or a command).
    A journal whose path no one line can name (:func:`unpastable`) is
    refused before its table opens (hostargs.check_journal_pastable)."""
    shown = home_short(journal)
    # The ~ stays out of the quotes, or the shell does not expand it.
    home, rest = ("~/", shown[2:]) if shown.startswith("~/") else ("", shown)
    path = home + shlex.quote(rest)
    return f"`threeup host {'--headless ' if headless else ''}--resume {path}`"


def unpastable(journal: Path) -> str | None:
    """What in ``journal``'s path, as :func:`resume_command` shows it, no
    command of one line can hold, in words; None when there is nothing.
    A line break (or a tab, which a terminal shows as spaces, or another
    control character) has no quoting in sh that keeps the command one line
    (bash's and zsh's $'...' is not every sh's: dash 0.5.12, Debian's sh,
    reads a "$" and a backslash there), and a byte that is not UTF-8 prints
    as an escape that names another file."""
    for ch in home_short(journal):
        if ch in "\n\r":
            return "a line break"
        if unicodedata.category(ch) == "Cs":  # a byte the file system's name held, not UTF-8
            return "a byte that is not UTF-8"
        if unicodedata.category(ch) == "Cc":
            return f"a control character ({ch!r})"
    return None


def how_to_resume(journal: Path) -> str:
    """What brings a table hosted from the app back, told as the app stops
    (or might): the start screen offers a table the app keeps, so "Resume
    your table" is all there is to do (the command held a path of 100
    characters, two lines at 80 columns).  Any other journal (--record) is
    brought back by its command."""
    if in_tables_dir(journal):
        return 'start threeup, then "Resume your table"'
    return f"{resume_command(journal)} brings it back"
