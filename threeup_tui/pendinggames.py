"""Finished games kept aside until the history can take them.

A game that ends while the history cannot be written (another program
holds it locked past the wait, it is read-only, a newer threeup's, the
disk is full) is not lost: exactly what its row needs is kept in a small
file of its own in the state dir (``pending-games/``), written atomically,
and added the next time the history can be written: when the app starts,
when "Your games" opens, when the next game ends.  Oldest first, before a
newer game: a streak is read in the order games were added.

A game that ends here is kept aside whole first, before its record and
before the history is tried, and its file removed once the game is counted
(:func:`keep_game_ending`): an app killed at any step of a game's end
leaves the game to be counted at its next start, never lost, its record
with it whenever that was written (the game's file names each record
before it is written, so none is left that no game names).

Exactly once: the history keeps one row per identity and seat.  A network
game has its identity (its table's id, its number there); a game against
bots here has none, and is given one of its own as it is kept aside, so
that a crash between adding it and removing its file adds no second row.

A hosted game's record goes in the history's ``records/``.  When that
cannot be written either (the data directory read-only, full, a file), the
record is kept here too, beside the games kept aside (``record-*.json``,
written as they are: atomically, yours alone), and moved into
``records/`` as its game is added.  If ``records/`` cannot take it even
then (the history writable again, its records/ not), the game is counted
with its record still here, named by its row (it replays from here), and
the player is told where it waits (once while records/ stays so:
:meth:`History.record_trouble_news`).  Such records go into ``records/``,
their rows with them, whenever the games kept aside are next read and
records/ can take them (:func:`place_waiting_records`).  A record is
copied into records/ before its row names the copy: an app killed in
between left a copy that the next try doubled, and the copy no row names
goes once the next one is named (:func:`_remove_copies_left`).  A record here
that neither a game here nor a row of the history names (the app died
between keeping it and keeping its game) is removed when the games kept
aside are next read, once it is old enough not to be a running app's
(:func:`remove_stray_records`).

The hidden temporary file of an atomic write that never finished (an app
killed inside it) is removed from here and from ``records/`` once it is an
hour old (:func:`remove_unfinished_writes`).

A pending file that cannot be read (changed by hand, cut short) is moved
aside (``NAME.damaged``) with a line for the player, never a traceback.
A confined guest keeps nothing, here as in the history.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import stat
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from .history import FinishedGame, History, HistoryError, SeatEntry
from .paths import not_a_directory, state_dir
from .recordfile import (
    lock_held,
    lock_path,
    locked,
    read_json,
    read_text,
    set_aside,
    write_atomic,
)
from .rules import MalformedRecord
from .rules.state import MAX_PLAYERS, MIN_PLAYERS

PENDING_DIR = "pending-games"
PENDING_FORMAT = "threeup-pending-game/1"
RECORD_NOT_KEPT = "Your games: the game's record could not be kept"
RECORD_WAITS = "Your games: the game's record waits in"
RECORD_PREFIX = "record-"  # a record kept here: never "game-*.json", which is a pending game
RECORD_STAMP = "%Y%m%d-%H%M%S-%f"  # UTC, when the record was kept here
# A record kept here, by the very name keep_record_aside gives it: no other
# file is ever removed as one.
_RECORD_NAME = re.compile(r"record-(\d{8}-\d{6}-\d{6})-[0-9a-f]{8}\.json")
# A record in the history's records/, as History.keep_record names it: the
# game's end (history.record_stem), then "-2", "-3"... for a name taken.
_IN_RECORDS = re.compile(r"(game-\d{8}-\d{6})(?:-\d+)?\.json")
# A temporary file write_atomic left (killed between making it and renaming
# it over its file): ".NAME." and mkstemp's eight characters, NAME a game's
# file or a record, here or in records/.  No other file is ever removed as one.
_LEFT_BY_A_WRITE = re.compile(r"\.(?:game|record)-[0-9a-f-]+\.json\.[a-z0-9_]{8}")
# A record younger than this that no game names may be a running app's,
# its game on the way to the history (seconds, the history's lock wait).
STRAY_RECORD_AGE = timedelta(hours=1)
KINDS = ("you", "human", "bot")
KEPT_ASIDE = "this game is kept, and added when the history can be written"
NOT_COUNTED_YET = "not counted yet"  # said of games kept aside as they go in
# A record's writer: given the path, None once written there, else why not.
Writer = Callable[[Path], str | None]
# How a game's record is kept as it ends: given what makes each writer name
# its path in the game's file first, where it kept it, or None.
RecordKeeper = Callable[[Callable[[Writer], Writer]], Path | None]


class GoodNews(str):
    """A line that tells of nothing wrong: a game or a record that waited
    is where it belongs now.  Every other line here tells of trouble."""


def line_severity(line: str) -> Literal["information", "warning"]:
    """How the app marks ``line``: good news never with a warning's ⚠ (the
    lines at a game's end were all marked so, "are in records/ now" too)."""
    return "information" if isinstance(line, GoodNews) else "warning"


