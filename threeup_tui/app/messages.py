"""Messages the event worker posts to the app, one per client event.

The worker runs ``client.next_event()`` in a loop and turns each event into
one of these; Textual then delivers them on the UI's own task, in order, so
handlers may touch widgets freely.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from ..client import Lobby, TableClient, Welcome
from ..rules import View


@dataclass
class Seated(Message):
    welcome: Welcome


@dataclass
class LobbyUpdated(Message):
    lobby: Lobby


@dataclass
class ViewUpdated(Message):
    view: View


@dataclass
class ChatArrived(Message):
    seat: int | None
    name: str  # untrusted
    text: str  # untrusted


@dataclass
class MoveRejected(Message):
    reason: str


@dataclass
class ConnectionUpdated(Message):
    state: str
    detail: str


@dataclass
class RecordSaved(Message):
    path: str


@dataclass
class ClientReady(Message):
    """A launcher call finished: the app now sits at a table with this client."""

    client: TableClient


@dataclass
class ClientFailed(Message):
    """A launcher call (host, join, a game against bots) failed."""

    error: str
    where: str  # "play", "host" or "join": which screen shows the error


@dataclass
class ClockUpdated(Message):
    """The host's turn clock: ``seat``'s time runs, ``remaining`` seconds left (None: none runs)."""

    seat: int | None
    remaining: float | None


@dataclass
class NoticeArrived(Message):
    """A line for this seat only ("the bot played R4 for you"): untrusted text."""

    text: str
