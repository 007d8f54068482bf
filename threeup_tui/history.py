"""Your games, remembered: finished games in a SQLite file in the data dir.

No Textual here.  Each finished game you played (against bots, at a table
you hosted, or at one you joined) is one row of ``games`` and one row of
``seats`` per seat; its record file, when there is one, is kept beside the
database in ``records/`` (or, while records/ cannot take it, where it waits
in the state dir: :mod:`.pendinggames` moves it in later, the row with it:
:meth:`History.records_in`, :meth:`History.move_record`).  Seats are
0-based here, as in records; places are 1-based, as people count them.

A game at a network table has an identity: the table's id and its game
number there.  A game is kept once per identity and seat, whichever app of
the account saw it end (a friend back from another terminal, a reconnect
to the game-over box, two apps at once): :meth:`History.add` keeps no
second row.  A game against bots here has none, and is kept as it ends.

The database is the user's file and may be locked by another threeup, or
damaged.  Every problem is a :class:`HistoryError` with one line for the
player, and none of them may stop a game: the app reports the line and
plays on (:mod:`.pendinggames` keeps the game aside until the history
can take it).  A damaged file, or a database that is not a threeup history
(its tables lack our columns), is never deleted: the next game added moves
it aside (``history.sqlite3.damaged``) and starts a new one.

Connections are short-lived (one per call), so the app can use the history
from a worker thread while the event loop keeps painting.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from .paths import confined_guest, data_dir, not_a_directory
from .recordfile import free_path, locked, open_regular, set_aside
from .rules.state import MAX_PLAYERS, MIN_PLAYERS

HISTORY_FILE = "history.sqlite3"
RECORDS_DIR = "records"
SCHEMA_VERSION = 2
# What each schema version adds to the one before, by ALTER TABLE: an older
# history keeps its rows (their identity is NULL: nothing to match).
_MIGRATIONS: dict[int, tuple[tuple[str, str, str], ...]] = {
    2: (("games", "table_id", "TEXT"), ("games", "game_number", "INTEGER")),
}
# Columns a migration adds: an older history lacks them and is still ours.
_ADDED_LATER: frozenset[str] = frozenset(
    column for steps in _MIGRATIONS.values() for _table, column, _type in steps
)
LOCK_WAIT = 1.0  # seconds to wait for another program's lock to clear
LAST_GAMES = 20
RECORD_NAME_TRIES = 5  # names tried for a record, each taken by another app just before

# SQLite's primary result codes (the low byte of sqlite_errorcode).
_BUSY, _LOCKED, _READONLY, _CANTOPEN, _CORRUPT, _NOTADB = 5, 6, 8, 14, 11, 26

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    finished_at TEXT NOT NULL,   -- ISO 8601, UTC
    venue TEXT NOT NULL,         -- 'bots': against bots here; 'host': your table; 'join'
    players INTEGER NOT NULL,
    my_seat INTEGER NOT NULL,    -- 0-based, as in records
    place INTEGER,               -- 1-based; NULL: not placed (another went out first)
    won INTEGER NOT NULL,
    stalemate INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    turns INTEGER NOT NULL,      -- turns completed (D16's count), as a result's "turns" in
                                 -- docs/protocol.md; a game won ends in the turn after:
                                 -- the screens' turn number is one more (not at the cap)
    finish TEXT NOT NULL,        -- 'first_out' or 'places'
    opponents TEXT NOT NULL,     -- a bot level, 'people' or 'mixed'
    record TEXT,                 -- the record file, if one was kept
    table_id TEXT,               -- a network game's identity: its table's id (NULL: none)
    game_number INTEGER          -- and the game's number at that table (1 for the first)
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,       -- 0-based
    name TEXT NOT NULL,
    kind TEXT NOT NULL,          -- 'you', 'human' or 'bot'
    bot_level TEXT,              -- a bot's level; for 'you' or 'human': the bot that finished
                                 -- the game for that player (gone or away, D17), if one did
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS games_by_time ON games(finished_at);
CREATE UNIQUE INDEX IF NOT EXISTS games_by_identity ON games(table_id, game_number, my_seat)
    WHERE table_id IS NOT NULL;
"""

