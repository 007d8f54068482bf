"""The game's messages on top of ``net``: shapes, checks and compact views.

``net`` carries msgpack values; this module decides what they mean for the
game.  Everything that arrives from a peer goes through a ``parse_*``
function that checks its shape and raises :class:`WireError` for anything
else, so a hostile datagram never reaches the table as a half-valid value.
Cards travel as small ints (card kinds), not codes, to keep snapshots small.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final, TypeGuard

from net import SERVER_FULL

from ..client.events import GamesPlayed, Lobby, SeatSlot
from ..client.results import MAX_BOT_LEVEL, ResultShapeError, result_from_map, result_to_map
from ..limits import (
    MAX_CHAT_NUMBER,
    MAX_CLAIM,
    MAX_GAMES,
    MAX_TURN_SECONDS,
    MAX_WAIT_SECONDS,
    RESUME_GRACE,
    within,
)
from ..rules import DRAW, LogEntry, Move, Options, SeatInfo, View
from ..rules.actions import MoveShapeError
from ..rules.cards import CODES, DECK_SIZE
from ..rules.state import MAX_MOVES, MAX_PLAYERS, MIN_PLAYERS, TURN_LIMIT
from ..rules.views import own_to_json, public_to_json
from ..textclean import shown_value

PROTOCOL: Final = 1
GAME: Final = "threeup"
MAX_TEXT: Final = 400
WIRE_LOG: Final = 6  # log entries per snapshot; clients keep a longer log
# Bounds on the numbers a host sends, each what a threeup host can send at
# most (protocol.md gives them): a hostile host's finite but huge number (a
# rematch wait of 1e300 s, a game number of 10**18) was drawn whole in the
# game-over box, the lobby and the status line.  Beyond them, the message is
# malformed, and dropped.
# Every spectator is a session, and the session layer serves 1,024 at most.
MAX_WATCHING: Final = 1024
# A turn's clock, held after a resume until its player is back (RESUME_GRACE).
MAX_CLOCK_MS: Final = round((MAX_TURN_SECONDS + RESUME_GRACE) * 1000)

# Reasons the host gives when it ends a session itself (a CLOSE).  A client
# shows the reason and does not reconnect by itself, but after those of
# CLOSE_RESUMABLE.
CLOSE_TABLE_CLOSED: Final = "the host closed the table"
CLOSE_TAKEN_OVER: Final = "your seat was taken over from another terminal"
CLOSE_REMOVED: Final = "the host removed you from the table"
# The one CLOSE that is not final: a host stopped on purpose in the middle of
# a game, which `threeup host --resume` brings back.  Clients reconnect with
# their tokens, as after a crash, and the game goes on where it stopped.
CLOSE_HOST_STOPPED: Final = "the host stopped in the middle of the game: it may resume the table"
# Not final either: a host stopped on purpose between two games (the result
# shown, a rematch vote) or before the first (the lobby), with its table
# file kept and games left to play.  They once closed the table: every
# player had to run `threeup join` again after the --resume, and the first
# to ask got a game.
CLOSE_HOST_STOPPED_BETWEEN_GAMES: Final = "the host stopped between games: it may resume the table"
CLOSE_HOST_STOPPED_IN_LOBBY: Final = (
    "the host stopped before the game began: it may resume the table"
)
# Every CLOSE after which a client waits for the table and comes back by
# itself with its token; any other CLOSE from the host is final.
CLOSE_RESUMABLE: Final = frozenset(
    {CLOSE_HOST_STOPPED, CLOSE_HOST_STOPPED_BETWEEN_GAMES, CLOSE_HOST_STOPPED_IN_LOBBY}
)

# Refusals that are for now, not for good: the table has no room at the
# moment, or this address must wait.  A client coming back to its seat keeps
# trying after them; after any other refusal it stops.  SERVER_FULL is the
# session layer's own.
TOO_MANY_WRONG_CODES: Final = "too many wrong room codes from your address: try again in a minute"
TABLE_GUESSED: Final = "too many wrong room codes at this table: try again in a minute"
TOO_MANY_WATCHERS: Final = "too many spectators watch this table"
TOO_MANY_WATCHERS_HERE: Final = "too many spectators from your address"
TOO_MANY_JOINS: Final = "too many seats taken from your address: try again in a minute"
TOO_MANY_COMEBACKS: Final = "your seat came back too often: try again in a minute"
REFUSED_FOR_NOW: Final = frozenset(
    {
        SERVER_FULL,
        TOO_MANY_WRONG_CODES,
        TABLE_GUESSED,
        TOO_MANY_WATCHERS,
        TOO_MANY_WATCHERS_HERE,
        TOO_MANY_JOINS,
        TOO_MANY_COMEBACKS,
    }
)


class WireError(ValueError):
    """A message that is not one of the game's shapes.  ``kind`` is the
    reason without what the peer sent in it (the host counts refusals and
    spaces its log lines by it), the reason itself by default."""

    def __init__(self, reason: str, kind: str | None = None) -> None:
        super().__init__(reason)
        self.kind = reason if kind is None else kind


_KIND: Final = {code: kind for kind, code in enumerate(CODES)}


def _kinds(codes: tuple[str, ...]) -> list[int]:
    return [_KIND[c] for c in codes]


_CODE_OF: Final = dict(enumerate(CODES))


# ---------------------------------------------------------------- views
# After every move the host sends one view per seat, and after set-up all of
# them share one public part (``seat_view`` hands out the very same objects):
# convert that part once and copy only the viewer's own fields per seat.
_public_cache: list[Any] = [None, None]


def _public_to_wire(view: View) -> dict[str, Any]:
    key = (
        view.seats, view.pile, view.cleared, view.log, view.names, view.options,
        view.phase, view.draw_size, view.to_act, view.extra_discards, view.draw_open,
        view.turn, view.winner, view.places, view.stalemate, view.moves_played,
    )  # fmt: skip
    cached_key, cached = _public_cache
    # Tuple equality checks identity first: the shared parts compare at once.
    if cached_key == key:
        assert isinstance(cached, dict)
        return cached
    public = public_to_json(view, _kinds, WIRE_LOG)
    _public_cache[:] = [key, public]
    return public


def view_to_wire(view: View) -> dict[str, Any]:
    """A view as the host sends it: ``view_to_json`` with cards as kinds and
    only the last ``WIRE_LOG`` log entries."""
    return {**_public_to_wire(view), **own_to_json(view, _kinds)}


def _int(value: Any) -> int:
    if type(value) is not int:
        raise WireError(f"{value!r} is not an integer")
    return value


def _opt_int(value: Any) -> int | None:
    return None if value is None else _int(value)


def _bounded(value: Any, lowest: int, highest: int, what: str) -> int:
    """An integer from ``lowest`` to ``highest``: WireError for anything else."""
    number = _int(value)
    if not lowest <= number <= highest:
        raise WireError(f"{what} {shown_value(number)} is not from {lowest} to {highest}")
    return number


def _opt_bounded(value: Any, lowest: int, highest: int, what: str) -> int | None:
    return None if value is None else _bounded(value, lowest, highest, what)


def _seat_number(value: Any, seats: int) -> int | None:
    """nil, or a seat number (0-based) of a table of ``seats`` seats."""
    return _opt_bounded(value, 0, seats - 1, "a seat number")


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _codes(kinds: Any) -> tuple[str, ...]:
    if not isinstance(kinds, list) or len(kinds) > DECK_SIZE:
        raise WireError(f"cards must be a list of at most {DECK_SIZE}")
    try:
        return tuple(map(_CODE_OF.__getitem__, kinds))  # a dict: no negative indexing
    except (KeyError, TypeError):
        raise WireError("not a card") from None


def _seat_info(i: int, name: str, raw: Any) -> SeatInfo:
    down = raw[2]
    return SeatInfo(
        seat=i,
        name=name,
        hand_size=_bounded(raw[0], 0, DECK_SIZE, "a hand size"),
        face_up=_codes(raw[1]),
        face_down=(bool(down[0]), bool(down[1]), bool(down[2])),
        known=_codes(raw[3]),
        ready=bool(raw[4]),
        out=bool(raw[5]),
    )


def _log_entry(raw: Any) -> LogEntry:
    return LogEntry(
        _int(raw[0]), str(raw[1]), _codes(raw[2]), bool(raw[3]),
        _bounded(raw[4], 0, DECK_SIZE, "cards picked up"),
        _bounded(raw[5], 0, DECK_SIZE, "cards drawn"),
        bool(raw[6]), bool(raw[7]),
    )  # fmt: skip


class ViewDecoder:
    """Turns one session's snapshots back into :class:`View` objects.

    Between two snapshots most of a view is unchanged (the names, most
    seats, the cleared cards, most of the log): a part whose wire form
    equals the previous one is reused, not decoded again.  Raises
    :class:`WireError` for anything that is not a view.
    """

    def __init__(self) -> None:
        self._names: tuple[Any, tuple[str, ...]] = (None, ())
        self._options: tuple[Any, Options] = (None, Options())
        self._cleared: tuple[Any, tuple[str, ...]] = (None, ())
        self._seats: list[tuple[Any, SeatInfo]] = []
        self._log: dict[int, tuple[Any, LogEntry]] = {}

    def decode(self, data: Any) -> View:
        try:
            if not isinstance(data, dict):
                raise WireError("a view is a map")
            return self._decode(data)
        except (KeyError, IndexError, TypeError, ValueError) as err:
            raise WireError(f"bad view: {err}") from None

    def _decode(self, data: dict[Any, Any]) -> View:
        raw_names = data["names"]
        if raw_names != self._names[0]:
            if not isinstance(raw_names, list) or not MIN_PLAYERS <= len(raw_names) <= MAX_PLAYERS:
                raise WireError(f"names must be a list of {MIN_PLAYERS} to {MAX_PLAYERS}")
            self._names = (raw_names, tuple(str(n) for n in raw_names))
        names = self._names[1]
        raw_options = data["options"]
        if raw_options != self._options[0]:
            self._options = (raw_options, Options.from_json(raw_options))
        raw_cleared = data["cleared"]
        if raw_cleared != self._cleared[0]:
            self._cleared = (raw_cleared, _codes(raw_cleared))
        raw_seats = data["seats"]
        if not isinstance(raw_seats, list) or len(raw_seats) != len(names):
            raise WireError("one seat per name")
        seats = self._seats
        del seats[len(raw_seats) :]
        for i, raw in enumerate(raw_seats):
            if i < len(seats) and raw == seats[i][0] and seats[i][1].name is names[i]:
                continue
            entry = (raw, _seat_info(i, names[i], raw))
            if i < len(seats):
                seats[i] = entry
            else:
                seats.append(entry)
        moves = _bounded(data["moves"], 0, MAX_MOVES, "moves")
        raw_log = data["log"]
        if not isinstance(raw_log, list):
            raise WireError("the log must be a list")
        first = moves - len(raw_log)  # the log holds the last moves, in order
        log: dict[int, tuple[Any, LogEntry]] = {}
        for j, raw in enumerate(raw_log):
            known = self._log.get(first + j)
            log[first + j] = (
                known if known is not None and known[0] == raw else (raw, _log_entry(raw))
            )
        self._log = log
        # Seat numbers index the names everywhere a view is shown: one out of
        # range (a hostile host's) is no view, not an IndexError in the app.
        seat_numbers = [data["seat"], data["to_act"], data["winner"], *data["places"]]
        seat_numbers.append(self._options[1].first)
        seat_numbers += [entry[1].seat for entry in log.values()]
        if any(n is not None and not 0 <= _int(n) < len(names) for n in seat_numbers):
            raise WireError("a seat number out of range")
        return View(
            seat=_opt_int(data["seat"]),
            phase=str(data["phase"]),
            options=self._options[1],
            names=names,
            seats=tuple(s[1] for s in seats),
            hand=_codes(data["hand"]),
            pile=_codes(data["pile"]),
            draw_size=_bounded(data["draw"], 0, DECK_SIZE, "a draw pile of"),
            cleared=self._cleared[1],
            to_act=_opt_int(data["to_act"]),
            extra_discards=_bounded(data["extra"], 0, DECK_SIZE, "extra discards"),
            draw_open=bool(data["draw_open"]),
            turn=_bounded(data["turn"], 0, TURN_LIMIT, "turns"),
            legal=tuple(_bounded(a, 0, DRAW, "an action id") for a in data["legal"]),
            pickup_reason=_opt_str(data["pickup_reason"]),
            draw_reason=_opt_str(data["draw_reason"]),
            winner=_opt_int(data["winner"]),
            places=tuple(_int(p) for p in data["places"]),
            stalemate=bool(data["stalemate"]),
            moves_played=moves,
            log=tuple(entry[1] for entry in log.values()),
        )


def view_from_wire(data: Any) -> View:
    """One snapshot's view on its own (a session uses a :class:`ViewDecoder`)."""
    return ViewDecoder().decode(data)


