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


def _turn_seconds(text: str) -> float:
    value = _seconds(text)
    if not 1 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"{text!r}: a turn lasts 1 to 3600 seconds")
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

    host = sub.add_parser("host", help="host a table (UDP)")
    host.add_argument("--bind", default="0.0.0.0")
    host.add_argument("--port", type=_port, default=None, help="UDP port (default 47823)")
    host.add_argument("--players", type=_players, default=4)
    host.add_argument("--bots", type=_count, default=0, help="seats filled by bots")
    host.add_argument("--bot-level", type=_bot_level, default="greedy")
    host.add_argument("--code", default=None, help="room code players must give")
    host.add_argument("--seed", type=_seed, default=None)
    host.add_argument("--record", type=Path, default=None, help="journal / record file")
    host.add_argument("--takeover-after", type=_seconds, default=30.0, metavar="SECONDS")
    host.add_argument("--resume", type=Path, default=None, help="resume from a journal")
    host.add_argument("--headless", action="store_true", help="no TUI: a dedicated host")
    host.add_argument("--name", default=None, help="your name (and the table's)")
    host.add_argument("--finish", choices=["first_out", "places"], default="first_out")
    host.add_argument("--voluntary-pickup", action="store_true")
    host.add_argument(
        "--announce",
        default=None,
        metavar="ADDR",
        help="LAN announcement address (default 255.255.255.255; 'off')",
    )
    host.add_argument("--announce-port", type=_port, default=None)
    host.add_argument(
        "--ssh-port",
        type=_port,
        default=None,
        help="also serve the TUI over SSH on this port (needs threeup[ssh])",
    )
    host.add_argument("--ssh-authorized-keys", type=Path, default=None)
    host.add_argument(
        "--turn-time",
        type=_turn_seconds,
        default=None,
        metavar="SECONDS",
        help="seconds a player has for each action before a bot makes it for them "
        "(default: no turn timer)",
    )
    host.add_argument(
        "--rematch-after",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="--headless: start the next game this long after a game ends even if not "
        "every player has asked for it (default: wait for everyone)",
    )
    host.add_argument(
        "--games",
        type=_positive,
        default=None,
        metavar="N",
        help="--headless: close the table after N games (default: keep hosting until stopped)",
    )
    host.add_argument(
        "--no-spectator-chat",
        action="store_true",
        help="spectators watch without chatting (default: they may chat)",
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
    if args.bots >= args.players and args.resume is None:
        raise CliError(f"--bots {args.bots} leaves no seat for a person at {args.players} seats")
    keys = args.ssh_authorized_keys
    if keys is not None and not keys.is_file():
        raise CliError(f"--ssh-authorized-keys {keys}: no such file")
    if args.resume is not None and not args.resume.is_file():
        raise CliError(f"--resume {args.resume}: no such file")
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