# A game row as threeup writes it.  The file is the user's: a row changed
# by hand or by another program (a date that is no date, a place in words)
# once stopped the app with a traceback on "Your games".  Such rows are
# passed over when reading, and counted (Stats.unreadable), never changed.
# Numbers too: a place counts a tally's column per place up to it, and one
# row placed 300000000th took 7 GB and a minute before "Your games" showed.
_OUR_GAME = (
    "threeup_time(finished_at) AND typeof(venue) = 'text'"
    " AND typeof(players) = 'integer' AND typeof(my_seat) = 'integer'"
    f" AND players BETWEEN {MIN_PLAYERS} AND {MAX_PLAYERS}"
    " AND my_seat BETWEEN 0 AND players - 1"
    " AND typeof(place) IN ('integer', 'null')"
    " AND (place IS NULL OR place BETWEEN 1 AND players)"
    " AND typeof(won) = 'integer' AND won IN (0, 1)"
    " AND typeof(stalemate) = 'integer' AND stalemate IN (0, 1)"
    " AND typeof(moves) = 'integer' AND typeof(turns) = 'integer'"
    " AND typeof(finish) = 'text' AND typeof(opponents) = 'text'"
    " AND typeof(record) IN ('text', 'null')"
    " AND typeof(table_id) IN ('text', 'null') AND typeof(game_number) IN ('integer', 'null')"
)
_OUR_SEAT = (
    "typeof(name) = 'text' AND typeof(kind) = 'text' AND typeof(bot_level) IN ('text', 'null')"
)


class HistoryError(Exception):
    """The history cannot be used now; the message is one line for the player."""


class DamagedHistory(HistoryError):
    """The file is not a database, a damaged one, or not a threeup history:
    ``what`` says so, ``why`` in SQLite's or the schema's words."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what} ({why})")
        self.what = what
        self.why = why


@dataclass(frozen=True)
class SeatEntry:
    name: str
    kind: str  # "you", "human" or "bot"
    # A bot's level; for "you" or "human", the bot that was playing the seat
    # for its player when the game ended (they were gone or away, D17).
    bot_level: str | None = None

    @property
    def bot_finished(self) -> bool:
        """A person's seat (yours, or another's) that a bot finished for them."""
        return self.kind != "bot" and self.bot_level is not None


def opponents_label(seats: Sequence[SeatEntry]) -> str:
    """Who you played against, in one word: their bot level, ``people`` or
    ``mixed``.  A person's seat a bot finished is both a person and a bot."""
    kinds: set[str | None] = set()
    for s in seats:
        if s.kind == "you":
            continue
        if s.kind == "bot":
            kinds.add(s.bot_level)
        else:
            kinds.update(("people", s.bot_level) if s.bot_finished else ("people",))
    if len(kinds) == 1:
        (only,) = kinds
        return only or "bots"
    return "mixed" if kinds else "nobody"


@dataclass(frozen=True)
class FinishedGame:
    seats: tuple[SeatEntry, ...]
    my_seat: int  # 0-based
    place: int | None  # 1-based; None: not placed
    won: bool
    stalemate: bool
    moves: int
    # Turns completed: play passed on this many times (D16's count, the
    # view's ``turn`` at the end).  A game won ends during the turn after,
    # which the screens number: "Turn 13" and "41 moves, 13 turns" are 12 here.
    turns: int
    finish: str = "first_out"
    venue: str = "bots"
    record: str | None = None
    finished_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    id: int | None = None
    # A game's identity (its table's id, its number there): a game against
    # bots here has its own table's (or one of its own, pendinggames); None
    # in rows of older versions.
    table_id: str | None = None
    game_number: int | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def opponents(self) -> str:
        return opponents_label(self.seats)


