"""Bots that play from a seat's view: ``random`` and ``greedy``."""

from __future__ import annotations

from .base import Bot
from .greedy import GreedyBot
from .random_bot import RandomBot

BOT_LEVELS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(level: str, seed: int | None = None, think_ms: int | None = None) -> Bot:
    """A bot by level name; ValueError naming the levels for an unknown one.

    ``think_ms`` is a search bot's budget per decision (None: its default).
    """
    try:
        return BOT_LEVELS[level](seed, think_ms)
    except KeyError:
        raise ValueError(
            f"unknown bot level {level!r}: choose from {', '.join(BOT_LEVELS)}"
        ) from None


__all__ = ["BOT_LEVELS", "Bot", "GreedyBot", "RandomBot", "make_bot"]