def pending_dir() -> Path:
    return state_dir() / PENDING_DIR


def record_not_kept(why: object) -> str:
    """The line for a game counted without its record, ``why`` the reason."""
    return f"{RECORD_NOT_KEPT}: {why}; the game is counted without it"


def record_waits(folder: Path, why: object) -> str:
    """The line for a game counted with its record waiting in ``folder``:
    where first, why after (a status line cut at its second line cut
    "it goes into records/ when it can" off the end)."""
    return f"{RECORD_WAITS} {folder} until records/ can take it ({why})"


def count_game(
    history: History, game: FinishedGame, folder: Path | None = None, kept: Path | None = None
) -> tuple[int | None, list[str]]:
    """Add ``game`` to the history, after any game kept aside before it:
    its row id (None: kept already; -1: not in the history now) and the
    lines to tell the player.  A history that cannot be written keeps the
    game aside, to be added later.  ``kept``: the game's own pending file,
    written as it ended (:func:`keep_game_ending`), removed once the game
    is counted, and left to be counted next time if it cannot be."""
    # Stray records are looked for once this game's is where it goes (in
    # records/, or named by its file here): not before, when none names it.
    lines = add_pending_games(history, folder, remove_strays=False, skip=kept)
    try:
        game_id, added = _add(history, game, folder)
    except HistoryError as err:
        if not history.enabled:
            return -1, []
        try:
            if kept is None or not kept.exists():
                keep_aside(game, folder)
        except OSError as why:
            # A file where the state directory should be: said as such, not
            # as Python's "Not a directory", which named no path.
            why_not = not_a_directory(folder or pending_dir()) or why.strerror or why
            return -1, [*lines, f"{err}: this game is not counted (nor kept aside: {why_not})"]
        remove_stray_records(history, folder)
        return -1, [*lines, f"{err}: {KEPT_ASIDE}"]
    if kept is not None:
        # Counted: its file goes.  Killed before this, the next start adds
        # it again, and its identity keeps it one row.
        _forget_pending(kept)
    remove_stray_records(history, folder)
    return game_id, [*lines, *added]