@dataclass(frozen=True)
class Tally:
    """Games, wins and places of one group (an opponent level, a player count)."""

    label: str
    games: int
    wins: int
    places: tuple[int, ...]  # how often you finished 1st, 2nd, ... (placed games only)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class Stats:
    total: Tally
    by_opponents: tuple[Tally, ...]
    by_players: tuple[Tally, ...]
    streak: int  # > 0: the last games won in a row; < 0: lost in a row; 0: none yet
    best_streak: int  # the most games won in a row
    last: tuple[FinishedGame, ...]  # newest first
    unreadable: int = 0  # rows threeup did not write as they are: not counted


class History:
    """The history file.  ``enabled=False`` (a confined guest) keeps nothing."""

    def __init__(self, path: Path | None = None, enabled: bool | None = None) -> None:
        self.path = path or data_dir() / HISTORY_FILE
        self.enabled = (not confined_guest()) if enabled is None else enabled
        # What the player knows of records/ not taking a game's record (its
        # record waits elsewhere, or was not kept at all): every game meets
        # the same directory, and a line after each of them said nothing
        # new.  Each told again only once a record has gone in since.
        self._record_trouble_told: set[str] = set()
        self._told_lock = threading.Lock()  # games are added from worker threads

    @classmethod
    def disabled(cls) -> History:
        return cls(Path("/nonexistent") / HISTORY_FILE, enabled=False)

    @property
    def records_dir(self) -> Path:
        return self.path.parent / RECORDS_DIR

    def new_record_path(self, when: datetime | None = None) -> Path:
        """Where the record of a game finished ``when`` goes (not yet written)."""
        return free_path(self.records_dir, record_stem(when or datetime.now(UTC)))

    def keep_record(
        self, write: Callable[[Path], str | None], when: datetime | None = None
    ) -> tuple[Path | None, str | None]:
        """Keep the record of a game finished ``when`` (None: now) in
        ``records/`` under a new name, written by ``write`` (it returns None
        once the file is written, else why not, in one line): where it is
        kept, or None and why not.  Named by the game's end, not the time
        it is kept: a record that waited elsewhere and comes in later sorts
        among the others in the order "Your games" lists their games."""
        blocked = not_a_directory(self.records_dir)
        if blocked is not None:
            # In words: the table's own were "cannot save to .../records/
            # game-....json: Not a directory", which named neither the file
            # in the way nor the directory it should have been.
            return None, f"cannot keep records in {self.records_dir}: {blocked}"
        why = None
        for _ in range(RECORD_NAME_TRIES):
            # Named by the second its game ended: two apps of one account
            # ending games in the same second look for a free name at once,
            # and find the same one.  A record is never written over a file
            # (the first's is safe), but the second was refused and kept no
            # record ("already exists: give the record another name").
            # Refused with the name taken since: another took it; the next.
            path = self.new_record_path(when)
            why = write(path)
            if why is None:
                with self._told_lock:  # records/ takes them again: the next trouble is news
                    self._record_trouble_told.clear()
                return path, None
            if not os.path.lexists(path):
                break  # refused for another reason: that is the answer
        return None, why

    def record_trouble_news(self, kind: str) -> bool:
        """Whether a game whose record records/ could not take is news to
        tell, of its ``kind`` ("waits": its record waits elsewhere; "not
        kept": it has none): the first of that kind since records/ last took
        a record, not each game after it.  Kinds apart: a record lost is
        news after records that only wait."""
        with self._told_lock:
            news = kind not in self._record_trouble_told
            self._record_trouble_told.add(kind)
        return news

    def records_in(self, folder: Path) -> list[tuple[int, str, datetime | None]]:
        """The games whose record is a file in ``folder`` (a record waiting
        there for records/): (row id, record, when the game ended: None if
        the row's time cannot be read), oldest first."""
        if not self.enabled or not self._there():
            return []
        prefix = f"{folder}{os.sep}"
        with self._connect(create=False) as db:
            rows = db.execute(
                "SELECT id, record, finished_at FROM games WHERE typeof(record) = 'text'"
                " AND substr(record, 1, ?) = ? ORDER BY id",
                (len(prefix), prefix),
            ).fetchall()
        return [
            (int(game_id), record, _time_of(finished_at))
            for game_id, record, finished_at in rows
            if Path(record).parent == folder
        ]

    def names_record(self, record: str) -> bool:
        """Whether a game's row names the file ``record``."""
        if not self.enabled or not self._there():
            return False
        with self._connect(create=False) as db:
            row = db.execute("SELECT 1 FROM games WHERE record = ? LIMIT 1", (record,)).fetchone()
        return row is not None

    def holds(self, table_id: str, game_number: int, seat: int) -> bool:
        """Whether the game of this identity is kept, as seen from ``seat``."""
        if not self.enabled or not self._there():
            return False
        with self._connect(create=False) as db:
            row = db.execute(
                "SELECT 1 FROM games WHERE table_id = ? AND game_number = ? AND my_seat = ?",
                (table_id, game_number, seat),
            ).fetchone()
        return row is not None

    def move_record(self, game_id: int, was: str, now: str) -> bool:
        """Game ``game_id``'s record is ``now`` if it was ``was``: whether it
        was (another app of the account may have moved it first)."""
        if not self.enabled:
            raise HistoryError("this session keeps no history")
        with locked(self.path), self._connect(create=True) as db:
            cursor = db.execute(
                "UPDATE games SET record = ? WHERE id = ? AND record = ?", (now, game_id, was)
            )
            return cursor.rowcount == 1

    # ------------------------------------------------------------ writing
    def add(self, game: FinishedGame) -> tuple[int | None, str | None]:
        """Keep ``game``: its row id (None: a game of this identity and seat
        is kept already, and nothing was added), and a line to tell the
        player if the file had to be replaced (a damaged one is moved aside
        first)."""
        if not self.enabled:
            raise HistoryError("this session keeps no history")
        note = None
        # One writer at a time: two apps of one account may end a game at
        # once, and the second must not take the first's new file for the
        # damaged one and move it aside too.
        with locked(self.path):
            try:
                game_id = self._insert(game)
            except DamagedHistory as err:
                aside = self._set_aside()
                try:
                    game_id = self._insert(game)
                except HistoryError as again:
                    # The damaged file has moved: that must be told even when
                    # the new history cannot be started (a full disk), or the
                    # next game starts one and the old games seem gone.
                    why = str(again).removeprefix("Your games: ")
                    raise HistoryError(f"{err}; it is kept as {aside.name}; {why}") from None
                # What happened to the player's games first, the technical
                # why last: the status line shows two rows, and at 80 columns
                # "(database disk image is malformed)" in the middle cut off
                # "a new history starts with this game" at "a new hi…".
                note = (
                    f"{err.what}; it is kept as {aside.name}, and a new history starts "
                    f"with this game ({err.why})"
                )
        return game_id, note

    def _insert(self, game: FinishedGame) -> int | None:
        with self._connect(create=True) as db:
            kept = None if game.table_id is None else _kept_already(db, game)
            if kept is not None:
                _learn_bots(db, kept, game)
                return None
            cursor = db.execute(
                "INSERT INTO games (finished_at, venue, players, my_seat, place, won,"
                " stalemate, moves, turns, finish, opponents, record, table_id, game_number)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.finished_at.astimezone(UTC).isoformat(timespec="seconds"),
                    game.venue,
                    game.players,
                    game.my_seat,
                    game.place,
                    int(game.won),
                    int(game.stalemate),
                    game.moves,
                    game.turns,
                    game.finish,
                    game.opponents,
                    game.record,
                    game.table_id,
                    game.game_number,
                ),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            db.executemany(
                "INSERT INTO seats (game_id, seat, name, kind, bot_level) VALUES (?, ?, ?, ?, ?)",
                [(game_id, i, s.name, s.kind, s.bot_level) for i, s in enumerate(game.seats)],
            )
        return game_id

    def _set_aside(self) -> Path:
        try:
            aside = set_aside(self.path, ".damaged")
            for suffix in ("-journal", "-wal", "-shm"):  # SQLite's companions go with it
                companion = self.path.with_name(self.path.name + suffix)
                if companion.exists():
                    companion.replace(aside.with_name(aside.name + suffix))
        except OSError as err:
            raise HistoryError(
                f"Your games: {self.path} is damaged and cannot be moved aside: "
                f"{err.strerror or err}"
            ) from None
        return aside

    # ------------------------------------------------------------ reading
    def games(
        self, limit: int | None = None, before: int | None = None, down_to: int | None = None
    ) -> list[FinishedGame]:
        """Finished games, newest first: at most ``limit``, only those older
        than the game whose id is ``before``, none older than ``down_to``'s.
        Your games reads them a page at a time (``before``: the oldest
        shown), and again as far as it has read (``down_to``)."""
        if not self.enabled or not self._there():
            return []
        where = [_OUR_GAME]
        params: list[int] = []
        if before is not None:
            where.append("id < ?")
            params.append(before)
        if down_to is not None:
            where.append("id >= ?")
            params.append(down_to)
        if limit is not None:
            params.append(limit)
        with self._connect(create=False) as db:
            rows = db.execute(
                "SELECT id, finished_at, venue, my_seat, place, won, stalemate, moves, turns,"
                f" finish, record, table_id, game_number FROM games WHERE {' AND '.join(where)}"
                " ORDER BY id DESC" + (" LIMIT ?" if limit is not None else ""),
                params,
            ).fetchall()
            seats: dict[int, list[SeatEntry]] = {}
            ids = {row[0] for row in rows}
            # By the ids' range, not "IN (?, ?, ...)": Your games read again
            # as far as it has gone asks for thousands of games, one SQL
            # variable each, past what SQLite allows (32766; 999 before 3.32).
            for game_id, name, kind, level in db.execute(
                "SELECT game_id, name, kind, bot_level FROM seats"
                f" WHERE game_id BETWEEN ? AND ? AND {_OUR_SEAT} ORDER BY game_id, seat",
                (min(ids, default=0), max(ids, default=-1)),
            ):
                if game_id in ids:
                    seats.setdefault(game_id, []).append(SeatEntry(name, kind, level))
        return [
            FinishedGame(
                seats=tuple(seats.get(r[0], ())),
                my_seat=r[3],
                place=r[4],
                won=bool(r[5]),
                stalemate=bool(r[6]),
                moves=r[7],
                turns=r[8],
                finish=r[9],
                venue=r[2],
                record=r[10],
                finished_at=datetime.fromisoformat(r[1]),
                id=r[0],
                table_id=r[11],
                game_number=r[12],
            )
            for r in rows
        ]

    def stats(self, last: int = LAST_GAMES, down_to: int | None = None) -> Stats:
        """The tallies of every game, and the ``last`` games (with
        ``down_to``: every game down to that id's, as :meth:`games`)."""
        if not self.enabled or not self._there():
            return Stats(Tally("all games", 0, 0, ()), (), (), 0, 0, ())
        with self._connect(create=False) as db:
            total = _tallies(db, "'all games'")
            by_opponents = _tallies(db, "opponents", "COUNT(*) DESC, 1")
            by_players = _tallies(db, "players")
            results = [
                bool(won)
                for (won,) in db.execute(f"SELECT won FROM games WHERE {_OUR_GAME} ORDER BY id")
            ]
            (unreadable,) = db.execute(
                f"SELECT COUNT(*) FROM games WHERE NOT ({_OUR_GAME})"
            ).fetchone()
        streak, best = _streaks(results)
        return Stats(
            total[0] if total else Tally("all games", 0, 0, ()),
            tuple(by_opponents),
            tuple(by_players),
            streak,
            best,
            tuple(self.games(None, down_to=down_to) if down_to is not None else self.games(last)),
            unreadable,
        )

    # ------------------------------------------------------------ the file
    def _there(self) -> bool:
        """Whether there is a history to read.  A data directory that cannot
        be searched (mode 000, another user's) raised PermissionError here,
        which ended the app with a traceback on "Your games"."""
        try:
            there = self.path.exists()
        except OSError as err:
            raise self._cannot_use(err) from None
        # A file where the data directory should be: "no finished games yet"
        # is not the truth, while every game is kept aside for it.
        blocked = None if there else not_a_directory(self.path.parent)
        if blocked is not None:
            raise self._blocked(blocked)
        return there

    def _cannot_use(self, err: OSError) -> HistoryError:
        if err.errno in (errno.EEXIST, errno.ENOTDIR):
            blocked = not_a_directory(self.path.parent)
            if blocked is not None:
                return self._blocked(blocked)
        return HistoryError(f"Your games: cannot use {self.path}: {err.strerror or err}")

    def _blocked(self, why: str) -> HistoryError:
        return HistoryError(f"Your games: cannot keep the history in {self.path.parent}: {why}")

    @contextlib.contextmanager
    def _connect(self, create: bool) -> Iterator[sqlite3.Connection]:
        """A connection in a transaction (committed on success), every SQLite
        or file problem turned into a one-line HistoryError."""
        db: sqlite3.Connection | None = None
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                # Yours alone, as the records beside it are (write_atomic):
                # whom you played and how it went.  SQLite gives its journal
                # the database's mode; a file already there keeps its own.
                # (open_regular: a FIFO in its place would wait for a reader forever.)
                flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
                os.close(open_regular(self.path, flags, 0o600))
            else:
                # Read too only from a file: SQLite read a FIFO or a device
                # (a link to /dev/zero) and said "disk I/O error", which
                # sent the player to look at their disk.
                os.close(open_regular(self.path, os.O_RDONLY))
            db = sqlite3.connect(self.path, timeout=LOCK_WAIT)
            db.create_function("threeup_time", 1, _readable_time, deterministic=True)
            with db:
                _ensure_schema(db, self.path, writing=create)
                yield db
        except sqlite3.DatabaseError as err:
            raise _history_error(self.path, err) from None
        except OSError as err:
            raise self._cannot_use(err) from None
        finally:
            if db is not None:
                db.close()


