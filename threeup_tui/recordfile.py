"""Reading and writing record files (the engine itself does no I/O)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from .rules import GameState, MalformedRecord, Record, parse_record, record_of
from .rules.record import result_of
from .textclean import without_controls

log = logging.getLogger("threeup.journal")


# The files threeup reads (records, journals, table files, settings, seat
# tokens) are small: a six-seat game that runs to the 1000-turn cap (D16)
# records in about 100 KB.  Anything far larger is not one of them, and
# reading it whole could take the machine's memory (a 3 GB file took 6 GB).
MAX_FILE_BYTES = 4 * 1024 * 1024


class NotOurFile(OSError):
    """A path that is no file threeup could have written: a FIFO, a device,
    or a file too large; the message says which, in a few words."""


def read_text(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes.

    OSError as ``open`` raises it (FileNotFoundError, IsADirectoryError...),
    NotOurFile for a FIFO, a device or a larger file, UnicodeDecodeError.
    O_NONBLOCK: opening a FIFO would otherwise wait for a writer, forever.
    """
    with os.fdopen(open_regular(path, os.O_RDONLY), "rb") as file:
        data = file.read(limit + 1)  # at most: a file may grow while read
    if len(data) > limit:
        raise NotOurFile(f"too large to be threeup's (over {limit // (1024 * 1024)} MiB)")
    return data.decode("utf-8")


_NOT_REGULAR = "not a regular file (a FIFO, a device or a socket)"


