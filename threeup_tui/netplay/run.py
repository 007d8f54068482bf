"""The headless commands: a dedicated host, and a bot that joins over the network."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import logging
import os
import shlex
import signal
import sys
from typing import Any

from ..addresses import every_address, reached_here, show_address
from ..bots import make_bot
from ..bots.pool import close_shared_pool, shared_pool, thinks
from ..client.botseat import BotSeat
from ..client.events import ActionRejected, ConnectionChanged, LobbyChanged, ViewChanged
from ..hostargs import SSH_EXTRA_MISSING, new_hosting, new_table_config, resume_overrides, value
from ..limits import RESUME_GRACE
from ..paths import resume_command
from ..process import hangup_signal, log_to_stderr
from ..table import Table, TableConfig, TableError, TableRunner, open_table
from ..tasks import cancel_and_wait
from ..textclean import clean_text, plural
from .botreport import BotReport
from .client import AddressError, NetClient, parse_address
from .discovery import (
    DEFAULT_ANNOUNCE_ADDRESS,
    DEFAULT_ANNOUNCE_PORT,
    Announcer,
    encode_announcement,
)
from .host import DEFAULT_PORT, NetHost
from .tokens import TokenStore
from .wire import (
    CLOSE_HOST_STOPPED,
    CLOSE_HOST_STOPPED_BETWEEN_GAMES,
    CLOSE_HOST_STOPPED_IN_LOBBY,
    CLOSE_RESUMABLE,
    CLOSE_TABLE_CLOSED,
)

COUNTS_LOG_EVERY = 600.0  # seconds between the headless host's count lines
STOPPED_IN_A_GAME = 130  # the exit status of a host stopped mid-game (resumable)
EXIT_BY_SIGNAL = 128  # + the signal: a joined bot stopped by SIGTERM or SIGHUP, as a shell says

log = logging.getLogger("threeup")


def build_table(args: argparse.Namespace, auto_start: bool) -> Table:
    """A fresh table (with ``--bots`` bots) or the one ``--resume`` names,
    with the flags given alongside it as overrides."""
    if args.resume is not None:
        mode = TableConfig(auto_start=auto_start)
        return open_table(mode, args.resume, overrides=resume_overrides(args))
    config = new_table_config(args, auto_start=auto_start)
    table = open_table(config, None, value(args, "bots"))
    table.hosting = new_hosting(args)
    return table


async def _headless_host(args: argparse.Namespace) -> int:
    table = build_table(args, auto_start=True)
    hosting = table.hosting
    runner = TableRunner(table)
    host = await _serve(table, args.resume is not None)
    bound = host.address
    table.set_hosting(port=bound[1])  # a resume listens here again
    log.info(
        "hosting %s on %s (%d seats, table id %s)",
        table.config.table_name,
        show_address(*bound),
        len(table.seats),
        table.table_id,
    )
    keep_host_players_seat(table, bound)
    # A line for scripts and tests that start the host on port 0; after the
    # lines about the table, so that a script which sees it finds them.
    # An IPv6 address in brackets ("[::]:47823"): the port is after the last ':'.
    print(f"threeup host listening on {show_address(*bound)}", file=sys.stderr, flush=True)
    announcer = await start_announcer(hosting.announce, hosting.announce_port, table, bound[1])
    try:
        door = await start_ssh_door(table, bound[1])
    except BaseException:
        # The game port is let go before the loop ends (no socket is left
        # to a closed loop), and the table leaves no file to refuse a retry.
        table.abandon()
        if announcer is not None:
            await announcer.stop()
        await host.close(CLOSE_TABLE_CLOSED)
        raise
    runner.start()
    counting = asyncio.get_running_loop().create_task(log_counts(host))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in stop_signals():
        loop.add_signal_handler(sig, stop.set)
    reason = CLOSE_TABLE_CLOSED
    try:
        code = await _host_games(table, stop)
        # Players' apps wait for a --resume, but after the last game.
        reason = CLOSE_HOST_STOPPED if code == STOPPED_IN_A_GAME else stop_words(table)
        return code
    finally:
        end_table(table, reason)
        table.suspend()  # a resume gives the running turn clock its time back
        if announcer is not None:
            await announcer.stop()
        # Every client is told first (CLOSE: "the host closed the table");
        # the SSH door then lets its guests' apps say so and end cleanly.
        await cancel_and_wait(counting)
        await host.close(reason)
        if door is not None:
            await door.close(reason)
        await runner.stop()
        # A record still waiting (the journal's directory could not take it)
        # gets a last try, and the log says where each stays, or that it is lost.
        table.keep_waiting_records(last_try=True)
        counted = host.counts_words()
        if counted:
            log.info("counted: %s", counted)


def _resume_command(table: Table) -> str:
    """The command that brings this headless table back, to copy and paste
    from the log: its journal's path whole, quoted for the shell."""
    journal = table.config.journal
    assert journal is not None  # a headless table always keeps one
    return resume_command(journal, headless=True)