def _ensure_schema(db: sqlite3.Connection, path: Path, writing: bool) -> None:
    db.execute("PRAGMA foreign_keys = ON")
    (version,) = db.execute("PRAGMA user_version").fetchone()
    _check_shape(db, path, version)
    if version > SCHEMA_VERSION:
        raise HistoryError(f"Your games: the history was written by a newer threeup ({version})")
    if not writing:
        # Only read: read it as it is, changing nothing (a read-only file, or
        # one another program holds, can still be shown).  The next game
        # added brings it up to date.  An empty file (zero bytes: a `touch`,
        # a copy cut short) has no tables yet, and holds no games: read, it
        # was given the schema, and a read-only one told "is read-only"
        # where "no finished games yet" is the truth.
        if version != SCHEMA_VERSION:
            _read_as_current(db)
        _read_as_empty(db)
        return
    if version == SCHEMA_VERSION:
        return
    _migrate(db)  # an older history keeps its rows, and gains the new columns
    db.executescript(SCHEMA)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _migrate(db: sqlite3.Connection) -> None:
    """Add each column a later version added to a table that lacks it.  By
    column, not by the version stamped: a file whose tables exist but whose
    version was never stamped is brought up to date the same way."""
    for steps in _MIGRATIONS.values():
        for table, column, kind in steps:
            there = _columns(db, table)
            if there and column not in there:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


