"""The one place that holds what the app knows about its table.

Screens read from here; only the app's message handlers write to it, so a
screen never holds a stale copy of the view.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..client import Lobby, SeatSlot, TableClient, Welcome
from ..gamerow import shown_names
from ..rules import View
from .text import clean, host_stopped

CHAT_KEEP = 200


@dataclass(frozen=True)
class ChatLine:
    seat: int | None  # None: the table itself, or a spectator
    name: str  # cleaned
    text: str  # cleaned
    spectator: bool = False  # a spectator's line, under their own name
    # Said before this app came to the table (the recent lines a first
    # session begins with): shown, for what happened, but never unread.
    earlier: bool = False


COUNTDOWN = 10.0  # seconds: the last stretch of your own clock is counted down


@dataclass(frozen=True)
class Clock:
    """A turn clock as the host last reported it (TurnClock), counted down here."""

    seat: int | None
    deadline: float  # time.monotonic() when it runs out

    def remaining(self, now: float | None = None) -> float:
        return max(0.0, self.deadline - (time.monotonic() if now is None else now))


def clock_words(seconds: float) -> str:
    """ "⏱ 8s": whole seconds, rounded up (0 only when the time is up)."""
    whole = int(seconds) + (seconds % 1 > 0)
    return f"⏱ {whole}s"


@dataclass
class Session:
    client: TableClient
    welcome: Welcome | None = None
    lobby: Lobby | None = None
    view: View | None = None
    chat: list[ChatLine] = field(default_factory=list)
    connection: str = "connecting"
    connection_detail: str = ""
    connection_since: float = 0.0  # time.monotonic() when the connection last changed state
    game_number: int = 0  # counts set-up phases seen, to show each game over once
    where: str = "play"  # how we came to the table: "play" (against bots), "host", "join"
    played_game: int = -1  # the last game_number seen in play (not only its end)
    remembered_game: int = -1  # the last game_number counted in the history
    counted: set[tuple[str, int]] = field(default_factory=set)  # network games handed to it
    kept_records: set[str] = field(default_factory=set)  # records saved for the history
    clock: Clock | None = None  # the turn clock that runs now, if the table has one
    # Others' chat lines come while the chat was out of sight (a narrow
    # screen): the footer's "c Chat (2)", kept from one screen to the next.
    unread_chat: int = 0
    # The table has been heard live (someone's line said since this app came,
    # or a lost link): the recent lines a later session begins with are then
    # only those the client had not shown, said while it was away, and new
    # to the player; before, they were said before the player came.
    heard_live: bool = False

    def set_clock(self, seat: int | None, remaining: float | None) -> None:
        """A TurnClock arrived: count down from now (the host's clock decides)."""
        if remaining is None:
            self.clock = None
        else:
            self.clock = Clock(seat, time.monotonic() + max(0.0, remaining))

    def my_countdown(self) -> str:
        """The countdown of your own clock in its last seconds, else ""."""
        clock = self.clock
        if clock is None or clock.seat is None or clock.seat != self.seat:
            return ""
        left = clock.remaining()
        return clock_words(left) if left <= COUNTDOWN else ""

    def clock_of(self, seat: int) -> str:
        """A quiet "⏱ 25s" for another seat whose clock runs, else ""."""
        clock = self.clock
        if clock is None or clock.seat != seat:
            return ""
        return clock_words(clock.remaining())

    def game_identity(self) -> tuple[str, int] | None:
        """The game at this network table now: (the table's id, the game's
        number there), as the host says it (ACCEPT, LOBBY ``game``).  None
        at a game against bots here, or at a host that tells neither."""
        return None if self.where == "play" else self.table_game()

    def table_game(self) -> tuple[str, int] | None:
        """(the table's id, the game's number there), at any table, a game
        against bots here too; None where the table tells neither."""
        table_id = self.client.table_identity()
        lobby = self.lobby
        if table_id is None or lobby is None or lobby.game_number < 1:
            return None
        return table_id, lobby.game_number

    @property
    def is_host(self) -> bool:
        return self.welcome is not None and self.welcome.is_host

    @property
    def mid_game(self) -> bool:
        """A game is dealt and not over (its set-up counts)."""
        return self.view is not None and self.view.phase != "over"

    @property
    def seat(self) -> int | None:
        if self.view is not None:
            return self.view.seat
        return None if self.welcome is None else self.welcome.seat

    def names(self) -> tuple[str, ...]:
        """Cleaned names, for the move log's lines (widgets/move_log.py) and every label."""
        if self.view is None:
            return ()
        return shown_names(self.view.names, self.view.seat)

    @property
    def live(self) -> bool:
        """The connection is not closed: what the last lobby says of who is
        here may still hold (closed: nobody's presence is known)."""
        return self.connection != "closed"

    @property
    def waiting_for_host(self) -> bool:
        """Whether the link is down because its host stopped on purpose, to
        be resumed: no link was lost, and the table waits for the host."""
        return self.reconnecting and host_stopped(self.connection_detail)

    @property
    def presence_known(self) -> bool:
        """Whether who is here is known: not while the link is lost (a host
        stopped or gone: the last lobby's "● here" would say all is well),
        nor once it is closed."""
        return self.live and not self.reconnecting

    def link_words(self, now: float | None = None) -> str:
        """The connection in a word or three; a lost link counts how long it
        has been lost ("reconnecting for 14 s"), so a long outage does not
        read like its first seconds."""
        if self.connection != "reconnecting":
            return self.connection
        lost = int((time.monotonic() if now is None else now) - self.connection_since)
        return f"reconnecting for {lost} s" if lost >= 1 else "reconnecting"

    @property
    def reconnecting(self) -> bool:
        """The link to the host is lost (a crash, the network) and the client
        is trying to get it back: nothing is heard from the table meanwhile."""
        return self.connection == "reconnecting"

    @property
    def solo(self) -> bool:
        """A game against bots in this process: nobody at the table reads a
        line nor writes one (bots never chat, and nobody can join it), so
        its screens offer no chat (they showed an empty box, and c)."""
        return self.client.alone

    @property
    def may_chat(self) -> bool:
        """Whether this client may say anything (see :meth:`chat_refusal`)."""
        return self.chat_refusal() is None

    def chat_refusal(self) -> str | None:
        """Why this client may say nothing, in the chat box's words, or None:
        not on a closed connection (the key bar offered "c Chat", and every
        line said "not sent"), and a spectator not at a table that keeps its
        chat to the players (--no-spectator-chat).  A closed connection is
        not always a closed table: a seat taken over from another terminal
        plays on there, so the words claim no more than the connection."""
        if self.connection == "closed":
            return "the connection is closed"
        watching = self.welcome is not None and self.seat is None
        if watching and self.lobby is not None and not self.lobby.spectator_chat:
            return "only players chat here"
        return None

    def away_bot(self) -> str | None:
        """The level of the bot that plays this client's own seat while the
        table has it marked away (its turns timed out), else None: the player
        must be told, for only a key of theirs gives the seat back
        (TableClient.here).  The table's word (``SeatSlot.away``), not a bot
        on the seat: that is also a gone player's (D17)."""
        seat = self.seat
        if seat is None or not self.presence_known:
            return None
        slot = self.slot(seat)
        if slot is None or not slot.away:
            return None
        lobby = self.lobby
        return slot.bot_level or (lobby.bot_level if lobby is not None else None) or "stand-in"

    def slot(self, seat: int) -> SeatSlot | None:
        if self.lobby is None or not 0 <= seat < len(self.lobby.seats):
            return None
        return self.lobby.seats[seat]

    def add_chat(
        self,
        seat: int | None,
        name: str,
        text: str,
        spectator: bool = False,
        above: int = 0,
        old: bool = False,
    ) -> ChatLine:
        """A line, at the end or ``above`` lines before it; ``old``: one of
        the table's recent lines that a session begins with."""
        earlier = old and not self.heard_live
        if not old and (seat is not None or spectator):
            self.heard_live = True  # someone's line: only the table relays those
        line = ChatLine(seat, clean(name, 24), clean(text, 200), spectator, earlier)
        self.chat.insert(len(self.chat) - above, line)
        del self.chat[:-CHAT_KEEP]
        return line


def presence(slot: SeatSlot | None, live: bool = True) -> tuple[str, str]:
    """(symbol, word) for a seat's connection state; words, not only colour.
    ``live``: our own connection is up; once it is closed, nobody's presence
    is known any more, and none is claimed ("" and "")."""
    if slot is None:
        return ("?", "")
    if slot.kind == "bot":
        return ("⚙", bot_words(slot.name, slot.bot_level))
    if slot.kind == "open":
        return ("○", "open")
    if not live:
        return ("", "")
    if slot.bot_level:
        # The bot plays the seat, so it is not "here"; why it does matters
        # to the others (both read "away, greedy bot plays" before): a player
        # who left (D17: gone, the seat kept for their return) is not one
        # still here whose turns timed out, who plays on with a key.
        return ("◐", f"{bot_reason(slot)}, {bot_words('', slot.bot_level)} plays")
    if slot.connected:
        return ("●", "here")
    return ("○", "away")


def presence_forms(slot: SeatSlot | None, live: bool = True) -> list[str]:
    """A seat's :func:`presence`, from its longest form to its shortest:
    "◐ left, greedy bot plays", "◐ left" (the word before the comma: a
    bare "◐" said nothing of why the bot plays), "◐"; none where nothing
    is known."""
    symbol, word = presence(slot, live)
    forms = [f"{symbol} {word}"] if word else []
    if "," in word:
        forms.append(f"{symbol} {word.split(',', 1)[0]}")
    return [*forms, symbol] if symbol else forms


def bot_reason(slot: SeatSlot) -> str:
    """Why a bot plays a person's seat, in a word: "left" where nobody is
    connected to it (D17's take-over; or marked away, then gone: they are
    not here to act), else "away" (LOBBY ``away``: the turn timer's mark,
    the player here).  An older host sends no ``away``, and marked away
    only a connected seat with a bot: the same words come of it."""
    return "away" if slot.connected else "left"


LEVEL_SHOWN = 16  # columns of a bot's level: the wire allows 32, the levels are 6


def bot_words(name: str, level: str | None) -> str:
    """How a bot seat says what plays it: "bot" where its name says its
    level already ("expert bot 2", as the lobby's Add bot names it), else
    "random bot".  A ``threeup join --bot random --name Robo`` read "Robo ⚙
    bot" in the lobby and at the table, and a seat taken over by the bot
    "away, bot plays": nobody at the table could tell how either played."""
    shown = clean(level, LEVEL_SHOWN) if level else ""
    if not shown or shown.casefold() in name.casefold().split():
        return "bot"
    return f"{shown} bot"