def keep_game_ending(
    game: FinishedGame,
    keep_record: RecordKeeper | None,
    folder: Path | None = None,
) -> tuple[FinishedGame, Path | None]:
    """Make a game's end durable before the history is tried: ``game``
    (its record not yet kept) is written here whole first, then its record
    is kept by ``keep_record`` (given the writer to use for each name it
    tries; where it kept it, or None), the game's file naming each name
    before the record is written there.  An app killed at any step leaves
    the game here, to be counted at the next start (once: the game carries
    an identity from now on), never a record that no game names (swept as
    a stray, its game lost).  The game as it is to be counted, and its
    file (None: it could not be written, and the game is counted as before)."""
    game = with_identity(game)
    named = _new_pending_path(game, folder)
    # Its lock is held until its record is named: another app of the
    # account counting the games kept aside meanwhile (a second window's
    # start) counted this one before its record was, and the row never had
    # it.  Such a count passes a game being kept (add_pending_games).
    with locked(named):
        try:
            path: Path | None = keep_aside(game, path=named, new=True)
        except OSError:
            path = None

        def name_record(record: Path | None) -> None:
            if path is not None:
                with contextlib.suppress(OSError):
                    kept_as = replace(game, record=None if record is None else str(record))
                    keep_aside(kept_as, path=path)

        if keep_record is not None:

            def named_first(write: Writer) -> Writer:
                def write_named(record: Path) -> str | None:
                    name_record(record)  # a record written is always named by its game
                    return write(record)

                return write_named

            kept = keep_record(named_first)
            name_record(kept)  # none, or the last name tried, may have been refused
            game = replace(game, record=None if kept is None else str(kept))
        # Kept whole: its lock file goes, lest one wait beside each game
        # (one found missing, or let go, is a game kept whole).
        with contextlib.suppress(OSError):
            lock_path(named).unlink()
    return game, path


def with_identity(game: FinishedGame) -> FinishedGame:
    """``game``, a game against bots given an identity of its own (see the module's words)."""
    if game.table_id is not None:
        return game
    return replace(game, table_id=f"here-{secrets.token_hex(8)}", game_number=1)


def keep_record_aside(
    write: Callable[[Path], str | None], folder: Path | None = None
) -> tuple[Path | None, str | None]:
    """Keep a finished game's record beside the games kept aside, written by
    ``write`` (None once the file is written, else why not), for a game
    whose record the history's ``records/`` cannot take: where it is kept,
    or None and why not.  Written now, while the table still holds that
    game (the history is written later, from a worker thread, and a
    rematch may have begun by then)."""
    folder = folder or pending_dir()
    stamp = datetime.now(UTC).strftime(RECORD_STAMP)
    path = folder / f"{RECORD_PREFIX}{stamp}-{secrets.token_hex(4)}.json"
    why = write(path)
    return (path, None) if why is None else (None, why)


def _add(history: History, game: FinishedGame, folder: Path | None) -> tuple[int | None, list[str]]:
    """``history.add(game)``, a record kept here moved into ``records/``
    first: its row id, and the lines to tell.  A record that cannot go
    there (the history writable, records/ not) stays here, named by the
    row, until it can (:func:`place_waiting_records`), and the player is
    told where it waits."""
    here = _record_kept_here(game, folder)
    placed, why, gone = (
        (None, None, False) if here is None else _copy_to_records(history, here, game.finished_at)
    )
    if here is None:
        # A record its game named before writing it (keep_game_ending), the
        # app killed in between: there is none to name.
        gone = game.record is not None and not os.path.lexists(game.record)
        record = None if gone else game.record
    elif placed is not None:
        record = str(placed)
    else:  # waits here; or, gone (removed, changed by hand), there is none to name
        record = None if gone else str(here)
    try:
        game_id, note = history.add(replace(game, record=record))
    except HistoryError:
        if placed is not None:
            with contextlib.suppress(OSError):  # the game and its record wait here, as they were
                placed.unlink(missing_ok=True)
        raise
    lines = [note] if note else []
    if here is None:
        return game_id, lines
    if game_id is None:
        # Kept already, with its own record: this copy is not needed, nor
        # the one here unless the row names it (this game added before, its
        # record waiting, and the app gone before its pending file went).
        # Left to remove_stray_records, it stayed an hour and more: a game
        # kept again from its journal at a start (leftgame) that its app had
        # counted before it was killed at the game-over box left one so.
        with contextlib.suppress(OSError, HistoryError):
            if placed is not None:
                placed.unlink(missing_ok=True)
            if not history.names_record(str(here)):
                here.unlink(missing_ok=True)
        return game_id, lines
    if placed is not None:
        _remove_copies_left(history, placed)
    if placed is not None or gone:
        with contextlib.suppress(OSError):
            here.unlink(missing_ok=True)  # in records/ now, or not kept
    if gone:  # this game's news alone: it says nothing of records/
        lines.append(record_not_kept(why))
    elif placed is None and history.record_trouble_news("waits"):  # once, not every game
        lines.append(record_waits(here.parent, why))
    return game_id, lines


