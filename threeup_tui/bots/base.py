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
    thinks: bool = False  # a search bot: run its decisions off the event loop
    # How much of the public log the bot reads: views for it should carry the
    # last ``log_length`` moves (None: every move since the deal).
    log_length: int | None = 0

    def __init__(
        self, seed: int | None = None, think_ms: int | None = None, iterations: int | None = None
    ) -> None:
        self.rng = random.Random(seed)
        # A search bot's budget per decision (time, or a fixed number of
        # iterations for tests and tuning); bots that do not search ignore it.
        self.think_ms = think_ms
        self.iterations = iterations

    @abstractmethod
    def choose_face_up(self, view: View) -> tuple[str, str, str]:
        """Three of the six cards in ``view.hand`` to lay face up."""

    @abstractmethod
    def choose_move(self, view: View) -> Move:
        """A legal move; called only when ``view.my_turn``."""
