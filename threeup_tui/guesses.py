"""Wrong guesses at a table's secrets (its room code, the SSH door's seat
words), counted so that guessing stays slow however many addresses a
guesser sends from.

Each wrong guess counts twice: towards its *guesser*, an address group
(:func:`threeup_tui.addresses.address_group`: every loopback address is
one, a global IPv6 address counts as its /64), and towards the whole
table.  The first bound slows one guesser without troubling anyone else.
The second bounds a guesser who holds many groups (an IPv6 /48 is 65,536
/64s), which counts per group alone never did; they also forgot the
oldest guesser once 4,096 were counted, so one who moved through 4,097
groups had its own count forgotten.  The price, while someone guesses
from many networks: over UDP newcomers are refused for a while, and at the
SSH door everyone's wrong answers wait.  A player coming back to a seat
is not held up (a seat token over UDP; a key, or the right seat word).
"""

from __future__ import annotations

import collections
import time

MOST_GUESSERS = 4096  # guessers counted one by one; the oldest is forgotten first
MOST_AT_TABLE = 4096  # wrong guesses the table keeps the times of


class Guesses:
    """Wrong guesses in the last ``window`` seconds, per guesser and in all."""

    def __init__(self, window: float) -> None:
        self.window = window
        self._by_guesser: dict[str, collections.deque[float]] = {}
        self._at_table: collections.deque[float] = collections.deque(maxlen=MOST_AT_TABLE)

    def wrong(self, guesser: str, now: float | None = None) -> None:
        """Count a wrong guess by ``guesser`` (an address group)."""
        now = time.monotonic() if now is None else now
        if guesser not in self._by_guesser and len(self._by_guesser) >= MOST_GUESSERS:
            self._by_guesser.pop(next(iter(self._by_guesser)))
        self._by_guesser.setdefault(guesser, collections.deque()).append(now)
        self._at_table.append(now)

    def note(self, who: str, now: float | None = None) -> None:
        """Count one event by ``who`` that is no guess (a seat taken, say):
        the same bound in a window, for anything a sender must not repeat
        without end."""
        self.wrong(who, now)

    def of(self, guesser: str, now: float | None = None) -> int:
        """Wrong guesses by ``guesser`` in the window."""
        now = time.monotonic() if now is None else now
        times = self._by_guesser.get(guesser)
        if times is None:
            return 0
        self._forget(times, now)
        if not times:
            del self._by_guesser[guesser]
        return len(times)

    def at_table(self, now: float | None = None) -> int:
        """Wrong guesses by anyone in the window."""
        now = time.monotonic() if now is None else now
        self._forget(self._at_table, now)
        return len(self._at_table)

    def _forget(self, times: collections.deque[float], now: float) -> None:
        while times and now - times[0] > self.window:
            times.popleft()


def doubling_wait(count: int, free: int, cap: float) -> float:
    """Seconds to wait before answering a wrong guess when ``count`` are
    recent: none for the first ``free``, then 0.5 s, 1 s, 2 s ... up to
    ``cap``."""
    if count <= free:
        return 0.0
    return min(0.5 * 2.0 ** min(count - free - 1, 64), cap)
