"""The one interface the app talks to, in-process or across the network."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Sequence

from ..rules import Move, Options
from .events import ActionRejected, Event, Lobby, Notice


class TableClient(ABC):
    """A seat (or a spectator) at a table.

    Everything the table says arrives as :mod:`events` through
    :meth:`next_event`; every request is fire-and-forget, and a refusal comes
    back as an ``ActionRejected`` event carrying the engine's reason.
    """

    name: str = ""  # the name this client sits (or watches) under, as it asked for it

    def __init__(self) -> None:
        self._events: asyncio.Queue[Event] = asyncio.Queue(maxsize=1024)

    async def next_event(self) -> Event:
        return await self._events.get()

    def _emit(self, event: Event) -> None:
        try:
            self._events.put_nowait(event)
        except asyncio.QueueFull:
            # A client that stops reading loses nothing it cannot get back:
            # every view is a full snapshot, so drop the oldest event.
            self._events.get_nowait()
            self._events.put_nowait(event)

    @property
    def rtt(self) -> float | None:
        """The round trip to the table in seconds, when it is measured (a
        table in this process has none: the app animates freely)."""
        return None

    def table_identity(self) -> str | None:
        """The table's id (protocol.md, "Identity"), with each game's number
        there the identity of a game the history counts once; None where
        the table has none to tell."""
        return None

    @property
    def alone(self) -> bool:
        """Nobody but this player can reach the table: a game against bots
        in this process (its bots never chat; nobody can join or watch)."""
        return False

    @property
    def kept(self) -> bool:
        """A game left in the middle is kept, to be continued later (a game
        against bots in this process, :mod:`..savedgame`)."""
        return False

    @abstractmethod
    async def start(self) -> None:
        """Connect (or seat in-process); emits Welcome and the first state."""

    @abstractmethod
    async def close(self) -> None:
        """Leave the table; the seat waits for its player (D17)."""

    async def stop(self) -> str | None:
        """Leave because the app is ending (its quit key, SIGTERM).  Most
        clients just close; a host in the middle of a game stops instead,
        so that its players wait for ``threeup host --resume``.  Returns the
        line to leave on the terminal, if any."""
        await self.close()
        return None

    # --- during a game
    @abstractmethod
    def choose_face_up(self, cards: Sequence[str]) -> None: ...

    @abstractmethod
    def submit(self, move: Move) -> None: ...

    @abstractmethod
    def chat(self, text: str) -> None: ...

    def here(self) -> None:
        """Tell the table the player is here: a seat the bot plays because
        its turns timed out (marked away) is the player's again.  Nothing
        else changes.  A client of a table with no turn timer need not say
        it (its seats are never marked away): by default nothing is sent."""
        return

    # --- table control (only the host's seat may; others get ActionRejected)
    @abstractmethod
    def add_bot(self, level: str) -> None: ...

    @abstractmethod
    def remove_seat(self, seat: int) -> None: ...

    @abstractmethod
    def set_options(self, options: Options) -> None: ...

    def set_turn_time(self, seconds: float | None) -> None:
        """The turn timer for the next game (None: off).  Only the table's
        own process may change it: a network client is told so."""
        self._emit(ActionRejected("the turn time is set on the host's computer", "turn_time"))

    def set_bot_level(self, level: str) -> None:
        """The table's bot level for the next game: its bots' and the
        stand-in's.  Only the table's own process may change it: a network
        client is told so."""
        self._emit(ActionRejected("the bots' level is set on the host's computer", "bot_level"))

    # --- a spectator
    @property
    def may_sit_down(self) -> bool:
        """Whether this client watches and may ask the table for a seat now
        (:meth:`sit_down`).  Only a spectator across the network can: every
        other client has its seat."""
        return False

    def kept_seat(self, lobby: Lobby) -> str | None:
        """The name of a seat at this table that waits for this spectator
        (its token is kept here, and nobody plays it from a terminal now),
        which :meth:`sit_down` under that name takes back; else None.  The
        table decides: the token is the identity, never the name."""
        return None

    def kept_seat_number(self, lobby: Lobby) -> int | None:
        """The number of the seat :meth:`kept_seat` names, where this client
        knows it (two seats of that name may be away: only the kept token
        tells which is this one's); else None."""
        return None

    def sit_down(self, name: str | None = None) -> None:
        """Ask for a seat as a player joining the table would, under ``name``
        (the name this client watches under if None).  A seat given comes as
        a Welcome with it; a refusal as a Notice saying why, and the
        spectator watches on."""
        self._emit(Notice("no seat asked for: you have a seat already"))

    @abstractmethod
    def start_game(self) -> None: ...

    @abstractmethod
    def rematch(self) -> None: ...

    @abstractmethod
    def save_record(self, path: str) -> None: ...

    def keep_record(self, path: str) -> str | None:
        """Write the game's record to ``path`` (a new file) for the history,
        which the player did not ask for: None when it is written, else why
        not in one line for the app to tell in its own words, never as a
        refusal ("Not allowed: ...") of something the player did.  A client
        that cannot say asks as the player would."""
        self.save_record(path)
        return None
