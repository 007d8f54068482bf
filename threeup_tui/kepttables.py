"""A table hosted from the app and stopped (its app quit, killed, or its
terminal closed) in the middle of a game, or between games or in its
lobby with others seated: its journal stays in the state directory's
``tables/`` for ``threeup host --resume``, and the start screen offers it
again ("Resume your table").

The host who reopened ``threeup`` after a mistake was offered nothing: the
command that brings the table back had been in the chat of an app that
was gone, and hosting again on the same port opened a new, empty table
that turned the waiting players away.  A table with a game under way is
offered, and one stopped between games or in its lobby whose seats hold
someone besides its host (their apps wait for it, as for a headless
host's: an app that hosted alone closes its table); never one that
another window hosts (it holds the lock).
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path

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
    game_number: int  # the game under way, or the last one played (0: none yet)
    left_at: float = 0.0  # when its table file last changed, 0: unknown
    in_game: bool = True  # stopped in a game; False: between games or in its lobby

    def when(self, now: float | None = None) -> str:
        return left_words(self.left_at, now)

    def where(self) -> str:
        """Where the table was left: ``game 3``, ``between games 2 and 3``,
        ``in its lobby``."""
        return f"game {self.game_number}" if self.in_game else stopped_when(self.game_number)


IN_ITS_LOBBY = "in its lobby"


def stopped_when(game_number: int) -> str:
    """When a table stopped outside a game, ``game_number`` the last game
    played: ``in its lobby``, ``between games 2 and 3``."""
    if game_number < 1:
        return IN_ITS_LOBBY
    return f"between games {game_number} and {game_number + 1}"


def stopped_after(game_number: int) -> str:
    """:func:`stopped_when` in fewer words, for the line the host's app
    leaves on the terminal: ``after game 2``.  "between games 123 and 124"
    made it 82 columns, and a billion games (limits.MAX_GAMES) 96."""
    return IN_ITS_LOBBY if game_number < 1 else f"after game {game_number}"


def kept_tables() -> list[KeptTable]:
    """Tables that may be resumed (see the module's words) that no window
    hosts, the newest first.  (A table stopped with its game over has its
    host's game counted by a worker thread, if nothing holds it: its app
    may have been killed between the table's last journal write and
    keeping the game: leftgame.keep_left_games.)"""
    return list(_newest_first())


def newest_kept_table() -> KeptTable | None:
    """The table the start screen offers: the first of :func:`kept_tables`.
    Looked for on the UI thread, as the start screen is built, so that its
    first frame offers it (a worker's answer came a frame later, and moved
    the menu under an Enter typed at it): the tables are looked at the
    newest first, and only until one may be resumed.  Reading every stopped
    table's journal, to offer one, took about 51 ms with 50 of them."""
    with contextlib.closing(_newest_first()) as tables:  # its journal's lock let go
        return next(tables, None)


def _newest_first() -> Generator[KeptTable]:
    """The tables of :func:`kept_tables`, read one at a time, the newest
    (by when its table file last changed) first."""
    for journal in unheld_journals(tables_dir(), newest_first=True):
        kept = _read(journal)
        if kept is not None:
            yield kept


def _read(journal: Path) -> KeptTable | None:
    """The table, if it has a game under way, or others seated; None for
    anything else (what cannot be read is left alone: ``--resume`` says
    what is wrong with it)."""
    file = table_file_path(journal)
    try:
        info = read_table_file(file)
        left_at = file.stat().st_mtime
    except (TableFileError, OSError):
        return None
    config, seats, host_seat = info.get("config"), info.get("seats"), info.get("host_seat")
    number = info.get("game_number")
    if not isinstance(config, dict) or not isinstance(seats, list):
        return None
    if type(host_seat) is not int or not 0 <= host_seat < len(seats):
        return None  # a headless host's table: no seat of the app's player
    in_game = isinstance(info.get("deal"), dict) or _game_in(journal)
    if not in_game and not _others_seated(seats, host_seat):
        return None  # its host alone (with bots) between games: nobody waits
    seat = seats[host_seat]
    host_name = seat.get("name") if isinstance(seat, dict) else None
    if not isinstance(host_name, str) or type(number) is not int or number < int(in_game):
        return None
    # What the start screen says of it: cleaned, as any name from a file.
    table_name = clean_text(config.get("table_name") or "your table", 40) or "your table"
    return KeptTable(journal, table_name, clean_text(host_name, 24), number, left_at, in_game)


def _others_seated(seats: list[object], host_seat: int) -> bool:
    """Whether the table file's seats hold a person besides the host: whom
    a stop between games or in the lobby was for (HostedClient.others_seated)."""
    return any(
        i != host_seat
        and isinstance(seat, dict)
        and seat.get("kind") == "human"
        and seat.get("network_bot") is None
        for i, seat in enumerate(seats)
    )


def _game_in(journal: Path) -> bool:
    """Whether the journal holds a game not played to its end.  (A game in
    its set-up is in the table file, ``deal``: the journal cannot hold it
    yet, and holds the game before it, if any.)"""
    try:
        record = read_json(journal)  # none yet: no game began
    except (MalformedRecord, OSError):
        return False
    return isinstance(record, dict) and not isinstance(record.get("result"), dict)
