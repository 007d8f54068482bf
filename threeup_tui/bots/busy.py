"""A stand-in for a search bot's cost: greedy's play after a set time of
pure-Python busy work.

It holds the GIL the way a search does, so the tests and benchmarks of the
thinking plumbing (bots/pool.py) see what a real search costs the process
that runs it, without depending on how strong, or how fast, the search is.
It is not a level players can choose.
"""

from __future__ import annotations

import time

from ..rules import Move, View
from .greedy import GreedyBot

BUSY_THINK_MS = 250


def burn(seconds: float) -> int:
    """Spin in pure Python for ``seconds`` (never sleeping: the GIL stays held)."""
    deadline = time.perf_counter() + seconds
    total = 0
    while time.perf_counter() < deadline:
        for i in range(500):
            total += i * i
    return total


class BusyBot(GreedyBot):
    level = "busy"
    thinks = True

    def __init__(
        self, seed: int | None = None, think_ms: int | None = None, iterations: int | None = None
    ) -> None:
        super().__init__(seed, BUSY_THINK_MS if think_ms is None else think_ms, iterations)

    def think(self, view: View) -> None:
        assert self.think_ms is not None
        burn(self.think_ms / 1000)

    def choose_face_up(self, view: View) -> tuple[str, str, str]:
        self.think(view)
        return super().choose_face_up(view)

    def choose_move(self, view: View) -> Move:
        self.think(view)
        return super().choose_move(view)