# ---------------------------------------------------------------- lobby
def lobby_to_wire(lobby: Lobby) -> dict[str, Any]:
    return {
        "seats": [[s.name, s.kind, s.connected, s.bot_level] for s in lobby.seats],
        "options": lobby.options.to_json(),
        "code_required": lobby.code_required,
        "code": lobby.code,
        "started": lobby.started,
        "host_seat": lobby.host_seat,
        "table": lobby.table_name,
        "turn_time": lobby.turn_time,
        "rematch": lobby.rematch,
        "votes": list(lobby.rematch_votes),
        "away": [s.seat for s in lobby.seats if s.away],
        "rematch_after": lobby.rematch_after,
        "game": lobby.game_number,
        "games": lobby.games,
        "spectator_chat": lobby.spectator_chat,
        "watching": lobby.watching,
        "bot_level": lobby.bot_level,
    }


def _opt_seconds(value: Any, highest: int) -> float | None:
    """nil, or a number of seconds from 0 to ``highest``: finite, as msgpack
    carries infinity and NaN too (a lobby whose turn time was infinite ended
    the app in an OverflowError as it drew the seconds)."""
    if value is None:
        return None
    if not within(value, 0, highest):
        raise WireError(f"{shown_value(value)} is not a number of seconds from 0 to {highest}")
    return float(value)


