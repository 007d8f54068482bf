"""``threeup`` (no command), ``play``, ``host``, ``join`` and ``replay``: the app's entry."""

from __future__ import annotations

import argparse
import codecs
import importlib
import inspect
import os
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from ..bots.pool import close_shared_pool
from ..guest import is_guest, read_guest_seat
from ..launcher import NO_NAME, HostSettings, JoinSettings, Launcher
from ..process import EXIT_USAGE
from ..recordfile import load_record
from ..rules import MalformedRecord, RulesError
from ..rules.record import start_state
from ..settings import Settings, SettingsFile
from ..terminals import fitted_lines, plain_terminal, plain_terminal_words, terminal_columns
from ..textclean import one_line, shown_value
from .app import StartSpec, ThreeUpApp, create_app
from .glyphs import console_driver, on_the_console

# The values Rich's Console takes for TEXTUAL_COLOR_SYSTEM ("auto" detects).
COLOUR_SYSTEMS = ("auto", "standard", "256", "truecolor", "windows")


def spec_from_args(args: argparse.Namespace, settings: Settings | None = None) -> StartSpec:
    """What the command line asks the app to start with (replay excluded).

    What the command line leaves out comes from ``settings`` (the choices
    remembered from the last run); the command line itself is not remembered.
    """
    remembered = settings or Settings()
    command = getattr(args, "command", None)
    # `join` and `host` open one table, and leaving it ends the app (its
    # player typed a command, and expects it to end there); `play` goes on
    # to the start screen, which offers that game again (its --help says so).
    name = getattr(args, "name", None)
    if command == "play":
        return StartSpec(
            mode="play",
            players=getattr(args, "players", None),
            bot_level=getattr(args, "bot_level", None),
            seed=getattr(args, "seed", None),
            name=name,
        )
    if command == "host":
        host = HostSettings.from_args(args)
        # No --name: the name you chose last (the command line is not remembered).
        return StartSpec(
            mode="host",
            host=replace(host, name=name or remembered.name or "host"),
            ends_with_table=True,
        )
    if command == "join":
        join = JoinSettings(
            address=getattr(args, "address", None) or "",
            name=name or remembered.name or NO_NAME,
            code=getattr(args, "code", None),
            watch=bool(getattr(args, "watch", False)),
        )
        if is_guest():  # the SSH door's guest: the seat comes from the door
            given, word = guest_seat()
            return StartSpec(mode="join", join=given or join, guest=True, seat_word=word)
        return StartSpec(mode="join", join=join, ends_with_table=True)
    return StartSpec()


def guest_seat() -> tuple[JoinSettings | None, str | None]:
    """The seat the SSH door passed to its guest's app (see threeup_tui.guest),
    and a keyless player's seat word."""
    seat = read_guest_seat()
    if seat is None:
        return None, None
    fields = {k: seat.get(k) for k in ("address", "name", "code", "token", "word")}
    if not all(isinstance(fields[k], str) for k in ("address", "name", "token")):
        return None, None
    code = fields["code"] if isinstance(fields["code"], str) else None
    word = fields["word"] if isinstance(fields["word"], str) else None
    # No seat was free for this guest: a spectator, who may sit down with
    # the token if a seat opens in the lobby.
    watch = seat.get("watch") is True
    return JoinSettings(
        address=str(fields["address"]), name=str(fields["name"]), code=code,
        token=str(fields["token"]), watch=watch,
    ), word  # fmt: skip


def launcher_from_args(args: argparse.Namespace) -> Launcher:
    """The LAN settings of ``host`` and ``join`` (announce address, ports)."""
    return Launcher(
        announce_address=getattr(args, "announce", None),
        announce_port=getattr(args, "announce_port", None),
        listen_port=getattr(args, "listen_port", None),
        think_ms=getattr(args, "think_ms", None),
    )


def app_from_args(args: argparse.Namespace, launcher: Launcher | None = None) -> ThreeUpApp:
    """The app for a command line; MalformedRecord for a replay file that is not one."""
    launcher = launcher or launcher_from_args(args)
    settings = SettingsFile()
    if getattr(args, "command", None) == "replay":
        record = load_record(args.file)
        try:
            start_state(record)
        except RulesError as err:
            raise MalformedRecord(f"{args.file}: the deal does not set up: {err}") from None
        return create_app(
            launcher,
            # The file's name, as Your games gives it: a path typed to it
            # filled the header's line with its directories.
            StartSpec(mode="replay", record=record, record_name=Path(args.file).name),
            settings=settings,
        )
    return create_app(launcher, spec_from_args(args, settings.settings), settings=settings)