def _record_kept_here(game: FinishedGame, folder: Path | None) -> Path | None:
    """The game's record, if it is one kept beside the games kept aside."""
    if game.record is None:
        return None
    record = Path(game.record)
    folder = folder or pending_dir()
    if record.parent != folder or not record.name.startswith(RECORD_PREFIX):
        return None
    return record


def _copy_to_records(
    history: History, record: Path, when: datetime | None
) -> tuple[Path | None, str | None, bool]:
    """A copy of ``record``, the record of a game that ended ``when``, in
    the history's ``records/``, named by that end: where, or None and why
    not, and whether it was ``record`` that could not be read (gone,
    changed by hand), not ``records/`` that could not take it."""
    try:
        text = read_text(record)
    except (OSError, ValueError) as err:
        return None, f"cannot read {record}: {getattr(err, 'strerror', None) or err}", True

    def write(path: Path) -> str | None:
        try:
            write_atomic(path, text, new=True)
        except OSError as err:  # FileExistsError too: keep_record tries the next name
            return f"cannot save to {path}: {err.strerror or err}"
        return None

    return (*history.keep_record(write, when), False)


def _remove_copies_left(history: History, placed: Path) -> None:
    """Remove the copies of the record at ``placed`` (its game's row names
    it now) that an app stopped between copying a record into records/
    and naming the copy in its row left there: the same bytes, under a
    name of the same game's end (``game-STAMP-2.json``...), that no row
    names.  The record is copied before its row is written, so a crash
    in between left the copy, and the next try made another: two files of
    one game in records/, one of them in "Your games".  A copy another
    app is making now is no row's either, and is removed too: that app's
    row update then finds the row moved, and leaves it."""
    named = _IN_RECORDS.fullmatch(placed.name)
    if named is None:
        return
    try:
        text = placed.read_bytes()
        others = [
            path
            for path in placed.parent.iterdir()
            if path != placed and _same_stem(path.name, named.group(1))
        ]
    except OSError:
        return
    for other in others:
        with contextlib.suppress(OSError, HistoryError):
            info = other.lstat()  # the size first: a large file is none of these, unread
            same = stat.S_ISREG(info.st_mode) and info.st_size == len(text)
            same = same and other.read_bytes() == text
            if same and not history.names_record(str(other)):
                other.unlink()


def _same_stem(name: str, stem: str) -> bool:
    """Whether ``name`` is a record's in records/ named by the end ``stem`` says."""
    named = _IN_RECORDS.fullmatch(name)
    return named is not None and named.group(1) == stem


def keep_aside(
    game: FinishedGame, folder: Path | None = None, path: Path | None = None, new: bool = False
) -> Path:
    """Write ``game``'s pending file (a new one, atomically; or ``path``,
    replaced atomically, or made there with ``new``); OSError if it cannot be."""
    game = with_identity(game)
    if path is None:
        path, new = _new_pending_path(game, folder), True
    write_atomic(path, json.dumps(_to_json(game), indent=1) + "\n", new=new)
    return path


def _new_pending_path(game: FinishedGame, folder: Path | None = None) -> Path:
    """A new pending file's name: the game's end first (oldest first), then
    a random part."""
    stamp = game.finished_at.astimezone(UTC).strftime("%Y%m%d-%H%M%S-%f")
    return (folder or pending_dir()) / f"game-{stamp}-{secrets.token_hex(4)}.json"


