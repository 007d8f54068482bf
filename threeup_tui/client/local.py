"""A client whose table lives in this process (play against bots; the host's own seat)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from ..rules import Move, Options
from ..savedgame import GameLock, discard, set_aside_game
from ..table import Table, TableConfig, TableError, TableRunner, open_table
from .base import TableClient
from .events import ActionRejected, ConnectionChanged, GameNotSaved, Welcome


class LocalClient(TableClient):
    """One seat at an in-process :class:`Table`.

    With ``owns_runner`` the client starts and stops the table's bot runner
    (a game against bots); a network host runs it itself.  ``kept``: the
    lock of a game against bots kept in ``games/`` (:mod:`..savedgame`),
    held while this client plays it.  ``alone``: a game against bots,
    which nobody else can reach (:attr:`TableClient.alone`).
    """

    def __init__(
        self,
        table: Table,
        name: str,
        as_host: bool = True,
        owns_runner: bool = True,
        bots_after: int = 0,
        kept: GameLock | None = None,
        alone: bool = False,
    ) -> None:
        super().__init__()
        self._alone = alone
        self.table = table
        self.name = name
        self.as_host = as_host
        self.seat: int | None = None
        self._runner = TableRunner(table) if owns_runner else None
        self._bots_after = bots_after  # bots to seat once this player sits
        self._kept = kept

    def keep(self, lock: GameLock | None) -> None:
        """Hold the table's journal as a kept game from now on (with its
        lock): it goes when this client closes with no game under way."""
        self._kept = lock

    @property
    def alone(self) -> bool:
        return self._alone

    @property
    def kept(self) -> bool:
        """Whether this game against bots is kept now (Continue your game)."""
        return self._kept is not None and self.table.keeping_files

    def table_identity(self) -> str | None:
        return self.table.table_id

    async def start(self) -> None:
        token = None
        host_seat = self.table.host_seat
        if self.as_host and host_seat is not None:
            token = self.table.seats[host_seat].token  # a resumed table: the host's own seat
        seat, _token = self.table.seat_human(self.name, token, host=self.as_host)
        self.seat = seat
        config = self.table.config
        self._emit(Welcome(seat, self.as_host, config.table_name, config.bot_level))
        self._emit(ConnectionChanged("connected", "this computer"))
        self.table.subscribe(self, seat, self._emit)
        for _ in range(self._bots_after):  # after the player: they get seat 1
            self.table.add_bot(None, self.table.config.bot_level)
        self._bots_after = 0
        if self._runner is not None:
            self._runner.start()

    async def close(self) -> None:
        self.table.unsubscribe(self)
        if self._runner is not None:
            await self._runner.stop()
        kept, self._kept = self._kept, None
        if kept is not None:
            journal = self.table.config.journal
            if journal is not None and not self.table.game_under_way:
                # Nothing to continue: the history holds a finished game.
                discard(journal)
            kept.release()

    def _guard(self, request: str, action: Callable[[], object]) -> None:
        """Do ``action``; a refusal names the ``request`` it answers (the
        wire's name for it, as a host's ``re`` does)."""
        try:
            if self.seat is not None:
                self.table.seat_active(self.seat)  # any request: the player is here
            action()
        except TableError as err:
            self._emit(ActionRejected(str(err), request))

    def _seat(self) -> int:
        if self.seat is None:
            raise TableError("not seated")
        return self.seat

    def choose_face_up(self, cards: Sequence[str]) -> None:
        self._guard("setup", lambda: self.table.choose_face_up(self._seat(), cards))

    def submit(self, move: Move) -> None:
        self._guard("move", lambda: self.table.submit(self._seat(), move))

    def chat(self, text: str) -> None:
        self._guard("chat", lambda: self.table.chat(self._seat(), text))

    def here(self) -> None:
        self._guard("here", lambda: None)  # the request itself is the player acting

    def add_bot(self, level: str) -> None:
        self._guard("add_bot", lambda: self.table.add_bot(self.seat, level))

    def remove_seat(self, seat: int) -> None:
        self._guard("remove", lambda: self.table.remove_seat(self.seat, seat))

    def set_options(self, options: Options) -> None:
        self._guard("options", lambda: self.table.set_options(self.seat, options))

    def set_turn_time(self, seconds: float | None) -> None:
        self._guard("turn_time", lambda: self.table.set_turn_time(self.seat, seconds))

    def set_bot_level(self, level: str) -> None:
        self._guard("bot_level", lambda: self.table.set_bot_level(self.seat, level))

    def start_game(self) -> None:
        self._guard("start", lambda: self.table.start(self.seat))

    def rematch(self) -> None:
        self._guard("rematch", lambda: self.table.rematch(self.seat))

    def save_record(self, path: str) -> None:
        def save() -> None:
            try:
                self.table.save_for(self.seat, path)
            except TableError as err:  # the file's trouble, not a move's
                self._emit(GameNotSaved(str(err)))

        self._guard("save", save)

    def keep_record(self, path: str) -> str | None:
        try:
            self.table.save(path)
        except TableError as err:
            return str(err)
        return None


def bot_game(
    players: int = 4,
    bot_level: str = "greedy",
    seed: int | None = None,
    name: str = "you",
    bot_delay: float = 0.5,
    options: Options | None = None,
    think_ms: int | None = None,
    journal: Path | None = None,
) -> LocalClient:
    """A table of one person (seat 1) and bots, which starts as soon as
    everyone is seated.  With ``journal`` (a new file in ``games/``) the game
    is kept there until it is over, and can be continued (:func:`kept_game`)."""
    table = open_table(
        TableConfig(
            players=players,
            options=options or Options(),
            seed=seed,
            bot_level=bot_level,
            table_name="against bots",
            bot_delay=bot_delay,
            think_ms=think_ms,
            journal=journal,
            auto_start=True,
            keep_records=False,
        )
    )
    kept = None if journal is None else GameLock.take(journal)
    return LocalClient(table, name, bots_after=players - 1, kept=kept, alone=True)


def kept_game(journal: Path, name: str, bot_delay: float = 0.5) -> LocalClient:
    """The game against bots kept at ``journal``, as it was left; TableError
    (in words) if it cannot come back or another window is playing it."""
    kept = GameLock.take(journal)
    if kept is None:
        raise TableError("that game is being played in another window")
    try:
        mode = TableConfig(auto_start=True, bot_delay=bot_delay, keep_records=False)
        table = open_table(mode, resume=journal)
    except TableError as err:
        kept.release()
        # Offered again it would fail again: its files go aside, kept.
        try:
            aside = f"its files are kept aside as {set_aside_game(journal)}"
        except OSError as why:
            aside = f"its files could not be moved aside: {why.strerror or why}"
        raise TableError(f"{err} ({aside})") from None
    except BaseException:
        kept.release()
        raise
    return LocalClient(table, name, kept=kept, alone=True)
