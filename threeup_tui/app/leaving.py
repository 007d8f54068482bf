"""The line a table's command leaves on the shell when its player leaves.

``threeup join`` and ``threeup host`` open one table: leaving it (q) ends
the app, as the player who typed the command expects.  It once went on to
the start screen, where the next shell command typed went in as keys
(``n`` opened the name box, and the rest of the line became the player's
saved name).  The last line says how to come back.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from ..launcher import JoinSettings
from ..paths import how_to_resume
from .session import Session
from .text import reason_words

# What leaving a seat at someone else's table does to it (D17): the leave
# and quit questions and the line left on the shell say it alike.
SEAT_WAITS = "your seat waits (after a while a bot plays it)"


def option(flag: str, value: str) -> str:
    """``flag`` and ``value`` as a command line takes them, quoted for the
    shell (a space or a shell's character in it); a value that begins with
    "-" is joined to its flag, or the command line takes it for an option."""
    quoted = shlex.quote(value)
    return f"{flag}={quoted}" if value.startswith("-") else f"{flag} {quoted}"


def join_command(join: JoinSettings) -> str:
    """The ``threeup join`` that comes back to the table ``join`` joined,
    as the same player (the seat token is kept under that name), in
    backquotes: one word to the goodbye's line breaking, one line to paste."""
    words = ["threeup", "join", shlex.quote(join.address), option("--name", join.name)]
    if join.code:
        words.append(option("--code", join.code))
    if join.watch:
        words.append("--watch")
    return f"`{' '.join(words)}`"


def left_joined_table(session: Session | None, join: JoinSettings | None) -> str:
    """The line left on the shell by ``threeup join`` once its player left
    the table: what became of the seat, and the command that comes back."""
    if session is not None and session.connection == "closed":
        # Nothing to come back to (the host closed it), or the seat is
        # played from another terminal now: the table's reason.
        return f"threeup: {reason_words(session.connection_detail) or 'the table closed'}"
    if join is None or not join.address:
        return "threeup: you left the table"
    again = join_command(join)
    if session is not None and session.seat is not None and session.view is not None:
        # Dealt into a game (playing it, or between games): the seat waits.
        return f"threeup: you left the table; {SEAT_WAITS}: {again} takes it back"
    # In the lobby a seat opens as its player goes; a spectator has none.
    return f"threeup: you left the table; {again} joins it again"


def left_hosted_table(journal: Path | None) -> str:
    """The line left on the shell by ``threeup host`` once its player left
    (and so closed) the table; ``journal``: the one kept for a resume, when
    the table was closed in the middle of a game."""
    if journal is None:
        return "threeup: you left, and your table is closed"
    return f"threeup: you left, and your table is closed; {how_to_resume(journal)}"