def _forget_pending(path: Path) -> None:
    """A pending file whose game is counted goes, with its lock file (the
    one its app held while it kept the game; left by an app killed then)."""
    for done in (path, lock_path(path)):
        with contextlib.suppress(OSError):
            done.unlink(missing_ok=True)


def pending_games(folder: Path | None = None) -> list[Path]:
    """The pending files, oldest first (their names start with the game's end)."""
    folder = folder or pending_dir()
    try:
        return sorted(folder.glob("game-*.json"))
    except OSError:
        return []


def add_pending_games(
    history: History,
    folder: Path | None = None,
    remove_strays: bool = True,
    skip: Path | None = None,
) -> list[str]:
    """Add every game kept aside to the history, oldest first, each file
    removed once its game is in; the lines to tell the player.  A history
    still not writable leaves them all for the next time, unsaid (the
    player was told as each was kept).  Then the records waiting here for
    records/ go there if they can (:func:`place_waiting_records`), and,
    with ``remove_strays``, those nothing names (:func:`remove_stray_records`)."""
    if not history.enabled:
        return []
    lines: list[str] = []
    added = 0
    stopped: HistoryError | None = None  # the history cannot be written now: why
    for path in pending_games(folder):
        if path == skip or lock_held(path):
            continue  # the game ending now, or still being kept: its app counts it next
        try:
            game = _from_json(read_json(path))
        except KeyError as err:
            lines.append(_set_aside(path, f"it has no {err.args[0]}"))
            continue
        except (MalformedRecord, ValueError) as err:
            lines.append(_set_aside(path, str(err).removeprefix(f"{path}: ")))
            continue
        try:
            game_id, said = _add(history, game, folder)
        except HistoryError as err:
            stopped = err
            break
        lines.extend(said)
        # Its record (if any) is the row's now: only the pending file goes.
        # One that cannot be removed is added again next time: its identity keeps it one row.
        _forget_pending(path)
        if game_id is not None:  # None: in already (another app, or a crash before the unlink)
            added += 1
    if added:
        games = "1 finished game" if added == 1 else f"{added} finished games"
        verb = "is" if added == 1 else "are"
        # Not "kept while the history could not be written": a game its app
        # was killed as it ended is kept from its journal at a start
        # (leftgame), the history writable all along.
        lines.insert(0, GoodNews(f"Your games: {games} {NOT_COUNTED_YET} {verb} added now"))
        if stopped is not None:
            # Some in, not all: "1 finished game ... is added now" alone, and
            # "Your games" showing that one, read as if the rest were lost.
            waiting = [path for path in pending_games(folder) if path != skip]
            lines.insert(1, _still_waiting(len(waiting), stopped))
    if stopped is None:
        lines.extend(place_waiting_records(history, folder))
    if remove_strays:
        remove_stray_records(history, folder)
        for where in (folder or pending_dir(), history.records_dir):
            remove_unfinished_writes(where)
    return lines


def remove_unfinished_writes(folder: Path, now: datetime | None = None) -> list[Path]:
    """Remove the temporary files of atomic writes into ``folder`` that
    never finished (an app killed between writing one and renaming it to
    its name: hidden, never read, never removed), once older than
    STRAY_RECORD_AGE: a younger one may be a running app's write."""
    cutoff = (now or datetime.now(UTC)) - STRAY_RECORD_AGE
    removed = []
    try:
        left = [path for path in folder.iterdir() if _LEFT_BY_A_WRITE.fullmatch(path.name)]
    except OSError:
        return []
    for path in left:
        with contextlib.suppress(OSError):
            info = path.lstat()
            written = datetime.fromtimestamp(info.st_mtime, UTC)
            if stat.S_ISREG(info.st_mode) and written < cutoff:
                path.unlink()
                removed.append(path)
    return removed


