"""The ``threeup`` command.

Every sub-command checks its arguments and reports a problem in one plain
line (exit 2), never a traceback.  Heavy imports (Textual, the network)
happen only in the sub-commands that need them.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NoReturn

from . import __version__
from .limits import MAX_GAMES, MAX_THINK_MS, MAX_TURN_SECONDS, MAX_WAIT_SECONDS, MIN_TURN_SECONDS
from .process import EXIT_USAGE
from .textclean import clean_text, shown_digits, shown_value

EXIT_OK = 0
EXIT_ILLEGAL = 1


class CliError(Exception):
    """A problem with what the user asked for: printed as one line, exit 2,
    sending them to the command's --help for what it allows, as argparse's
    own errors do; ``see_help`` False for a problem with this machine, not
    the command line, where the help has no answer (no home directory, a
    missing extra, a write that failed during the run)."""

    def __init__(self, message: str, *, see_help: bool = True) -> None:
        super().__init__(message)
        self.see_help = see_help


def usage_line(prog: str, message: str) -> str:
    """A mistake in a command's arguments, in one line, with where to read
    what the command allows."""
    return f"{prog}: {message} (see {prog} --help)\n"


def _whole(text: str) -> int:
    """A whole number, of either sign (a seed)."""
    try:
        return int(text)
    except ValueError:
        if text.strip().lstrip("+-").isdecimal():  # past Python's limit on digits
            raise argparse.ArgumentTypeError(
                f"{shown_value(text)} has {len(text.strip().lstrip('+-'))} digits: too many"
            ) from None
        raise argparse.ArgumentTypeError(f"{shown_value(text)} is not a whole number") from None


def _positive(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{shown_value(text)} must be at least 1")
    return value


def _count(text: str) -> int:
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{shown_value(text)} must not be negative")
    return value


def _players(text: str) -> int:
    value = _whole(text)  # not _positive: "0 must be at least 1" and then 1 is refused too
    if not 2 <= value <= 6:
        raise argparse.ArgumentTypeError(f"a game has 2 to 6 players, not {shown_value(value)}")
    return value


def _bots(text: str) -> int:
    """host --bots: at most 5, a person's seat beside them at 6 seats."""
    value = _count(text)
    if value > 5:
        raise argparse.ArgumentTypeError(
            f"{shown_value(value)} bots: a table has at most 6 seats, one of them a person's"
        )
    return value


def _port(text: str) -> int:
    value = _count(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{shown_value(value)} is not a port (0-65535)")
    return value


def _fixed_port(text: str) -> int:
    """A port that must be named: 0 ("any free port") means nothing for one
    another program must know, and the announcer and the listener took it
    as their default, 47824, without a word."""
    value = _port(text)
    if value == 0:
        raise argparse.ArgumentTypeError("0 is not a port to announce on (1-65535)")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{shown_value(text)} is not a number of seconds"
        ) from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{shown_value(text)} is not a number of seconds")
    if value < 0:
        raise argparse.ArgumentTypeError(f"{shown_value(text)} must not be negative")
    return value


def _wait_seconds(text: str, off: str = "") -> float:
    """Seconds a table waits (--takeover-after, --rematch-after): 0 to a day."""
    value = _seconds(text)
    if value > MAX_WAIT_SECONDS:
        raise argparse.ArgumentTypeError(
            f"{shown_value(text)}: at most {MAX_WAIT_SECONDS} seconds (a day){off}"
        )
    return value


def _is_off(text: str) -> bool:
    return text.strip().lower() == "off"


def _turn_seconds(text: str) -> float | str:
    if _is_off(text):
        from .hostargs import OFF

        return OFF
    value = _seconds(text)
    if not MIN_TURN_SECONDS <= value <= MAX_TURN_SECONDS:
        raise argparse.ArgumentTypeError(
            f"{shown_value(text)}: a turn lasts {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS} "
            "seconds (off: no turn timer)"
        )
    return value


def _seconds_or_off(text: str) -> float | str:
    """--rematch-after: seconds, or off (a resume takes the table's away)."""
    if _is_off(text):
        from .hostargs import OFF

        return OFF
    return _wait_seconds(text, " (off: wait for every player)")


def _games(text: str, off: str = "") -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{shown_value(text)} must be at least 1{off}")
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(f"{shown_value(text)}: at most {MAX_GAMES} games{off}")
    return value


