"""The bounds of a table's numbers, in one place: what ``threeup host``
takes on its command line, what a table file must hold to be resumed, and
what the wire may carry (protocol.md gives each where it describes the
field).  Plain Python: the command line reads them before any heavy import.

A number beyond them is refused wherever it comes from, because it comes
from no threeup: a hostile host's lobby of a 1e300 s rematch wait drew
301 digits in the game-over box, and a table file edited by hand to hold
it was resumed with it.
"""

from __future__ import annotations

from typing import Final

# Seconds a turn lasts (--turn-time, the lobby's choice).  The wire and the
# table file take any time up to the longest (a program using the table
# may set less than a second); the host's own controls take 1 at least.
MIN_TURN_SECONDS: Final = 1
MAX_TURN_SECONDS: Final = 3600
# The longest wait a host's setting takes: a day (--takeover-after,
# --rematch-after).  Any finite number was taken (1e300), and the game-over
# box told the players the next game starts "in" a number of 301 digits of
# seconds.
MAX_WAIT_SECONDS: Final = 86_400
# The most games a run (simulate --games) or a headless table (host
# --games) plays: a billion, years of play at a table, days of bots'.  More
# was taken: a table of --games 10**30 could not send its lobby (msgpack
# holds 64 bits), so no game began and the host's log filled with
# tracebacks; simulate --games 10**30 --jobs 2 ended in an
# OverflowError.  A table's game number is bounded by it too.
MAX_GAMES: Final = 1_000_000_000
# After a resume a turn clock is held until its seat's player is back, for
# at most this long (one that misses the host's RESET waits out its 5 s idle
# time-out): a snapshot's clock then counts down to the turn's end this much
# later.
RESUME_GRACE: Final = 10.0
# A seat's claim number (how often its seat token has taken the seat back)
# and a chat line's number: msgpack carries 64 bits, and the wire takes
# either below 2**63.  A table file edited to hold more resumed a table
# whose ACCEPT or chat lines could not be sent, or were dropped by clients.
MAX_CLAIM: Final = 2**63 - 1
MAX_CHAT_NUMBER: Final = 2**63 - 1
MAX_THINK_MS: Final = 60_000  # a search bot's time per decision: a minute
MAX_PORT: Final = 65_535

# The table file's numeric settings (TableConfig and Hosting fields): the
# lowest and highest each may hold, as the command line takes them.
SETTING_BOUNDS: Final[dict[str, tuple[int, int]]] = {
    "turn_time": (0, MAX_TURN_SECONDS),
    "rematch_after": (0, MAX_WAIT_SECONDS),
    "takeover_after": (0, MAX_WAIT_SECONDS),
    "games": (1, MAX_GAMES),
    "think_ms": (1, MAX_THINK_MS),
    "port": (0, MAX_PORT),
    "announce_port": (1, MAX_PORT),
    "ssh_port": (0, MAX_PORT),
}


def within(value: object, lowest: float, highest: float) -> bool:
    """Whether ``value`` is a number (an int or a float, never a bool) from
    ``lowest`` to ``highest``: NaN and the infinities never are."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return lowest <= value <= highest  # False for NaN