def _still_waiting(count: int, why: HistoryError) -> str:
    """The line for ``count`` games kept aside that the history could not
    take after some others went in (a disk with room for one game's row
    and record, not the next): they wait still."""
    games = "1 more finished game" if count == 1 else f"{count} more finished games"
    verb = "is" if count == 1 else "are"
    reason = str(why).removeprefix("Your games: ")
    return (
        f"Your games: {games} kept aside {verb} not added yet ({reason});"
        f" {'it is' if count == 1 else 'they are'} added when the history can be written"
    )


def place_waiting_records(history: History, folder: Path | None = None) -> list[str]:
    """Move each record that waits here for its game's row (records/ could
    not take it when the game was added) into ``records/``, the row with
    it, oldest first, while records/ takes them; the lines to tell."""
    folder = folder or pending_dir()
    try:
        here = {path.name for path in folder.iterdir() if _RECORD_NAME.fullmatch(path.name)}
        waiting = history.records_in(folder) if here else []
    except (OSError, HistoryError):
        return []  # nothing here, or a history that cannot be read: next time
    moved = 0
    for game_id, record, ended in waiting:
        path = Path(record)
        if path.name not in here:
            continue  # gone (removed by hand): its row says so, nothing to move
        placed, _why, gone = _copy_to_records(history, path, ended)
        if placed is None:
            if gone:
                continue
            break  # records/ cannot take them yet: all wait, unsaid (told as they came)
        try:
            ours = history.move_record(game_id, record, str(placed))
        except HistoryError:
            with contextlib.suppress(OSError):  # the row still names the one here
                placed.unlink(missing_ok=True)
            break
        if ours:
            _remove_copies_left(history, placed)
        with contextlib.suppress(OSError):
            # Not ours: another app of the account moved it first, and
            # removes the one here; this copy is not needed.
            (path if ours else placed).unlink(missing_ok=True)
        moved += ours
    if not moved:
        return []
    records = "1 game record" if moved == 1 else f"{moved} game records"
    verb = "is" if moved == 1 else "are"
    where = f"in {folder} {verb} in {history.records_dir} now"
    return [GoodNews(f"Your games: {records} that waited {where}")]


def remove_stray_records(
    history: History, folder: Path | None = None, now: datetime | None = None
) -> list[Path]:
    """Remove the records kept here that neither a game kept here nor a
    row of ``history`` names, kept more than STRAY_RECORD_AGE ago: an app
    that died between keeping a game's record here and keeping the game
    itself left one that nothing would ever read or remove.  Only files by
    the names keep_record_aside gives, and none while a game file here or
    the history cannot be read (either may name one).  A game set aside as
    damaged keeps its record, as a row whose record waits here does."""
    folder = folder or pending_dir()
    cutoff = (now or datetime.now(UTC)) - STRAY_RECORD_AGE
    try:
        records = [path for path in folder.iterdir() if _RECORD_NAME.fullmatch(path.name)]
        # Every game's file, pending or set aside (game-*.json.damaged): its
        # record is named in it, as a path.
        named = "".join(read_text(path) for path in folder.glob("game-*")) if records else ""
    except (OSError, ValueError):
        return []
    old = [r for r in records if r.name not in named and _kept_before(r, cutoff)]
    try:
        # Read after the game files: a game added from its file in between
        # (its file gone, its row there) is named by one or the other.
        rows = {Path(row[1]).name for row in history.records_in(folder)} if old else set()
    except HistoryError:
        return []
    removed = []
    for record in old:
        if record.name in rows:
            continue
        with contextlib.suppress(OSError):
            record.unlink()
            removed.append(record)
    return removed


def _kept_before(record: Path, cutoff: datetime) -> bool:
    """Whether ``record`` is a file kept here before ``cutoff``, by the
    time in its name and by its file's, both (a clock set back, a copy)."""
    match = _RECORD_NAME.fullmatch(record.name)
    try:
        info = record.lstat()
        named = (
            datetime.strptime(match.group(1), RECORD_STAMP).replace(tzinfo=UTC) if match else None
        )
    except (OSError, ValueError):
        return False
    written = datetime.fromtimestamp(info.st_mtime, UTC)
    return stat.S_ISREG(info.st_mode) and named is not None and max(named, written) < cutoff