def _positive_or_off(text: str) -> int | str:
    """--games: a number of games, or off (a resume takes the table's limit away)."""
    if _is_off(text):
        from .hostargs import OFF

        return OFF
    return _games(text, " (off: no limit)")


def _name(text: str) -> str:
    from .names import MAX_NAME_CELLS, clean_name, name_width

    name = clean_name(text, "", cells=4 * MAX_NAME_CELLS)  # the table's cleaning, uncut
    if not name:
        raise argparse.ArgumentTypeError(f"{shown_value(text)} has nothing to show as a name")
    if name_width(name) > MAX_NAME_CELLS:
        raise argparse.ArgumentTypeError(
            f"{shown_value(text)} is wider than {MAX_NAME_CELLS} columns "
            "(a wide letter such as 山 takes two)"
        )
    return name


ROOM_CODE_MAX = 32


def _code(text: str) -> str:
    if not text:
        raise argparse.ArgumentTypeError("an empty room code: leave --code out for none")
    return _printable_code(text)


def _host_code(text: str) -> str:
    if not text:
        # Not "leave --code out" alone: with --resume, that keeps the code.
        raise argparse.ArgumentTypeError(
            "an empty room code: leave --code out for none (--no-code takes a resumed table's away)"
        )
    return _printable_code(text)


def _printable_code(text: str) -> str:
    if text != text.strip() or not text.isprintable():
        raise argparse.ArgumentTypeError(
            f"{shown_value(text)}: a room code is printable characters, no spaces around it"
        )
    if len(text) > ROOM_CODE_MAX:
        raise argparse.ArgumentTypeError(f"a room code has at most {ROOM_CODE_MAX} characters")
    return text


THINK_MS_HELP = "milliseconds a search bot (expert) thinks per decision (default 250)"


def _think_ms(text: str) -> int:
    value = _positive(text)
    if value > MAX_THINK_MS:
        raise argparse.ArgumentTypeError(
            f"{shown_value(value)} ms is more than a minute ({MAX_THINK_MS})"
        )
    return value


# An expert searches some ten iterations a millisecond on a laptop: a
# million is over a minute a decision, --think-ms's own limit.  More ran on
# silently for days a game (--iterations 99999999999 printed nothing).
MAX_ITERATIONS = 1_000_000


def _iterations(text: str) -> int:
    value = _positive(text)
    if value > MAX_ITERATIONS:
        raise argparse.ArgumentTypeError(
            f"{shown_value(value)} iterations a decision is more than a minute's search (at most "
            f"{MAX_ITERATIONS})"
        )
    return value


def _bot_level(text: str) -> str:
    from .bots import BOT_LEVELS

    if text not in BOT_LEVELS:
        raise argparse.ArgumentTypeError(
            f"unknown bot level {shown_value(text)}: choose from {', '.join(BOT_LEVELS)}"
        )
    return text


def _bot_levels(text: str) -> tuple[str, ...]:
    """simulate --bots: a level, or one a seat, comma separated."""
    return tuple(_bot_level(part.strip()) for part in text.split(","))


def _address_type(check: Callable[[str], object]) -> Callable[[str], str]:
    """An argparse type: the text as given, once ``check`` accepts it."""

    def checked(text: str) -> str:
        from .addresses import AddressError

        try:
            check(text)
        except AddressError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
        return text.strip()

    return checked


def _table_address(text: str) -> object:
    from .addresses import parse_address

    return parse_address(text)


def _bind(text: str) -> object:
    from .addresses import bind_address

    return bind_address(text)


def _announce(text: str) -> object:
    from .addresses import announce_address

    return announce_address(text)