def stop_words(table: Table) -> str:
    """The CLOSE's reason of a host stopped now, or done with its games.
    A table that ``--resume`` brings back (its files kept, a game left to
    play) is stopped, not closed, between games and in the lobby as in a
    game: its players' apps wait for it and come back by themselves.  It
    once said "the host closed the table" there, and after the resume each
    player had to join again, the first one back alone dealt a game."""
    if table.game_under_way:
        return CLOSE_HOST_STOPPED
    games = table.config.games
    if games is not None and table.game_number >= games:
        return f"the table has played its {plural(table.game_number, 'game')}"
    if not table.keeping_files or table.closing is not None:
        return CLOSE_TABLE_CLOSED
    if table.state is None:
        return CLOSE_HOST_STOPPED_IN_LOBBY
    return CLOSE_HOST_STOPPED_BETWEEN_GAMES


def end_table(table: Table, reason: str) -> None:
    """The host is going, saying ``reason``: a stop that --resume may bring
    back deals no game until then (the players' next game waits for it);
    any other reason closes the table."""
    if reason in CLOSE_RESUMABLE:
        table.stop(reason)
    else:
        table.close(reason)


async def _serve(table: Table, resumed: bool) -> NetHost:
    """The table served on its game port, or TableError naming that port:
    "cannot listen: Address already in use" did not say which port, and a
    resumed table's comes from its table file, not the command line."""
    try:
        return await NetHost.serve(table)
    except OSError as err:
        hosting = table.hosting
        port = DEFAULT_PORT if hosting.port is None else hosting.port
        where = f"cannot listen on {show_address(hosting.bind, port)} (UDP)"
        if resumed:
            where += ", the port its table file keeps"
        why = err.strerror or str(err)
        if err.errno == errno.EADDRINUSE:
            why += " (another table on this computer?)"
        fix = (
            f"--port PORT moves the table (players who come back by themselves look at {port})"
            if resumed
            else "--port PORT chooses another"
        )
        raise TableError(f"{where}: {why}; {fix}") from None


async def log_counts(host: NetHost) -> None:
    """Every COUNTS_LOG_EVERY seconds, what the host counted, if it changed."""
    said = ""
    while True:
        await asyncio.sleep(COUNTS_LOG_EVERY)
        counted = host.counts_words()
        if counted != said:
            log.info("counted so far: %s", counted)
            said = counted


def keep_host_players_seat(table: Table, bound: tuple[str, int]) -> None:
    """A table hosted from the app, resumed headless: its host played in
    the app, with a token that only the table file holds, so no ``threeup
    join`` could send it.  It is kept as a join to this host from this
    account would keep it, and the log says the command that sits the host
    player down again."""
    i = table.host_seat
    seat = None if i is None else table.seats[i]
    if i is None or seat is None or seat.kind != "human" or seat.token is None:
        return
    host = reached_here(bound[0])
    TokenStore().remember(f"{host}:{bound[1]}", seat.name, table.table_id, seat.token, i)
    # A returning player gives the room code too (the host checks it before
    # the token); the log names it but does not print it.
    asks_code = table.config.code is not None
    log.info(
        "seat %d is %s's, who hosted this table from the app: "
        "`threeup join %s --name %s%s` from this account sits there again%s",
        i + 1,
        seat.name,
        show_address(host, bound[1]),
        shlex.quote(seat.name),
        " --code CODE" if asks_code else "",
        " (CODE: the table's room code)" if asks_code else "",
    )