def _set_aside(path: Path, why: str) -> str:
    try:
        aside = set_aside(path, ".damaged")
    except OSError as oserr:
        return (
            f"A finished game kept aside cannot be read ({path}: {why}),"
            f" nor moved aside: {oserr.strerror or oserr}"
        )
    return (
        f"A finished game kept aside cannot be read ({why}): it is left as {aside}, and not counted"
    )


def _to_json(game: FinishedGame) -> dict[str, Any]:
    return {
        "format": PENDING_FORMAT,
        "finished_at": game.finished_at.astimezone(UTC).isoformat(),
        "seats": [[s.name, s.kind, s.bot_level] for s in game.seats],
        "my_seat": game.my_seat,
        "place": game.place,
        "won": game.won,
        "stalemate": game.stalemate,
        "moves": game.moves,
        "turns": game.turns,
        "finish": game.finish,
        "venue": game.venue,
        "record": game.record,
        "table_id": game.table_id,
        "game_number": game.game_number,
    }


def _from_json(data: Any) -> FinishedGame:
    """The game a pending file holds; ValueError (one line) if it is not one."""
    if not isinstance(data, dict) or data.get("format") != PENDING_FORMAT:
        raise ValueError("not a finished game threeup kept aside")
    seats = data["seats"]
    if not (isinstance(seats, list) and MIN_PLAYERS <= len(seats) <= MAX_PLAYERS):
        raise ValueError("its seats are not 2 to 6 seats")
    entries = []
    for seat in seats:
        if not (isinstance(seat, list) and len(seat) == 3):
            raise ValueError("a seat is not [name, kind, bot level]")
        name, kind, level = seat
        if not (isinstance(name, str) and kind in KINDS and isinstance(level, str | None)):
            raise ValueError("a seat is not [name, kind, bot level]")
        entries.append(SeatEntry(name, kind, level))
    my_seat, place = _int(data, "my_seat"), data["place"]
    if not 0 <= my_seat < len(entries):
        raise ValueError("my_seat is not one of its seats")
    if place is not None and not (type(place) is int and 1 <= place <= len(entries)):
        raise ValueError("place is not a place")
    finished_at = datetime.fromisoformat(_text(data, "finished_at"))
    if finished_at.tzinfo is None:
        raise ValueError("finished_at has no time zone")
    record = data["record"]
    if not isinstance(record, str | None):
        raise ValueError("record is not a file name")
    return FinishedGame(
        seats=tuple(entries),
        my_seat=my_seat,
        place=place,
        won=_bool(data, "won"),
        stalemate=_bool(data, "stalemate"),
        moves=_int(data, "moves"),
        turns=_int(data, "turns"),
        finish=_text(data, "finish"),
        venue=_text(data, "venue"),
        record=record,
        finished_at=finished_at,
        table_id=_text(data, "table_id"),
        game_number=_int(data, "game_number"),
    )


def _int(data: dict[str, Any], key: str) -> int:
    value = data[key]
    if type(value) is not int or value < 0:
        raise ValueError(f"{key} is not a count")
    return value


def _bool(data: dict[str, Any], key: str) -> bool:
    value = data[key]
    if not isinstance(value, bool):
        raise ValueError(f"{key} is not true or false")
    return value


def _text(data: dict[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise ValueError(f"{key} is not text")
    return value


__all__ = [
    "GoodNews",
    "RecordKeeper",
    "Writer",
    "add_pending_games",
    "count_game",
    "keep_aside",
    "keep_game_ending",
    "keep_record_aside",
    "line_severity",
    "pending_dir",
    "pending_games",
    "place_waiting_records",
    "record_not_kept",
    "record_waits",
    "remove_stray_records",
    "remove_unfinished_writes",
    "with_identity",
]
