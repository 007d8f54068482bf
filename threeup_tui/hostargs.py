"""``threeup host``'s flags, for a new table and for a resumed one.

Every host flag defaults to None on the command line, so that a resume can
tell a flag given from one left out: ``threeup host --resume FILE`` alone
brings the table back as its table file holds it, and each flag given with
it overrides that one setting (the table logs it).  The defaults of a new
table are here, in one place.

Flags named like a ``TableConfig`` or ``Hosting`` field set that field, so a
setting added to the table with a flag of the same name is resumed and
overridden like the others, with no change here.
"""

from __future__ import annotations

import argparse
import dataclasses
import getpass
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from .addresses import DEFAULT_BIND
from .names import clean_name
from .paths import home_short, resume_command, unpastable
from .rules import Options
from .table import (
    FIXED_ON_RESUME,
    HOSTING_MODE,
    Hosting,
    Table,
    TableConfig,
    TableError,
    check_resumable,
    setting_flag,
    taken_journal,
)
from .tablefile import table_file_path
from .textclean import plural, shown_value

HOST_DEFAULTS: dict[str, Any] = {
    "bind": DEFAULT_BIND,
    "players": 4,
    "bots": 0,
    "bot_level": "greedy",
    "takeover_after": 30.0,
    "finish": "first_out",
    "voluntary_pickup": False,
}
# Flags that shape the seats or the rules: a resumed game keeps its own.
GAME_FLAGS = ("players", "bots", "finish", "voluntary_pickup")
HEADLESS_JOURNAL = Path("threeup-game.json")
# What `--turn-time off`, `--rematch-after off` and `--games off` parse to:
# None is a flag left out, which a resume reads as "keep the table's", so
# "off" needs a value of its own (--rematch-after 0 is a setting: at once,
# after the pause everyone gets).
OFF = "off"
OFF_SETTINGS = ("turn_time", "rematch_after", "games")


# Said when --ssh-port is asked of an install without asyncssh.  The README
# installs from threeup's source folder, so that is where the extra comes from.
SSH_EXTRA_MISSING = (
    "--ssh-port needs the ssh extra (asyncssh): pip install '.[ssh]' in threeup's "
    'folder (README: "Playing over SSH")'
)


def value(args: argparse.Namespace, name: str) -> Any:
    """A flag's value, or its default when it was not given."""
    given = getattr(args, name, None)
    return HOST_DEFAULTS.get(name) if given is None else given


def default_name() -> str:
    """A headless host's name: the login name, which getpass takes from
    $LOGNAME or $USER first, cleaned as --name is (an escape sequence or a
    line break in it went into the host's log and the table's name as it
    was, and 10,000 letters of it too)."""
    try:
        login = getpass.getuser()
    except (KeyError, OSError):
        return "player"
    return clean_name(login, "player")


def check_host_args(args: argparse.Namespace) -> None:
    """ValueError (one line for the command line) for flags that cannot work."""
    resume: Path | None = getattr(args, "resume", None)
    if getattr(args, "no_code", False) and getattr(args, "code", None) is not None:
        raise ValueError("--code and --no-code: give one of them")
    if getattr(args, "no_ssh", False):
        for flag in ("ssh_port", "ssh_authorized_keys"):
            if getattr(args, flag, None) is not None:
                raise ValueError(f"{setting_flag(flag)} and --no-ssh: give one of them")
    if resume is not None:
        problem = _not_a_file(resume)
        if problem is not None and _not_a_file(table_file_path(resume)) is not None:
            raise ValueError(f"--resume {resume}: {problem}")
        try:
            table = check_resumable(resume, resume_overrides(args))
        except TableError as err:
            raise ValueError(str(err)) from None
        _check_game_flags(args, table)
        seated = table.host_seat is not None or any(s.kind == "open" for s in table.seats)
        if not getattr(args, "headless", False) and not seated:
            # The app's player sits in the host's seat, or an open one: a
            # headless host's game has neither (its players joined).
            raise ValueError(
                f"--resume {resume}: a headless host's table, with no seat for the app; "
                f"{resume_command(resume, headless=True)} brings it back"
            )
    else:
        bots, players = value(args, "bots"), value(args, "players")
        if bots >= players:
            raise ValueError(f"--bots {bots} leaves no seat for a person at {players} seats")
        _check_journal_free(args)
    keys: Path | None = getattr(args, "ssh_authorized_keys", None)
    if keys is not None and (problem := _not_a_file(keys)) is not None:
        raise ValueError(f"--ssh-authorized-keys {keys}: {problem}")
    if keys is not None:
        try:
            from .sshdoor import read_authorized_keys
        except ImportError:
            pass  # no SSH library: the door says what to install when it starts
        else:
            read_authorized_keys(keys)
    _check_journal_folder(args)


