"""Who won, in the words a line of text says it: the table's chat line at
the end of a game and the replay's header both say it so."""

from __future__ import annotations

from collections.abc import Sequence


def won_words(names: Sequence[str], winner: int, places: Sequence[int]) -> str:
    """The winner's name and "won"; the places after it in a game for places.

    Past tense: the line reads right whoever it names, "you" too (the name a
    local game gives its player when none is set)."""
    words = f"{names[winner]} won"
    if len(places) > 1:
        words += " (places: " + ", ".join(names[p] for p in places) + ")"
    return words