class Parser(argparse.ArgumentParser):
    """argparse, with a mistake told in one line (exit 2) instead of the usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, usage_line(self.prog, message))


def _levels() -> str:
    from .bots import BOT_LEVELS

    return ", ".join(BOT_LEVELS)


def build_parser() -> argparse.ArgumentParser:
    from .addresses import DEFAULT_GAME_PORT

    announce_port = 47824  # netplay.discovery.DEFAULT_ANNOUNCE_PORT (checked by a test)
    levels = _levels()
    parser = Parser(
        prog="threeup",
        description="3UP 3DOWN in the terminal: against bots, on a LAN, over SSH. "
        "With no command, the app opens at its start screen.",
    )
    parser.add_argument("--version", action="version", version=f"threeup {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser(
        "play",
        help="play against bots at once",
        description="Play against bots at once. Without options, the players, bot level "
        "and name you chose last on the start screen. What you give here is for this run: "
        "the start screen offers it again after the game, and remembers only what you "
        "change there (+ - players, b bot level, n name).",
    )
    play.add_argument(
        "--players",
        type=_players,
        default=None,
        metavar="N",
        help="players at the table, you included: 2 to 6 "
        "(default: your last choice on the start screen, at first 4)",
    )
    play.add_argument(
        "--bot-level",
        type=_bot_level,
        default=None,
        metavar="LEVEL",
        help=f"how the bots play: {levels} (default: your last choice, at first greedy)",
    )
    play.add_argument("--think-ms", type=_think_ms, default=None, metavar="MS", help=THINK_MS_HELP)
    play.add_argument(
        "--seed",
        type=_whole,
        default=None,
        metavar="N",
        help="deal from this seed (default: a random deal)",
    )
    play.add_argument(
        "--name",
        type=_name,
        default=None,
        help="your name at the table (default: the name you chose last, at first 'you')",
    )

    verify = sub.add_parser(
        "verify",
        help="check a game record",
        description="Check a game record: replay every move and say whether each is legal.",
        epilog="Exit status: 0 a legal record; 1 an illegal move, an illegal set-up (the "
        "deck, 'first', the face-up cards) or a result the replay does not give; "
        "2 not a record at all.",
    )
    verify.add_argument("file", help="the record file (JSON)")
    verify.add_argument(
        "--json", action="store_true", help="print one JSON object (default: a line of text)"
    )

    sim = sub.add_parser(
        "simulate",
        help="play bot games and print statistics",
        description="Play games between bots and print each seat's wins.",
    )
    sim.add_argument(
        "--games", type=_games, required=True, help="how many games to play (at most 1000000000)"
    )
    sim.add_argument("--players", type=_players, required=True, help="players per game, 2 to 6")
    sim.add_argument(
        "--bots",
        type=_bot_levels,
        required=True,
        metavar="LEVELS",
        help=f"LEVEL for every seat, or LEVEL,LEVEL,... one per seat (levels: {levels})",
    )
    sim.add_argument(
        "--seed",
        type=_whole,
        default=0,
        metavar="N",
        help="seed of the series of games (default 0)",
    )
    sim.add_argument(
        "--json", action="store_true", help="print one JSON object (default: a table of text)"
    )
    sim.add_argument(
        "--records",
        type=Path,
        default=None,
        metavar="DIR",
        help="write every game's record into DIR (game-00000.json, ...), made if missing "
        "(the directory it is in must be there); "
        "a record already there stops it before any game (default: keep none)",
    )
    sim.add_argument(
        "--jobs",
        type=_positive,
        default=1,
        metavar="N",
        help="play the games in N processes (at most 8 a CPU; default 1)",
    )
    sim.add_argument(
        "--think-ms",
        type=_think_ms,
        default=None,
        metavar="MS",
        help="expert seats' time per decision (default 250)",
    )
    sim.add_argument(
        "--iterations",
        type=_iterations,
        default=None,
        metavar="N",
        help="expert seats search N iterations per decision (at most 1000000) instead of a "
        "time: the same seed then gives the same games (default: a time budget)",
    )

    replay = sub.add_parser(
        "replay",
        help="step through a game record",
        description="Step through a game record, move by move, seeing every hand.",
    )
    replay.add_argument("file", help="the record file (JSON)")

    host = sub.add_parser(
        "host",
        help="host a table (UDP)",
        description="Host a table others join over the network (UDP). With the app, you sit "
        "in seat 1 and start the game from the lobby; --headless runs a dedicated host. "
        "With --resume FILE alone the table comes back exactly as it was (port, room code, "
        "seats, settings); a flag given with it overrides that one setting, and the host's "
        "log says so.",
    )
    # Defaults are None where a resume must tell a flag given from one left
    # out; the defaults themselves are HOST_DEFAULTS (threeup_tui.hostargs).
    host.add_argument(
        "--bind",
        type=_address_type(_bind),
        default=None,
        metavar="IP",
        help="IP address to listen on, as digits: host names are not looked up "
        "(default ::, every address, IPv6 and IPv4; 0.0.0.0: every IPv4 address only; "
        "a resumed table keeps its own)",
    )
    host.add_argument(
        "--port",
        type=_port,
        default=None,
        metavar="PORT",
        help=f"UDP port of the table (default {DEFAULT_GAME_PORT}; 0: any free port)",
    )
    host.add_argument(
        "--players", type=_players, default=None, metavar="N", help="seats, 2 to 6 (default 4)"
    )
    host.add_argument(
        "--bots",
        type=_bots,
        default=None,
        metavar="N",
        help="seats filled by bots from the start (default 0)",
    )
    host.add_argument(
        "--bot-level",
        type=_bot_level,
        default=None,
        metavar="LEVEL",
        help=f"how those bots play, the level the lobby's Add bot starts at, and the bot "
        f"that stands in for an absent player: {levels} (default greedy)",
    )
    host.add_argument("--think-ms", type=_think_ms, default=None, metavar="MS", help=THINK_MS_HELP)
    host.add_argument(
        "--code",
        type=_host_code,
        default=None,
        help="room code players must give to sit (default: none, anyone who finds the table)",
    )
    host.add_argument(
        "--no-code",
        action="store_true",
        help="no room code: anyone who finds the table may sit; with --resume, takes the "
        "table's room code away (default: a new table has none, a resumed one keeps its own)",
    )
    host.add_argument(
        "--seed",
        type=_whole,
        default=None,
        metavar="N",
        help="deal from this seed (default: a random deal)",
    )
    host.add_argument(
        "--record",
        type=Path,
        default=None,
        metavar="FILE",
        help="keep the game's journal in FILE, a new file, which --resume can restart from; "
        "it is the record once the game ends; the table file FILE.table (mode 0600) sits "
        "beside it (default: none; threeup-game.json with --headless)",
    )
    host.add_argument(
        "--takeover-after",
        type=_wait_seconds,
        default=None,
        metavar="SECONDS",
        help="how long an absent player's seat waits before a bot plays it, at most a day "
        "(86400) (default 30)",
    )
    host.add_argument(
        "--resume",
        type=Path,
        default=None,
        metavar="FILE",
        help="bring back the table kept in this journal and FILE.table beside it: port, "
        "room code, seats and settings (default: a new table)",
    )
    host.add_argument(
        "--headless",
        action="store_true",
        help="no app: a dedicated host that starts the game once every seat is taken",
    )
    host.add_argument(
        "--name",
        type=_name,
        default=None,
        help="your name, and the table's (\"NAME's table\") (default: the name you chose "
        "last, at first 'host'; with --headless, your login name)",
    )
    host.add_argument(
        "--finish",
        choices=["first_out", "places"],
        default=None,
        help="first_out: the first player out wins; places: play on for places (default first_out)",
    )
    host.add_argument(
        "--voluntary-pickup",
        action="store_true",
        default=None,
        help="players may pick up the pile at any time (default: only when nothing else goes)",
    )
    host.add_argument(
        "--announce",
        type=_address_type(_announce),
        default=None,
        metavar="IP",
        help="where to announce the table on the LAN: an IPv4 address (a broadcast one, "
        "usually) or 'off' (default: $THREEUP_ANNOUNCE, else 255.255.255.255)",
    )
    host.add_argument(
        "--announce-port",
        type=_fixed_port,
        default=None,
        metavar="PORT",
        help=f"UDP port the announcements go to (default {announce_port})",
    )
    host.add_argument(
        "--ssh-port",
        type=_port,
        default=None,
        metavar="PORT",
        help="also serve the app over SSH on this TCP port, for friends who install "
        "nothing; needs the ssh extra, pip install '.[ssh]' (default: no SSH; a resumed "
        "table keeps its own)",
    )
    host.add_argument(
        "--no-ssh",
        action="store_true",
        help="no SSH door; with --resume, closes the table's SSH door (default: a new table "
        "has none, a resumed one keeps its own)",
    )
    host.add_argument(
        "--ssh-authorized-keys",
        type=Path,
        default=None,
        metavar="FILE",
        help="an OpenSSH authorized_keys file: only these keys may come in over SSH, and "
        "the room code is not asked of them (default: any key, or none with a seat word; "
        "the room code, if any, is asked)",
    )
    host.add_argument(
        "--turn-time",
        type=_turn_seconds,
        default=None,
        metavar="SECONDS",
        help="seconds a player has for each action before a bot makes it for them, or "
        "off; with --resume, off takes the table's turn timer away (default: no turn timer; "
        "a resumed table keeps its own)",
    )
    host.add_argument(
        "--rematch-after",
        type=_seconds_or_off,
        default=None,
        metavar="SECONDS",
        help="--headless: start the next game this long after a game ends even if not "
        "every player has asked for it, at least 1 s so that everyone sees the result and "
        "at most a day (86400), or off; with --resume, off makes the table wait for "
        "everyone again (default: wait for everyone; a resumed table keeps its own)",
    )
    host.add_argument(
        "--games",
        type=_positive_or_off,
        default=None,
        metavar="N",
        help="--headless: close the table after N games, or off; with --resume, off takes "
        "the table's limit away (default: keep hosting until stopped; a resumed table keeps "
        "its own)",
    )
    host.add_argument(
        "--no-spectator-chat",
        action="store_true",
        help="spectators watch without chatting (default: they may chat)",
    )

    join = sub.add_parser(
        "join",
        help="join a table",
        description="Join a table over the network. Without an address, the app lists the "
        "tables announced on this network.",
    )
    join.add_argument(
        "address",
        nargs="?",
        type=_address_type(_table_address),
        default=None,
        metavar="HOST[:PORT]",
        help=f"the table: a host name or IP address, and its port (default port "
        f"{DEFAULT_GAME_PORT}); an IPv6 address bare (::1) or in brackets ([::1], "
        f"[::1]:{DEFAULT_GAME_PORT}); none: choose from the tables found on the LAN",
    )
    join.add_argument(
        "--name",
        type=_name,
        default=None,
        help="your name at the table (default: the name you chose last, at first 'player')",
    )
    join.add_argument(
        "--code",
        type=_code,
        default=None,
        help="the table's room code, if it has one (default: none)",
    )
    join.add_argument(
        "--watch",
        action="store_true",
        help="watch as a spectator, without a seat (default: sit and play)",
    )
    join.add_argument(
        "--bot",
        type=_bot_level,
        default=None,
        metavar="LEVEL",
        help=f"no app: play the seat as this bot ({levels}), game after game until the host "
        "closes the table; it says on stderr when it sits down, as each game begins and ends "
        "(its seat, its result) and when the link to the host drops, and prints nothing on "
        "stdout (default: you play, in the app)",
    )
    join.add_argument(
        "--think-ms",
        type=_think_ms,
        default=None,
        metavar="MS",
        help=f"{THINK_MS_HELP}; with --bot",
    )
    join.add_argument(
        "--listen-port",
        type=_fixed_port,
        default=None,
        metavar="PORT",
        help=f"UDP port to hear LAN announcements on (default {announce_port})",
    )
    return parser


def _say(text: str) -> None:
    """Print for people: names from a file may hold what the terminal cannot show."""
    encoding = sys.stdout.encoding or "utf-8"
    print(text.encode(encoding, "backslashreplace").decode(encoding, "replace"))


def _seat_words(players: Sequence[str], seat: int) -> str:
    """A seat as people count them (from 1), with its player's name, cleaned
    as the app's replay shows it: a record is untrusted, and an escape
    sequence in a name must not reach the terminal."""
    from .textclean import MAX_NAME, clean_text

    name = clean_text(players[seat], MAX_NAME)
    return f"seat {seat + 1} ({name})" if name else f"seat {seat + 1}"


def cmd_verify(args: argparse.Namespace) -> int:
    from .recordfile import load_record
    from .rules import MalformedRecord, replay
    from .rules.record import SETUP
    from .textclean import one_line, plural

    try:
        record = load_record(args.file)
    except MalformedRecord as err:
        # One line, whatever the file's name holds (it names the file).
        print(f"threeup verify: not a record: {one_line(str(err))}", file=sys.stderr)
        return EXIT_USAGE
    _state, verdict = replay(record)
    # An error may quote the record's names: shown as _seat_words shows them,
    # without what a terminal would obey (the JSON escapes them itself).
    error = one_line(verdict.error or "")
    # A record may hold a number of thousands of digits: a line, not a page.
    error = re.sub(r"\d{26,}", lambda m: shown_digits(m[0]), error)
    if args.json:
        print(json.dumps(verdict.to_json()))
    elif verdict.ok:
        if not verdict.finished:
            status = "unfinished"
        elif verdict.winner is None:
            status = "stalemate: no winner"
        else:
            status = f"winner: {_seat_words(record.players, verdict.winner)}"
        places = ""
        if verdict.places:  # a game for places (none yet: nothing to list)
            order = ", ".join(_seat_words(record.players, p) for p in verdict.places)
            places = f", places: {order}" if verdict.finished else f", out so far: {order}"
        _say(f"ok: {plural(verdict.moves, 'move')}, {status}{places}")
    elif verdict.wrong == SETUP:  # exit 1 too (record.md), but no move to name
        _say(f"illegal set-up: {error}")
    elif verdict.move is None:
        _say(f"wrong result: {error}")
    else:
        # People count moves and seats from 1; the JSON keeps record.md's 0-based numbers.
        _say(f"illegal move {verdict.move + 1} of {len(record.moves)}: {error}")
    return EXIT_OK if verdict.ok else EXIT_ILLEGAL


def _folder_is_there(flag: str, path: Path, folder: Path | None = None) -> None:
    """The directory ``path`` goes in (or ``folder``) must be there: a file
    is written, or one directory made, into it, never a tree a typo made
    up.  Said in the words the result box's Save says it in."""
    from .paths import no_directory

    why = no_directory(path.absolute().parent if folder is None else folder)
    if why is not None:
        raise CliError(f"{flag} {path}: {why}")