def open_regular(path: str | os.PathLike[str], flags: int, mode: int = 0o666) -> int:
    """``os.open`` for a file of threeup's, that never waits: a descriptor of
    a regular file, else IsADirectoryError, or NotOurFile for a FIFO, a
    device or a socket.  O_NONBLOCK: opening a FIFO waits for the other end,
    forever (a FIFO for a kept game's lock file kept the start screen from
    ever showing); for writing, with no reader, it fails at once (ENXIO)."""
    try:
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), mode)
    except OSError as err:
        if err.errno == errno.ENXIO:  # a FIFO with no reader, a socket: in words
            raise NotOurFile(_NOT_REGULAR) from None
        raise
    try:
        kind = os.fstat(fd).st_mode
        if stat.S_ISDIR(kind):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
        if not stat.S_ISREG(kind):
            raise NotOurFile(_NOT_REGULAR)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_lock_file(path: Path) -> IO[str]:
    """``PATH.lock``, opened (made if need be) to hold its advisory lock."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
    return os.fdopen(open_regular(lock_path(path), flags), "a")


def lock_path(path: Path) -> Path:
    """``PATH.lock``: the file whose advisory lock guards ``path``."""
    return path.with_name(path.name + ".lock")


LOCK_WAIT = 5.0  # seconds to wait for a lock threeup itself holds for milliseconds


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """One writer at a time, across processes, for the file at ``path``: an
    advisory lock on ``PATH.lock`` beside it, held while the block runs (two
    terminals of one account may write their tokens, or end a game, at
    once).  Where there is no ``fcntl`` (not POSIX), or the lock file cannot
    be made, or another program has held the lock for ``LOCK_WAIT`` seconds
    (threeup holds it for milliseconds), the block runs
    unlocked and meets the file's own errors: a lock held for ever once
    kept a finished game from being counted, and its app from ending."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open_lock_file(path)
    except OSError:
        yield
        return
    with lock:
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    log.warning("%s is locked by another program: going on without it", path)
                    yield
                    return
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def lock_held(path: Path) -> bool:
    """Whether a writer holds ``path``'s lock (:func:`locked`) now, in this
    process or another: its file is not written whole yet.  False where it
    cannot be told (no ``fcntl``, no lock file): a writer killed lets its
    lock go, and what it wrote is read as it is."""
    try:
        import fcntl
    except ImportError:
        return False
    try:
        fd = open_regular(lock_path(path), os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # closing lets a lock taken here go
    return False


def set_aside(path: Path, mark: str = ".bad") -> Path:
    """Move a damaged file out of the way (``NAME.bad``) instead of writing
    over it, so what it held stays for the player to look at or mend.  A
    file set aside before is not written over either: the next one goes
    to ``NAME.bad-2``, ``NAME.bad-3``, ..."""
    aside = path.with_name(path.name + mark)
    n = 1
    while aside.exists() or aside.is_symlink():
        n += 1
        aside = path.with_name(f"{path.name}{mark}-{n}")
    path.replace(aside)
    return aside


# Python's own default limit on the digits of an int read from text (since
# CVE-2020-10735).  No file threeup writes holds a number anywhere near it.
MAX_NUMBER_DIGITS = 4300


class _NumberTooLong(ValueError):
    """A JSON integer with more digits than threeup reads (the message says so)."""


def _int_reader() -> Callable[[str], int]:
    """``json``'s ``parse_int``: Python's int, but past the lower of
    :data:`MAX_NUMBER_DIGITS` and the interpreter's limit refused in threeup's
    words (Python's own tell the player to call ``sys.set_int_max_str_digits()``)."""
    limit = min(MAX_NUMBER_DIGITS, sys.get_int_max_str_digits() or MAX_NUMBER_DIGITS)

    def read_int(digits: str) -> int:
        if len(digits) > limit and len(digits.lstrip("-")) > limit:
            raise _NumberTooLong(f"a number with more than {limit} digits")
        return int(digits)

    return read_int


def read_json(path: str | os.PathLike[str]) -> Any:
    """The decoded JSON of a file; MalformedRecord (one line) if it cannot be."""
    name = shown_path(path)
    try:
        text = read_text(path)
    except FileNotFoundError:
        raise MalformedRecord(f"{name}: no such file") from None
    except IsADirectoryError:
        raise MalformedRecord(f"{name}: is a directory, not a record") from None
    except NotOurFile as err:
        raise MalformedRecord(f"{name}: {err}") from None
    except UnicodeDecodeError as err:
        raise MalformedRecord(f"{name}: {not_utf8(err)}") from None
    except OSError as err:
        raise MalformedRecord(f"{name}: cannot read: {err.strerror or err}") from None
    return json_of(text, path)


def not_utf8(err: UnicodeDecodeError) -> str:
    """A file's bytes that are not UTF-8, in a player's words rather than
    Python's ("'utf-8' codec can't decode byte 0xff in position 7: ...")."""
    return f"not UTF-8 text (byte 0x{err.object[err.start]:02x} at offset {err.start})"


def json_of(text: str, path: str | os.PathLike[str]) -> Any:
    """The decoded JSON of ``text``, read from the file at ``path``;
    MalformedRecord (one line naming ``path``) if it cannot be."""
    name = shown_path(path)
    # Two files met often, that Python tells in its own words: an empty one
    # ("Expecting value at line 1 column 1"), and one an editor saved with
    # a byte order mark ("Unexpected UTF-8 BOM (decode using utf-8-sig)").
    if not text.strip():
        raise MalformedRecord(f"{name}: empty, no JSON in it")
    if text.startswith("\ufeff"):
        raise MalformedRecord(
            f"{name}: starts with a byte order mark, which JSON may not:"
            " save it as UTF-8 without one"
        )
    try:
        return json.loads(text, parse_int=_int_reader())
    except json.JSONDecodeError as err:
        # Some of Python's messages end in "at" ("Unterminated string starting at").
        where = f"at line {err.lineno} column {err.colno}"
        raise MalformedRecord(f"{name}: not JSON ({err.msg.removesuffix(' at')} {where})") from None
    except RecursionError:
        raise MalformedRecord(f"{name}: nested too deeply") from None
    except _NumberTooLong as err:
        raise MalformedRecord(f"{name}: {err}") from None
    except ValueError:  # none known; never Python's own words on a bad file
        raise MalformedRecord(f"{name}: not JSON that threeup can read") from None


def load_record(path: str | os.PathLike[str]) -> Record:
    try:
        return parse_record(read_json(path))
    except MalformedRecord as err:
        text, name = str(err), shown_path(path)
        raise MalformedRecord(text if text.startswith(name) else f"{name}: {text}") from None


def shown_path(path: str | os.PathLike[str]) -> str:
    """A file's name as an error names it: each character a terminal would
    obey or not show (ESC, a line break, a bidi override, a byte that is not
    UTF-8) as its escape.  They were left out of the line, so a name with a
    line break read with a space, and one with a byte 0xff without it: not
    the file given."""
    return "".join(_shown_char(ch) for ch in os.fspath(path))


def _shown_char(ch: str) -> str:
    if without_controls(ch) == ch:
        return ch
    if 0xDC80 <= ord(ch) <= 0xDCFF:  # a byte that is not UTF-8, as Python reads it in a name
        return f"\\x{ord(ch) - 0xDC00:02x}"
    return ch.encode("unicode_escape").decode("ascii")


def write_atomic(
    path: str | os.PathLike[str], text: str, sync: bool = True, new: bool = False
) -> None:
    """Write a file so that a crash leaves either the old or the new content.

    ``sync=False`` leaves flushing to disk to the caller (``sync_file``): the
    replacement is still atomic for every process, which is what a killed
    program needs; only a power cut before the flush could lose it.
    ``new=True``: the file must not exist, and FileExistsError says it does,
    even when another process makes it between a look and the write.
    A symbolic link to a file is written through: the file it leads to gets
    the new content, and the link stays.
    """
    target = Path(path) if new else _through_link(Path(path))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        # A file where the directory should be.  Said as such: callers read
        # FileExistsError as "the name is taken", and a record saved to
        # notes.txt/x.json was refused as "notes.txt/x.json already exists".
        raise NotADirectoryError(errno.ENOTDIR, "Not a directory", str(target.parent)) from None
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            if sync:
                os.fsync(f.fileno())
        if new:
            _publish_new(tmp, target)
        else:
            os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if sync:
        sync_dir(target.parent)  # the rename itself


def _through_link(path: Path) -> Path:
    """The file a symbolic link at ``path`` leads to, if it leads to one.
    Replacing the link itself cut it: a settings.toml kept with the user's
    other dotfiles and linked into ~/.config became a file of its own at
    the first change of a setting, and the linked file kept the old ones.
    A link that leads to no file is replaced, as a file would be."""
    if not path.is_symlink():
        return path
    real = Path(os.path.realpath(path))
    return real if real.is_file() else path


def _publish_new(tmp: str, target: Path) -> None:
    """Give the finished temporary file its name, which no file may have: a
    hard link never replaces one (``os.replace`` would)."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise
    except OSError:  # no hard links on this file system (FAT, some shares)
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "File exists", str(target)) from None
        os.replace(tmp, target)
        return
    os.unlink(tmp)


def sync_file(path: str | os.PathLike[str]) -> None:
    """Flush a file to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_dir(path: str | os.PathLike[str]) -> None:
    """Flush a directory's entries (a rename) to disk, where the system
    allows it (not on Windows, nor on every file system)."""
    with contextlib.suppress(OSError):
        sync_file(path)


def record_text(record: Record, move_lines: Sequence[str] | None = None) -> str:
    """A record as a file holds it: one field per line and one move per line.

    Readable, and written by json's C encoder (``indent`` would switch to
    the pure-Python one, which took half a millisecond a move for the
    host's journal).  ``move_lines``: the moves already encoded, one JSON
    object each (a journal keeps them from write to write).
    """
    data = record.to_json()
    moves = data.pop("moves")
    result = data.pop("result", None)
    if move_lines is None:
        move_lines = [json.dumps(m) for m in moves]
    fields = [f" {json.dumps(key)}: {json.dumps(value)}" for key, value in data.items()]
    body = ",\n".join(f"  {line}" for line in move_lines)
    fields.append(f' "moves": [\n{body}\n ]' if move_lines else ' "moves": []')
    if result is not None:
        fields.append(f' "result": {json.dumps(result)}')
    return "{\n" + ",\n".join(fields) + "\n}\n"


def save_record(path: str | os.PathLike[str], record: Record, new: bool = False) -> None:
    """``new``: as :func:`write_atomic`'s (a record written over no file)."""
    write_atomic(path, record_text(record), new=new)


def stamped_path(folder: Path, prefix: str) -> Path:
    """A new journal's name in ``folder`` (made if need be), named by the
    time now (``PREFIX-20261205-143000.json``): neither an existing file's
    nor one whose companions are there (``NAME.table``, ``NAME.lock``).  A
    journal is written only once a game's set-up is done, its table file at
    once: two windows starting a game in the same second once took one
    name, and the later game wrote over the earlier's table file."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = time.strftime(f"{prefix}-%Y%m%d-%H%M%S")
    return free_path(folder, stem, taken=_taken_with_companions)


def _taken_with_companions(path: Path) -> bool:
    """Whether ``path`` (``NAME``) or a file ``NAME.<anything>`` is there."""
    if os.path.lexists(path):
        return True
    prefix = path.name + "."
    with os.scandir(path.parent) as entries:
        return any(entry.name.startswith(prefix) for entry in entries)


def free_path(
    folder: Path, stem: str, suffix: str = ".json", taken: Callable[[Path], bool] = os.path.lexists
) -> Path:
    """``folder/stem.json``, or ``stem-2.json``, ``stem-3.json``...: the
    first name not ``taken``; by default, that no file has yet (records are
    never written over a file; a dangling link's name is taken too)."""
    for path in numbered_paths(folder, stem, suffix):
        if not taken(path):
            return path
    raise AssertionError("numbered_paths never ends")


def numbered_paths(folder: Path, stem: str, suffix: str = ".json") -> Iterator[Path]:
    """``folder/stem.json``, ``stem-2.json``, ``stem-3.json``...: the names
    :func:`free_path` tries, in its order, without end."""
    yield folder / f"{stem}{suffix}"
    n = 2
    while True:
        yield folder / f"{stem}-{n}{suffix}"
        n += 1


class JournalWriter:
    """Writes one game's record after every move, encoding only the moves
    that are new since the last write.

    Each write replaces the file atomically before it returns, so the
    journal always holds every move the table has shown anyone, whenever
    the host is killed.  The flush to disk (fsync, about 0.5 ms here and now
    and then 10 ms) runs in a worker thread right after, one at a time, so a
    move's views need not wait for the disk; the final record of a game is
    flushed before ``write`` returns.
    """

    def __init__(self) -> None:
        self._game: GameState | None = None
        self._header: Record | None = None
        self._lines: list[str] = []
        self._flushing: asyncio.Future[None] | None = None
        self._flush_again: Path | None = None

    def write(self, path: str | os.PathLike[str], state: GameState) -> None:
        if state is not self._game or len(self._lines) > len(state.history):
            self._game = state
            self._header = replace(record_of(state, with_result=False), moves=())
            self._lines = []
        assert self._header is not None
        self._lines.extend(json.dumps(m.to_json()) for m in state.moves(len(self._lines)))
        result = result_of(state)
        record = replace(self._header, result=result)
        write_atomic(path, record_text(record, self._lines), sync=result is not None)
        if result is None:
            self._flush_soon(Path(path))

    def _flush_soon(self, path: Path) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script, a test): flush now
            _flush(path)
            return
        if self._flushing is not None and not self._flushing.done():
            self._flush_again = path  # one more flush once this one is done
            return
        self._flushing = loop.run_in_executor(None, _flush, path)
        self._flushing.add_done_callback(self._flushed)

    def _flushed(self, future: asyncio.Future[None]) -> None:
        if not future.cancelled() and future.exception() is not None:
            log.warning("could not flush the journal: %s", future.exception())
        again, self._flush_again = self._flush_again, None
        if again is not None:
            self._flush_soon(again)


def _flush(path: Path) -> None:
    sync_file(path)
    sync_dir(path.parent)
