"""The app's messages: one per client event, and the requests screens make.

The event worker runs ``client.next_event()`` in a loop and turns each event
into one of the first group; Textual then delivers them on the UI's own
task, in order, so handlers may touch widgets freely.  The second group is
what screens post to ask the app for something.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.message import Message

from ..client import GameResult, Lobby, TableClient, Welcome
from ..kepttables import KeptTable
from ..launcher import HostSettings, JoinSettings
from ..rules import View
from ..savedgame import SavedGame


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
    spectator: bool = False  # seat None: a spectator's line, not the table's
    # Said before this session began, sent again on connecting (ChatReceived.old).
    old: bool = False
    # The app's own line about this session's start (the SSH door's words):
    # the table's recent lines sent on connecting go above it, however late.
    pinned: bool = False


@dataclass
class MoveRejected(Message):
    reason: str
    request: str | None = None  # the request refused (ActionRejected.request)


@dataclass
class ConnectionUpdated(Message):
    state: str
    detail: str


@dataclass
class RecordSaved(Message):
    path: str


@dataclass
class RecordNotSaved(Message):
    reason: str  # the table's words, naming the file or its directory


@dataclass
class ClientReady(Message):
    """A launcher call finished: the app now sits at a table with this client."""

    client: TableClient
    where: str = "play"  # "play" (against bots), "host" or "join"


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


@dataclass
class GamesPlayedArrived(Message):
    """The last games this seat played, as the table tells each new session
    of the seat: the history counts those it does not hold yet."""

    games: tuple[GameResult, ...]


# ---------------------------------------------------------------- requests
# What a screen asks of the app.  Screens never import the app module: they
# post one of these and the app (which bubbles every screen's messages)
# handles it, as Posting's and Harlequin's screens do.


@dataclass
class PlayRequested(Message):
    """A game against bots, now."""

    players: int
    bot_level: str


@dataclass
class ContinueRequested(Message):
    """The kept game against bots, where it was left."""

    saved: SavedGame


@dataclass
class ResumeTableRequested(Message):
    """Host again the table this app stopped in the middle of a game."""

    kept: KeptTable


@dataclass
class ForgetKeptRequested(Message):
    """Forget the kept game or table the start screen offers (after asking):
    a player who will never go back to it was offered it at every start."""

    journal: Path
    question: str  # what to ask: which game or table, and what is lost


@dataclass
class HostFormRequested(Message):
    """Open the form to host a table."""


@dataclass
class HostRequested(Message):
    """Open a table with these settings (the host form's button)."""

    settings: HostSettings


@dataclass
class JoinFormRequested(Message):
    """Open the form to join a table."""


@dataclass
class JoinRequested(Message):
    """Join the table at ``settings.address`` (the join form's button)."""

    settings: JoinSettings
    # The name was chosen in the form (kept for the next run), not given on
    # the command line (``threeup join HOST --name X``: for that run only).
    remember: bool = True


@dataclass
class JoinCancelled(Message):
    """Stop trying to join (Esc while the join screen waits for an answer)."""


@dataclass
class HelpRequested(Message):
    """The rules ("rules") or the keys ("keys")."""

    tab: str = "rules"


@dataclass
class StatsRequested(Message):
    """Your games: the history and its figures."""


@dataclass
class ReplayRequested(Message):
    """Step through the record file at ``path`` (a game from the history)."""

    path: str


@dataclass
class SettingsChanged(Message):
    """Remember these settings (field names of :class:`~threeup_tui.settings.Settings`)."""

    changes: dict[str, Any]


@dataclass
class GameOverRequested(Message):
    """Show the result again (g, once the game is over)."""


@dataclass
class LeaveRequested(Message):
    """Leave the table (asking first unless ``confirm`` is False)."""

    confirm: bool = True