def cmd_simulate(args: argparse.Namespace) -> int:
    from .simulate import (
        JOBS_PER_CPU,
        Budget,
        RecordNotWritten,
        first_record_taken,
        jobs_to_run,
        parse_levels,
        simulate,
        usable_cpus,
    )
    from .textclean import plural

    try:
        levels = parse_levels(args.bots, args.players)
    except ValueError as err:
        raise CliError(str(err)) from None
    if args.records is not None:
        with _looked_at("--records", args.records):
            # The directory itself is made, not the ones above it: a typo on
            # the way ("--records gmaes/run1") made a new tree, records and all.
            there = args.records.exists()  # and must be a directory, not a file
            _folder_is_there("--records", args.records, args.records if there else None)
            args.records.mkdir(exist_ok=True)
        taken = first_record_taken(args.records, args.games)
        if taken is not None:
            raise CliError(
                f"--records {args.records}: {taken.name} is already there, and "
                "simulate writes over no file: name a new or empty directory"
            )
    if args.think_ms is not None and args.iterations is not None:
        raise CliError("give --think-ms or --iterations, not both")
    budget = Budget(args.think_ms, args.iterations)
    jobs = jobs_to_run(args.jobs, args.games)
    if jobs < args.jobs:  # on stderr: --json's output stays one JSON object
        if jobs == args.games:
            why = "no more processes than games"
        else:
            why = f"at most {JOBS_PER_CPU} processes a CPU, {plural(usable_cpus(), 'CPU')} here"
        print(
            f"threeup simulate: --jobs {shown_value(args.jobs)}: {why}, so "
            f"{plural(jobs, 'process', 'processes')}",
            file=sys.stderr,
        )
    try:
        result = simulate(args.games, args.players, levels, args.seed, args.records, jobs, budget)
    except RecordNotWritten as err:
        raise CliError(
            f"--records: {err}; the records written before it are kept", see_help=False
        ) from None
    print(json.dumps(result.to_json()) if args.json else result.text())
    return EXIT_OK