def check_journal_pastable(args: argparse.Namespace) -> None:
    """ValueError when the journal's path holds what no one-line command
    can name (a line break, say): every way back to the table (the
    goodbye, the host's log, the refusals) shows ``threeup host --resume
    PATH``, and a path on two lines made a command on two lines.  Checked
    first: the other refusals quote the path too.  A new table has not
    begun, and a journal already there can be moved, its table file with it."""
    resume: Path | None = getattr(args, "resume", None)
    journal = resume if resume is not None else journal_path(args)
    if journal is None or (what := unpastable(journal)) is None:
        return
    if resume is not None:
        label = f"--resume {shown_value(str(resume))}"
        fix = f"move it, and {table_file_path(resume).name!r} beside it, to a path without it"
    elif getattr(args, "record", None) is not None:
        label = f"--record {shown_value(str(journal))}"
        fix = "choose a path without it"
    else:
        label = f"{journal} (a headless host's journal, in the working directory)"
        fix = "start the host in a folder without it, or give --record FILE"
    raise ValueError(
        f"{label}: its path ({shown_value(home_short(journal))}) holds {what}, and the "
        f"command that resumes the table would not be one line; {fix}"
    )


def _check_game_flags(args: argparse.Namespace, table: Table) -> None:
    """ValueError for a GAME_FLAGS flag given with ``--resume`` that differs
    from the resumed table.  The same value is let through: an operator who
    adds ``--resume FILE`` to the command line that started the table was
    refused ("--players: ... leave it out") for a flag that changed nothing,
    while ``--port`` given again as saved was taken."""
    bots = sum(1 for seat in table.seats if seat.kind == "bot")
    saved: dict[str, tuple[Any, str]] = {
        "players": (table.config.players, f"has {table.config.players} seats"),
        "bots": (bots, f"has {plural(bots, 'bot seat')}"),
        "finish": (table.options.finish, f"plays finish {table.options.finish}"),
        "voluntary_pickup": (
            table.options.voluntary_pickup,
            "lets players pick up the pile at any time"
            if table.options.voluntary_pickup
            else "lets players pick up only when nothing else goes",
        ),
    }
    for name in GAME_FLAGS:
        given = getattr(args, name, None)
        if given is None or given == saved[name][0]:
            continue
        flag = setting_flag(name) if isinstance(given, bool) else f"{setting_flag(name)} {given}"
        raise ValueError(
            f"{flag}: the resumed table {saved[name][1]}, and a resumed table keeps its "
            "seats and rules; leave it out"
        )


def _not_a_file(path: Path) -> str | None:
    """Why ``path`` cannot be read as a regular file, in a few words; None
    when it can be.  Path.is_file() raised for a directory on the way that
    cannot be searched (Permission denied), a traceback on the command line."""
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return "no such file"
    except OSError as err:
        return f"cannot read: {err.strerror or err}"
    if stat.S_ISREG(mode):
        return None
    return "is a directory" if stat.S_ISDIR(mode) else "not a regular file (a FIFO or a device)"


def _check_journal_free(args: argparse.Namespace) -> None:
    """A new table's journal is a new file: one already there may be the
    journal of a table that ``--resume`` could still bring back."""
    journal = journal_path(args)
    taken = taken_journal(journal)  # None when there is no journal
    if taken is None:
        return
    assert journal is not None  # a file is taken only where there is a journal
    if not os.path.lexists(table_file_path(journal)):
        # No table file beside it: no table that --resume could bring back
        # (a record saved from the app's result box is threeup-game.json too,
        # and pointing at --resume only led to "cannot resume: ... missing").
        raise ValueError(
            f"{taken} is already there (a file, not a table to resume: no "
            f"{table_file_path(journal).name} beside it), and a new table writes over no "
            "file: --record FILE starts the table with a journal of another name"
        )
    raise ValueError(
        f"{taken} is already there, and a new table writes over no file: "
        f"--resume {journal} takes that table up again, or --record FILE starts a new one"
    )


