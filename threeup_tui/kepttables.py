"""A table hosted from the app and stopped in the middle of a game (its app
quit, killed, or its terminal closed): its journal stays in the state
directory's ``tables/`` for ``threeup host --resume``, and the start screen
offers it again ("Resume your table").

The host who reopened ``threeup`` after a mistake was offered nothing: the
command that brings the table back had been in the chat of an app that
was gone, and hosting again on the same port opened a new, empty table
that turned the waiting players away.  Only a table with a game under way
is offered (a table stopped in its lobby or between games has no move to
lose), and never one that another window hosts (it holds the lock).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .leftgame import keep_left_game
from .paths import tables_dir
from .recordfile import read_json
from .rules import MalformedRecord
from .savedgame import left_words, unheld_journals
from .tablefile import TableFileError, read_table_file, table_file_path
from .textclean import clean_text


@dataclass(frozen=True)
class KeptTable:
    """A hosted table that can be resumed, as the start screen offers it."""

    journal: Path
    table_name: str
    host_name: str  # the name of the host's own seat
    game_number: int
    left_at: float = 0.0  # when its table file last changed, 0: unknown

    def when(self, now: float | None = None) -> str:
        return left_words(self.left_at, now)


def kept_tables() -> list[KeptTable]:
    """Tables stopped in the middle of a game that no window hosts, the
    newest first.  A table stopped with its game over has its host's game
    kept aside to be counted first, if nothing holds it: its app may have
    been killed between the table's last journal write and keeping the
    game (leftgame).  Its journal stays, for ``--resume``."""
    found = []
    for journal in unheld_journals(tables_dir()):
        kept = _read(journal)
        if kept is not None:
            found.append(kept)
        elif _game_over_in(journal):
            keep_left_game(journal, venue="host")
    return sorted(found, key=lambda t: t.left_at, reverse=True)


def _read(journal: Path) -> KeptTable | None:
    """The table, if it has a game under way; None for anything else (what
    cannot be read is left alone: ``--resume`` says what is wrong with it)."""
    file = table_file_path(journal)
    try:
        info = read_table_file(file)
        left_at = file.stat().st_mtime
    except (TableFileError, OSError):
        return None
    if not isinstance(info.get("deal"), dict) and not _game_in(journal):
        return None  # stopped in its lobby or between games: nothing to lose
    config, seats, host_seat = info.get("config"), info.get("seats"), info.get("host_seat")
    number = info.get("game_number")
    if not isinstance(config, dict) or not isinstance(seats, list):
        return None
    if type(host_seat) is not int or not 0 <= host_seat < len(seats):
        return None  # a headless host's table: no seat of the app's player
    seat = seats[host_seat]
    host_name = seat.get("name") if isinstance(seat, dict) else None
    if not isinstance(host_name, str) or type(number) is not int or number < 1:
        return None
    # What the start screen says of it: cleaned, as any name from a file.
    table_name = clean_text(config.get("table_name") or "your table", 40) or "your table"
    return KeptTable(journal, table_name, clean_text(host_name, 24), number, left_at)


def _game_over_in(journal: Path) -> bool:
    """Whether the journal holds a game played to its end (a result)."""
    try:
        record = read_json(journal)
    except (MalformedRecord, OSError):
        return False
    return isinstance(record, dict) and isinstance(record.get("result"), dict)


def _game_in(journal: Path) -> bool:
    """Whether the journal holds a game not played to its end.  (A game in
    its set-up is in the table file, ``deal``: the journal cannot hold it
    yet, and holds the game before it, if any.)"""
    try:
        record = read_json(journal)  # none yet: no game began
    except (MalformedRecord, OSError):
        return False
    return isinstance(record, dict) and not isinstance(record.get("result"), dict)
