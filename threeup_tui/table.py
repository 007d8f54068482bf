"""The authoritative table: seats, lobby, the engine, bots, chat, journal.

Transport-agnostic: an in-process client and the network host both drive a
:class:`Table` through the same methods, and both receive the same events
through listeners.  Rules logic stays in :mod:`threeup_tui.rules`; the table
only decides *who* may do *what* (seats, the host's controls) and when bots
act.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bots import BOT_LEVELS, Bot, GreedyBot, make_bot
from .bots.pool import (
    Decision,
    ThinkPool,
    decide,
    fallback_decision,
    shared_pool,
    thinks,
    time_budget,
)
from .chatlimit import MAX_CELLS, MAX_CHARS, ChatLimiter, line_problem
from .client.events import (
    ChatReceived,
    Event,
    GameResult,
    GameSaved,
    GamesPlayed,
    Lobby,
    LobbyChanged,
    Notice,
    SeatSlot,
    TurnClock,
    ViewChanged,
)
from .client.results import ResultShapeError, result_from_map, result_to_map
from .limits import (
    MAX_CHAT_NUMBER,
    MAX_CLAIM,
    MAX_GAMES,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    RESUME_GRACE,
)
from .names import clean_name as _clean_name
from .names import cut_cells, distinct_name
from .outcome import won_words
from .paths import no_directory
from .recordfile import JournalWriter, load_record, save_record
from .rules import (
    GameState,
    MalformedRecord,
    Move,
    Options,
    Phase,
    RulesError,
    View,
    record_of,
    replay,
    seat_view,
)
from .rules.cards import CODES, card_label, parse_code
from .tablefile import (
    FORMAT as TABLE_FILE_FORMAT,
)
from .tablefile import (
    TableFileError,
    read_table_file,
    settings_from_json,
    settings_to_json,
    table_file_path,
    write_table_file,
)
from .tablerecords import RecordKeeper
from .tasks import cancel_and_wait
from .textclean import clean_text, plural, shown_value

log = logging.getLogger("threeup.table")

CHAT_HISTORY = 50
CHAT_ON_CONNECT = 10  # the recent lines a session is sent when it begins
AWAY_AFTER = 3  # timed-out actions in a row that mark a seat away
REMATCH_PAUSE = 1.0  # seconds between a game's end and the next, when all agree at once
# Finished games each person's seat keeps, to tell each new session of the
# seat (GamesPlayed): a game that ended while its player was away (or their
# app was gone before the host noticed) still reaches their history.
RESULTS_KEPT = 5


TABLE_FULL = "the table is full"  # a newcomer's refusal (clients read it: see NetClient)
WRONG_CODE = "wrong room code"  # given none, or another (NetClient tells the two apart)
# The refusal once the game has begun, when its seats are set.  Someone
# whose seat it is, joining from another computer or account (no token),
# read only "the table is full" and could not tell why their own seat did
# not take them.  It names no seat or player: the lobby shows who is away.
# Short: the join form says it in two lines at 80 columns, with its hint
# (a few words more, and its Join button scrolled out of sight).
TABLE_FULL_SEATS_KEPT = f"{TABLE_FULL}: a seat waits for the computer that took it"


def is_table_full(reason: str) -> bool:
    """Whether a refusal is a full table's, in either of its words."""
    return reason == TABLE_FULL or reason.startswith(TABLE_FULL + ":")


class TableError(Exception):
    """A request the table refuses; the message is for the player."""


def a_bot(level: str | None) -> str:
    """ "a greedy bot", "an expert bot": a bot of ``level`` in a sentence."""
    level = level or "stand-in"
    return f"{'an' if level[:1] in 'aeiou' else 'a'} {level} bot"


def clean_name(name: object, fallback: str) -> str:
    """A player's name made safe: see :mod:`threeup_tui.names` (one function
    for names over UDP and over SSH)."""
    return _clean_name(name, fallback)


@dataclass
class Seat:
    name: str
    kind: str = "open"  # "human", "bot" or "open"
    bot_level: str | None = None
    token: str | None = None  # the secret that gives a human seat back
    connected: bool = False
    absent_since: float | None = None
    bot: Bot | None = None  # a bot seat's bot, or an absent or away player's (D17)
    timeouts: int = 0  # the turn timer's stand-in acted this many times in a row
    away: bool = False  # AWAY_AFTER timeouts in a row: the bot plays until they act
    network_bot: str | None = None  # the level a `join --bot` client said it plays at
    # Sessions that have taken the seat so far.  A client coming back by
    # itself says which it held: one that an older session held is not the
    # player's any more (they went on in another terminal meanwhile).
    claims: int = 0
    results: list[GameResult] = field(default_factory=list)  # its last games (RESULTS_KEPT)

    def slot(self, seat: int) -> SeatSlot:
        if self.network_bot is not None and self.bot is None:
            return SeatSlot(seat, self.name, "bot", self.connected, self.network_bot)
        level = self.bot_level if self.bot is not None or self.kind == "bot" else None
        return SeatSlot(seat, self.name, self.kind, self.connected, level, self.away)

    @property
    def taken_over(self) -> bool:
        """A bot plays the seat while its player is absent (D17)."""
        return self.kind == "human" and self.bot is not None and not self.away

    @property
    def agrees_to_rematch(self) -> bool:
        """Bot seats and network bots always agree.  A person must ask; one
        who is not connected, or is marked away (the bot plays for them
        until they act), does not hold the table up (``Table._rematch_waiting``)."""
        return self.kind != "human" or self.network_bot is not None


class Clock:
    """The turn timer: when each running clock runs out, in table time.

    During set-up every seat that has not chosen has its own clock (D2:
    they choose at once); during play only the seat to act has one, started
    afresh for each action.  Seats a bot plays have none.

    After a resume a clock is *held* while its seat's player has not come
    back: ``held`` keeps the seconds it will then have, and its deadline
    lies RESUME_GRACE beyond them in case they never do.
    """

    def __init__(self) -> None:
        self.deadlines: dict[int, float] = {}
        self.armed_at = -1  # the move count the play clock was started at
        self.held: dict[int, float] = {}

    def reset(self) -> None:
        self.deadlines.clear()
        self.armed_at = -1
        self.held.clear()

    def release(self, seat: int, now: float) -> None:
        """The player of ``seat`` is back: a held clock runs from ``now``."""
        remaining = self.held.pop(seat, None)
        if remaining is not None and seat in self.deadlines:
            self.deadlines[seat] = now + remaining


Listener = Callable[[Event], None]


@dataclass
class _Subscriber:
    seat: int | None
    callback: Listener
    clock: tuple[int | None, float | None] = (None, None)  # the TurnClock last sent


@dataclass
class TableConfig:
    players: int = 4
    options: Options = field(default_factory=Options)
    code: str | None = None
    seed: int | None = None
    bot_level: str = "greedy"
    takeover_after: float = 30.0
    journal: Path | None = None
    table_name: str = "threeup"
    auto_start: bool = False  # start as soon as every seat is filled (headless)
    bot_delay: float = 0.0  # seconds a bot waits before acting, so people can follow
    turn_time: float | None = None  # seconds a player has for each action (None: no timer)
    rematch_after: float | None = None  # headless: start the next game anyway after this
    games: int | None = None  # headless: games before the table closes (None: no limit)
    spectator_chat: bool = True  # spectators may chat
    think_ms: int | None = None  # a search bot's budget per decision (None: its default)
    # Each finished game's record kept beside the journal (party-N.json); a
    # game against bots keeps none there: the player's history has it.
    keep_records: bool = True


@dataclass
class Hosting:
    """Where and how a table is served.  Kept in the table file, so that a
    resumed table listens where it did and admits whom it did."""

    bind: str = "0.0.0.0"
    port: int | None = None  # None: the default game port; the bound port once serving
    announce: str | None = None  # LAN announcement address; None: THREEUP_ANNOUNCE or broadcast
    announce_port: int | None = None
    ssh_port: int | None = None  # the SSH door's port (None: no door)
    ssh_authorized_keys: Path | None = None


# Settings a resume takes from how the table is hosted now, not from the
# file: a headless host starts games itself, the app's host presses Start;
# a headless host keeps finished games beside the journal, while the app
# keeps them in its history (and none in its own tables/ or games/).
HOSTING_MODE: frozenset[str] = frozenset({"auto_start", "bot_delay", "keep_records"})
# What a resumed table cannot change: its seats and the game's rules.
FIXED_ON_RESUME: frozenset[str] = frozenset({"players", "options"})
# Settings whose values a log line must never show.
SECRET_SETTINGS: frozenset[str] = frozenset({"code"})


@dataclass(frozen=True)
class FinishedGame:
    """A game as it ended, for the host's log and its count of games."""

    number: int  # the table's game number (1 for the first game)
    result: str  # "ann won", "the game ends in a stalemate after 1000 turns"
    record: Path | None  # where its record is kept (None: not kept, or only in memory)
    # A table resumed at the end of a game its first run had already kept
    # the record of: the host's log told of that game then, not again.
    kept_before_the_stop: bool = False