def _check_journal_folder(args: argparse.Namespace) -> None:
    """ValueError when the journal's folder takes no new file of the names
    the host writes there: the table file is written beside the journal (a
    new file, renamed over), and a host started in a read-only folder, or
    with a journal name too long to make the table file's name of, played
    on without either, its game lost."""
    resume: Path | None = getattr(args, "resume", None)
    journal = resume if resume is not None else journal_path(args)
    if journal is None:
        return
    if resume is not None:
        label = f"--resume {resume}"
    elif getattr(args, "record", None) is not None:
        label = f"--record {journal}"
    else:
        label = f"{journal} (a headless host's journal)"
    folder = journal.absolute().parent
    # The longest name written there: write_atomic's for the table file.
    longest = f".{table_file_path(journal).name}."
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=longest):
            pass
    except OSError as err:
        raise ValueError(f"{label}: cannot write in {folder}: {err.strerror or err}") from None


def journal_path(args: argparse.Namespace) -> Path | None:
    """Where a new table keeps its journal: ``--record``, or with
    ``--headless`` a default file in the working directory."""
    journal: Path | None = getattr(args, "record", None)
    if journal is None and getattr(args, "headless", False):
        journal = HEADLESS_JOURNAL
    return journal


def _config_fields() -> list[str]:
    skip = HOSTING_MODE | FIXED_ON_RESUME | {"journal", "table_name"}
    return [f.name for f in dataclasses.fields(TableConfig) if f.name not in skip]


def new_table_config(args: argparse.Namespace, **mode: Any) -> TableConfig:
    """The settings of a new table; ``mode``: HOSTING_MODE settings."""
    options = Options(
        voluntary_pickup=bool(value(args, "voluntary_pickup")),
        finish="places" if value(args, "finish") == "places" else "first_out",
    )
    settings: dict[str, Any] = {}
    for name in _config_fields():
        given = value(args, name)
        if given is not None:
            settings[name] = given
    if getattr(args, "no_spectator_chat", False):
        settings["spectator_chat"] = False
    journal = journal_path(args)
    name = getattr(args, "name", None) or default_name()
    return TableConfig(
        players=value(args, "players"),
        options=options,
        journal=journal,
        table_name=f"{name}'s table",
        **settings,
        **mode,
    )


def new_hosting(args: argparse.Namespace) -> Hosting:
    settings = {}
    for field in dataclasses.fields(Hosting):
        given = value(args, field.name)
        if given is not None:
            settings[field.name] = given
    return Hosting(**settings)


def settle_off_flags(args: argparse.Namespace) -> None:
    """A new table's "off" is its default (None); a resume keeps "off" for
    :func:`resume_overrides`, where it takes the table's setting away."""
    if getattr(args, "resume", None) is not None:
        return
    for name in OFF_SETTINGS:
        if getattr(args, name, None) == OFF:
            setattr(args, name, None)


def resume_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The settings given again with ``--resume``: only the flags given."""
    overrides: dict[str, Any] = {}
    names = _config_fields() + [f.name for f in dataclasses.fields(Hosting)]
    for name in names:
        given = getattr(args, name, None)
        if given is not None:
            overrides[name] = given
    for name in OFF_SETTINGS:  # --turn-time off, --rematch-after off, --games off
        if overrides.get(name) == OFF:
            overrides[name] = None
    if getattr(args, "no_ssh", False):  # the one way to close a resumed table's SSH door
        overrides["ssh_port"] = None
    if getattr(args, "no_spectator_chat", False):  # a store_true flag: given when True
        overrides["spectator_chat"] = False
    if getattr(args, "no_code", False):  # the one way to take a resumed table's code away
        overrides["code"] = None
    if getattr(args, "name", None) is not None:
        overrides["table_name"] = f"{args.name}'s table"
    if getattr(args, "record", None) is not None:
        overrides["journal"] = args.record
    return overrides
