"""The table file: everything a table needs to come back, kept beside its journal.

The journal (``party.json``) is a game record, ``threeup-record/1``, and
holds the game.  The table file (``party.json.table``, mode 0600: it holds
the room code and the seat tokens) holds the rest, as one JSON object:

- ``format``: ``"threeup-table/1"``;
- ``table_id``: the table's id, made once when the table is first opened;
- ``secret``: the key the SSH door derives its players' seat tokens from;
- ``config``: every ``TableConfig`` setting (written generically, field by
  field, so that settings added later are kept too);
- ``hosting``: where and how the table is served (bind address, port,
  announcements, the SSH door);
- ``options``: the rule options of the next game;
- ``seats``: ``{"name", "kind", "bot_level", "token", "timeouts", "away",
  "network_bot", "claims", "taken_over", "results"}`` per seat (``claims``:
  the sessions that have taken the seat, so that a client cut off by a
  crash cannot take it back from a newer terminal after the resume;
  ``taken_over``: a bot plays it while its player is absent, D17;
  ``results``: a person's seat's last games, as the ``played`` message's
  GAME maps (protocol.md), told to its player's next session);
- ``host_seat``, ``game_number``, and ``chat``: the recent chat lines,
  ``[seat or null, name, text, spectator, number]``;
- ``deal``: null, or a game still in its set-up, which no journal can hold
  yet (a record needs every face-up choice): ``{"game", "players",
  "options", "deck", "first", "setup"}``, ``setup`` one list of codes or
  null per seat, so that a crash then loses neither the deal nor the
  choices made;
- ``clock``: the turn clocks as they stood at a clean stop, or null: in
  play ``{"at", "seat", "remaining"}`` (the move count, the seat to act,
  seconds left), at set-up ``{"game", "setup"}`` (seconds left, or null,
  per seat);
- ``votes``: the seats whose players asked for the next game after the
  last one ended (a dedicated host's rematch vote);
- ``door_words``: the seat words the SSH door gave, each as an HMAC under
  ``secret`` (never the word), oldest first, so that a resumed table's
  door takes them back (:mod:`threeup_tui.sshdoor`).

Settings are checked against their declared types when read back: a file
that does not hold what a table needs is refused as a whole (a table must
never come back with fewer protections than it had).
"""

from __future__ import annotations

import dataclasses
import json
import os
import types
import typing
from pathlib import Path
from typing import Any, Union

from .limits import SETTING_BOUNDS, within
from .recordfile import read_json, write_atomic
from .rules import MalformedRecord, Options
from .textclean import shown_value

FORMAT = "threeup-table/1"


class TableFileError(ValueError):
    """A table file that cannot be used; the message names the file."""


def table_file_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".table")


def write_table_file(path: Path, data: dict[str, Any], sync: bool) -> None:
    # write_atomic creates the file through mkstemp: mode 0600 from the start.
    write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n", sync=sync)
    if os.name == "posix":
        os.chmod(path, 0o600)  # a file replaced from an older version keeps no wider mode


def read_table_file(path: Path) -> dict[str, Any]:
    try:
        data = read_json(path)
    except MalformedRecord as err:
        raise TableFileError(str(err)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TableFileError(f"{path}: not a table file ({FORMAT})")
    return data


# ---------------------------------------------------------------- settings
def settings_to_json(settings: Any) -> dict[str, Any]:
    """A settings dataclass as JSON: Options as their JSON, paths as strings."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(settings):
        out[f.name] = _value_to_json(getattr(settings, f.name))
    return out


def _value_to_json(value: Any) -> Any:
    if isinstance(value, Options):
        return value.to_json()
    if isinstance(value, Path):
        return str(value)
    return value


def settings_from_json(
    cls: type[Any], data: Any, where: str, skip: frozenset[str]
) -> dict[str, Any]:
    """The fields of dataclass ``cls`` that ``data`` holds, checked against
    their declared types and bounds (``SETTING_BOUNDS``).  Unknown keys are
    ignored (a newer version's settings); a value of the wrong type, or a
    number out of bounds, raises TableFileError."""
    if not isinstance(data, dict):
        raise TableFileError(f"{where}: the settings are not an object")
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in skip or f.name not in data:
            continue
        try:
            values[f.name] = _value_from_json(hints[f.name], data[f.name])
        except (TypeError, ValueError) as err:
            raise TableFileError(f"{where}: setting {f.name!r}: {err}") from None
        bounds = SETTING_BOUNDS.get(f.name)
        value = values[f.name]
        # A file edited by hand: a rematch wait of 1e300 s, a negative one or
        # a turn time of NaN was resumed and sent to every player.
        if bounds is not None and value is not None and not within(value, *bounds):
            raise TableFileError(
                f"{where}: setting {f.name!r}: {shown_value(value)} is not from "
                f"{bounds[0]} to {bounds[1]}"
            )
    return values


def _value_from_json(hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _value_from_json(option, value)
            except (TypeError, ValueError) as err:
                errors.append(str(err))
        raise ValueError(errors[0] if errors else f"{value!r} is not allowed")
    if origin is typing.Literal:
        if value in typing.get_args(hint):
            return value
        raise ValueError(f"{value!r} is not one of {typing.get_args(hint)}")
    if hint is Options:
        return Options.from_json(value)
    if hint is Path:
        if not isinstance(value, str):
            raise TypeError(f"{value!r} is not a path")
        return Path(value)
    if hint is bool:
        if not isinstance(value, bool):
            raise TypeError(f"{value!r} is not true or false")
        return value
    if hint is int:
        if type(value) is not int:
            raise TypeError(f"{value!r} is not a whole number")
        return value
    if hint is float:
        if type(value) not in (int, float):
            raise TypeError(f"{value!r} is not a number")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise TypeError(f"{value!r} is not a string")
        return value
    return value  # a type this codec does not know: kept as the file has it