def _read_as_current(db: sqlite3.Connection) -> None:
    """Make an older history's tables read as this version's, for this
    connection alone: a temporary view of the same name (SQLite looks in
    ``temp`` first) with NULL for every column added later."""
    added: dict[str, list[str]] = {}
    for steps in _MIGRATIONS.values():
        for table, column, _kind in steps:
            added.setdefault(table, []).append(column)
    for table, columns in added.items():
        there = _columns(db, table)
        missing = [column for column in columns if column not in there]
        if there and missing:
            nulls = ", ".join(f"NULL AS {column}" for column in missing)
            db.execute(f"CREATE TEMP VIEW {table} AS SELECT *, {nulls} FROM main.{table}")


def _read_as_empty(db: sqlite3.Connection) -> None:
    """Make each of our tables the file lacks read as one with no rows, for
    this connection alone: a temporary view of its name, every column NULL."""
    for table, columns in _our_columns().items():
        if not _columns(db, table):
            nulls = ", ".join(f"NULL AS {column}" for column in sorted(columns))
            db.execute(f"CREATE TEMP VIEW {table} AS SELECT {nulls} WHERE 0")


def _kept_already(db: sqlite3.Connection, game: FinishedGame) -> int | None:
    """The row id of this network game seen from this seat, if the history
    holds it.  (One writer at a time holds the lock in :meth:`History.add`,
    and the unique index games_by_identity refuses a second row anyway.)"""
    row = db.execute(
        "SELECT id FROM games WHERE table_id = ? AND game_number = ? AND my_seat = ?",
        (game.table_id, game.game_number, game.my_seat),
    ).fetchone()
    return None if row is None else int(row[0])