def lobby_from_wire(data: Any) -> Lobby:
    try:
        raw_seats = data["seats"]
        if not isinstance(raw_seats, list) or not MIN_PLAYERS <= len(raw_seats) <= MAX_PLAYERS:
            raise WireError(f"a lobby has {MIN_PLAYERS} to {MAX_PLAYERS} seats")
        seats = _marked_away(
            tuple(
                SeatSlot(i, str(s[0]), str(s[1]), bool(s[2]), None if s[3] is None else str(s[3]))
                for i, s in enumerate(raw_seats)
            ),
            data.get("away"),
        )
        options = Options.from_json(data["options"])
        _seat_number(options.first, len(seats))
        return Lobby(
            seats=seats,
            options=options,
            code_required=bool(data["code_required"]),
            code=None if data["code"] is None else str(data["code"]),
            started=bool(data["started"]),
            host_seat=_seat_number(data["host_seat"], len(seats)),
            table_name=str(data["table"]),
            # Keys a host of an older build may leave out (defaults: no timer,
            # the host's seat starts a rematch, spectators may chat, none watch).
            turn_time=_opt_seconds(data.get("turn_time"), MAX_TURN_SECONDS),
            rematch=str(data.get("rematch", "host")),
            rematch_votes=_seat_list(data.get("votes", []), len(seats), "votes"),
            rematch_after=_opt_seconds(data.get("rematch_after"), MAX_WAIT_SECONDS),
            game_number=_bounded(data.get("game", 0), 0, MAX_GAMES, "a game number"),
            games=_opt_bounded(data.get("games"), 1, MAX_GAMES, "a count of games"),
            spectator_chat=bool(data.get("spectator_chat", True)),
            watching=_bounded(data.get("watching", 0), 0, MAX_WATCHING, "watching"),
            bot_level=_bot_level_or_none(data.get("bot_level")),
        )
    except (KeyError, IndexError, TypeError, ValueError) as err:
        raise WireError(f"bad lobby: {err}") from None


