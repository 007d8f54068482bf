"""Bots that play from a seat's view: ``random``, ``greedy`` and ``expert``."""

from __future__ import annotations

from .base import Bot
from .expert import ExpertBot
from .greedy import GreedyBot
from .random_bot import RandomBot

BOT_LEVELS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot}


def make_bot(
    level: str, seed: int | None = None, think_ms: int | None = None, iterations: int | None = None
) -> Bot:
    """A bot by level name; ValueError naming the levels for an unknown one.

    ``think_ms`` is a search bot's time per decision (None: the level's
    default, 250 ms for expert); ``iterations`` a fixed search budget
    instead (the same seed and view then always give the same decision).
    Bots that do not search (``thinks`` False) ignore both.
    """
    try:
        cls = BOT_LEVELS[level]
    except KeyError:
        raise ValueError(
            f"unknown bot level {level!r}: choose from {', '.join(BOT_LEVELS)}"
        ) from None
    return cls(seed, think_ms, iterations)


def next_bot_level(level: str | None) -> str:
    """The level after ``level``, round the levels in order (the first for
    one that is not a level): what the `b` keys step through."""
    levels = list(BOT_LEVELS)
    i = levels.index(level) if level in levels else -1
    return levels[(i + 1) % len(levels)]


__all__ = ["BOT_LEVELS", "Bot", "ExpertBot", "GreedyBot", "RandomBot", "make_bot", "next_bot_level"]
