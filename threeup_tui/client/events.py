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
    # The table marked this person's seat away: their turns timed out, and
    # the bot plays it until they act (any request of theirs).  Said by the
    # table, never read off ``bot_level``: a bot plays a gone player's seat
    # too (D17), and that player is not here to be told.
    away: bool = False


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
    turn_time: float | None = None  # seconds a seat has to act (None: no turn timer)
    # How the next game starts: "host" (the host's seat starts it), "vote" (a
    # dedicated host: when every connected human has asked) or "none" (the
    # table closes after this game: offer no rematch).
    rematch: str = "host"
    rematch_votes: tuple[int, ...] = ()  # seats that have asked for the next game
    rematch_after: float | None = None  # "vote": the next game starts anyway this long after
    game_number: int = 0  # games begun at this table (1 during the first)
    games: int | None = None  # games the table plays before it closes (None: until stopped)
    spectator_chat: bool = True  # spectators may chat (threeup host --no-spectator-chat: no)
    watching: int = 0  # spectators watching now (everyone is told that someone watches)
    # The table's bot level: its bots' (Add bot starts there) and the stand-in's
    # for an absent or timed-out player; None from a host that does not say.
    bot_level: str | None = None


@dataclass(frozen=True, slots=True)
class Welcome:
    """Sent once when a client is seated (or joins as a spectator)."""

    seat: int | None
    is_host: bool
    table_name: str = ""
    # The level of the table's bots (its take-over bot's too), for the
    # host's lobby to add by default; "" where the client cannot know it.
    bot_level: str = ""


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    lobby: Lobby


@dataclass(frozen=True, slots=True)
class ViewChanged:
    view: View


@dataclass(frozen=True, slots=True)
class ChatReceived:
    seat: int | None  # None: the table itself (joins, leaves, take-overs), or a spectator
    name: str  # untrusted text: sanitise before showing
    text: str  # untrusted text: sanitise before showing
    spectator: bool = False  # a spectator's line (seat None, under their own name)
    # The line's number at its table (1, 2, ...; 0: an older host's, not
    # numbered), and whether it is a line said before this session began,
    # sent again on connecting: a client that reconnects has shown it already
    # if its number is not above the last it showed.
    number: int = 0
    old: bool = False


@dataclass(frozen=True, slots=True)
class ActionRejected:
    reason: str  # the engine's plain-words reason
    # The request refused, by its wire name ("setup", "chat", "move", ...),
    # where the table says; None where it cannot be told (a host older
    # than "re", protocol.md).  The set-up took any refusal for its choice
    # refused: a chat line refused brought "Lay face up" back.
    request: str | None = None


@dataclass(frozen=True, slots=True)
class ConnectionChanged:
    state: str  # "connected", "reconnecting" or "closed"
    detail: str = ""


@dataclass(frozen=True, slots=True)
class GameSaved:
    path: str


@dataclass(frozen=True, slots=True)
class GameNotSaved:
    """The record was not written where the player asked (the result box's
    Save): a file's trouble, not a move refused, and told as such (it read
    "Not allowed: no directory …", a rule's words for a missing folder)."""

    reason: str  # in words that name the file or its directory


@dataclass(frozen=True, slots=True)
class TurnClock:
    """The turn timer's clock, as the host keeps it (issue: turn timer).

    ``seat`` is the seat whose clock runs (the seat to act; during set-up,
    the viewer's own set-up clock), ``remaining`` the seconds it had left
    when the host sent this (None: no clock runs).  A client counts down
    from the moment it receives the event: the host's clock decides.
    """

    seat: int | None
    remaining: float | None


@dataclass(frozen=True, slots=True)
class Notice:
    """A line for this seat only, e.g. "the bot played R4 for you"."""

    text: str  # the table's own words (may name players: sanitise before showing)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game as its game-over view showed it to every seat: no
    card, only who sat where, how it ended, and how long it took."""

    number: int  # the table's game number (1 for the first)
    names: tuple[str, ...]  # by seat, as the game's view named them (untrusted text)
    # By seat: ("bot", its level) for a bot seat or a network bot, ("human",
    # None) for a person's seat (whoever played it at the end).
    kinds: tuple[tuple[str, str | None], ...]
    winner: int | None  # None: a stalemate
    places: tuple[int, ...]  # finishing order (finish "places")
    stalemate: bool
    moves: int
    turns: int
    finish: str  # "first_out" or "places"

    @classmethod
    def of_view(
        cls, view: View, number: int, kinds: tuple[tuple[str, str | None], ...]
    ) -> GameResult:
        """The result a game-over ``view`` shows (any seat's: these parts
        are public), as game ``number`` with each seat's ``kinds``."""
        return cls(
            number=number,
            names=view.names,
            kinds=kinds,
            winner=view.winner,
            places=view.places,
            stalemate=view.stalemate,
            moves=view.moves_played,
            turns=view.turn,
            finish=view.options.finish,
        )


@dataclass(frozen=True, slots=True)
class GamesPlayed:
    """The last games this seat played at the table, oldest first, sent to
    each new session of the seat: one that ended while its player was away
    reaches their history when they are back (it counts each game once)."""

    games: tuple[GameResult, ...]


Event = (
    Welcome
    | LobbyChanged
    | ViewChanged
    | ChatReceived
    | ActionRejected
    | ConnectionChanged
    | GameSaved
    | GameNotSaved
    | TurnClock
    | Notice
    | GamesPlayed
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
    "TurnClock",
    "ViewChanged",
    "Welcome",
]