def _marked_away(seats: tuple[SeatSlot, ...], raw: Any) -> tuple[SeatSlot, ...]:
    """``seats`` with the lobby's ``away`` said on each: the people's seats
    the table marked away.  A host of an older build sends no ``away``: it
    marked an away seat only by showing it connected with a bot, so that is
    read as away there (and only there: a bot seat is never away)."""
    if raw is None:
        away = {s.seat for s in seats if s.connected and s.bot_level}
    else:
        away = set(_seat_list(raw, len(seats), "away"))
    return tuple(
        replace(s, away=True) if s.seat in away and s.kind == "human" else s for s in seats
    )


def _seat_list(raw: Any, seats: int, key: str) -> tuple[int, ...]:
    """A lobby's list of seat numbers (``votes``, ``away``): at most one per seat."""
    if not isinstance(raw, list) or len(raw) > seats:
        raise WireError(f"{key} are a list of seats")
    return tuple(_bounded(v, 0, seats - 1, "a seat number") for v in raw)


# ---------------------------------------------------------------- played games
MAX_PLAYED: Final = 16  # games a "played" message may carry (the host sends at most 5)


def played_to_wire(played: GamesPlayed) -> dict[str, Any]:
    """The "played" message: the last games a seat played (protocol.md)."""
    return {"t": "played", "games": [result_to_map(g) for g in played.games]}


