"""A game against bots that ended as its app was killed: counted at the next start.

The table writes a game's last move to its journal, with the result, and
only then tells the seats; the app keeps the game aside whole once its
view shows the game over (:func:`.pendinggames.keep_game_ending`).  An
app killed in between (a few milliseconds: the table's own work, the
event queue, the view's message) left a journal that says the game is
over and no game kept anywhere; the next start saw nothing to continue,
discarded the journal, and the game was lost: no row in "Your games", no
record.

A start that finds a journal of a finished game keeps that game aside
from the journal and its table file, as the app would have (its record
with it), before the journal goes; the games kept aside are counted
next.  Exactly once: the game carries its table's identity (the table's
id and the game's number there), the one the app gives a game against
bots as it ends, and the history keeps one row per identity and seat.
So a game the app did keep (killed later, at the game-over box) is not
counted again, and two apps that start at once count it once.  One the
history holds already, or a game kept aside holds, is not kept again: a
hosted table's journal stays in ``tables/`` after this (``--resume`` takes
it), and is found again by every start.

A table hosted from the app is the same: killed in that window, the
host's game was lost with it (its journal in ``tables/``, over, is
offered by no start screen: there is no game to resume).  It is kept for
the host's seat, the venue "host".

The history is asked by the game's identity (in the table file) before the
journal is replayed: a table stopped between games keeps its journal in
``tables/``, found by every start, and replaying each was most of a start's
look at its kept tables (about 2 ms a table of a short game, on the UI
thread).  All of it runs in a worker thread (:func:`keep_left_games`): the
history may be locked by another program, a second's wait.  A table
stopped in the set-up of its next game holds that game's number, beside
the journal of the game before it: that one is the journal's.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .client.events import GameResult
from .gamerow import history_row
from .history import FinishedGame, History, HistoryError
from .paths import games_dir, tables_dir
from .pendinggames import Writer, keep_game_ending, keep_record_aside, pending_games
from .recordfile import load_record, read_json, read_text, write_atomic
from .rules import MalformedRecord, replay, seat_view
from .savedgame import discard, game_over_in, left_over, unheld_journals
from .tablefile import TableFileError, read_table_file, table_file_path

Identity = tuple[str, int, int]  # the table's id, the game's number there, the seat


def keep_left_games(history: History | None = None, folder: Path | None = None) -> None:
    """In a worker thread, at a start: keep aside, to be counted next, every
    finished game a killed app left in ``games/`` (its journal then goes:
    nothing is left to continue) and every hosted game a stopped table's
    journal in ``tables/`` holds (the journal stays, for ``--resume``)."""
    asked = _HistoryAsked(history or History())
    for journal in unheld_journals(games_dir()):
        if left_over(journal) and _keep_left_game(journal, "bots", folder, asked):
            discard(journal)
    for journal in unheld_journals(tables_dir()):
        _keep_left_game(journal, "host", folder, asked)


def keep_left_game(
    journal: Path, venue: str = "bots", folder: Path | None = None, history: History | None = None
) -> bool:
    """Keep the finished game at ``journal`` aside to be counted (once: see
    the module's words); whether the journal may go now.  True once the
    game is kept, or held already, and for a journal that holds no game to
    count (it does not replay to an end, its table file cannot be read):
    nothing there could be kept.  False when the game could not be kept
    aside (the state directory cannot be written): the journal stays for
    the next start."""
    return _keep_left_game(journal, venue, folder, _HistoryAsked(history or History()))


class _HistoryAsked:
    """The history, asked which games it holds until it cannot answer (a
    history locked by another program waits LOCK_WAIT, a second, each
    time: a start that found 50 tables waited 50 s in its worker, and the
    app's quit waited for it with a blank screen).  After that, only the
    games kept aside say what is held; a game kept aside twice is one row."""

    def __init__(self, history: History) -> None:
        self.history = history
        self.answers = True

    def holds(self, identity: Identity) -> bool:
        if not self.answers:
            return False
        try:
            return self.history.holds(*identity)
        except HistoryError:
            self.answers = False
            return False


def _keep_left_game(journal: Path, venue: str, folder: Path | None, asked: _HistoryAsked) -> bool:
    """:func:`keep_left_game`, the history asked through ``asked``."""
    try:
        info = read_table_file(table_file_path(journal))
        identity = _identity(info)
        if identity is None or _kept_already(identity, folder, asked):
            return True  # asked first: most journals found are counted already
        if not game_over_in(journal):
            return True  # a game under way: --resume takes it up
        game = left_game(journal, venue, info)
        text = read_text(journal)
    except (OSError, ValueError, MalformedRecord, TableFileError):
        return True
    if game is None:
        return True

    def keep_record(named: Callable[[Writer], Writer]) -> Path | None:
        def write(path: Path) -> str | None:
            try:
                write_atomic(path, text, new=True)
            except OSError as err:
                return err.strerror or str(err)
            return None

        return keep_record_aside(named(write), folder)[0]

    _game, kept = keep_game_ending(game, keep_record, folder)
    return kept is not None


def left_game(
    journal: Path, venue: str = "bots", info: dict[str, Any] | None = None
) -> FinishedGame | None:
    """The game the journal holds over, as the app of the table's own seat
    counts it (the host's seat: the player at a game against bots); None
    if it holds no finished game of a table with an identity.  ``info``:
    its table file, read already."""
    if info is None:
        info = read_table_file(table_file_path(journal))
    identity = _identity(info)
    record = load_record(journal)
    ended = datetime.fromtimestamp(journal.stat().st_mtime, UTC)
    state, verdict = replay(record)
    seats = info.get("seats")
    if identity is None or not (verdict.ok and verdict.finished) or not isinstance(seats, list):
        return None
    table_id, number, me = identity
    if len(seats) != len(record.players) or not 0 <= me < len(seats):
        return None
    kinds = tuple(_result_kind(seat) for seat in seats)
    result = GameResult.of_view(seat_view(state, None), number, kinds)
    return history_row(result, me, venue, identity=(table_id, number), finished_at=ended)


def _identity(info: dict[str, Any]) -> Identity | None:
    """The identity of the game a table's journal holds, by its table file:
    its table's id, its number and the seat of the table's own player; None
    for a table without them (a headless host's: no seat here).  A table
    in the set-up of its next game (``deal``) numbers that game: the
    journal holds the one before (a finished game was counted as the next
    one's number, once more, and the next one then read as counted)."""
    table_id, number, me = info.get("table_id"), info.get("game_number"), info.get("host_seat")
    if not isinstance(table_id, str) or type(number) is not int or type(me) is not int:
        return None
    deal = info.get("deal")
    if isinstance(deal, dict) and deal.get("game") == number:
        number -= 1
    return (table_id, number, me) if number >= 1 and me >= 0 else None


def _kept_already(identity: Identity, folder: Path | None, asked: _HistoryAsked) -> bool:
    """Whether the history, or a game kept aside, holds the game of ``identity``."""
    if asked.holds(identity):
        return True
    for path in pending_games(folder):
        with contextlib.suppress(MalformedRecord, AttributeError):  # not a game's: not this one
            kept = read_json(path)
            kept_as = tuple(kept.get(key) for key in ("table_id", "game_number", "my_seat"))
            if kept_as == identity:
                return True
    return False


def _result_kind(seat: object) -> tuple[str, str | None]:
    """A seat's kind in the game's result, as the table file keeps the
    seat (a bot and its level; a person's seat)."""
    kind = seat.get("kind") if isinstance(seat, dict) else None
    level = seat.get("bot_level") if isinstance(seat, dict) else None
    if kind == "bot":
        return "bot", level if isinstance(level, str) else None
    return "human", None


__all__ = ["keep_left_game", "keep_left_games", "left_game"]
