"""How the app gets a :class:`TableClient`: a game against bots, hosting a
table, or joining one.  The app only ever sees the client interface.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .addresses import DEFAULT_BIND
from .client.base import TableClient
from .client.local import LocalClient, bot_game, kept_game
from .history import History
from .kepttables import KeptTable, kept_tables, newest_kept_table, stopped_after
from .leftgame import keep_left_games
from .paths import confined_guest, how_to_resume, in_tables_dir, tables_dir
from .recordfile import stamped_path
from .rules import Options
from .savedgame import GameLock, SavedGame, kept_games, new_journal
from .table import Hosting, Table, TableConfig, open_table

HOST_NO_NAME = "host"  # the name of one who hosts without giving any


@dataclass(frozen=True)
class HostSettings:
    players: int = 4
    bots: int = 0
    bot_level: str = "greedy"
    code: str | None = None
    name: str = HOST_NO_NAME
    options: Options = field(default_factory=Options)
    seed: int | None = None
    port: int | None = None  # None: the default game port; 0: any free port
    bind: str = DEFAULT_BIND
    takeover_after: float = 30.0
    journal: Path | None = None
    resume: Path | None = None  # restore the table from this journal
    ssh_port: int | None = None  # also serve the app over SSH (threeup[ssh])
    ssh_authorized_keys: Path | None = None
    turn_time: float | None = None  # seconds for each action (None: no turn timer)
    spectator_chat: bool = True
    # With ``resume``: the settings given again on the command line (the
    # rest come from the table file); see threeup_tui.hostargs.
    overrides: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> HostSettings:
        """``threeup host``'s flags (every default None: see hostargs)."""
        from .hostargs import resume_overrides, value

        options = Options(
            voluntary_pickup=bool(value(args, "voluntary_pickup")),
            finish="places" if value(args, "finish") == "places" else "first_out",
        )
        resume = getattr(args, "resume", None)
        return cls(
            players=value(args, "players"),
            bots=value(args, "bots"),
            bot_level=value(args, "bot_level"),
            code=getattr(args, "code", None),
            name=getattr(args, "name", None) or "host",
            options=options,
            seed=getattr(args, "seed", None),
            port=getattr(args, "port", None),
            bind=value(args, "bind"),
            takeover_after=value(args, "takeover_after"),
            journal=getattr(args, "record", None),
            resume=resume,
            ssh_port=getattr(args, "ssh_port", None),
            ssh_authorized_keys=getattr(args, "ssh_authorized_keys", None),
            turn_time=getattr(args, "turn_time", None),
            spectator_chat=not getattr(args, "no_spectator_chat", False),
            overrides=resume_overrides(args) if resume is not None else {},
        )


NO_NAME = "player"  # the name of one who joins without giving any


@dataclass(frozen=True)
class JoinSettings:
    address: str
    name: str = NO_NAME
    code: str | None = None
    watch: bool = False
    token: str | None = None  # a seat token kept by the caller (the SSH door's guests)


