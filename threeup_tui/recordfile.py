"""Reading and writing record files (the engine itself does no I/O)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .rules import MalformedRecord, Record, parse_record


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


def save_record(path: str | os.PathLike[str], record: Record) -> None:
    write_atomic(path, json.dumps(record.to_json(), indent=1) + "\n")
