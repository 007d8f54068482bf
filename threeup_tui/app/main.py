"""``threeup`` (no command), ``play``, ``host``, ``join`` and ``replay``: the app's entry."""

from __future__ import annotations

import argparse
import sys

from ..bots.pool import close_shared_pool
from ..launcher import HostSettings, JoinSettings, Launcher
from ..recordfile import load_record
from ..rules import MalformedRecord, Options, RulesError
from ..rules.record import start_state
from ..settings import Settings, SettingsFile
from .app import StartSpec, ThreeUpApp, create_app

EXIT_USAGE = 2


def spec_from_args(args: argparse.Namespace, settings: Settings | None = None) -> StartSpec:
    """What the command line asks the app to start with (replay excluded).

    What the command line leaves out comes from ``settings`` (the choices
    remembered from the last run); the command line itself is not remembered.
    """
    remembered = settings or Settings()
    command = getattr(args, "command", None)
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
        options = Options(
            voluntary_pickup=bool(getattr(args, "voluntary_pickup", False)),
            finish="places" if getattr(args, "finish", "first_out") == "places" else "first_out",
        )
        host = HostSettings(
            players=getattr(args, "players", 4),
            bots=getattr(args, "bots", 0),
            bot_level=getattr(args, "bot_level", "greedy"),
            code=getattr(args, "code", None),
            name=name or remembered.name or "host",
            options=options,
            seed=getattr(args, "seed", None),
            port=getattr(args, "port", None),
            bind=getattr(args, "bind", None) or "0.0.0.0",
            takeover_after=getattr(args, "takeover_after", 30.0),
            journal=getattr(args, "record", None),
            resume=getattr(args, "resume", None),
            ssh_port=getattr(args, "ssh_port", None),
            ssh_authorized_keys=getattr(args, "ssh_authorized_keys", None),
            turn_time=getattr(args, "turn_time", None),
            spectator_chat=not getattr(args, "no_spectator_chat", False),
        )
        return StartSpec(mode="host", host=host)
    if command == "join":
        join = JoinSettings(
            address=getattr(args, "address", None) or "",
            name=name or remembered.name or "player",
            code=getattr(args, "code", None),
            watch=bool(getattr(args, "watch", False)),
        )
        return StartSpec(mode="join", join=join)
    return StartSpec()


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
            StartSpec(mode="replay", record=record, record_name=str(args.file)),
            settings=settings,
        )
    return create_app(launcher, spec_from_args(args, settings.settings), settings=settings)


def run_app(args: argparse.Namespace, launcher: Launcher | None = None) -> int:
    try:
        app = app_from_args(args, launcher)
    except MalformedRecord as err:
        print(f"threeup replay: not a record: {err}", file=sys.stderr)
        return EXIT_USAGE
    app.leave_on_sigterm = True  # an SSH session that drops leaves the table cleanly
    try:
        result = app.run()
    finally:
        close_shared_pool()  # the bots' thinking workers, and the hint's
    return result if isinstance(result, int) else (app.return_code or 0)