class Table:
    def __init__(self, config: TableConfig, clock: Callable[[], float] = time.monotonic):
        if not 2 <= config.players <= 6:
            raise TableError(f"a table has 2 to 6 seats, not {config.players}")
        self.config = config
        self.clock = clock
        self.options = config.options
        self.seats = [Seat(f"seat {i + 1}") for i in range(config.players)]
        self.host_seat: int | None = None
        self.state: GameState | None = None
        self.game_number = 0
        self.chat_log: list[ChatReceived] = []
        self._subscribers: dict[object, _Subscriber] = {}
        self.changed = asyncio.Event()
        # Each game as it ends, in order.  A dedicated host reads them: the
        # table deals the next game on its own timer, and the host's loop may
        # run after it did, when the live state and game number are the next
        # game's.  (At the app's table nobody reads them: a few hundred
        # bytes a game.)
        self.finished_games: asyncio.Queue[FinishedGame] = asyncio.Queue()
        self.game_over_saved = False
        # The table's identity: clients keep their seat tokens per table id;
        # the SSH door derives its players' tokens from the secret.
        self.table_id = secrets.token_urlsafe(12)
        self.secret = secrets.token_hex(32)
        # What the SSH door keeps of the seat words it gave (opaque strings,
        # oldest first; see sshdoor), kept with the table so that a resumed
        # table's door honours them, and never another table's.
        self.door_words: list[str] = []
        self.hosting = Hosting()
        self._file_written: dict[str, Any] | None = None
        self._suspended_clock: dict[str, Any] | None = None  # the turn clock at a clean stop
        self._file_failed = False
        self._journal_failed = False
        # Why the table's files are not being kept now (a full disk, say),
        # in the words its host's seat is told; None while they are.
        self.files_problem: str | None = None
        self._journal = JournalWriter()
        self.turn_clock = Clock()
        self._stand_ins: dict[int, Bot] = {}  # the turn timer's bot, per seat
        self._chat_limit = ChatLimiter(clock)
        self.rematch_votes: set[int] = set()
        self.rematch_at: float | None = None  # table time the next game starts anyway
        # What rematch_at is the sooner of: --rematch-after, counted from when
        # someone is here; and the pause once everyone here has asked.
        self._rematch_after_at: float | None = None
        self._rematch_go_at: float | None = None
        self.closing: str | None = None  # why the table is closing (no more games)
        # Why the host is stopping, when --resume may bring the table back:
        # no game is dealt meanwhile, and nobody is told there is no next one.
        self.stopping: str | None = None
        # Before the first game, the token of the player who last left each
        # seat (seat -> token): back while it is still open, they sit there
        # again.  Bounded by the seats, however many come and go.
        self._left_lobby: dict[int, str] = {}
        # Finished games' records (party-N.json); aside, in a folder of the table's id.
        self.records = RecordKeeper(self._tell_host_seat, lambda: self.table_id)
        self.new_files = False  # this run made its journal's files (open_table: a new table)

    # ------------------------------------------------------------ listeners
    def subscribe(self, key: object, seat: int | None, callback: Listener) -> None:
        sub = _Subscriber(seat, callback)
        self._subscribers[key] = sub
        if seat is None:
            self._lobby_to_all(but=key)  # one more watching: the players are told
        callback(LobbyChanged(self.lobby(seat)))
        if self.state is not None:
            callback(ViewChanged(seat_view(self.state, seat)))
        self._send_clock(sub)  # a reconnect finds the clock where it was
        for line in self.chat_log[-CHAT_ON_CONNECT:]:
            callback(dataclasses.replace(line, old=True))
        if seat is not None and self.seats[seat].results:
            callback(GamesPlayed(tuple(self.seats[seat].results)))
        if self.files_problem is not None and seat is not None and seat == self.host_seat:
            callback(Notice(self.files_problem))  # it came before they sat down

    def unsubscribe(self, key: object) -> None:
        gone = self._subscribers.pop(key, None)
        if gone is not None and gone.seat is None:
            self._lobby_to_all()  # one fewer watching

    @property
    def watching(self) -> int:
        """Spectators watching now (subscribers without a seat)."""
        return sum(1 for sub in self._subscribers.values() if sub.seat is None)

    def _lobby_to_all(self, but: object = None) -> None:
        lobbies: dict[bool, LobbyChanged] = {}
        for key, sub in list(self._subscribers.items()):
            if key != but:
                sub.callback(self._lobby_event(sub, lobbies))

    def _lobby_event(self, sub: _Subscriber, lobbies: dict[bool, LobbyChanged]) -> LobbyChanged:
        """The lobby ``sub`` sees, made once for the host's seat and once for the rest
        (the host's seat sees the room code)."""
        is_host = sub.seat is not None and sub.seat == self.host_seat
        if is_host not in lobbies:
            lobbies[is_host] = LobbyChanged(self.lobby(sub.seat))
        return lobbies[is_host]

    def _notify(self, lobby: bool = True, views: bool = True) -> None:
        subscribers = list(self._subscribers.values())
        cache: dict[int | None, ViewChanged] = {}
        lobbies: dict[bool, LobbyChanged] = {}
        for sub in subscribers:
            if lobby:
                sub.callback(self._lobby_event(sub, lobbies))
            if views and self.state is not None:
                if sub.seat not in cache:
                    cache[sub.seat] = ViewChanged(seat_view(self.state, sub.seat))
                sub.callback(cache[sub.seat])
        self._arm_clock()
        for sub in subscribers:
            self._send_clock(sub)
        if lobby:
            self.save_table_file()
        self.changed.set()

    def _send(self, seat: int | None, event: Event) -> None:
        for sub in list(self._subscribers.values()):
            if sub.seat == seat:
                sub.callback(event)

    def lobby(self, viewer: int | None = None) -> Lobby:
        return Lobby(
            seats=tuple(s.slot(i) for i, s in enumerate(self.seats)),
            options=self.options,
            code_required=self.config.code is not None,
            code=self.config.code if viewer is not None and viewer == self.host_seat else None,
            started=self.state is not None,
            host_seat=self.host_seat,
            table_name=self.config.table_name,
            turn_time=self.config.turn_time,
            rematch=self.rematch_mode(),
            rematch_votes=tuple(sorted(self.rematch_votes)),
            rematch_after=self.config.rematch_after,
            game_number=self.game_number,
            games=self.config.games,
            spectator_chat=self.config.spectator_chat,
            watching=self.watching,
            bot_level=self.config.bot_level,
        )

    def rematch_mode(self) -> str:
        """How the next game starts: "host" (the host's seat starts it),
        "vote" (when every player here has asked: a dedicated host) or
        "none" (the table closes after this game)."""
        games = self.config.games
        if self.closing is not None or (games is not None and self.game_number >= games):
            return "none"
        return "host" if self.host_seat is not None else "vote"

    # ----------------------------------------------------------------- seats
    def check_code(self, code: object) -> None:
        expected = self.config.code
        if expected is not None and not (
            isinstance(code, str) and secrets.compare_digest(code.encode(), expected.encode())
        ):
            raise TableError(WRONG_CODE)

    def seat_of_token(self, token: object) -> int | None:
        """The human seat this token unlocks, if any (compared in constant time)."""
        if not isinstance(token, str) or not token:
            return None
        found = None
        for i, seat in enumerate(self.seats):
            if (
                seat.kind == "human"
                and seat.token is not None
                and secrets.compare_digest(seat.token.encode(), token.encode())
            ):
                found = i
        return found

    def seat_human(
        self, name: object, token: object = None, host: bool = False, acting: bool = False
    ) -> tuple[int, str]:
        """Seat a player: their old seat if the token matches one, else an
        open seat, which the token (or a new one) then unlocks.  A seat
        belongs to its token, never to a name: a newcomer with a name
        already seated is told apart ("Ann", "Ann (2)").  ``acting``: the
        player came back in a new session, and the caller marks them active
        (seat_active) once it is connected.  Returns (seat, token)."""
        back = self.seat_of_token(token)
        if back is not None:
            self.seats[back].claims += 1
            self._reconnect(back, acting)
            self.save_table_file()  # the claim, kept across a crash like the token
            token_back = self.seats[back].token
            assert token_back is not None
            return back, token_back
        left = self._seat_left_by(token)
        order = ([] if left is None else [left]) + list(range(len(self.seats)))
        for i in order:
            seat = self.seats[i]
            if seat.kind == "open":
                if self.state is not None:
                    break  # a started game takes no newcomers: its seats are set
                others = [s.name for j, s in enumerate(self.seats) if j != i and s.kind != "open"]
                seat.kind = "human"
                seat.name = distinct_name(clean_name(name, f"player {i + 1}"), others)
                seat.token = token if isinstance(token, str) and token else secrets.token_hex(16)
                seat.connected = True
                seat.absent_since = None
                seat.claims = 1
                if host:
                    self.host_seat = i
                # Their own seat, kept for their token: not a newcomer.
                came = "came back to" if i == left else "sat down at"
                self._system(f"{seat.name} {came} seat {i + 1}")
                self._notify()
                self._maybe_auto_start()
                return i, seat.token
        raise TableError(TABLE_FULL if self.state is None else TABLE_FULL_SEATS_KEPT)

    def _seat_left_by(self, token: object) -> int | None:
        """The seat this token's player left before the game, if it is still
        open: a seat belongs to its token, and one who stepped out of the
        lobby and came back was sat at the first open seat instead."""
        if self.state is not None or not isinstance(token, str) or not token:
            return None
        found = None
        for i, left in self._left_lobby.items():
            if secrets.compare_digest(left.encode(), token.encode()):
                found = i
        if found is None or self.seats[found].kind != "open":
            return None
        return found

    def _reconnect(self, i: int, acting: bool = False) -> None:
        seat = self.seats[i]
        if seat.connected:
            return  # a repeated handshake, or the same player from another terminal
        seat.connected = True
        seat.absent_since = None
        self.turn_clock.release(i, self.clock())
        if seat.away and acting:
            pass  # seat_active says they came back: "connected again" said it twice at once
        elif seat.away:
            # A client reconnects by itself: that is not its player acting.
            self._system(f"{seat.name} is connected again; the bot plays until they act")
        elif seat.bot is not None and seat.kind == "human":
            seat.bot = None
            self._system(f"{seat.name} came back to seat {i + 1}; the bot hands the seat over")
        else:
            self._system(f"{seat.name} came back to seat {i + 1}")
        # After a resume between games, the returning may be all the next
        # game waits for (network bots always agree).
        self._maybe_rematch()
        self._notify()

    def disconnect(self, i: int) -> None:
        """The player left or their connection dropped: the seat waits (D17)."""
        seat = self.seats[i]
        if seat.kind != "human" or not seat.connected:
            return
        seat.connected = False
        seat.absent_since = self.clock()
        if self.state is None:
            # Before the game starts, a seat simply opens again, kept for
            # its player's return as long as nobody else takes it.
            if seat.token is not None:
                self._left_lobby[i] = seat.token
            self.seats[i] = Seat(f"seat {i + 1}")
            if self.host_seat == i:
                self.host_seat = None
            self._system(f"{seat.name} left seat {i + 1}")
        else:
            self._system(f"{seat.name} is away from seat {i + 1}; the seat waits for them")
        self._maybe_rematch()  # one who left no longer holds up the next game
        self._notify()

    def seat_active(self, i: int) -> None:
        """The player of seat ``i`` did something (any request from their
        session): a seat marked away is theirs again."""
        seat = self.seats[i]
        if not seat.away:
            return
        seat.away = False
        seat.timeouts = 0
        seat.bot = None
        self._system(f"{seat.name} came back; the bot hands the seat over")
        self._send(i, Notice("you are back: the bot no longer plays for you"))
        self._maybe_rematch()  # after a game, the table may have waited for them
        self._notify()

    def set_network_bot(self, i: int, level: object) -> None:
        """Seat ``i`` is played by a bot across the network (``join --bot``),
        at the ``level`` its hello gave: the lobby shows it as a bot, and it
        always agrees to a rematch."""
        if not isinstance(level, str) or not level:
            return
        seat = self.seats[i]
        wanted = clean_name(level, "bot")
        if seat.network_bot != wanted:
            seat.network_bot = wanted
            self._notify(views=False)

    def check_timers(self) -> float | None:
        """Take-overs (D17), the turn timer and a dedicated host's rematch:
        do what is due now; seconds until something next falls due."""
        soonest = self.check_takeovers()
        now = self.clock()
        if self.rematch_at is not None:
            if now >= self.rematch_at:
                self._stop_rematch_clock()
                state = self.state
                if self.rematch_mode() == "vote" and state is not None and state.over:
                    if self._rematch_waiting():
                        self._system("time is up: the next game starts")
                    self.start(None)
            else:
                soonest = _sooner(soonest, self.rematch_at - now)
        for deadline in self.turn_clock.deadlines.values():
            # A clock that ran out is the runner's to act on (bot_turn).
            soonest = _sooner(soonest, max(deadline - now, 0.0))
        return soonest

    def check_takeovers(self) -> float | None:
        """Give absent players' seats to bots (D17); seconds until the next check."""
        if not self.game_under_way:
            return None
        now = self.clock()
        soonest: float | None = None
        for i, seat in enumerate(self.seats):
            if seat.kind != "human" or seat.connected or seat.bot is not None:
                continue
            assert seat.absent_since is not None
            due = seat.absent_since + self.config.takeover_after - now
            if due <= 0:
                seat.bot = self._make_bot(self.config.bot_level, i)
                seat.bot_level = self.config.bot_level
                self._system(
                    f"{a_bot(seat.bot_level)} plays seat {i + 1} for {seat.name} until they return"
                )
                self._notify()
            elif soonest is None or due < soonest:
                soonest = due
        return soonest

    def _check_seat(self, i: int) -> None:
        """Refuse a request in the name of a seat number that names no seat.
        (Without this, -1 would speak or vote as the last seat: a list
        index, not a seat.)"""
        if not 0 <= i < len(self.seats):
            raise TableError(f"there is no seat {i + 1}")

    def _require_host(self, by: int | None) -> None:
        if by is not None and by != self.host_seat:
            raise TableError("only the host can change the table")

    def add_bot(self, by: int | None, level: str) -> None:
        self._require_host(by)
        if level not in BOT_LEVELS:
            raise TableError(f"unknown bot level {level!r}")
        if self.state is not None:
            raise TableError("bots are added before the game starts")
        for i, seat in enumerate(self.seats):
            if seat.kind == "open":
                # Told apart like any newcomer: a player may have sat down as
                # "greedy bot 2" before this bot came to seat 2.
                others = [s.name for s in self.seats if s.kind != "open"]
                name = distinct_name(f"{level} bot {i + 1}", others)
                self.seats[i] = Seat(name, "bot", level, bot=self._make_bot(level, i))
                self._notify()
                self._maybe_auto_start()
                return
        raise TableError("no open seat for a bot")

    def remove_seat(self, by: int | None, i: int) -> None:
        self._require_host(by)
        if self.state is not None:
            raise TableError("seats are changed before the game starts")
        self._check_seat(i)
        if i == self.host_seat:
            raise TableError("the host keeps their own seat")
        if self.seats[i].kind == "human":
            self._system(f"{self.seats[i].name} was removed from the table")
        self.seats[i] = Seat(f"seat {i + 1}")
        self._notify()

    def set_options(self, by: int | None, options: Options) -> None:
        self._require_host(by)
        if self.state is not None:
            raise TableError("options are set before the game starts")
        if options.first is not None and not 0 <= options.first < len(self.seats):
            raise TableError(f"there is no seat {options.first + 1} to start")
        self.options = options
        self._notify()

    def set_turn_time(self, by: int | None, seconds: float | None) -> None:
        """The host's lobby sets the turn timer (None: off) between games."""
        self._require_host(by)
        if self.game_under_way:
            raise TableError("the turn time is set before the game starts")
        if seconds is not None and not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
            raise TableError(f"a turn lasts {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS} seconds")
        self.config.turn_time = seconds
        self._notify()

    def set_bot_level(self, by: int | None, level: str) -> None:
        """The host changes the table's bot level between games: its bot
        seats play the next game at ``level`` (renamed, where their name was
        their old level's: "greedy bot 3" would now say the wrong thing),
        and so does the bot standing in for an absent or timed-out player.
        A ``join --bot`` seat plays as its own client does."""
        self._require_host(by)
        if level not in BOT_LEVELS:
            raise TableError(f"unknown bot level {level!r}")
        if self.game_under_way:
            raise TableError("the bots' level is set between games")
        if level == self.config.bot_level and all(
            s.bot_level == level for s in self.seats if s.bot is not None
        ):
            return
        self.config.bot_level = level
        self._stand_ins.clear()  # made at the old level
        for i, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.bot is not None:
                # Still gone, or marked away: the bot plays on for them next game.
                seat.bot = self._stand_in(i) if seat.away else self._make_bot(level, i)
                seat.bot_level = level
            if seat.kind != "bot" or seat.bot_level == level:
                continue
            if seat.bot_level is not None and seat.name.startswith(f"{seat.bot_level} bot "):
                others = [s.name for j, s in enumerate(self.seats) if j != i and s.kind != "open"]
                seat.name = distinct_name(f"{level} bot {i + 1}", others)
            seat.bot_level = level
            seat.bot = self._make_bot(level, i)
        self._system(f"the bots play at the {level} level from the next game")
        self.save_table_file()  # a --resume brings the table back at this level
        self._notify(views=False)

    def _make_bot(self, level: str, i: int) -> Bot:
        return make_bot(level, self._bot_seed(i), self.config.think_ms)

    def _bot_seed(self, i: int) -> int | None:
        base = self.config.seed
        return None if base is None else base * 101 + self.game_number * 7 + i

    # ----------------------------------------------------------------- game
    def _maybe_auto_start(self) -> None:
        if self.stopping is not None:
            return  # a player who sits down as the host stops waits for its resume
        if self.config.auto_start and self.state is None and self._all_filled():
            self.start(None)

    def _all_filled(self) -> bool:
        return all(seat.kind != "open" for seat in self.seats)

    def start(self, by: int | None) -> None:
        self._require_host(by)
        if self.stopping is not None:
            raise TableError(self.stopping)
        if self.game_under_way:
            raise TableError("the game is already on")
        if not self._all_filled():
            raise TableError("every seat needs a player or a bot first")
        seed = self.config.seed
        if seed is not None:
            seed = seed + self.game_number
        if self.rematch_mode() == "none" and self.state is not None:
            raise TableError(self._last_game_words())
        names = [seat.name for seat in self.seats]
        self.state = GameState.new(names, self.options, seed)
        self.game_number += 1
        self.game_over_saved = False
        self.rematch_votes.clear()
        self._stop_rematch_clock()
        self.turn_clock.reset()
        self._system(f"game {self.game_number} begins: choose 3 cards to lay face up")
        self._notify()

    def rematch(self, by: int | None) -> None:
        """The host's seat starts the next game; at a dedicated host (no host
        seat) ``by`` asks for it, and it starts when everyone here has."""
        if self.state is None or self.state.phase != Phase.OVER:
            raise TableError("a rematch follows a finished game")
        mode = self.rematch_mode()
        if mode == "none":
            raise TableError(self._last_game_words())
        if mode == "host" or by is None:
            self._require_host(by)
            self.start(None)
            return
        self._check_seat(by)
        if by not in self.rematch_votes:
            self.rematch_votes.add(by)
            self._system(f"{self.seats[by].name} would like another game")
        self._maybe_rematch()
        self._notify(views=False)  # the lobby shows who has asked

    def _rematch_waiting(self) -> list[int]:
        """The seats whose players are here and have not asked for the next game.

        A player marked away is not waited for: connected but idle (three
        turns timed out), they had the bot play their last game to its end,
        and the others waited for ever for a vote that would not come,
        with no way to start without them but ``--rematch-after``.  The bot
        plays on for them in the next game, as it did in this one, until
        they act (asking for the game is acting: then they are waited for)."""
        return [
            i
            for i, seat in enumerate(self.seats)
            if seat.connected
            and not seat.away
            and not seat.agrees_to_rematch
            and i not in self.rematch_votes
        ]

    def _anyone_here(self) -> bool:
        """Someone plays at the table: a connected person not marked away
        (whose seat the bot plays until they act).  Network bots count only
        at a table of them alone (a rig of ``join --bot`` clients plays on by
        itself): beside a person's seat that waits, they would deal game
        after game, each kept on disk, for no one.  Spectators and the
        table's own bots do not count."""
        people = [seat for seat in self.seats if seat.kind == "human" and seat.network_bot is None]
        here = people or self.seats
        return any(seat.connected and not seat.away for seat in here)

    def _maybe_rematch(self) -> None:
        """A dedicated host's next game starts once every seat agrees, after
        a short pause so that everyone sees the result first.  With nobody
        here it waits: bots alone would deal game after game, each kept on
        disk, with no one to play or watch them (``--rematch-after`` counts
        again from the moment someone comes back)."""
        state = self.state
        if self.rematch_mode() != "vote" or state is None or state.phase != Phase.OVER:
            return
        if self.stopping is not None:
            return  # the votes are kept for the resume; the next game waits for it
        if not self._anyone_here():
            self._stop_rematch_clock()
            return
        now, after = self.clock(), self.config.rematch_after
        if self._rematch_after_at is None and after is not None:
            # Never sooner than the pause everyone gets: a result the next
            # deal replaced at once reached no guest's screen, nor history.
            self._rematch_after_at = now + max(after, REMATCH_PAUSE)
        if self._rematch_waiting():
            # Someone here has yet to ask (one who just came back, after a
            # resume say): the pause started before they were here is off.
            self._rematch_go_at = None
        elif self._rematch_go_at is None:
            self._rematch_go_at = now + REMATCH_PAUSE
        due = [t for t in (self._rematch_after_at, self._rematch_go_at) if t is not None]
        self.rematch_at = min(due) if due else None

    def _stop_rematch_clock(self) -> None:
        self.rematch_at = self._rematch_after_at = self._rematch_go_at = None

    def _last_game_words(self) -> str:
        if self.closing is not None:
            return self.closing
        games = self.config.games
        return f"this table plays {plural(games or 0, 'game')}, and that was the last"

    def stop(self, reason: str) -> None:
        """The host stops, and ``--resume`` may bring the table back
        (``reason`` is what the clients are told): no game is dealt until
        then, but the table does not close.  ``close`` told every player
        "this table closes after this game" as their apps began to wait
        for the resume, which deals the next game as the table would have."""
        self.stopping = reason
        self._stop_rematch_clock()

    def close(self, reason: str) -> None:
        """No more games: ``reason`` is what the clients are told."""
        self.closing = reason
        self._stop_rematch_clock()
        self._notify(views=False)

    def choose_face_up(self, i: int, cards: Sequence[str]) -> None:
        """The player of seat ``i`` lays ``cards`` face up."""
        self._choose_face_up(i, cards)
        self._acted(i)

    def submit(self, i: int, move: Move) -> None:
        """The player of seat ``i`` makes ``move``."""
        self._submit(i, move)
        self._acted(i)

    def _acted(self, i: int) -> None:
        """The player of seat ``i`` acted in time: their count of time-outs
        starts again.  The action wrote the table file before the count
        changed, so it is written again (when the count did change): a crash
        now must not bring back the old count."""
        if self.seats[i].timeouts:
            self.seats[i].timeouts = 0
            self.save_table_file()

    def _choose_face_up(self, i: int, cards: Sequence[str]) -> None:
        state = self._game()
        try:
            state.choose_face_up_codes(i, list(cards))
        except RulesError as err:
            raise TableError(str(err)) from None
        self._after_change()
        self.save_table_file()  # the choice is in no journal until all have chosen

    def _submit(self, i: int, move: Move) -> None:
        state = self._game()
        if move.seat != i:
            raise TableError("you can only move for your own seat")
        try:
            state.apply_move(move)
        except RulesError as err:
            raise TableError(str(err)) from None
        self._after_change()

    @property
    def game_under_way(self) -> bool:
        """A game is dealt and not over (its set-up counts): what a stop
        keeps for ``--resume``, and what the lobby's settings wait for."""
        return self.state is not None and self.state.phase != Phase.OVER

    def _game(self) -> GameState:
        if self.state is None:
            raise TableError("the game has not started")
        return self.state

    def _after_change(self) -> None:
        self._write_journal()
        state = self.state
        if state is not None and state.phase == Phase.OVER and not self.game_over_saved:
            self.game_over_saved = True
            kept, _ = self._keep_record(state)
            self._keep_result(state)
            words = self.result_words(state)
            self._system(words)
            self.finished_games.put_nowait(FinishedGame(self.game_number, words, kept))
            self._maybe_rematch()  # network bots alone play on by themselves
            if self.rematch_mode() == "vote" and not self._anyone_here():
                log.info("nobody plays at the table: the next game waits for someone to come back")
            self._notify()  # the lobby too: who is asked for a rematch
            return
        self._notify(lobby=False)

    def _keep_result(self, state: GameState) -> None:
        """Each person's seat keeps the game just over, as the game-over view
        showed it to everyone (the public view: no card), for its next sessions."""
        kinds = tuple(_result_kind(seat) for seat in self.seats)
        result = GameResult.of_view(seat_view(state, None), self.game_number, kinds)
        for seat in self.seats:
            # Once per game: a resume keeps it again (see resume).
            if seat.kind == "human" and all(r.number != result.number for r in seat.results):
                seat.results.append(result)
                del seat.results[:-RESULTS_KEPT]

    def _keep_record(self, state: GameState) -> tuple[Path | None, bool]:
        """Keep a finished game beside the journal (party.json: party-N.json):
        where it is kept, or None (no journal, none kept, or held by this
        process alone: see :mod:`.tablerecords`); and whether a run before
        this one had kept it already."""
        path = self.config.journal
        if path is None or not self.config.keep_records:
            return None, False
        return self.records.keep(path, self.game_number, record_of(state))

    @property
    def kept_records(self) -> list[Path]:
        """Where finished games' records are kept (party-N.json, or aside)."""
        return self.records.kept

    def keep_waiting_records(self, last_try: bool = False) -> None:
        """Records the journal's directory could not take, moved beside it
        if it takes files now (``last_try``: the host stops; see
        :meth:`.tablerecords.RecordKeeper.keep_waiting`)."""
        if self.config.journal is not None:
            self.records.keep_waiting(self.config.journal, last_try)

    def _tell_host_seat(self, text: str) -> None:
        """The host's seat (the app that hosts, its own --record) is told:
        the log reaches nobody there, and the file it asked for is missing."""
        if self.host_seat is not None:
            self._send(self.host_seat, Notice(text))

    def result_words(self, state: GameState) -> str:
        if state.winner is None:
            return "the game ends in a stalemate after 1000 turns"
        return won_words(state.names, state.winner, state.places)

    # ----------------------------------------------------------------- bots
    def bot_turn(self) -> tuple[int, Bot] | None:
        """The seat a bot must act for now, and its bot: a bot seat, an
        absent or away player's (D17), or a player whose turn clock ran out
        (the turn timer's stand-in, for that one action).  The one place
        that says so."""
        state = self.state
        if state is None or state.phase == Phase.OVER:
            return None
        if state.phase == Phase.SETUP:
            for i, seat in enumerate(self.seats):
                if state.setup[i] is None:
                    if seat.bot is not None:
                        return i, seat.bot
                    if self._ran_out(i):
                        return i, self._stand_in(i)
            return None
        i = state.seat
        seat = self.seats[i]
        if seat.bot is not None:
            return i, seat.bot
        if self._ran_out(i):
            return i, self._stand_in(i)
        return None

    def bot_request(self) -> BotRequest | None:
        """What a bot must decide now (see :meth:`bot_turn`), and on which view."""
        turn = self.bot_turn()
        state = self.state
        if turn is None or state is None:
            return None
        i, bot = turn
        view = seat_view(state, i, log_length=bot.log_length)  # as much log as it reads
        return BotRequest(i, bot, view, state, state.phase, len(state.history))

    def is_current(self, request: BotRequest) -> bool:
        """Whether ``request`` still stands: the same game, phase and move
        count, and the same bot still to act for the seat.  A decision that
        took a while may have been overtaken meanwhile (a returning player
        moved, a take-over or a turn timer changed who plays the seat)."""
        state = self.state
        if state is not request.state or state.phase != request.phase:
            return False
        if len(state.history) != request.moves:
            return False
        turn = self.bot_turn()
        return turn is not None and turn[0] == request.seat and turn[1] is request.bot

    def apply_bot_decision(self, request: BotRequest, decision: Decision) -> bool:
        """Make a bot's decision, unless the table has moved on since it was
        asked for (then it is dropped: False).  A decision of the turn
        timer's stand-in is told to the seat's player (a Notice)."""
        if not self.is_current(request):
            log.debug("seat %d: dropped a bot decision the table has moved past", request.seat)
            return False
        i, state = request.seat, request.state
        stand_in = self.seats[i].bot is None  # the turn timer's, not the seat's own
        before = -1 if state.phase == Phase.SETUP else request.moves
        try:
            if isinstance(decision, Move):
                self._submit(i, decision)
            else:
                self._choose_face_up(i, decision)
        except TableError as err:  # a bot bug must not stall the table
            log.error("bot for seat %d chose an illegal action: %s", i + 1, err)
            if state.phase == Phase.SETUP:
                self._choose_face_up(i, GreedyBot(0).choose_face_up(request.view))
            elif legal := state.legal_actions():
                state.apply(legal[0])
                self._after_change()
        if stand_in:
            self._timed_out(i, state, before)
        return True

    def step_bot(self) -> bool:
        """Let one bot act, here and now; False when no bot has to.  (The
        runner makes a thinking bot's decision off the event loop instead.)"""
        request = self.bot_request()
        if request is None:
            return False
        self.apply_bot_decision(request, decide(request.bot, request.view))
        return True

    def _stand_in(self, i: int) -> Bot:
        bot = self._stand_ins.get(i)
        if bot is None:
            bot = self._stand_ins[i] = self._make_bot(self.config.bot_level, i)
        return bot

    def _ran_out(self, i: int) -> bool:
        deadline = self.turn_clock.deadlines.get(i)
        return deadline is not None and self.clock() >= deadline

    def _timed_out(self, i: int, state: GameState, before: int) -> None:
        """The turn timer's bot acted for seat ``i``: tell its player, and
        after AWAY_AFTER in a row let the bot play the seat until they act."""
        seat = self.seats[i]
        seat.timeouts += 1
        # The stand-in's action wrote the table file before this count: a
        # crash now must not bring back one time-out fewer.
        self.save_table_file()
        self._send(i, Notice(_stand_in_words(state, i, before)))
        if seat.timeouts >= AWAY_AFTER and not seat.away and state.phase != Phase.OVER:
            seat.away = True
            seat.bot = self._stand_in(i)
            seat.bot_level = self.config.bot_level
            self._system(
                f"{seat.name} is away: {a_bot(seat.bot_level)} plays for them until they are back"
            )
            self._send(i, Notice("you are away: the bot plays for you until you do anything"))
            self._notify()

    # ------------------------------------------------------------ turn timer
    def _arm_clock(self) -> None:
        """Start, keep or stop the turn clocks after a change of the table."""
        clock = self.turn_clock
        limit = self.config.turn_time
        state = self.state
        if limit is None or state is None or state.phase == Phase.OVER:
            clock.reset()
            return
        now = self.clock()
        if state.phase == Phase.SETUP:
            waiting = {
                i
                for i, seat in enumerate(self.seats)
                if state.setup[i] is None and seat.bot is None
            }
            for i in list(clock.deadlines):
                if i not in waiting:
                    del clock.deadlines[i]
                    clock.held.pop(i, None)
            for i in waiting:
                clock.deadlines.setdefault(i, now + limit)
            return
        i = state.seat
        if self.seats[i].bot is not None:
            clock.reset()  # a bot plays the seat: nothing to time
        elif clock.armed_at != len(state.history) or i not in clock.deadlines:
            clock.deadlines = {i: now + limit}  # a new action: a new clock
            clock.armed_at = len(state.history)
            clock.held.clear()

    def clock_for(self, viewer: int | None) -> tuple[int | None, float | None]:
        """(seat, seconds left) of the clock ``viewer`` is shown: the seat to
        act's in play; during set-up the viewer's own; (None, None) if none."""
        state = self.state
        deadlines = self.turn_clock.deadlines
        if state is None or not deadlines:
            return None, None
        seat = viewer if state.phase == Phase.SETUP else state.seat
        deadline = deadlines.get(seat) if seat is not None else None
        if deadline is None:
            return None, None
        return seat, max(0.0, deadline - self.clock())

    def _send_clock(self, sub: _Subscriber) -> None:
        seat, remaining = self.clock_for(sub.seat)
        deadline = None if remaining is None else self.turn_clock.deadlines.get(seat or 0)
        key = (seat, deadline)
        if key != sub.clock:
            sub.clock = key
            sub.callback(TurnClock(seat, remaining))

    # ----------------------------------------------------------------- chat
    def chat(
        self, i: int | None, text: object, speaker: object = None, name: str = "watcher"
    ) -> None:
        """A chat line from seat ``i``, or (``i`` None) from the spectator
        ``speaker`` under its ``name``.  Raises TableError when refused:
        too long, too many lines, or spectators may not chat here."""
        if i is not None:
            self._check_seat(i)
        if not isinstance(text, str):
            return
        problem = line_problem(text)
        if problem is not None:
            raise TableError(problem)
        clean = cut_cells(clean_text(text, len(text)), MAX_CELLS).rstrip()
        if not clean:
            return
        if i is None:
            if not self.config.spectator_chat:
                raise TableError("spectators cannot chat at this table")
            who, key = f"spectator {name!r}", ("spectator", speaker)
        else:
            who, key = f"seat {i + 1} ({self.seats[i].name!r})", ("seat", i)
        refused = self._chat_limit.check(key, who)
        if refused is not None:
            raise TableError(refused)
        if i is None:
            self._post(ChatReceived(None, name, clean, spectator=True))
        else:
            self._post(ChatReceived(i, self.seats[i].name, clean))

    def _system(self, text: str) -> None:
        log.info("%s", text)  # the headless host's log: joins, leaves, returns, bots
        self._post(ChatReceived(None, "table", text))

    def _post(self, line: ChatReceived) -> None:
        number = self.chat_log[-1].number + 1 if self.chat_log else 1
        line = dataclasses.replace(line, number=number)
        self.chat_log.append(line)
        del self.chat_log[:-CHAT_HISTORY]
        for sub in list(self._subscribers.values()):
            sub.callback(line)
        self.save_table_file()

    # ----------------------------------------------------------------- records
    def save(self, path: str | Path) -> str:
        """Write the game's record to ``path``, a new file: a record is never
        written over one already there (another game's record, or anything
        else of the player's)."""
        state = self._game()
        try:
            record = record_of(state)
        except RulesError as err:
            raise TableError(f"nothing to save yet: {err}") from None
        try:
            save_record(path, record, new=True)
        except FileExistsError:
            if os.path.isdir(path):
                raise TableError(f"{path} is a directory: give the record a file name") from None
            raise TableError(f"{path} already exists: give the record another name") from None
        except OSError as err:
            raise TableError(f"cannot save to {path}: {err.strerror}") from None
        return str(path)

    def save_for(self, i: int | None, path: str) -> None:
        """The record where a player asked for it (the result box): into a
        directory that is there, as ``host --record`` takes one.  A missing
        one was made, its parents too: a mistyped name ("gmaes/x.json") made
        a new tree, and the record went where nobody would look for it.
        Refused in the command line's words for it (paths.no_directory)."""
        why = no_directory(Path(path).absolute().parent)
        if why is not None:
            raise TableError(why)
        self._send(i, GameSaved(self.save(path)))

    def _write_journal(self) -> None:
        path = self.config.journal
        state = self.state
        if path is None or state is None or any(c is None for c in state.setup):
            return
        try:
            self._journal.write(path, state)
        except OSError as err:
            if not self._journal_failed:  # once: the game plays on without it
                log.error("cannot write the journal %s: %s", path, err)
            self._journal_failed = True
            self._cannot_keep(err)
        else:
            self._journal_failed = False
            self._kept_again()
        # A move may change a seat's count of time-outs (about 30 us when
        # nothing changed: the file is compared, not written).
        self.save_table_file()

    # ----------------------------------------------------------- table file
    def set_hosting(self, **changes: Any) -> None:
        """Record how the table is served now (the bound ports, say)."""
        self.hosting = dataclasses.replace(self.hosting, **changes)
        self.save_table_file()

    def table_file_json(self) -> dict[str, Any]:
        """What the table file holds (see :mod:`threeup_tui.tablefile`)."""
        config = settings_to_json(self.config)
        config.pop("journal", None)  # the journal is the file this one sits beside
        return {
            "format": TABLE_FILE_FORMAT,
            "table_id": self.table_id,
            "secret": self.secret,
            "config": config,
            "hosting": settings_to_json(self.hosting),
            "options": self.options.to_json(),
            "seats": [
                {
                    "name": s.name,
                    "kind": s.kind,
                    "bot_level": s.bot_level,
                    "token": s.token,
                    "timeouts": s.timeouts,
                    "away": s.away,
                    "network_bot": s.network_bot,
                    "claims": s.claims,
                    "taken_over": s.taken_over,
                    "results": [result_to_map(r) for r in s.results],
                }
                for s in self.seats
            ],
            "host_seat": self.host_seat,
            "game_number": self.game_number,
            "deal": self._deal_json(),
            "clock": self._suspended_clock,
            "votes": sorted(self.rematch_votes),
            "door_words": list(self.door_words),
            "chat": [
                [line.seat, line.name, line.text, line.spectator, line.number]
                for line in self.chat_log
            ],
        }

    def _deal_json(self) -> dict[str, Any] | None:
        """A game still in its set-up, which the journal cannot hold yet (a
        record needs every face-up choice): its deal and the choices made,
        so that a crash now loses neither (nor the game's number)."""
        state = self.state
        if state is None or state.base or all(c is not None for c in state.setup):
            return None
        return {
            "game": self.game_number,
            "players": list(state.names),
            "options": state.options.to_json(),
            "deck": [CODES[k] for k in state.deck],
            "first": state.first,
            "setup": [None if c is None else [CODES[k] for k in c] for c in state.setup],
        }

    def save_table_file(self) -> None:
        """Write the table file when what it holds has changed.  A change of
        seats or settings is flushed to disk at once; a chat line is not."""
        journal = self.config.journal
        if journal is None:
            return
        data = self.table_file_json()
        before = self._file_written
        if data == before:
            return
        rest = {k: v for k, v in data.items() if k != "chat"}
        sync = before is None or rest != {k: v for k, v in before.items() if k != "chat"}
        try:
            write_table_file(table_file_path(journal), data, sync=sync)
        except OSError as err:
            if not self._file_failed:  # once: the table plays on without it
                log.warning("cannot write the table file beside %s: %s", journal, err)
            self._file_failed = True
            self._cannot_keep(err)
            return
        self._file_failed = False
        self._file_written = data
        self._kept_again()

    @property
    def keeping_files(self) -> bool:
        """Whether the journal and the table file are kept on disk now: what
        brings the game back after its app or host stops (``--resume``,
        Continue your game).  False without a journal, or while writing
        them fails."""
        return self.config.journal is not None and self.files_problem is None

    def _cannot_keep(self, err: OSError) -> None:
        """Writing the table's files failed: the game plays on, unkept.  The
        host's seat (the player of a game against bots, the app that hosts)
        is told once, as the log reaches nobody there: it was still told
        its game was kept, and found nothing to continue."""
        told = self.files_problem is not None
        self.files_problem = (
            f"This game cannot be kept on disk ({err.strerror or err}): it plays on, "
            "but could not come back if this app stopped"
        )
        if not told and self.host_seat is not None:
            self._send(self.host_seat, Notice(self.files_problem))

    def _kept_again(self) -> None:
        if not (self._journal_failed or self._file_failed):
            self.files_problem = None

    def abandon(self) -> None:
        """The table never opened (its host could not listen).  A new table
        that began no game leaves no file behind: the same command, given
        again once the port is free, would find its table file and refuse
        to write over it.  A resumed table's files stay as they were."""
        journal = self.config.journal
        if journal is None or not self.new_files or self.game_number:
            return
        self.config.journal = None  # nothing more is written for it
        for path in (table_file_path(journal), journal):
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)

    def suspend(self) -> None:
        """The host is stopping: keep the running turn clocks' time left in
        the table file, so that ``resume`` gives it back.  In play that is
        the seat to act's clock; during set-up every clock still running."""
        state = self.state
        if state is None or not self.turn_clock.deadlines:
            return
        if state.phase == Phase.SETUP:
            left = [self._time_left(i) for i in range(len(self.seats))]
            self._suspended_clock = {"game": self.game_number, "setup": left}
        elif state.phase == Phase.PLAY:
            self._suspended_clock = {
                "at": len(state.history), "seat": state.seat,
                "remaining": self._time_left(state.seat),
            }  # fmt: skip
        else:
            return
        self.save_table_file()

    def _time_left(self, i: int) -> float | None:
        """Seconds seat ``i``'s clock has left (a held clock's, all of it)."""
        clock = self.turn_clock
        if i in clock.held:
            return clock.held[i]
        deadline = clock.deadlines.get(i)
        return None if deadline is None else max(0.0, deadline - self.clock())

    @classmethod
    def resume(
        cls,
        path: Path,
        overrides: Mapping[str, Any] | None = None,
        mode: Mapping[str, Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Table:
        """The table a journal and its table file hold, exactly as it was.

        ``overrides``: settings the host gave again (TableConfig and Hosting
        fields, and ``journal``); each one is logged, never with a secret's
        value.  ``mode``: how it is hosted now (``HOSTING_MODE``), applied
        without a word.  Players reclaim their seats with their tokens.
        """
        table, changes = cls._restored(path, overrides, mode, clock)
        for key, before, after in changes:
            _log_override(path, key, before, after)
        table.save_table_file()
        if table.state is not None and table.state.over:
            # The host may have stopped between the game's last move in the
            # journal and keeping its record: the next game's journal would
            # write over the only copy.  A headless host counts the game as
            # played (a host stopped at the end of its last --games game
            # closes the table on its resume; it once waited for ever), and
            # its log names where the record is kept.
            kept, known = table._keep_record(table.state)
            # So may it have between that move and the table file keeping
            # the game for each seat's next session: a player who came back
            # only after the next game began was never told of it.
            table._keep_result(table.state)
            table.save_table_file()
            words = table.result_words(table.state)
            table.finished_games.put_nowait(FinishedGame(table.game_number, words, kept, known))
        return table

    @classmethod
    def _restored(
        cls,
        path: Path,
        overrides: Mapping[str, Any] | None,
        mode: Mapping[str, Any] | None,
        clock: Callable[[], float],
    ) -> tuple[Table, list[tuple[str, Any, Any]]]:
        """The resumed table and the settings given again (key, saved value,
        new value), from reading alone: nothing is written or logged here."""
        overrides = dict(overrides or {})
        fixed = sorted(FIXED_ON_RESUME & set(overrides))
        if fixed:
            raise TableError(f"cannot resume: a resumed table keeps its {fixed[0]}")
        file = table_file_path(path)
        if not file.exists():
            raise TableError(
                f"cannot resume: {file} is missing; it holds the table's room code, "
                "seats and settings, and a table never comes back without them"
            )
        try:
            info = read_table_file(file)
            saved = settings_from_json(
                TableConfig, info.get("config"), str(file), frozenset({"journal"})
            )
            hosting = settings_from_json(Hosting, info.get("hosting", {}), str(file), frozenset())
            options = Options.from_json(info.get("options", {}))
        except (TableFileError, ValueError) as err:
            raise TableError(f"cannot resume: {err}") from None
        record = None
        if path.exists():
            try:
                # Named: the table file beside it is read too, and "'format'
                # must be ..." alone left one guessing which of the two.
                record = load_record(path)
            except MalformedRecord as err:
                raise TableError(f"cannot resume: {err}") from None
        config = TableConfig(**saved)
        hosting_fields = {f.name: f.default for f in dataclasses.fields(Hosting)}
        changes: list[tuple[str, Any, Any]] = []
        for key, value in overrides.items():
            if key == "journal":
                before: Any = path
            elif key in hosting_fields:
                before = hosting.get(key, hosting_fields[key])
                hosting[key] = value
            else:
                before = getattr(config, key)  # AttributeError: not a setting (a bug)
                setattr(config, key, value)
            changes.append((key, before, value))
        for key, value in (mode or {}).items():
            setattr(config, key, value)
        config.journal = overrides.get("journal", path)
        _check_moved_journal(path, config.journal)
        state = None
        if record is not None:
            state, verdict = replay(record)
            if not verdict.ok:
                raise TableError(f"cannot resume: the journal does not replay: {verdict.error}")
            if len(record.players) != config.players:
                raise TableError(
                    f"cannot resume: the journal has {len(record.players)} players, "
                    f"the table file {config.players} seats"
                )
            config.options = options = record.options
        dealt = _dealt_state(info.get("deal"), info.get("game_number"), config.players)
        if dealt is not None:  # a set-up under way at the stop: newer than the journal
            state = dealt
            config.options = options = dealt.options
        table = cls(config, clock)
        table.options = options
        table.hosting = Hosting(**hosting)
        table.table_id, table.secret = _identity(info, file)
        table.state = state
        table._restore_seats(info, state.names if state is not None else None)
        number = info.get("game_number", 0)
        if type(number) is not int or not 0 <= number <= MAX_GAMES:
            # Sent in every lobby, as the wire bounds it (protocol.md): a
            # hand-edited 10**30 could not even be packed (msgpack: 64 bits).
            raise TableError(
                f"cannot resume: {file}: 'game_number': {shown_value(number)} is not a whole "
                f"number from 0 to {MAX_GAMES}"
            )
        table.game_number = number
        if state is not None:
            table.game_number = max(table.game_number, 1)
        table.chat_log = _chat_lines(info.get("chat"))
        table.door_words = _door_words(info.get("door_words"))
        table._resume_clock(info.get("clock"))
        if state is not None and state.over:
            # A journal of a finished game: the table waits for the next one
            # (resume() counts the game as played, once its record is kept).
            table.game_over_saved = True
            table.rematch_votes = _votes(info.get("votes"), table.seats)
        return table, changes

    def _restore_seats(self, info: dict[str, Any], names: Sequence[str] | None) -> None:
        """Seats as the file holds them.  In a game, every human seat waits for
        its player (D17); in a lobby, only the host's seat is kept for them:
        the others open again, as a lobby seat does when its player goes."""
        saved = info.get("seats")
        if not isinstance(saved, list) or len(saved) != len(self.seats):
            raise TableError("cannot resume: the table file's seats do not match the table")
        host = info.get("host_seat")
        self.host_seat = host if type(host) is int and 0 <= host < len(self.seats) else None
        now = self.clock()
        for i, entry in enumerate(saved):
            if not isinstance(entry, dict):
                raise TableError(f"cannot resume: seat {i + 1} in the table file is not a seat")
            kind, token, level = entry.get("kind"), entry.get("token"), entry.get("bot_level")
            name = names[i] if names is not None else clean_name(entry.get("name"), f"seat {i + 1}")
            if level not in BOT_LEVELS:
                level = self.config.bot_level
            if kind == "bot":
                self.seats[i] = Seat(name, "bot", level, bot=self._make_bot(level, i))
            elif kind == "human" and isinstance(token, str) and token:
                if self.state is None and i != self.host_seat:
                    # A lobby seat opens again, kept for its player's return.
                    self._left_lobby[i] = token
                    continue
                seat = self.seats[i] = Seat(name, "human", None, token, False, now)
                timeouts = entry.get("timeouts")
                seat.timeouts = timeouts if type(timeouts) is int and timeouts > 0 else 0
                claims = entry.get("claims")
                seat.claims = claims if type(claims) is int and 0 < claims <= MAX_CLAIM else 0
                seat.results = _kept_results(entry.get("results"), len(self.seats))
                if entry.get("away") is True and self.state is not None:
                    seat.away = True
                    seat.bot = self._stand_in(i)
                    seat.bot_level = self.config.bot_level
                elif entry.get("taken_over") is True and self.game_under_way:
                    # Its player had gone before the stop: the game does not
                    # wait for them a second time.
                    seat.bot = self._make_bot(self.config.bot_level, i)
                    seat.bot_level = self.config.bot_level
                network_bot = entry.get("network_bot")
                if isinstance(network_bot, str):
                    seat.network_bot = clean_name(network_bot, "bot")
            elif self.state is not None:
                raise TableError(f"cannot resume: seat {i + 1} of the game has no player")
        if self.host_seat is not None and self.seats[self.host_seat].kind != "human":
            self.host_seat = None

    def _resume_clock(self, saved: Any) -> None:
        """The turn clocks after a resume.  Time while the host was down
        does not count, nor the time its players take to come back: each
        clock is held until its seat's player is here (``Clock.release``),
        for at most RESUME_GRACE.  It then runs from what it had left: the
        time a clean stop (``suspend``) saved, or after a crash, when nothing
        was saved, the whole turn time."""
        limit = self.config.turn_time
        if limit is None or self.state is None:
            return
        self._arm_clock()  # the clocks a change would start now
        clock, now = self.turn_clock, self.clock()
        kept = self._kept_time_left(saved)
        for i in clock.deadlines:
            remaining = min(kept.get(i, limit), limit)
            clock.held[i] = remaining
            clock.deadlines[i] = now + RESUME_GRACE + remaining

    def _kept_time_left(self, saved: Any) -> dict[int, float]:
        """Seat: time left, from what ``suspend`` saved, if it was saved for
        the very action (or set-up) the resumed game is at."""
        state = self.state
        left: dict[int, Any] = {}
        if not isinstance(saved, dict) or state is None:
            return {}
        if state.phase == Phase.PLAY:
            if saved.get("at") == len(state.history) and saved.get("seat") == state.seat:
                left = {state.seat: saved.get("remaining")}
        elif state.phase == Phase.SETUP and saved.get("game") == self.game_number:
            setup = saved.get("setup")
            if isinstance(setup, list) and len(setup) == len(self.seats):
                left = dict(enumerate(setup))
        return {
            i: float(t)
            for i, t in left.items()
            if isinstance(t, int | float) and not isinstance(t, bool) and t >= 0
        }


def _kept_results(saved: object, players: int) -> list[GameResult]:
    """A seat's last games as the table file keeps them.  They give the
    table no protection, only its players' histories a game they missed:
    one that cannot be read is left out (and logged), never a reason to
    refuse the file."""
    if saved is None:
        return []  # a file from before they were kept
    results = []
    for entry in saved if isinstance(saved, list) else [saved]:
        try:
            result = result_from_map(entry)
        except ResultShapeError as err:
            log.warning("a seat's kept game in the table file is left out: %s", err)
            continue
        if len(result.names) == players:
            results.append(result)
    return results[-RESULTS_KEPT:]


def _result_kind(seat: Seat) -> tuple[str, str | None]:
    """A seat's kind in a finished game's result: a bot seat and a network
    bot are bots (with their level); a person's seat is a person's, with
    the level of the bot that was playing it for them at the end (D17's
    take-over, or the bot of a player marked away), as the lobby shows it."""
    if seat.kind == "bot":
        return "bot", seat.bot_level
    if seat.network_bot is not None:
        return "bot", seat.network_bot
    return "human", seat.bot_level if seat.bot is not None else None


def _sooner(a: float | None, b: float) -> float:
    return b if a is None else min(a, b)


def _stand_in_words(state: GameState, i: int, before: int) -> str:
    """What the turn timer's bot just did for seat ``i`` (its face-up
    choice when ``before`` is -1, else move ``before``), for its player."""
    if before < 0:
        # Named as the table shows cards (GC+2), not by their codes (GC2).
        cards = " ".join(card_label(CODES[k]) for k in state.setup[i] or ())
        return f"time is up: the bot laid {cards} face up for you"
    move = state.moves(before)[0]
    if move.kind == "play":
        return f"time is up: the bot played {' '.join(map(card_label, move.cards))} for you"
    if move.kind == "flip":
        return f"time is up: the bot flipped face-down card {move.slot + 1} for you"
    if move.kind == "pickup":
        return "time is up: the bot picked up the pile for you"
    return "time is up: the bot drew a card for you"


def _identity(info: dict[str, Any], file: Path) -> tuple[str, str]:
    table_id, secret = info.get("table_id"), info.get("secret")
    if not (isinstance(table_id, str) and 8 <= len(table_id) <= 64):
        raise TableError(f"cannot resume: {file} has no table id")
    if not (isinstance(secret, str) and len(secret) >= 32):
        raise TableError(f"cannot resume: {file} has no table secret")
    return table_id, secret


def _votes(raw: Any, seats: Sequence[Seat]) -> set[int]:
    """The people's seats that had asked for the next game (table file "votes")."""
    if not isinstance(raw, list):
        return set()
    return {i for i in raw if type(i) is int and 0 <= i < len(seats) and seats[i].kind == "human"}


def _door_words(raw: Any) -> list[str]:
    """The SSH door's kept seat words (table file "door_words"): strings only
    (an older file has none)."""
    return [w for w in raw if isinstance(w, str)] if isinstance(raw, list) else []


def _chat_lines(raw: Any) -> list[ChatReceived]:
    """The table file's chat lines, numbered on from where they stopped (an
    older file's lines, without numbers, are numbered 1, 2, ...)."""
    lines: list[ChatReceived] = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, list) and len(item) in (4, 5):
            seat, name, text, spectator = item[:4]
            last = lines[-1].number if lines else 0
            number = item[4] if len(item) == 5 else None
            if type(number) is not int or not last < number <= MAX_CHAT_NUMBER:
                number = last + 1
            if (seat is None or type(seat) is int) and isinstance(name, str):
                text = clean_text(text, MAX_CHARS)
                lines.append(ChatReceived(seat, name, text, spectator is True, number))
    return lines[-CHAT_HISTORY:]


def setting_flag(key: str) -> str:
    """The command-line flag a setting comes from, for log lines and errors."""
    return {"table_name": "--name", "journal": "--record"}.get(key, "--" + key.replace("_", "-"))


def _log_override(path: Path, key: str, before: Any, after: Any) -> None:
    if key == "turn_time" and after is None:  # --turn-time off
        was = "it had none" if before is None else f"it was {_shown(before)} s"
        log.info("resuming %s: --turn-time off given: no turn timer now (%s)", path, was)
    elif key == "rematch_after" and after is None:  # --rematch-after off
        was = "it waited for everyone" if before is None else f"it was {_shown(before)} s"
        log.info(
            "resuming %s: --rematch-after off given: the next game waits for every "
            "player now (%s)", path, was,
        )  # fmt: skip
    elif key == "games" and after is None:  # --games off
        was = "it had none" if before is None else f"it was {plural(before, 'game')}"
        log.info("resuming %s: --games off given: no limit on games now (%s)", path, was)
    elif key == "ssh_port" and after is None:  # --no-ssh
        was = "it had none" if before is None else f"it was on port {before}"
        log.info("resuming %s: --no-ssh given: no SSH door now (%s)", path, was)
    elif key == "code" and after is None:  # --no-code
        change = "the table has no room code now" if before is not None else "it had none"
        log.info("resuming %s: --no-code given: %s", path, change)
    elif key in SECRET_SETTINGS:
        change = "changes" if before != after else "is given again (unchanged)"
        log.info("resuming %s: %s given: the setting %s", path, setting_flag(key), change)
    elif before == after:  # "127.0.0.1 instead of the saved 127.0.0.1" read as a change
        log.info(
            "resuming %s: %s given again: %s, as saved", path, setting_flag(key), _shown(after)
        )
    else:
        log.info(
            "resuming %s: %s given: %s instead of the saved %s",
            path, setting_flag(key), _shown(after), _shown(before),
        )  # fmt: skip


def _shown(value: Any) -> str:
    if isinstance(value, Options):
        return str(value.to_json())
    return "none" if value is None else str(value)


def check_resumable(path: Path, overrides: Mapping[str, Any] | None = None) -> Table:
    """TableError, as :meth:`Table.resume` would raise it, if the journal at
    ``path`` and its table file cannot bring a table back with ``overrides``.
    It only reads, so the command line can say so before any screen opens;
    the table it returns is for questions, never to host."""
    return Table._restored(path, overrides, None, time.monotonic)[0]


def _dealt_state(deal: object, game_number: object, players: int) -> GameState | None:
    """The game in its set-up that a table file holds (Table._deal_json),
    with the face-up choices already made; None if it holds none for this
    game; TableError if what it holds does not set up."""
    if not isinstance(deal, dict) or deal.get("game") != game_number:
        return None
    try:
        names = [str(n) for n in deal["players"]]
        if len(names) != players:
            raise ValueError(f"{len(names)} players at {players} seats")
        options = Options.from_json(deal["options"])
        deck = [parse_code(c) for c in deal["deck"]]
        state = GameState.deal(names, deck, int(deal["first"]), options)
        for seat, choice in enumerate(deal["setup"]):
            if choice is not None:
                state.choose_face_up_codes(seat, [str(c) for c in choice])
    except (KeyError, TypeError, ValueError, RulesError) as err:
        raise TableError(
            f"cannot resume: the set-up in the table file does not deal: {err}"
        ) from None
    return state


def _check_moved_journal(resumed: Path, journal: Path) -> None:
    """TableError if ``--record`` moves a resumed table's journal onto a file
    that is there: it wrote over it (last night's record, another table's
    journal and table file) at its next move, where a new table refuses."""
    if os.path.abspath(journal) == os.path.abspath(resumed):
        return  # given again, as saved
    with contextlib.suppress(OSError):
        if os.path.samefile(journal, resumed):
            return
    taken = taken_journal(journal)
    if taken is not None:
        raise TableError(
            f"cannot resume with --record {journal}: {taken} is already there, and a table "
            f"writes over no file: --resume {journal} takes that table up, or give --record "
            "a new name"
        )


def taken_journal(journal: Path | None) -> Path | None:
    """The file a new table's journal would write over, if there is one: the
    journal or the table file of an earlier table (which ``--resume`` could
    still bring back), or any other file of that name."""
    if journal is None:
        return None
    for path in (journal, table_file_path(journal)):
        if os.path.lexists(path):
            return path
    return None


def open_table(
    config: TableConfig,
    resume: Path | None = None,
    bots: int = 0,
    overrides: Mapping[str, Any] | None = None,
) -> Table:
    """A new table with ``bots`` bots, or the one a journal and its table
    file hold (``resume``), with ``overrides`` given again by the host; the
    hosting mode (``HOSTING_MODE``) comes from ``config``."""
    if resume is not None:
        mode = {key: getattr(config, key) for key in HOSTING_MODE}
        return Table.resume(resume, overrides, mode)
    taken = taken_journal(config.journal)
    if taken is not None:
        raise TableError(f"{taken} is already there: a new table's journal writes over no file")
    table = Table(config)
    table.new_files = True
    for _ in range(bots):
        table.add_bot(None, config.bot_level)
    table.save_table_file()
    return table


@dataclass(frozen=True)
class BotRequest:
    """A decision a bot owes the table: for ``seat``, on ``view``, at the
    game ``state`` in ``phase`` after ``moves`` moves."""

    seat: int
    bot: Bot
    view: View
    state: GameState
    phase: Phase
    moves: int


def thought_seconds(bot: Bot) -> float:
    """How long a decision of ``bot`` is seen to take at a table: a thinking
    bot's time budget, whatever its decision cost (0 for one that does not
    think, or that counts iterations instead of time)."""
    if not thinks(bot) or bot.iterations is not None:
        return 0.0
    return time_budget(bot)


class TableRunner:
    """Drives a table's bots and take-overs in the background.

    A bot that thinks decides in ``pool``'s workers (default: the process's
    shared pool) while the loop goes on serving everyone; its decision is
    made only if the table has not moved on meanwhile.  The table's
    ``bot_delay`` runs while the bot thinks, not after.

    A thinking bot's decision is never made sooner than its whole budget
    (``think_ms``) after it was asked for.  The bot answers at once when
    only one action is legal, and how soon it answered depends on its
    hidden hand: made at once, a forced move told everyone watching that
    the bot's other cards could not go ("no view may depend on a hidden
    card").  A budget of iterations (tests, tuning) is not timed.
    """

    def __init__(self, table: Table, pool: ThinkPool | None = None) -> None:
        self.table = table
        self.pool = pool or shared_pool()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            if self._thinking_bots_expected():
                self.pool.warm()
            self._task = asyncio.get_running_loop().create_task(self._run())

    def _thinking_bots_expected(self) -> bool:
        table = self.table
        seated = any(seat.bot is not None and thinks(seat.bot) for seat in table.seats)
        level = BOT_LEVELS.get(table.config.bot_level)
        return seated or bool(level is not None and getattr(level, "thinks", False))

    async def stop(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None

    async def _run(self) -> None:
        table = self.table
        while True:
            table.changed.clear()
            wait = table.check_timers()
            request = table.bot_request()
            if request is not None:
                await self._play(request)
                continue
            timeout = 1.0 if wait is None else min(max(wait, 0.01), 1.0)
            # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a
            # cancellation that arrives as the event is set, and stop() hangs.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await table.changed.wait()

    async def _play(self, request: BotRequest) -> None:
        loop = asyncio.get_running_loop()
        asked_at = loop.time()
        try:
            decision = await self.pool.decide(request.bot, request.view)
        except Exception as err:  # a bot bug or a lost worker must not stall the table
            log.error(
                "the bot for seat %d gave no decision (%s): it plays greedy's move instead",
                request.seat + 1,
                err,
            )
            decision = fallback_decision(request.view)
        # Let clients see each move; with a delay, people can follow.
        hold = max(self.table.config.bot_delay, thought_seconds(request.bot))
        await asyncio.sleep(max(0.0, hold - (loop.time() - asked_at)))
        self.table.apply_bot_decision(request, decision)
