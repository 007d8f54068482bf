"""What a table tells a player's client, as small frozen dataclasses.

The same events come from an in-process table and from a host across the
network, so the app handles one set of messages.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Options, View


@dataclass(frozen=True, slots=True)
class SeatSlot:
    """A seat as the lobby shows it."""

    seat: int
    name: str
    kind: str  # "human", "bot" or "open"
    connected: bool  # a human seat whose player is here now
    bot_level: str | None = None  # the bot playing it (a bot seat, or an absent player's, D17)


@dataclass(frozen=True, slots=True)
class Lobby:
    """The table before (and around) a game: seats, options, room code."""

    seats: tuple[SeatSlot, ...]
    options: Options
    code_required: bool
    code: str | None  # shown to the host only
    started: bool
    host_seat: int | None  # the seat whose player controls the table (None: headless)
    table_name: str = ""


@dataclass(frozen=True, slots=True)
class Welcome:
    """Sent once when a client is seated (or joins as a spectator)."""

    seat: int | None
    is_host: bool
    table_name: str = ""


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    lobby: Lobby


@dataclass(frozen=True, slots=True)
class ViewChanged:
    view: View


@dataclass(frozen=True, slots=True)
class ChatReceived:
    seat: int | None  # None: the table itself (joins, leaves, take-overs)
    name: str  # untrusted text: sanitise before showing
    text: str  # untrusted text: sanitise before showing


@dataclass(frozen=True, slots=True)
class ActionRejected:
    reason: str  # the engine's plain-words reason


@dataclass(frozen=True, slots=True)
class ConnectionChanged:
    state: str  # "connected", "reconnecting" or "closed"
    detail: str = ""


@dataclass(frozen=True, slots=True)
class GameSaved:
    path: str


Event = (
    Welcome
    | LobbyChanged
    | ViewChanged
    | ChatReceived
    | ActionRejected
    | ConnectionChanged
    | GameSaved
)

__all__ = [
    "ActionRejected",
    "ChatReceived",
    "ConnectionChanged",
    "Event",
    "GameSaved",
    "Lobby",
    "LobbyChanged",
    "SeatSlot",
    "ViewChanged",
    "Welcome",
]
