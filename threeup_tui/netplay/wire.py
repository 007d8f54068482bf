"""The game's messages on top of ``net``: shapes, checks and compact views.

``net`` carries msgpack values; this module decides what they mean for the
game.  Everything that arrives from a peer goes through a ``parse_*``
function that checks its shape and raises :class:`WireError` for anything
else, so a hostile datagram never reaches the table as a half-valid value.
Cards travel as small ints (card kinds), not codes, to keep snapshots small.
"""

from __future__ import annotations

from typing import Any, Final

from ..client.events import Lobby, SeatSlot
from ..rules import Move, Options, View, view_from_json, view_to_json
from ..rules.actions import MoveShapeError
from ..rules.cards import CODES

PROTOCOL: Final = 1
GAME: Final = "threeup"
MAX_TEXT: Final = 400
WIRE_LOG: Final = 6  # log entries per snapshot; clients keep a longer log


class WireError(ValueError):
    """A message that is not one of the game's shapes."""


_KIND: Final = {code: kind for kind, code in enumerate(CODES)}


def _kinds(codes: list[str]) -> list[int]:
    return [_KIND[c] for c in codes]


_CODE_OF: Final = dict(enumerate(CODES))


def _codes(kinds: Any) -> list[str]:
    if not isinstance(kinds, list):
        raise WireError("cards must be a list")
    try:
        return [_CODE_OF[k] for k in kinds]  # a dict: no negative or slice indexing
    except (KeyError, TypeError):
        raise WireError("not a card") from None


# ---------------------------------------------------------------- views
def view_to_wire(view: View) -> dict[str, Any]:
    data = view_to_json(view)
    for seat in data["seats"]:
        seat[1] = _kinds(seat[1])
        seat[3] = _kinds(seat[3])
    for key in ("hand", "pile", "cleared"):
        data[key] = _kinds(data[key])
    data["log"] = data["log"][-WIRE_LOG:]
    for entry in data["log"]:
        entry[2] = _kinds(entry[2])
    return data


def view_from_wire(data: Any) -> View:
    try:
        if not isinstance(data, dict):
            raise WireError("a view is a map")
        data = dict(data)
        seats = []
        for seat in data["seats"]:
            seat = list(seat)
            seat[1] = _codes(seat[1])
            seat[3] = _codes(seat[3])
            seats.append(seat)
        data["seats"] = seats
        for key in ("hand", "pile", "cleared"):
            data[key] = _codes(data[key])
        log = []
        for entry in data["log"]:
            entry = list(entry)
            entry[2] = _codes(entry[2])
            log.append(entry)
        data["log"] = log
        return view_from_json(data)
    except (KeyError, IndexError, TypeError, ValueError) as err:
        raise WireError(f"bad view: {err}") from None


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
    }


def lobby_from_wire(data: Any) -> Lobby:
    try:
        seats = tuple(
            SeatSlot(i, str(s[0]), str(s[1]), bool(s[2]), None if s[3] is None else str(s[3]))
            for i, s in enumerate(data["seats"])
        )
        return Lobby(
            seats=seats,
            options=Options.from_json(data["options"]),
            code_required=bool(data["code_required"]),
            code=None if data["code"] is None else str(data["code"]),
            started=bool(data["started"]),
            host_seat=data["host_seat"] if isinstance(data["host_seat"], int) else None,
            table_name=str(data["table"]),
        )
    except (KeyError, IndexError, TypeError, ValueError) as err:
        raise WireError(f"bad lobby: {err}") from None


# ---------------------------------------------------------------- hello
def make_hello(name: str, code: str | None, token: str, watch: bool) -> dict[str, Any]:
    return {"game": GAME, "v": PROTOCOL, "name": name, "code": code, "token": token,
            "watch": watch}


def parse_hello(data: Any) -> tuple[str, str | None, str, bool]:
    """(name, code, token, watch) from a client's hello."""
    if not isinstance(data, dict) or data.get("game") != GAME:
        raise WireError("not a threeup client")
    if data.get("v") != PROTOCOL:
        raise WireError(f"this table speaks protocol {PROTOCOL}, not {data.get('v')!r}")
    name, code, token, watch = (data.get(k) for k in ("name", "code", "token", "watch"))
    if not isinstance(name, str) or len(name) > MAX_TEXT:
        raise WireError("a name is a short string")
    if code is not None and (not isinstance(code, str) or len(code) > MAX_TEXT):
        raise WireError("a room code is a short string")
    if not isinstance(token, str) or not 16 <= len(token) <= 128:
        raise WireError("a seat token is a string of 16 to 128 characters")
    if not isinstance(watch, bool):
        raise WireError("watch is true or false")
    return name, code, token, watch


# ---------------------------------------------------------------- requests
REQUESTS: Final = frozenset(
    {"setup", "move", "chat", "add_bot", "remove", "options", "start", "rematch", "save"}
)


def parse_request(data: Any) -> tuple[str, Any]:
    """(kind, argument) of a client request, shape-checked."""
    if not isinstance(data, dict) or data.get("t") not in REQUESTS:
        raise WireError("unknown request")
    kind = data["t"]
    if kind == "setup":
        cards = data.get("cards")
        if not isinstance(cards, list) or len(cards) != 3 or not all(
            isinstance(c, str) and len(c) <= 4 for c in cards
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
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            raise WireError("chat is a short string")
        return kind, text
    if kind == "add_bot":
        level = data.get("level")
        if not isinstance(level, str) or len(level) > 32:
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
