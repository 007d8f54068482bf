"""A game against bots that outlives its app: kept in the state directory's
``games/`` as a table journal and its table file, and offered again on the
start screen ("Continue your game").

A game left or quit in the middle, or an app that crashed, loses no move.
A game whose table closes with its game over (or before any game) leaves
nothing behind: the history already holds a finished game; so does one
whose window ended at the game-over box, once a start screen finds it.
The app that plays a kept game holds a lock beside it, so a second window
neither offers nor deletes a game that is being played.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from .bots import BOT_LEVELS
from .paths import games_dir, home_short
from .recordfile import lock_path, open_lock_file, read_json, set_aside, stamped_path
from .rules import MalformedRecord
from .tablefile import TableFileError, read_table_file, table_file_path
from .textclean import plural


@dataclass(frozen=True)
class SavedGame:
    """A kept game against bots, as the start screen offers it."""

    journal: Path
    players: int
    bot_level: str
    game_number: int
    left_at: float = 0.0  # when it was last played (its table file's time), 0: unknown

    def words(self) -> str:
        """``3 greedy bots · game 2``."""
        bots = plural(self.players - 1, f"{self.bot_level} bot")
        return bots if self.game_number <= 1 else f"{bots} · game {self.game_number}"

    def when(self, now: float | None = None) -> str:
        """When it was left: ``14:05`` today, else ``3 Dec``, so that two
        kept games against the same bots are told apart."""
        return left_words(self.left_at, now)


def left_words(left_at: float, now: float | None = None) -> str:
    """``14:05`` for a time today, else ``3 Dec``; "" for 0 (unknown)."""
    if not left_at:
        return ""
    left = time.localtime(left_at)
    today = time.localtime(time.time() if now is None else now)
    if left[:3] == today[:3]:
        return time.strftime("%H:%M", left)
    return f"{left.tm_mday} {time.strftime('%b', left)}"


def new_journal() -> Path:
    """A new journal for a game against bots, named by when it began."""
    return stamped_path(games_dir(), "game")


def saved_games() -> list[SavedGame]:
    """Kept games no window is playing, the newest first."""
    return kept_games()[0]


def kept_games() -> tuple[list[SavedGame], list[str]]:
    """Kept games no window is playing, the newest first; and one line for
    the player for each whose table file cannot be read, which is set aside
    (``NAME.bad``, never deleted: it is the player's to look at) where it
    can be."""
    found: list[SavedGame] = []
    aside: list[str] = []
    for journal in unheld_journals(games_dir()):
        read = _read(journal)
        if read is None:
            if table_file_path(journal).exists():  # (not one another window just forgot)
                aside.append(_unreadable(journal))
            continue
        saved, in_set_up = read
        if not _over(journal, in_set_up):
            found.append(saved)
        # Else there is nothing to continue: counted, and its files removed,
        # by a worker thread (leftgame.keep_left_games).
    return sorted(found, key=lambda g: g.left_at, reverse=True), aside


def left_over(journal: Path) -> bool:
    """Whether the kept game at ``journal`` (its lock held) is over: its
    window ended at the game-over box (killed, or the terminal gone)
    before its table closed, and there is nothing to continue.  Its game
    is to be counted before its files go: the app may have been killed
    between the table's last journal write and keeping the game
    (leftgame)."""
    read = _read(journal)
    return read is not None and _over(journal, read[1])


def _over(journal: Path, in_set_up: bool) -> bool:
    """Whether a kept game is over (a rematch left in its set-up is in the
    table file, beside the finished game's journal: not over)."""
    return not in_set_up and game_over_in(journal)


def unheld_journals(folder: Path, newest_first: bool = False) -> Iterator[Path]:
    """The journals of the tables kept in ``folder`` that no window holds,
    each locked while the caller looks at it (another window may take it up
    meanwhile).  A folder that cannot be read has none.  ``newest_first``:
    by when their table files last changed, the newest first."""
    with contextlib.suppress(OSError):
        files: Iterable[Path] = folder.glob("*.json.table")
        if newest_first:
            files = sorted(files, key=_changed_at, reverse=True)
        for file in files:
            journal = file.with_name(file.name.removesuffix(".table"))
            lock = GameLock.take(journal)
            if lock is None:
                continue  # another window plays or hosts it
            try:
                yield journal
            finally:
                lock.release()


def _changed_at(file: Path) -> float:
    """When ``file`` last changed; 0 if it cannot be told (gone meanwhile)."""
    try:
        return file.stat().st_mtime
    except OSError:
        return 0.0


def _unreadable(journal: Path) -> str:
    """Set aside a kept game that cannot be read; what the player is told."""
    try:
        return (
            f"A kept game could not be read; its files are kept aside as {set_aside_game(journal)}"
        )
    except OSError as err:
        return (
            f"A kept game could not be read, nor moved aside ({err.strerror or err}): "
            f"{home_short(table_file_path(journal))}"
        )


def _read(journal: Path) -> tuple[SavedGame, bool] | None:
    """The kept game, and whether its table file holds a game dealt and in
    its set-up (the journal cannot hold that one yet)."""
    file = table_file_path(journal)
    try:
        info = read_table_file(file)
        left_at = _last_played(file, journal)
    except (TableFileError, OSError):
        return None
    config = info.get("config")
    number = info.get("game_number")
    if not isinstance(config, dict):
        return None
    players, level = config.get("players"), config.get("bot_level")
    # What the start screen will say of it: nothing a file could make up.
    if type(players) is not int or not 2 <= players <= 6 or level not in BOT_LEVELS:
        return None
    saved = SavedGame(journal, players, level, number if type(number) is int else 0, left_at)
    return saved, isinstance(info.get("deal"), dict)


def _last_played(file: Path, journal: Path) -> float:
    """When the game was last played: its journal's last move, or its table
    file's last change (a game in its set-up has no journal yet).  The table
    file alone is written when the game starts or is taken up, not at each
    move: "left 03:10" was said of a game left at 03:41."""
    times = [file.stat().st_mtime]
    with contextlib.suppress(OSError):
        times.append(journal.stat().st_mtime)
    return max(times)


def game_over_in(journal: Path) -> bool:
    """Whether the journal holds a game played to its end (a result)."""
    try:
        record = read_json(journal)
    except MalformedRecord:
        return False  # offered; the table says what is wrong when it opens
    return isinstance(record, dict) and isinstance(record.get("result"), dict)


def discard(journal: Path) -> None:
    """Forget a kept game: its journal, its table file and its lock."""
    for path in (journal, table_file_path(journal), lock_path(journal)):
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def forget(journal: Path) -> bool:
    """Discard a kept game the player chose a new one over, unless a window
    has taken it up since (False: it is left alone)."""
    lock = GameLock.take(journal)
    if lock is None:
        return False
    try:
        discard(journal)
    finally:
        lock.release()
    return True


def set_aside_game(journal: Path) -> str:
    """Move a kept game that cannot come back out of the way (``NAME.bad``,
    or ``NAME.bad-2`` if one is there already), never deleting it; the
    journal's new name, for the player.  OSError if its table file (which
    makes it a kept game) could not be moved: the player was told it was
    kept aside when nothing had moved (a directory that cannot be written),
    and told again by every start screen."""
    shown = journal.with_name(journal.name + ".bad")
    if journal.exists():  # none yet for a game left in its set-up
        with contextlib.suppress(OSError):
            shown = set_aside(journal)
    set_aside(table_file_path(journal))
    with contextlib.suppress(OSError):
        lock_path(journal).unlink(missing_ok=True)
    return home_short(shown)


class GameLock:
    """An advisory lock beside a kept game, held while a window plays it
    (the system lets it go if the app dies)."""

    def __init__(self, file: IO[str] | None) -> None:
        self._file: IO[str] | None = file

    @classmethod
    def take(cls, journal: Path) -> GameLock | None:
        """The lock, or None when another window holds it.  Where there is
        no ``fcntl`` (not POSIX) or no lock file can be made, a lock that
        guards nothing: the game is still kept."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover (POSIX here)
            return cls(None)
        try:
            file = open_lock_file(journal)
        except OSError:
            return cls(None)
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            file.close()
            return None
        return cls(file)

    def release(self) -> None:
        file, self._file = self._file, None
        if file is not None:
            file.close()  # closing lets the lock go