def cmd_host(args: argparse.Namespace) -> int:
    if args.announce is None and os.environ.get("THREEUP_ANNOUNCE"):
        from .addresses import AddressError, announce_address

        try:
            announce_address(os.environ["THREEUP_ANNOUNCE"])
        except AddressError as err:
            raise CliError(f"THREEUP_ANNOUNCE: {err}") from None
    if not args.headless:
        for flag, value in (("--games", args.games), ("--rematch-after", args.rematch_after)):
            if value is not None:
                raise CliError(f"{flag} is for a --headless host (in the app, the host "
                               "starts each rematch)")  # fmt: skip
    from .hostargs import (
        SSH_EXTRA_MISSING,
        check_host_args,
        check_journal_pastable,
        settle_off_flags,
    )

    try:
        check_journal_pastable(args)  # first: the refusals below quote the path
    except ValueError as err:
        raise CliError(str(err)) from None
    record = args.record
    with _looked_at("--record", record):
        if record is not None and record.is_dir():
            raise CliError(f"--record {record}: is a directory; name the file to write")
        if record is not None:
            _folder_is_there("--record", record)
    try:
        check_host_args(args)
    except ValueError as err:
        raise CliError(str(err)) from None
    if args.ssh_port is not None and importlib.util.find_spec("asyncssh") is None:
        raise CliError(SSH_EXTRA_MISSING, see_help=False)
    settle_off_flags(args)
    if args.headless:
        from .netplay.run import run_headless_host

        return run_headless_host(args)
    return cmd_app(args)


