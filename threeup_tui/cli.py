"""The ``threeup`` command.

Every sub-command checks its arguments and reports a problem in one plain
line (exit 2), never a traceback.  Heavy imports (Textual, the network)
happen only in the sub-commands that need them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_USAGE = 2


class CliError(Exception):
    """A problem with what the user asked for: printed as one line, exit 2."""


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must not be negative")
    return value


def _players(text: str) -> int:
    value = _positive(text)
    if not 2 <= value <= 6:
        raise argparse.ArgumentTypeError(f"a game has 2 to 6 players, not {value}")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _port(text: str) -> int:
    value = _count(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (0-65535)")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must not be negative")
    return value


def _bot_level(text: str) -> str:
    from .bots import BOT_LEVELS

    if text not in BOT_LEVELS:
        raise argparse.ArgumentTypeError(
            f"unknown bot level {text!r}: choose from {', '.join(BOT_LEVELS)}"
        )
    return text


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="threeup",
        description="3UP 3DOWN in the terminal: against bots, on a LAN, over SSH.",
    )
    parser.add_argument("--version", action="version", version=f"threeup {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play against bots at once")
    play.add_argument("--players", type=_players, default=4, help="2 to 6 (default 4)")
    play.add_argument("--bot-level", type=_bot_level, default="greedy")
    play.add_argument("--seed", type=_seed, default=None)
    play.add_argument("--name", default=None, help="your name at the table")

    verify = sub.add_parser("verify", help="check a game record")
    verify.add_argument("file")
    verify.add_argument("--json", action="store_true", help="print one JSON object")

    sim = sub.add_parser("simulate", help="play bot games and print statistics")
    sim.add_argument("--games", type=_positive, required=True)
    sim.add_argument("--players", type=_players, required=True)
    sim.add_argument("--bots", required=True, help="LEVEL or LEVEL,LEVEL,... one per seat")
    sim.add_argument("--seed", type=_seed, default=0)
    sim.add_argument("--json", action="store_true")
    sim.add_argument("--records", type=Path, default=None, help="write every game's record here")

    replay = sub.add_parser("replay", help="step through a game record")
    replay.add_argument("file")

    host = sub.add_parser(
        "host",
        help="host a table (UDP)",
        description=(
            "Host a table. With --resume FILE alone the table comes back exactly as it "
            "was (port, room code, seats, settings); a flag given with it overrides "
            "that setting, and the host's log says so."
        ),
    )
    # Defaults are None: a resume must tell a flag given from one left out.
    # The defaults themselves are HOST_DEFAULTS (threeup_tui.hostargs).
    host.add_argument("--bind", default=None, help="address to listen on (default 0.0.0.0)")
    host.add_argument("--port", type=_port, default=None, help="UDP port (default 47823)")
    host.add_argument("--players", type=_players, default=None, help="seats, 2 to 6 (default 4)")
    host.add_argument("--bots", type=_count, default=None, help="seats filled by bots (default 0)")
    host.add_argument(
        "--bot-level", type=_bot_level, default=None, help="level of the bots (default greedy)"
    )
    host.add_argument("--code", default=None, help="room code players must give (default none)")
    host.add_argument("--seed", type=_seed, default=None, help="shuffle seed (default random)")
    host.add_argument(
        "--record",
        type=Path,
        default=None,
        help="journal / record file; the table file FILE.table sits beside it "
        "(default threeup-game.json for --headless, none otherwise)",
    )
    host.add_argument(
        "--takeover-after",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="a bot plays an absent player's seat after this long (default 30)",
    )
    host.add_argument(
        "--resume",
        type=Path,
        default=None,
        metavar="FILE",
        help="bring back the table of this journal (and FILE.table beside it)",
    )
    host.add_argument("--headless", action="store_true", help="no TUI: a dedicated host")
    host.add_argument("--name", default=None, help="your name (and the table's)")
    host.add_argument(
        "--finish", choices=["first_out", "places"], default=None, help="(default first_out)"
    )
    host.add_argument("--voluntary-pickup", action="store_true", default=None, help="(default off)")
    host.add_argument(
        "--announce",
        default=None,
        metavar="ADDR",
        help="LAN announcement address (default 255.255.255.255; 'off')",
    )
    host.add_argument("--announce-port", type=_port, default=None, help="(default 47824)")
    host.add_argument(
        "--ssh-port",
        type=_port,
        default=None,
        help="also serve the TUI over SSH on this port (needs threeup[ssh]; default off)",
    )
    host.add_argument(
        "--ssh-authorized-keys",
        type=Path,
        default=None,
        metavar="FILE",
        help="admit only these public keys at the SSH door, without the room code "
        "(default: any key or none, with the room code if the table has one)",
    )

    join = sub.add_parser("join", help="join a table")
    join.add_argument("address", nargs="?", default=None, metavar="HOST[:PORT]")
    join.add_argument("--name", default=None)
    join.add_argument("--code", default=None)
    join.add_argument("--watch", action="store_true", help="watch as a spectator")
    join.add_argument(
        "--bot", type=_bot_level, default=None, metavar="LEVEL", help="play headless as this bot"
    )
    join.add_argument(
        "--listen-port", type=_port, default=None, help="port to hear LAN announcements on"
    )
    return parser


def _say(text: str) -> None:
    """Print for people: names from a file may hold what the terminal cannot show."""
    encoding = sys.stdout.encoding or "utf-8"
    print(text.encode(encoding, "backslashreplace").decode(encoding, "replace"))


def cmd_verify(args: argparse.Namespace) -> int:
    from .recordfile import load_record
    from .rules import MalformedRecord, replay

    try:
        record = load_record(args.file)
    except MalformedRecord as err:
        print(f"threeup verify: not a record: {err}", file=sys.stderr)
        return EXIT_USAGE
    _state, verdict = replay(record)
    if args.json:
        print(json.dumps(verdict.to_json()))
    elif verdict.ok:
        if not verdict.finished:
            status = "unfinished"
        elif verdict.winner is None:
            status = "stalemate: no winner"
        else:
            status = f"winner: seat {verdict.winner} ({record.players[verdict.winner]})"
        places = ""
        if verdict.places is not None:
            places = ", places: " + " ".join(str(p) for p in verdict.places)
        _say(f"ok: {verdict.moves} moves, {status}{places}")
    elif verdict.move is None:
        _say(f"illegal: {verdict.error}")
    else:
        _say(f"illegal move {verdict.move}: {verdict.error}")
    return EXIT_OK if verdict.ok else EXIT_ILLEGAL


def cmd_simulate(args: argparse.Namespace) -> int:
    from .simulate import parse_levels, simulate

    try:
        levels = parse_levels(args.bots, args.players)
    except ValueError as err:
        raise CliError(str(err)) from None
    if args.records is not None:
        if args.records.exists() and not args.records.is_dir():
            raise CliError(f"--records {args.records}: not a directory")
        try:
            args.records.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise CliError(f"--records {args.records}: {err.strerror}") from None
    result = simulate(args.games, args.players, levels, args.seed, args.records)
    print(json.dumps(result.to_json()) if args.json else result.text())
    return EXIT_OK


def cmd_host(args: argparse.Namespace) -> int:
    from .hostargs import check_host_args

    try:
        check_host_args(args)
    except ValueError as err:
        raise CliError(str(err)) from None
    if args.headless:
        from .netplay.run import run_headless_host

        return run_headless_host(args)
    return cmd_app(args)


def cmd_join(args: argparse.Namespace) -> int:
    if args.bot is not None:
        if args.watch:
            raise CliError("--bot plays a seat; it cannot --watch")
        from .netplay.run import run_bot_client

        return run_bot_client(args)
    return cmd_app(args)


def cmd_app(args: argparse.Namespace) -> int:
    from .app.main import run_app

    code: int = run_app(args)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handlers = {
        "verify": cmd_verify,
        "simulate": cmd_simulate,
        "host": cmd_host,
        "join": cmd_join,
    }
    handler = handlers.get(args.command or "", cmd_app)
    try:
        return handler(args)
    except CliError as err:
        print(f"threeup {args.command}: {err}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
