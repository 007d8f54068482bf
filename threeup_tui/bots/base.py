"""The bot interface: a bot sees one seat's view, never the whole state."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..rules import Move, View


class Bot(ABC):
    """Decides for one seat from that seat's :class:`View` only.

    The same bot plays locally, as a network client, or for an absent
    player (D17).  A search bot implements the same two methods.
    """

    level: str = "?"
    thinks: bool = False  # a search bot: its decisions run off the event loop (bots/pool.py)

    def __init__(self, seed: int | None = None, think_ms: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.think_ms = think_ms  # a search bot's budget per decision; others ignore it

    @abstractmethod
    def choose_face_up(self, view: View) -> tuple[str, str, str]:
        """Three of the six cards in ``view.hand`` to lay face up."""

    @abstractmethod
    def choose_move(self, view: View) -> Move:
        """A legal move; called only when ``view.my_turn``."""
