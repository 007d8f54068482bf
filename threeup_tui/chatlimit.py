"""Chat that cannot flood: per-speaker line limits, and a log that stays quiet.

Every speaker (a seat, or one spectator) may send at most ``LINES`` lines in
any ``WINDOW`` seconds, and at most ``BURST`` of them back to back: a token
bucket (``BURST`` tokens, refilled at ``LINES / WINDOW`` a second) paces the
lines, and a sliding window caps any ``WINDOW`` seconds at ``LINES`` even
when a burst follows a full bucket.  A line is at most ``MAX_CHARS``
characters and ``MAX_BYTES`` bytes of UTF-8, and what is shown of it is
cut to ``MAX_CELLS`` terminal cells (by display width: 100 wide
characters fill as many rows as 200 narrow ones).

The limiter says why it refuses a line, for the ``rejected`` the speaker
gets; the host logs each flooder at most once per ``LOG_EVERY`` seconds with
a count, never once per line.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from net.ratelimit import ROUNDING, LruTable, TokenBucket

LINES = 5
WINDOW = 10.0
BURST = 3
MAX_CHARS = 400
MAX_BYTES = 1000
MAX_CELLS = 200  # terminal cells a line shown is cut to (a wide character takes two)
LOG_EVERY = 60.0
# How a refusal for too many lines begins: a client may give the line back
# to its writer, to send once the wait is over.
TOO_MANY = "too many chat lines"
MAX_SPEAKERS = 1024  # spectators come and go: the table of speakers is bounded

log = logging.getLogger("threeup.chat")


def line_problem(text: str) -> str | None:
    """Why a chat line is too long, or None."""
    if len(text) > MAX_CHARS or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        return f"a chat line is at most {MAX_CHARS} characters and {MAX_BYTES:,} bytes of UTF-8"
    return None


@dataclass
class _Speaker:
    bucket: TokenBucket
    sent: deque[float] = field(default_factory=deque)  # times of accepted lines
    refused: int = 0  # refused since the last log line
    logged_at: float | None = None


class ChatLimiter:
    """Decides, per speaker, whether a chat line may go out now."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._speakers: LruTable[Hashable, _Speaker] = LruTable(MAX_SPEAKERS)

    def check(self, speaker: Hashable, who: str) -> str | None:
        """None when ``speaker`` may send a line now (and counts it), else
        the reason it may not.  ``who`` names the speaker in the host's log."""
        now = self._clock()
        entry = self._speakers.setdefault(
            speaker, lambda: _Speaker(TokenBucket(LINES / WINDOW, BURST, now))
        )
        sent = entry.sent
        while sent and sent[0] <= now - WINDOW + ROUNDING:  # float time: see TokenBucket
            sent.popleft()
        # The window first: a refused line must not spend a bucket token.
        if len(sent) < LINES and entry.bucket.take(now):
            sent.append(now)
            return None
        entry.refused += 1
        # The limit that refused this line, in the reason and the log.
        limit = f"{LINES} in {WINDOW:g} s" if len(sent) >= LINES else f"{BURST} back to back"
        if entry.logged_at is None or now - entry.logged_at >= LOG_EVERY:
            since = "" if entry.logged_at is None else f" in the last {now - entry.logged_at:.0f} s"
            log.warning(
                "chat from %s refused: over %s (%d line%s refused%s)",
                who,
                limit,
                entry.refused,
                "" if entry.refused == 1 else "s",
                since,
            )
            entry.logged_at = now
            entry.refused = 0
        return f"{TOO_MANY}: at most {limit}; wait {self._wait(entry, now)} s"

    @staticmethod
    def _wait(entry: _Speaker, now: float) -> int:
        """Whole seconds (at least 1) until a line would be accepted: rounded
        up, so that a speaker who waits that long is not refused again."""
        bucket = entry.bucket
        # As the bucket stands now: it is not refilled when the window refuses.
        token_wait = max(0.0, (1.0 - bucket.level(now)) / bucket.rate)
        window_wait = entry.sent[0] + WINDOW - now if len(entry.sent) >= LINES else 0.0
        return max(1, math.ceil(max(token_wait, window_wait) - ROUNDING))

    def forget(self, speaker: Hashable) -> None:
        self._speakers.pop(speaker)