async def _host_games(table: Table, stop: asyncio.Event) -> int:
    """Host game after game until ``--games`` are played (0) or the host is
    stopped: 0 between games, 130 during one (the journal can ``--resume``
    it)."""
    stopped = asyncio.ensure_future(stop.wait())
    # A table resumed from the journal of a finished game: its players are
    # still to come back, and must be there to hear that the table closes.
    resumed_at_the_end = not table.finished_games.empty()
    try:
        while True:
            finished = asyncio.ensure_future(table.finished_games.get())
            await asyncio.wait({finished, stopped}, return_when=asyncio.FIRST_COMPLETED)
            finished.cancel()
            if stop.is_set():
                if table.game_under_way and not table.keeping_files:
                    # The journal's last write failed (logged then): a resume
                    # once dealt a new game 1 to players told to wait for this one.
                    log.warning(
                        "stopped during game %d, which could not be kept on disk: "
                        "%s brings back only what its files held before that",
                        table.game_number,
                        _resume_command(table),
                    )
                    return STOPPED_IN_A_GAME
                if table.game_under_way:
                    log.info(
                        "stopped during game %d; %s brings it back",
                        table.game_number,
                        _resume_command(table),
                    )
                    return STOPPED_IN_A_GAME
                if stop_words(table) in CLOSE_RESUMABLE:
                    log.info(
                        "stopped after %s; %s brings the table back, and its players with it",
                        plural(table.game_number, "game"),
                        _resume_command(table),
                    )
                else:
                    log.info("stopped after %s", plural(table.game_number, "game"))
                return 0
            # The game that ended, not table.state: the table deals the next
            # game on its own timers, and this loop may wake after it did.
            game = finished.result()
            # A record not kept anywhere yet was logged as such a line before.
            kept = "not on disk yet" if game.record is None else f"in {game.record}"
            if game.kept_before_the_stop:
                # Logged as over before the stop: a resume does not end it again.
                log.info(
                    "resumed after game %d (%s); its record is %s", game.number, game.result, kept
                )
            else:
                log.info("game %d over: %s; record %s", game.number, game.result, kept)
            games = table.config.games
            if games is not None and game.number >= games:
                if resumed_at_the_end:
                    await _players_back(table, stop, RESUME_GRACE)
                await asyncio.sleep(0.5)  # let the final views reach everyone
                return 0
            resumed_at_the_end = False
            # The table starts the next game itself (votes, --rematch-after).
    finally:
        stopped.cancel()


async def _players_back(table: Table, stop: asyncio.Event, seconds: float) -> None:
    """Wait until every person's seat is connected again, the host is
    stopped, or ``seconds`` have passed (their apps notice a crash after
    their idle time-out, then knock again)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not stop.is_set() and any(s.kind == "human" and not s.connected for s in table.seats):
        left = deadline - loop.time()
        if left <= 0:
            return
        table.changed.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(min(left, 1.0)):  # not wait_for: see TableRunner
                await table.changed.wait()


def describe_table(table: Table, port: int, closed: bool = False) -> bytes:
    lobby = table.lobby()
    free = sum(1 for seat in lobby.seats if seat.kind == "open")
    return encode_announcement(
        lobby.table_name,
        port,
        free,
        len(lobby.seats),
        lobby.code_required,
        lobby.started,
        table.table_id,
        closed,
    )


async def start_announcer(
    address: str | None, announce_port: int | None, table: Table, port: int
) -> Announcer | None:
    """Announce the table on the LAN unless ``address`` is ``off``.

    With no address given, ``THREEUP_ANNOUNCE`` (an address or ``off``)
    chooses before the default broadcast address: the test suite sets it to
    ``off`` so that nothing it starts can reach a real network.
    """
    address = address or os.environ.get("THREEUP_ANNOUNCE") or None
    if address == "off":
        return None
    announcer = Announcer(
        lambda: describe_table(table, port),
        address or DEFAULT_ANNOUNCE_ADDRESS,
        announce_port or DEFAULT_ANNOUNCE_PORT,
        farewell=lambda: describe_table(table, port, closed=True),
    )
    try:
        await announcer.start()
    except OSError as err:
        log.warning("not announcing the table on the LAN: %s", err.strerror or err)
        return None
    return announcer


async def start_ssh_door(table: Table, game_port: int) -> Any:
    """The SSH front door, when the table's hosting asks for one."""
    hosting = table.hosting
    if hosting.ssh_port is None:
        return None
    try:
        from ..sshdoor import SshDoor
    except ImportError:
        raise TableError(SSH_EXTRA_MISSING) from None
    door = SshDoor(game_port, table, hosting.ssh_authorized_keys)
    bound = await door.start(hosting.bind, hosting.ssh_port)
    table.set_hosting(ssh_port=bound[1])
    print(f"threeup ssh door listening on {show_address(*bound)}", file=sys.stderr, flush=True)
    if bound[0] == "0.0.0.0" and every_address(hosting.bind):  # ssh_door_bind, port 0
        # Beside "threeup host listening on [::]:PORT", 0.0.0.0 is easily
        # read past, and a friend on IPv6 sent to the door finds nothing.
        log.info(
            "the SSH door listens on IPv4 only, while the table takes IPv6 too: with "
            "--ssh-port 0, IPv4 and IPv6 would get two different free ports (give "
            "--ssh-port a number for a door on both)"
        )
    return door


