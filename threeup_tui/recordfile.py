"""Reading and writing record files (the engine itself does no I/O)."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from .rules import GameState, MalformedRecord, Record, parse_record, record_of
from .rules.record import result_of


def read_json(path: str | os.PathLike[str]) -> Any:
    """The decoded JSON of a file; MalformedRecord (one line) if it cannot be."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MalformedRecord(f"{path}: no such file") from None
    except IsADirectoryError:
        raise MalformedRecord(f"{path}: is a directory, not a record") from None
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise MalformedRecord(f"{path}: cannot read: {reason}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise MalformedRecord(
            f"{path}: not JSON ({err.msg} at line {err.lineno} column {err.colno})"
        ) from None
    except RecursionError:
        raise MalformedRecord(f"{path}: not a record (nested too deeply)") from None
    except ValueError as err:  # e.g. an integer too long to convert
        raise MalformedRecord(f"{path}: not a record ({err})") from None


def load_record(path: str | os.PathLike[str]) -> Record:
    try:
        return parse_record(read_json(path))
    except MalformedRecord as err:
        text = str(err)
        raise MalformedRecord(text if text.startswith(str(path)) else f"{path}: {text}") from None


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write a file so that a crash leaves either the old or the new content."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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


def save_record(path: str | os.PathLike[str], record: Record) -> None:
    write_atomic(path, record_text(record))


class JournalWriter:
    """Writes one game's record after every move, encoding only the moves
    that are new since the last write."""

    def __init__(self) -> None:
        self._game: GameState | None = None
        self._header: Record | None = None
        self._lines: list[str] = []

    def write(self, path: str | os.PathLike[str], state: GameState) -> None:
        if state is not self._game or len(self._lines) > len(state.history):
            self._game = state
            self._header = replace(record_of(state, with_result=False), moves=())
            self._lines = []
        assert self._header is not None
        self._lines.extend(json.dumps(m.to_json()) for m in state.moves(len(self._lines)))
        record = replace(self._header, result=result_of(state))
        write_atomic(path, record_text(record, self._lines))