def played_from_wire(data: Any) -> GamesPlayed:
    """A "played" message from a host, checked: a WireError for any other shape."""
    games = data.get("games") if isinstance(data, dict) else None
    if not isinstance(games, list) or len(games) > MAX_PLAYED:
        raise WireError("bad played games: not a list of at most 16")
    try:
        return GamesPlayed(tuple(result_from_map(g) for g in games))
    except ResultShapeError as err:
        raise WireError(f"bad played game: {err}", "bad played game") from None


# ---------------------------------------------------------------- clock
def clock_to_wire(clock: tuple[int, float] | None, now: float) -> list[int] | None:
    """A snapshot's ``clock``: [seat, milliseconds left when it was sent]."""
    if clock is None:
        return None
    seat, deadline = clock
    return [seat, max(0, round((deadline - now) * 1000))]


def clock_from_wire(data: Any) -> tuple[int | None, float | None]:
    """(seat, seconds left) from a snapshot's ``clock``; (None, None): none runs."""
    if data is None:
        return None, None
    if not isinstance(data, list) or len(data) != 2:
        raise WireError("a clock is [seat, milliseconds]")
    seat = _bounded(data[0], 0, MAX_PLAYERS - 1, "a clock's seat")
    ms = _bounded(data[1], 0, MAX_CLOCK_MS, "a clock's milliseconds")
    return seat, ms / 1000


# ---------------------------------------------------------------- chat
def chat_numbers(data: dict[Any, Any]) -> tuple[int | None, int]:
    """A chat message's ``seat`` (None: the table itself, or a spectator)
    and ``n`` (0: not numbered, as an older host's lines are not)."""
    seat, number = data.get("seat"), data.get("n")
    if type(seat) is int:
        _bounded(seat, 0, MAX_PLAYERS - 1, "a chat line's seat")
    if type(number) is int and number > MAX_CHAT_NUMBER:
        raise WireError(f"a chat line's number {shown_value(number)} is too large")
    return (
        seat if type(seat) is int else None,
        number if type(number) is int and number > 0 else 0,
    )


# ---------------------------------------------------------------- hello
def make_hello(name: str, code: str | None, token: str, watch: bool) -> dict[str, Any]:
    return {"game": GAME, "v": PROTOCOL, "name": name, "code": code, "token": token, "watch": watch}


def hello_bot(data: Any) -> str | None:
    """The bot level a hello declares (``"bot": LEVEL``, from ``join --bot``),
    or None for a person.  Any short string: the host only shows it."""
    return _bot_level_or_none(data.get("bot") if isinstance(data, dict) else None)