def _learn_bots(db: sqlite3.Connection, game_id: int, game: FinishedGame) -> None:
    """A game kept already, seen again: its person's seats learn the bot that
    finished them for their player, if this sighting knows one and the kept
    row does not.  (An app back at a game's end sees the lobby after its
    own seat was handed back; the host's "played" result knows better.  In
    whatever order the two come, the row ends the same.)"""
    learnt = [(s.bot_level, game_id, i) for i, s in enumerate(game.seats) if s.bot_finished]
    if not learnt:
        return
    db.executemany(
        "UPDATE seats SET bot_level = ? WHERE game_id = ? AND seat = ? AND kind != 'bot'"
        " AND bot_level IS NULL",
        learnt,
    )
    seats = [
        SeatEntry(name, kind, level)
        for name, kind, level in db.execute(
            f"SELECT name, kind, bot_level FROM seats WHERE game_id = ? AND {_OUR_SEAT}"
            " ORDER BY seat",
            (game_id,),
        )
    ]
    db.execute("UPDATE games SET opponents = ? WHERE id = ?", (opponents_label(seats), game_id))


def _check_shape(db: sqlite3.Connection, path: Path, version: int) -> None:
    """Refuse a database whose tables lack a column of ours: another
    program's file, or one made by hand, would fail every query with
    SQLite's words ("no such column: finished_at") and never count a game.
    A table not there yet is fine: the schema makes it; so is a column an
    older version's history lacks: the migration adds it."""
    older = _ADDED_LATER if version < SCHEMA_VERSION else frozenset()
    # Another program's database with none of our tables: the schema was
    # added into it, beside its own tables, and it was read as "no finished
    # games yet".  (An empty file has no tables: that one is ours to start.)
    theirs_only = [
        name
        for (name,) in db.execute(
            "SELECT name FROM main.sqlite_master WHERE type IN ('table', 'view')"
            " AND name NOT LIKE 'sqlite%' ORDER BY name"
        )
    ]
    if theirs_only and not set(theirs_only) & set(_our_columns()):
        raise DamagedHistory(
            f"Your games: {path} is not a threeup history",
            f"it holds another program's tables: "
            f"{', '.join(theirs_only[:3])}{', …' if len(theirs_only) > 3 else ''}",
        )
    for table, ours in _our_columns().items():
        theirs = _columns(db, table)
        missing = ours - theirs - older
        if theirs and missing:
            raise DamagedHistory(
                f"Your games: {path} is not a threeup history",
                f"its {table} table has no {min(missing)} column",
            )


