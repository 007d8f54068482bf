"""Actions, in two forms.

*Action ids* are small ints for the engine's hot path and for search bots:
``rank * 8 + count`` plays ``count`` cards of ``rank`` from the current source
(colours never matter to play), ``FLIP + k`` flips face-down slot ``k``,
``PICKUP`` and ``DRAW`` are the other two moves.

A :class:`Move` is the concrete form written in records and sent over the
network: it names the acting seat and, for a play, the exact card codes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from .cards import is_code, rank_name

FLIP: Final = 112
PICKUP: Final = 120
DRAW: Final = 121

MoveKind = Literal["play", "flip", "pickup", "draw"]


def play_action(rank: int, count: int) -> int:
    return rank * 8 + count


def is_play(action: int) -> bool:
    return action < FLIP


def play_rank(action: int) -> int:
    return action >> 3


def play_count(action: int) -> int:
    return action & 7


def describe_action(action: int) -> str:
    """Plain words, e.g. ``play two 7s``, ``flip face-down card 2``."""
    if action < FLIP:
        rank, count = play_rank(action), play_count(action)
        if count == 1:
            return f"play a {rank_name(rank)}"
        words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
        return f"play {words.get(count, str(count))} {rank_name(rank)}s"
    if action < PICKUP:
        return f"flip face-down card {action - FLIP + 1}"
    return "pick up the pile" if action == PICKUP else "draw"


class MoveShapeError(ValueError):
    """A move that is not one of the record's four shapes (a malformed file)."""


@dataclass(frozen=True, slots=True)
class Move:
    seat: int
    kind: MoveKind
    cards: tuple[str, ...] = ()
    slot: int = -1

    @staticmethod
    def play(seat: int, cards: tuple[str, ...] | list[str]) -> Move:
        return Move(seat, "play", tuple(cards))

    @staticmethod
    def flip(seat: int, slot: int) -> Move:
        return Move(seat, "flip", slot=slot)

    @staticmethod
    def pickup(seat: int) -> Move:
        return Move(seat, "pickup")

    @staticmethod
    def draw(seat: int) -> Move:
        return Move(seat, "draw")

    def to_json(self) -> dict[str, Any]:
        if self.kind == "play":
            return {"seat": self.seat, "play": list(self.cards)}
        if self.kind == "flip":
            return {"seat": self.seat, "flip": self.slot}
        return {"seat": self.seat, self.kind: True}

    @staticmethod
    def from_json(data: Any) -> Move:
        """Parse one record move; raises MoveShapeError for a malformed shape.

        Shapes only: a nonexistent seat, a flip outside 0-2 or an empty play
        are well-formed but illegal, and the engine rejects them on replay.
        """
        if not isinstance(data, dict):
            raise MoveShapeError("a move must be an object")
        seat = data.get("seat")
        if not _is_int(seat):
            raise MoveShapeError("a move needs an integer 'seat'")
        kinds = [k for k in ("play", "flip", "pickup", "draw") if k in data]
        extra = set(data) - {"seat", "play", "flip", "pickup", "draw"}
        if len(kinds) != 1 or extra:
            raise MoveShapeError("a move must have exactly one of play, flip, pickup, draw")
        kind = kinds[0]
        value = data[kind]
        assert isinstance(seat, int)
        if kind == "play":
            if not isinstance(value, list) or not all(is_code(c) for c in value):
                raise MoveShapeError("'play' must be a list of card codes")
            return Move(seat, "play", tuple(value))
        if kind == "flip":
            if not _is_int(value):
                raise MoveShapeError("'flip' must be an integer slot")
            return Move(seat, "flip", slot=value)
        if value is not True:
            raise MoveShapeError(f"'{kind}' must be true")
        return Move(seat, "pickup") if kind == "pickup" else Move(seat, "draw")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
