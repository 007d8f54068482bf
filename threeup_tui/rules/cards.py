"""Cards of the 74-card deck, as small integers.

A card *kind* is ``colour * 13 + rank - 1`` where colour is 0 (R), 1 (G) or
2 (B) and rank is 1..10 for numbers, 11 for Clear, 12 for Clear +1 and 13 for
Clear +2.  Ints keep the engine's hot path free of object churn; codes such as
``"G7"`` or ``"BC1"`` exist only at the edges (records, views, the UI).
"""

from __future__ import annotations

import re
from typing import Final

COLOURS: Final = ("R", "G", "B")
COLOUR_NAMES: Final = ("red", "green", "blue")
CLEAR: Final = 11
CLEAR1: Final = 12
CLEAR2: Final = 13
RANKS: Final = tuple(range(1, 14))
NUMBER_RANKS: Final = tuple(range(1, 11))
N_KINDS: Final = 39
_RANK_SUFFIX: Final = {CLEAR: "C", CLEAR1: "C1", CLEAR2: "C2"}
_CODE_RE: Final = re.compile(r"^([RGB])(10|[1-9]|C1|C2|C)$")


def kind_of(colour: int, rank: int) -> int:
    return colour * 13 + rank - 1


def rank_of(kind: int) -> int:
    return kind % 13 + 1


def colour_of(kind: int) -> int:
    return kind // 13


def _code(kind: int) -> str:
    rank = rank_of(kind)
    return COLOURS[colour_of(kind)] + _RANK_SUFFIX.get(rank, str(rank))


CODES: Final = tuple(_code(k) for k in range(N_KINDS))
RANK_OF: Final = tuple(rank_of(k) for k in range(N_KINDS))
_KIND_BY_CODE: Final = {code: kind for kind, code in enumerate(CODES)}


def _deck_counts() -> tuple[int, ...]:
    counts = [0] * N_KINDS
    for colour in range(3):
        for rank in range(1, 13):
            counts[kind_of(colour, rank)] = 2
    counts[kind_of(1, CLEAR2)] = 2  # only green has Clear +2 (D1: 74 cards)
    return tuple(counts)


DECK_COUNTS: Final = _deck_counts()
DECK_SIZE: Final = sum(DECK_COUNTS)
FULL_DECK: Final = tuple(k for k in range(N_KINDS) for _ in range(DECK_COUNTS[k]))


def is_code(text: object) -> bool:
    """True when ``text`` fits the card-code grammar (``RC2`` fits but is no card)."""
    return isinstance(text, str) and _CODE_RE.match(text) is not None


def parse_code(code: str) -> int:
    """Kind of a code; raises ValueError for a string outside the grammar."""
    kind = _KIND_BY_CODE.get(code)
    if kind is None or not is_code(code):
        raise ValueError(f"not a card code: {code!r}")
    return kind


def code(kind: int) -> str:
    return CODES[kind]


def rank_name(rank: int) -> str:
    if rank == CLEAR:
        return "Clear"
    if rank == CLEAR1:
        return "Clear +1"
    if rank == CLEAR2:
        return "Clear +2"
    return str(rank)


# How players read the Clear ranks: the codes' "C1" and "C2" are for records.
_RANK_LABELS: Final = {"C": "C", "C1": "C+1", "C2": "C+2"}


def rank_label(code: str) -> str:
    """``"7"``, ``"10"``, ``"C"``, ``"C+1"`` or ``"C+2"``."""
    return _RANK_LABELS.get(code[1:], code[1:])


def card_label(code: str) -> str:
    """A card as shown everywhere players read one: colour letter then rank
    (``R7``, ``BC+1``), never its record code (``BC1``).

    The letter means colour is never the only cue (NO_COLOR, colour blindness).
    """
    return f"{code[0]}{rank_label(code)}"


def describe(kind: int) -> str:
    """Plain words for one card, e.g. ``green 7`` or ``blue Clear +1``."""
    return f"{COLOUR_NAMES[colour_of(kind)]} {rank_name(rank_of(kind))}"


def is_clear_rank(rank: int) -> bool:
    return rank >= CLEAR


def sort_key(kind: int) -> tuple[int, int]:
    return (rank_of(kind), colour_of(kind))
