"""Terminals the app cannot draw on, and what it tells their players; and
the lines it leaves on a terminal as it ends, fitted to its width.

Plain Python (no Textual): the app's entry refuses such a terminal, and the
SSH door refuses a guest's before it seats anyone, in the same words.
"""

from __future__ import annotations

import os
from typing import TextIO

from rich.cells import cell_len

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


def terminal_columns(stream: TextIO) -> int | None:
    """The width of the terminal ``stream`` writes to; None when it writes
    to none (a file, a pipe: a line there is best left whole)."""
    try:
        if not stream.isatty():
            return None
        return os.get_terminal_size(stream.fileno()).columns or None
    except (AttributeError, OSError, ValueError):
        return None


def words_of(text: str) -> list[str]:
    """``text``'s words, split at spaces; a command between backquotes is
    one word (pasted, it must be one line)."""
    words: list[str] = []
    quoted = False
    for i, piece in enumerate(text.split(" ")):
        if quoted:
            words[-1] += " " + piece
        elif piece or i == 0:
            words.append(piece)
        quoted ^= piece.count("`") % 2 == 1
    return words


def fitted_lines(text: str, columns: int | None) -> str:
    """A line left on the terminal (a goodbye) in ``columns`` cells: whole
    if it fits; else broken after a clause (its "; "), and a clause too
    long for a line between words, never inside one nor inside a command
    between backquotes (a word wider than the line goes alone: the terminal
    wraps it, and it pastes as one).  The terminal broke "Resume your
    table" mid-word at 40 columns.  ``columns`` None: as it is."""
    if columns is None or cell_len(text) <= columns:
        return text
    lines: list[str] = []
    line = ""
    clause: list[str] = []
    clauses: list[list[str]] = []
    for word in words_of(text):
        clause.append(word)
        if word.endswith(";"):
            clauses.append(clause)
            clause = []
    clauses += [clause] if clause else []
    for words in clauses:
        whole = " ".join(words)
        if line and cell_len(f"{line} {whole}") <= columns:
            line = f"{line} {whole}"
            continue
        if line:
            lines.append(line)
            line = ""
        for word in words:
            if line and cell_len(f"{line} {word}") > columns:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)
