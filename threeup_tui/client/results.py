"""A finished game's result as a plain map: the GAME of the host's
``played`` message (docs/protocol.md, "Games played"), and a seat's
``results`` in the table file, which a resumed table tells its players too.

The map holds only what the game-over view showed every seat: no card."""

from __future__ import annotations

from typing import Any, Final, get_args

from ..limits import MAX_GAMES
from ..rules.options import Finish
from ..rules.state import MAX_MOVES, TURN_LIMIT
from .events import GameResult

FINISHES: Final = frozenset(get_args(Finish))
MAX_BOT_LEVEL: Final = 32  # a bot's level, as a hello's "bot" and the lobby show it


class ResultShapeError(ValueError):
    """A map that is not a game result."""


def result_to_map(result: GameResult) -> dict[str, Any]:
    return {
        "game": result.number,
        "names": list(result.names),
        "seats": [[kind, level] for kind, level in result.kinds],
        "winner": result.winner,
        "places": list(result.places),
        "stalemate": result.stalemate,
        "moves": result.moves,
        "turns": result.turns,
        "finish": result.finish,
    }


def result_from_map(data: Any) -> GameResult:
    """The result a map holds, checked: a ResultShapeError for any other shape."""
    if not isinstance(data, dict):
        raise ResultShapeError("a game result is a map")
    try:
        names = tuple(_text(n) for n in _list(data["names"]))
        kinds = tuple(_kind(k) for k in _list(data["seats"]))
        winner = data["winner"]
        result = GameResult(
            number=_int(data["game"]),
            names=names,
            kinds=kinds,
            winner=None if winner is None else _int(winner),
            places=tuple(_int(p) for p in _list(data["places"])),
            stalemate=_bool(data["stalemate"]),
            moves=_int(data["moves"]),
            turns=_int(data["turns"]),
            finish=_text(data["finish"]),
        )
    except KeyError as err:
        raise ResultShapeError(f"a game result lacks {err}") from None
    seats = range(len(names))
    if (
        not 2 <= len(names) <= 6
        or len(kinds) != len(names)
        # Each number no more than a threeup host makes (protocol.md): a
        # hostile host's game number of 10**18 is no game of any table.
        or not 1 <= result.number <= MAX_GAMES
        or (result.winner is not None and result.winner not in seats)
        or any(p not in seats for p in result.places)
        or not 0 <= result.moves <= MAX_MOVES
        or not 0 <= result.turns <= TURN_LIMIT
        or result.finish not in FINISHES
    ):
        raise ResultShapeError("a game result with a value out of range")
    return result


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ResultShapeError(f"{value!r} is not a list")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ResultShapeError(f"{value!r} is not a string")
    return value


def _int(value: Any) -> int:
    if type(value) is not int:
        raise ResultShapeError(f"{value!r} is not an integer")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ResultShapeError(f"{value!r} is not a bool")
    return value


def _kind(value: Any) -> tuple[str, str | None]:
    if not (isinstance(value, list) and len(value) == 2 and value[0] in ("human", "bot")):
        raise ResultShapeError(f"{value!r} is not a seat's kind")
    level = value[1]
    if level is not None and not (isinstance(level, str) and len(level) <= MAX_BOT_LEVEL):
        raise ResultShapeError(f"{value!r} is not a bot level")
    return value[0], level


__all__ = ["FINISHES", "MAX_BOT_LEVEL", "ResultShapeError", "result_from_map", "result_to_map"]