def _bot_level_or_none(level: object) -> str | None:
    """A bot level as the wire may carry one (any short string: it is only
    shown, cleaned), or None for anything else."""
    return level if _is_bot_level(level) else None


def _is_bot_level(level: object) -> TypeGuard[str]:
    return isinstance(level, str) and 0 < len(level) <= MAX_BOT_LEVEL


def hello_claim(data: Any) -> int | None:
    """The seat's claim number a reconnecting client last held (its ACCEPT's
    ``claim``), or None: a client that starts afresh sends none."""
    claim = data.get("claim") if isinstance(data, dict) else None
    return claim if is_claim(claim) else None


def is_claim(claim: object) -> bool:
    """Whether ``claim`` is a claim number a hello may carry (and so one an
    ACCEPT may give: a client keeps no other, to be refused with it)."""
    return type(claim) is int and 0 <= claim <= MAX_CLAIM


def parse_hello(data: Any) -> tuple[str, str | None, str, bool]:
    """(name, code, token, watch) from a client's hello."""
    if not isinstance(data, dict) or data.get("game") != GAME:
        raise WireError("not a threeup client")
    if type(data.get("v")) is not int or data.get("v") != PROTOCOL:  # not 1.0, not true
        raise WireError(
            f"this table speaks protocol {PROTOCOL}, not {shown_value(data.get('v'))}",
            kind=f"this table speaks protocol {PROTOCOL}, not V",
        )
    name, code, token, watch = (data.get(k) for k in ("name", "code", "token", "watch"))
    if not isinstance(name, str) or len(name) > MAX_TEXT:
        raise WireError("a name is a short string")
    if code is not None and (not isinstance(code, str) or len(code) > MAX_TEXT):
        raise WireError("a room code is a short string")
    if not isinstance(token, str) or not 16 <= len(token) <= 128:
        raise WireError("a seat token is a string of 16 to 128 characters")
    if not isinstance(watch, bool):
        raise WireError("watch is true or false")
    if "bot" in data and not _is_bot_level(data["bot"]):
        raise WireError(f"a bot level is a string of 1 to {MAX_BOT_LEVEL} characters")
    if "claim" in data and not is_claim(data["claim"]):
        raise WireError("a claim is a whole number, 0 or more")
    return name, code, token, watch


# ---------------------------------------------------------------- requests
REQUESTS: Final = frozenset(
    {"setup", "move", "chat", "add_bot", "remove", "options", "start", "rematch", "save", "here"}
)


def parse_request(data: Any) -> tuple[str, Any]:
    """(kind, argument) of a client request, shape-checked."""
    kind = data.get("t") if isinstance(data, dict) else None
    # A str first: a list or a map as "t" cannot even be looked up in a set.
    if not isinstance(kind, str) or kind not in REQUESTS:
        raise WireError("unknown request")
    if kind == "setup":
        cards = data.get("cards")
        if (
            not isinstance(cards, list)
            or len(cards) != 3
            or not all(isinstance(c, str) and len(c) <= 4 for c in cards)
        ):
            raise WireError("setup takes three card codes")
        return kind, cards
    if kind == "move":
        at = data.get("at")
        if not isinstance(at, int) or isinstance(at, bool) or at < 0:
            raise WireError("a move names the move count it was made at")
        try:
            move = Move.from_json(data.get("move"))
        except MoveShapeError as err:
            raise WireError(str(err)) from None
        return kind, (at, move)
    if kind == "chat":
        text = data.get("text")
        if not isinstance(text, str):
            raise WireError("chat is a string")
        return kind, text  # the table refuses lines that are too long, with a reason
    if kind == "add_bot":
        level = data.get("level")
        if not isinstance(level, str) or len(level) > MAX_BOT_LEVEL:
            raise WireError("add_bot names a level")
        return kind, level
    if kind == "remove":
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise WireError("remove names a seat")
        return kind, seat
    if kind == "options":
        try:
            return kind, Options.from_json(data.get("options"))
        except ValueError as err:
            raise WireError(str(err)) from None
    return kind, None


def request(kind: str, **fields: Any) -> dict[str, Any]:
    return {"t": kind, **fields}