class HostedClient(LocalClient):
    """The host's own seat at a table it also serves over the network."""

    def __init__(self, table: Table, name: str) -> None:
        super().__init__(table, name, as_host=True, owns_runner=True)
        self.net_host: object | None = None
        self.announcer: object | None = None
        self.ssh_door: object | None = None
        self.ssh_address: tuple[str, int] | None = None  # where the SSH door listens
        # What the lobby tells others to join, when not the bound address
        # (the screenshots show one fixed port whatever port was free).
        self.shown_address: tuple[str, int] | None = None

    @property
    def journal(self) -> Path | None:
        """The table's journal: what ``threeup host --resume`` takes after a
        crash; None while the table's files are not kept (a full disk)."""
        return self.table.config.journal if self.table.keeping_files else None

    @property
    def address(self) -> tuple[str, int] | None:
        from .netplay.host import NetHost

        if self.shown_address is not None:
            return self.shown_address
        return self.net_host.address if isinstance(self.net_host, NetHost) else None

    async def close(self) -> None:
        from .netplay.wire import CLOSE_TABLE_CLOSED

        await self._close(CLOSE_TABLE_CLOSED)

    @property
    def others_seated(self) -> bool:
        """Whether a person besides the host holds a seat (across the
        network or the SSH door; not a bot): whom a stop between games or
        in the lobby keeps the table for.  Connected or not: between games
        the seat of one who left (q, or a link that dropped: their app
        comes back by itself) waits for them, as the table tells everyone
        ("the seat waits for them") and deals them into the next game; in
        the lobby it opens as they go.  The seat of one who left with q
        once did not count, and the host's quit closed the table on it for
        good.  Alone (with bots, spectators), the table closes as before:
        the start screen would offer a table nobody holds a seat at.  The
        start screen counts the seats of a table stopped the same way
        (kepttables)."""
        host = self.table.host_seat
        return any(
            i != host and seat.kind == "human" and seat.network_bot is None
            for i, seat in enumerate(self.table.seats)
        )

    @property
    def stops_when_ended(self) -> bool:
        """Whether the app ending now (Ctrl-Q, SIGTERM, a hang-up) stops
        the table for a resume rather than closing it: in a game, and
        between games or in the lobby with others seated.  The question
        before Ctrl-Q says which."""
        if self.journal is None:
            return False
        return self.table.game_under_way or self.others_seated

    async def stop(self) -> str | None:
        """The app is ending (Ctrl-Q, SIGTERM, a hang-up): the table stops
        as a headless host's does, and its players wait for a resume (they
        come back by themselves), in a game, or between games or in the
        lobby with others seated; else it closes.  It once closed between
        games and in the lobby: every guest's app ended its session, and
        the table the start screen could have brought back was gone.  The
        host leaving on purpose (q, "Leave") still closes it: ``close``."""
        from .netplay.run import stop_words
        from .netplay.wire import CLOSE_HOST_STOPPED, CLOSE_RESUMABLE

        table, journal = self.table, self.journal
        reason = stop_words(table) if self.stops_when_ended else None
        if journal is None or reason not in CLOSE_RESUMABLE:
            await self.close()
            return None
        # Its journal stays for the resume (closing would forget a table
        # with no game under way): the lock is let go, the files kept.
        lock, self._kept = self._kept, None
        try:
            await self._close(reason)
        finally:
            if lock is not None:
                lock.release()
        return stopped_goodbye(table.game_number, reason == CLOSE_HOST_STOPPED, journal)

    async def _close(self, reason: str) -> None:
        from .netplay.discovery import Announcer
        from .netplay.host import NetHost
        from .netplay.run import end_table

        if isinstance(self.announcer, Announcer):
            await self.announcer.stop()
        # The host leaving closes the table for everyone: clients are told
        # and stop reconnecting, but for a stop (CLOSE_RESUMABLE: they wait
        # for a --resume); then the SSH door
        # lets its guests' apps say so and restore their terminals.
        if isinstance(self.net_host, NetHost):
            end_table(self.table, reason)
            self.table.suspend()
            await self.net_host.close(reason)
        if self.ssh_door is not None:
            from .sshdoor import SshDoor

            if isinstance(self.ssh_door, SshDoor):
                await self.ssh_door.close(reason)
        await super().close()


def stopped_goodbye(game_number: int, in_game: bool, journal: Path) -> str:
    """The line the host's app leaves on the terminal as it stops its table
    to be resumed: when, and how to bring it back.  One line at 80 columns
    for a table the app keeps, whatever its game's number."""
    when = f"during game {game_number}" if in_game else stopped_after(game_number)
    return f"threeup: stopped {when}; {how_to_resume(journal)}"


def cannot_listen(err: OSError, port: int | None) -> str:
    """Why a table could not open its port, in words for the host's form:
    the form showed "[Errno 98] Address already in use"."""
    from .addresses import DEFAULT_GAME_PORT

    port = DEFAULT_GAME_PORT if port is None else port
    if err.errno == errno.EADDRINUSE:
        return f"port {port} is in use (another table on this computer?): choose another port"
    return f"cannot listen on port {port}: {err.strerror or err}"


def crash_journal() -> Path:
    """A new journal file for a table hosted from the app: in the state
    directory, named by the time it opened (never an existing file)."""
    return stamped_path(tables_dir(), "table")