@functools.cache
def _our_columns() -> dict[str, frozenset[str]]:
    """Every table's columns, as SCHEMA makes them (one place says what they are)."""
    with contextlib.closing(sqlite3.connect(":memory:")) as db:
        db.executescript(SCHEMA)
        tables = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        return {name: _columns(db, name) for (name,) in tables}


def _columns(db: sqlite3.Connection, table: str) -> frozenset[str]:
    return frozenset(row[1] for row in db.execute(f"PRAGMA table_info({table})"))


def _history_error(path: Path, err: sqlite3.DatabaseError) -> HistoryError:
    code = getattr(err, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary in (_BUSY, _LOCKED):
        return HistoryError(f"Your games: {path} is locked by another program")
    if primary == _READONLY:
        return HistoryError(f"Your games: {path} is read-only")
    if primary == _CANTOPEN:
        return HistoryError(f"Your games: cannot open {path}")
    if primary in (_CORRUPT, _NOTADB):
        return DamagedHistory(f"Your games: {path} is damaged", str(err))
    return HistoryError(f"Your games: {path}: {err}")


def record_stem(when: datetime) -> str:
    """A record's name in records/ (before any ``-2``), by its game's end in UTC."""
    return when.astimezone(UTC).strftime("game-%Y%m%d-%H%M%S")


def _time_of(text: object) -> datetime | None:
    """A row's ``finished_at`` as a time, if it reads as one."""
    return datetime.fromisoformat(text) if isinstance(text, str) and _readable_time(text) else None


def _readable_time(text: object) -> bool:
    """Whether ``text`` is a time as the history keeps it (``finished_at``),
    one that can be read back and shown in local time."""
    if not isinstance(text, str):
        return False
    try:
        datetime.fromisoformat(text).astimezone()
    except (ValueError, OverflowError):
        return False
    return True


def _tallies(db: sqlite3.Connection, group: str, order: str = "1") -> list[Tally]:
    """One Tally per value of the SQL expression ``group`` (a column, or a constant)."""
    tallies: dict[str, Tally] = {}
    rows = db.execute(
        f"SELECT {group}, COUNT(*), SUM(won) FROM games WHERE {_OUR_GAME}"
        f" GROUP BY 1 ORDER BY {order}"
    ).fetchall()
    places = db.execute(
        f"SELECT {group}, place, COUNT(*) FROM games WHERE {_OUR_GAME} AND place IS NOT NULL"
        " GROUP BY 1, 2"
    ).fetchall()
    counts: dict[str, dict[int, int]] = {}
    for label, place, count in places:
        counts.setdefault(str(label), {})[place] = count
    for label, games, wins in rows:
        by_place = counts.get(str(label), {})
        top = max(by_place, default=0)
        tallies[str(label)] = Tally(
            str(label), games, wins or 0, tuple(by_place.get(p, 0) for p in range(1, top + 1))
        )
    return list(tallies.values())


def _streaks(results: Sequence[bool]) -> tuple[int, int]:
    """(the current streak: +wins or -losses in a row, the longest run of wins)."""
    best = run = 0
    for won in results:
        run = run + 1 if won else 0
        best = max(best, run)
    current = 0
    for won in reversed(results):
        if current == 0:
            current = 1 if won else -1
        elif (current > 0) == won:
            current += 1 if won else -1
        else:
            break
    return current, best


__all__ = [
    "DamagedHistory",
    "FinishedGame",
    "History",
    "HistoryError",
    "SeatEntry",
    "Stats",
    "Tally",
    "opponents_label",
]