def in_a_terminal() -> bool:
    """Whether the app has a terminal to read keys from and draw on."""
    streams = (sys.__stdin__, sys.__stderr__)
    return all(stream is not None and stream.isatty() for stream in streams)


def draw_in_utf8() -> None:
    """Make the stream Textual draws on (stderr) write UTF-8.

    Textual reads a terminal's keys as UTF-8 whatever the locale says, and
    the app draws boxes and card backs that no 8-bit code page holds.  Under
    a locale that is not UTF-8 (``en_US.ISO-8859-1``, or a guest's ``LANG``
    that the SSH door passes on) Python wrote each of them as a ``\\u2554``
    escape: a screen of escapes, nothing to play on."""
    stream = sys.__stderr__
    encoding = getattr(stream, "encoding", None) or "utf-8"
    if stream is None or codecs.lookup(encoding).name == "utf-8":
        return
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:  # a TextIOWrapper, as a terminal's stderr is
        reconfigure(encoding="utf-8")


def textual_setting_problem(environ: Mapping[str, str]) -> str | None:
    """What is wrong with a Textual setting in ``environ``, or None.

    Textual passes TEXTUAL_COLOR_SYSTEM to Rich unchecked, and imports
    TEXTUAL_DRIVER as given: a value they do not know (``monochrome``, an
    empty one, a misspelt driver) ended the app in a traceback before its
    first screen.  (The SSH door gives its guests none of these.)"""
    colours = environ.get("TEXTUAL_COLOR_SYSTEM")
    if colours is not None and colours not in COLOUR_SYSTEMS:
        return (
            f"TEXTUAL_COLOR_SYSTEM={shown_value(colours)} is not a colour system "
            f"Textual knows ({', '.join(COLOUR_SYSTEMS)}); set one of them, or unset it"
        )
    driver = environ.get("TEXTUAL_DRIVER")
    if driver is not None and not is_a_driver(driver):
        return (
            f"TEXTUAL_DRIVER={shown_value(driver)} names no Textual driver "
            "(module.path:DriverClass); unset it to use the terminal's own"
        )
    return None


def is_a_driver(where: str) -> bool:
    """Whether ``where`` (``module.path:Class``, as Textual reads it) names a
    Textual driver class that imports."""
    from textual.driver import Driver

    module_name, _, class_name = where.partition(":")
    try:
        found = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, ValueError, TypeError, AttributeError):
        return False
    return inspect.isclass(found) and issubclass(found, Driver)


def run_app(args: argparse.Namespace, launcher: Launcher | None = None) -> int:
    command = getattr(args, "command", None)
    program = f"threeup {command}" if command else "threeup"
    problem = textual_setting_problem(os.environ)
    if problem is not None:
        print(f"{program}: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        app = app_from_args(args, launcher)
    except MalformedRecord as err:
        # One line, whatever the file's name holds (it names the file).
        print(f"threeup replay: not a record: {one_line(str(err))}", file=sys.stderr)
        return EXIT_USAGE
    if not in_a_terminal():
        # Without one the app ran on unseen, busy (its input read nothing
        # but end-of-file, at full speed) until it was killed.
        print(
            f"{program}: the app needs a terminal "
            "(its input, and stderr, where it draws); without one: threeup host "
            "--headless, threeup join --bot, threeup simulate or threeup verify",
            file=sys.stderr,
        )
        return EXIT_USAGE
    plain = plain_terminal(os.environ.get("TERM", ""))
    if plain is not None:
        # Keys read raw and every frame written as escapes: nothing to play on,
        # and the terminal left in raw mode if the player killed it.
        print(plain_terminal_words(plain, command, is_guest()), file=sys.stderr)
        return EXIT_USAGE
    if on_the_console():
        # The Linux console's font lacks ticks, gears, rounded corners and
        # Textual's eighth blocks: its own glyphs instead (see glyphs).
        app.driver_class = console_driver(app.driver_class)
    app.leave_on_sigterm = True  # an SSH session that drops leaves the table cleanly
    # TERM=xterm, the Linux console, TEXTUAL_COLOR_SYSTEM=standard: 16 colours
    # (the colours Textual detects; NO_COLOR keeps its own black and white).
    app.terminal_colours_first = app.console.color_system == "standard" and not app.no_color
    draw_in_utf8()
    try:
        result = app.run()
    finally:
        close_shared_pool()  # the bots' thinking workers, and the hint's
    # A last line on the restored terminal: a confined guest's, or how to
    # resume a table the app stopped in the middle of a game.
    if app.goodbye:
        print(fitted_lines(app.goodbye, terminal_columns(sys.stderr)), file=sys.stderr, flush=True)
    return result if isinstance(result, int) else (app.return_code or 0)
