"""Terminals the app cannot draw on, and what it tells their players.

Plain Python (no Textual): the app's entry refuses such a terminal, and the
SSH door refuses a guest's before it seats anyone, in the same words.
"""

from __future__ import annotations

# Terminals that move no cursor (Emacs's M-x shell, a plain serial line): Rich
# calls them so.  Textual draws there all the same, a screen of escapes.
PLAIN_TERMINALS = ("dumb", "unknown")


def plain_terminal(term: str) -> str | None:
    """``term`` (a TERM value), when it names a terminal that cannot draw the
    app; else None."""
    return term if term.strip().lower() in PLAIN_TERMINALS else None


def plain_terminal_words(term: str, command: str | None, guest: bool) -> str:
    """The line that refuses ``term`` to ``threeup COMMAND``.  The SSH door's
    guest runs nothing else on the host: no --headless for them."""
    instead = "" if guest else "; without one: threeup host --headless or threeup join --bot"
    return (
        f"{f'threeup {command}' if command else 'threeup'}: TERM={term} cannot draw "
        "the app (a terminal that moves no cursor); in a terminal that can, set TERM "
        f"to its name (TERM=xterm-256color, say){instead}"
    )