def stop_signals() -> tuple[signal.Signals, ...]:
    """The signals that stop a headless host or a joined bot cleanly: Ctrl-C,
    SIGTERM (`kill`, a service manager) and SIGHUP (its terminal closed or
    its SSH session dropped: it once died on the spot, the host's players
    told nothing until their idle time-out, a bot's seat left "connected"
    as long).  Not SIGHUP under `nohup`, which asked to ignore it."""
    hangup = hangup_signal()
    return (signal.SIGINT, signal.SIGTERM) + (() if hangup is None else (hangup,))


def run_headless_host(args: argparse.Namespace) -> int:
    log_to_stderr("threeup host", logging.INFO, stamped=True)
    # The SSH library's own lines (one per channel event) would drown the
    # table's: only its warnings.
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    try:
        return asyncio.run(_headless_host(args))
    except TableError as err:
        print(f"threeup host: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"threeup host: cannot listen: {err.strerror or err}", file=sys.stderr)
        return 2
    finally:
        close_shared_pool()  # the bots' thinking workers


async def _bot_client(args: argparse.Namespace) -> int:
    host, port = parse_address(args.address)
    bot = make_bot(args.bot, think_ms=getattr(args, "think_ms", None))
    if thinks(bot):
        shared_pool().warm()  # its worker starts while we shake hands
    name = args.name or f"{args.bot} bot"
    client = NetClient(host, port, name, args.code, watch=False, bot=args.bot)
    terminated = _stop_on_signals()
    seat = BotSeat(client, bot)
    report = BotReport(show_address(host, port), _tell_operator)
    try:
        await client.start()
        # Game after game: a network bot always agrees to the next one, and
        # stays until the host closes the table.
        while True:
            event = await client.next_event()
            report.on_event(event)
            # The host's words are untrusted: nothing in them may reach the
            # terminal as an escape sequence.
            if isinstance(event, ConnectionChanged) and event.state == "closed":
                print(f"threeup join: {clean_text(event.detail, 200)}", file=sys.stderr)
                return 0 if client.closed_by_host is not None else 1
            if isinstance(event, ActionRejected):
                why = clean_text(event.reason, 200)
                log.warning("the host refused the bot's %s: %s", event.request or "request", why)
                seat.rejected(event.request)  # its own move or choice: again
            elif isinstance(event, ViewChanged):
                seat.on_view(event.view)
            elif isinstance(event, LobbyChanged):
                seat.on_lobby(event.lobby)  # marked away: the bot takes its seat back
    except asyncio.CancelledError:
        if not terminated:
            raise
        return EXIT_BY_SIGNAL + terminated[0]
    finally:
        await seat.stop()
        await client.close()


def _tell_operator(line: str) -> None:
    """A line for whoever runs the bot, on stderr (stdout stays empty for
    scripts), at once: a log read as it grows must not wait for a buffer."""
    print(f"threeup join: {line}", file=sys.stderr, flush=True)


def _stop_on_signals() -> list[int]:
    """Make SIGTERM and SIGHUP (:func:`stop_signals`; Ctrl-C is asyncio's
    own) stop the task running now as Ctrl-C does, through its ``finally``:
    a bot leaves the table at once (without it, it died silent, and the host
    waited out the idle time-out before it knew the seat was empty).  The
    list gets the signal that came."""
    task = asyncio.current_task()
    came: list[int] = []

    def stop(sig: int) -> None:
        came.append(sig)
        if task is not None:
            task.cancel()

    loop = asyncio.get_running_loop()
    for sig in stop_signals():
        if sig != signal.SIGINT:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, stop, int(sig))
    return came


def run_bot_client(args: argparse.Namespace) -> int:
    log_to_stderr("threeup join", logging.WARNING)
    if args.address is None:
        print("threeup join: --bot needs HOST[:PORT]", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_bot_client(args))
    except AddressError as err:
        print(f"threeup join: {err}", file=sys.stderr)
        return 2
    except ConnectionError as err:  # a refusal quotes the host's untrusted words
        print(f"threeup join: {clean_text(str(err), 300)}", file=sys.stderr)
        return 1
    finally:
        close_shared_pool()  # the bot's thinking workers