@contextlib.contextmanager
def _looked_at(flag: str, path: Path | None) -> Iterator[None]:
    """An OSError from looking at ``path`` as one line for ``flag``: Path's
    exists() and is_dir() raise for a directory on the way that cannot be
    searched (Permission denied), or a name too long, and that was a traceback."""
    try:
        yield
    except OSError as err:
        raise CliError(f"{flag} {path}: {err.strerror or err}") from None


def cmd_join(args: argparse.Namespace) -> int:
    if args.think_ms is not None and args.bot is None:
        raise CliError("--think-ms sets the thinking time of a --bot")
    if args.bot is not None and args.watch:
        raise CliError("--bot plays a seat; it cannot --watch")
    _say_port_meant(args.address)
    if args.bot is not None:
        from .netplay.run import run_bot_client

        _check_home()  # where the seat's token is kept
        return run_bot_client(args)
    return cmd_app(args)


def _say_port_meant(address: str | None) -> None:
    """A word, and the join goes on, for a bare IPv6 address whose last
    group looks like a port (``fd00::2:5000``): the address is valid, and
    a friend who meant port 5000 would otherwise wait at the wrong one."""
    from .addresses import port_meant

    hint = None if address is None else port_meant(address)
    if hint is not None:
        print(f"threeup join: {hint}", file=sys.stderr, flush=True)


