"""The client interface the app uses, and its in-process implementation."""

from .base import TableClient
from .events import (
    ActionRejected,
    ChatReceived,
    ConnectionChanged,
    Event,
    GameNotSaved,
    GameResult,
    GameSaved,
    GamesPlayed,
    Lobby,
    LobbyChanged,
    Notice,
    SeatSlot,
    TurnClock,
    ViewChanged,
    Welcome,
)

__all__ = [
    "ActionRejected",
    "ChatReceived",
    "ConnectionChanged",
    "Event",
    "GameNotSaved",
    "GameResult",
    "GameSaved",
    "GamesPlayed",
    "Lobby",
    "LobbyChanged",
    "Notice",
    "SeatSlot",
    "TableClient",
    "TurnClock",
    "ViewChanged",
    "Welcome",
]