class Launcher:
    """Makes started clients.  Tests and the SSH front door pass their own.

    ``announce_address`` is where a hosted table is announced on the LAN
    (``"off"`` for nowhere; tests use ``127.255.255.255`` or ``"off"``).
    """

    bot_delay: float = 0.6
    # A table hosted without --record keeps its journal in the state
    # directory's tables/ (a crash of the app can be resumed from it), and a
    # game against bots in games/ until it is over (it can be continued).
    crash_journals: bool = True

    def __init__(
        self,
        announce_address: str | None = None,
        announce_port: int | None = None,
        listen_port: int | None = None,
        think_ms: int | None = None,
    ) -> None:
        self.announce_address = announce_address
        self.announce_port = announce_port
        self.listen_port = listen_port
        self.think_ms = think_ms  # search bots' budget per decision (None: their default)

    async def local_game(
        self,
        players: int = 4,
        bot_level: str = "greedy",
        seed: int | None = None,
        name: str = "you",
    ) -> TableClient:
        """A started game of one person against bots, kept in ``games/``
        until it is over (where there is a state directory to keep it in)."""
        journal = None
        if self.crash_journals and not confined_guest():
            try:
                journal = new_journal()
            except OSError:
                journal = None  # the game is played all the same, unkept
        client = bot_game(
            players, bot_level, seed, name, self.bot_delay, think_ms=self.think_ms, journal=journal
        )
        await client.start()
        return client

    @staticmethod
    def bots_think(bot_level: str) -> bool:
        """Whether bots of ``bot_level`` think in worker processes."""
        from .bots import BOT_LEVELS

        return bool(getattr(BOT_LEVELS.get(bot_level), "thinks", False))

    def bots_to_wake(self, bot_level: str) -> bool:
        """Whether bots of ``bot_level`` think in worker processes that are
        not running yet: the first such table waits for them to start."""
        from .bots.pool import shared_pool

        return self.bots_think(bot_level) and not shared_pool().worker_pids()

    def wake_bots(self, bot_level: str) -> bool:
        """Start a thinking worker for bots of ``bot_level`` now, ahead of
        their table (the start screen shows that level); whether one was
        started.  The first expert decision waited for its worker's
        interpreter to start: 4 of the 4.5 s from Enter to it on a busy
        machine.  Spawning the process blocks for a moment: call this off
        the event loop."""
        from .bots.pool import shared_pool

        if not self.bots_to_wake(bot_level):
            return False
        shared_pool().warm()
        return True

    def rest_bots(self) -> None:
        """Stop the thinking workers (woken ahead for a level no longer
        chosen, or as the app ends).  It waits for them to go: call it off
        the event loop."""
        from .bots.pool import shared_pool

        shared_pool().close()

    def kept_games(self) -> tuple[list[SavedGame], list[str]]:
        """The kept games against bots the start screen offers to continue,
        the newest first; and the names of those that could not be read,
        now set aside (see :func:`savedgame.kept_games`)."""
        if not self.crash_journals or confined_guest():
            return [], []
        return kept_games()

    def kept_tables(self) -> list[KeptTable]:
        """Tables hosted from the app and stopped (in a game, or with others
        seated), that the start screen offers to resume, the newest first."""
        if not self.crash_journals or confined_guest():
            return []
        return kept_tables()

    def newest_kept_table(self) -> KeptTable | None:
        """The first of :meth:`kept_tables`, found without reading the others."""
        if not self.crash_journals or confined_guest():
            return None
        return newest_kept_table()

    def keep_left_games(self, history: History) -> None:
        """In a worker thread, at a start: the finished games that kept
        games and kept tables hold, kept aside to be counted if ``history``
        does not hold them (see :func:`leftgame.keep_left_games`)."""
        if not self.crash_journals or confined_guest():
            return
        keep_left_games(history)

    async def continue_game(self, saved: SavedGame, name: str = "you") -> TableClient:
        """The kept game, started where it was left (TableError in words)."""
        client = kept_game(saved.journal, name, self.bot_delay)
        await client.start()
        return client

    async def host(self, settings: HostSettings) -> TableClient:
        """A table this process hosts and serves, with the host in seat 1
        (a resumed table: the host's own seat again)."""
        from .netplay.host import NetHost
        from .netplay.run import start_announcer

        # The lobby's Start button starts; the history keeps finished games
        # of a journal in tables/.
        mode = TableConfig(bot_delay=self.bot_delay)
        if settings.resume is not None:
            mode.keep_records = not in_tables_dir(settings.resume)
            table = open_table(mode, settings.resume, overrides=settings.overrides)
        else:
            journal = settings.journal
            crash = journal is None and self.crash_journals
            if crash:
                try:
                    journal = crash_journal()
                except OSError:
                    # No state directory to keep it in (a file in its place,
                    # one that cannot be written): the table is hosted all the
                    # same, unkept, as a game against bots is played.
                    journal = None
            config = TableConfig(
                players=settings.players,
                options=settings.options,
                code=settings.code,
                seed=settings.seed,
                bot_level=settings.bot_level,
                takeover_after=settings.takeover_after,
                journal=journal,
                table_name=f"{settings.name}'s table",
                bot_delay=self.bot_delay,
                turn_time=settings.turn_time,
                spectator_chat=settings.spectator_chat,
                think_ms=self.think_ms,
                # The history keeps the host's finished games; tables/ holds
                # only what a crash needs.
                keep_records=not crash,
            )
            table = open_table(config)
            table.hosting = Hosting(
                bind=settings.bind,
                port=settings.port,
                announce=self.announce_address,
                announce_port=self.announce_port,
                ssh_port=settings.ssh_port,
                ssh_authorized_keys=settings.ssh_authorized_keys,
            )
        hosting = table.hosting
        client = HostedClient(table, settings.name)
        try:
            client.net_host = await NetHost.serve(table)
        except OSError as err:
            raise OSError(cannot_listen(err, hosting.port)) from None
        game_port = client.net_host.address[1]
        table.set_hosting(port=game_port)
        try:
            await client.start()
            # Bots sit down after the host, so the host has seat 1 (TableError:
            # shown by the app).
            for _ in range(settings.bots if settings.resume is None else 0):
                table.add_bot(None, settings.bot_level)
            client.announcer = await start_announcer(
                hosting.announce, hosting.announce_port, table, game_port
            )
            if hosting.ssh_port is not None:
                from .sshdoor import SshDoor

                door = SshDoor(game_port, table, hosting.ssh_authorized_keys)
                bound = await door.start(hosting.bind, hosting.ssh_port)
                table.set_hosting(ssh_port=bound[1])
                client.ssh_address = bound
                client.ssh_door = door
        except BaseException:
            await client.close()
            table.abandon()
            raise
        journal = table.config.journal
        if journal is not None and in_tables_dir(journal):
            # A journal of the app's own goes once the table closes with no
            # game under way; one the player named (--record) stays.
            client.keep(GameLock.take(journal))
        return client

    async def join(self, settings: JoinSettings) -> TableClient:
        """A started client at a table across the network.

        Raises ConnectionError (with the host's reason when it refused) or
        ValueError for an address that cannot be understood.
        """
        from .netplay.client import NetClient, parse_address

        host, port = parse_address(settings.address)
        client = NetClient(
            host, port, settings.name, settings.code, settings.watch, token=settings.token
        )
        await client.start()
        return client

    def kept_names_at(self, address: str, table_id: str | None) -> list[str]:
        """The names this account keeps a seat token under at the table
        ``table_id`` heard at ``address`` (HOST:PORT), newest last: the join
        list marks a table that keeps a seat for the player.  None for a
        host that sends no table id, nor for a door's guest, who keeps none."""
        if table_id is None or confined_guest():
            return []
        from .netplay.tokens import TokenStore

        return [kept.name for kept in TokenStore().seats_kept(address, table_id)]

    async def discover(self) -> AsyncIterator[list[object]]:
        """Lists of tables heard on the LAN (TableAnnouncement), as they change."""
        from .netplay.discovery import DEFAULT_ANNOUNCE_PORT, Listener

        listener = Listener(self.listen_port or DEFAULT_ANNOUNCE_PORT)
        try:
            await listener.start()
        except OSError:
            return
        try:
            while True:
                listener.changed.clear()
                yield list(listener.current())
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(1.0):  # not wait_for: see TableRunner
                        await listener.changed.wait()
        finally:
            await listener.stop()