def _check_home() -> None:
    """The directories must have names before the app (its settings, its
    history) or a seat's token are looked for: without a home they once
    ended in platformdirs' RuntimeError, a traceback before any screen."""
    from .paths import no_home

    why = no_home()
    if why is not None:
        raise CliError(why, see_help=False)


def cmd_app(args: argparse.Namespace) -> int:
    from .app.main import run_app

    _check_home()

    code: int = run_app(args)
    return code


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Each command's name and its parser."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _option_before_command(parser: argparse.ArgumentParser, argv: Sequence[str]) -> str | None:
    """What to say of a command's option given before any command, or None.

    ``threeup --players 3`` read "invalid choice: '3' (choose from 'play',
    ...)": argparse set the option aside and took its value for the command.
    """
    first = argv[0] if argv else ""
    flag = first.split("=", 1)[0]
    if not flag.startswith("-") or flag in parser._option_string_actions:
        return None
    commands = _commands(parser)
    owners = [name for name, sub in commands.items() if flag in sub._option_string_actions]
    if not owners:
        return None
    given = next((word for word in argv if word in commands), None)
    command = given if given in owners else owners[0]
    rest = list(argv)
    if given is not None:
        rest.remove(given)
    example = clean_text(" ".join(["threeup", command, *rest]), 80)
    return (
        f"threeup: {clean_text(flag, 40)} goes after the command it is for "
        f"({', '.join(owners)}), as in: {example} (see threeup {command} --help)\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    misplaced = _option_before_command(parser, sys.argv[1:] if argv is None else argv)
    if misplaced is not None:
        parser.exit(EXIT_USAGE, misplaced)
    args, extra = parser.parse_known_args(argv)
    # Errors are told by the command they were given to ("threeup play: ...");
    # the app's own (no command) by "threeup", never "threeup None".
    prog = f"threeup {args.command}" if args.command else "threeup"
    if extra:
        # Not by the top parser, which would send the player to the wrong --help.
        words = clean_text(" ".join(extra), 80)
        parser.exit(EXIT_USAGE, usage_line(prog, f"unrecognized arguments: {words}"))
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
        told = usage_line(prog, str(err)) if err.see_help else f"{prog}: {err}\n"
        sys.stderr.write(told)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
