"""Keys the terminal sends that Textual cannot read are dropped, not fatal.

Textual (8.x) reads the kitty keyboard protocol's sequences
(``ESC [ code ; modifiers ; text u``, and the same ending in ~ or a
letter) in ``XTermParser._parse_extended_key``, and it raises on some it
matches but cannot read: a colon where a number goes (``ESC [ 1 ; : u``:
``int(":")``), or a code point past U+10FFFF (``chr()``).  It raises in
the driver's input thread, and the app ends with a traceback.  No terminal
sends such keys, but a guest of the SSH door types whatever bytes it likes
into its app: six keys ended its session with a traceback.  A sequence
that reader cannot read is now dropped whole, as Textual drops the
sequences it is told to ignore.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

from textual import events
from textual.keys import Keys

_GUARDED = "_threeup_guarded"


def guard_key_parser() -> bool:
    """Wrap Textual's reader of extended keys (once); False where this
    Textual has no such reader to wrap (a later one may have moved it)."""
    # A private module and method: a later Textual may move or fix them,
    # and then there is nothing to guard.
    try:
        module = importlib.import_module("textual._xterm_parser")
    except ImportError:
        return False
    parser = getattr(module, "XTermParser", None)
    read = getattr(parser, "_parse_extended_key", None)
    if parser is None or read is None:
        return False
    if getattr(read, _GUARDED, False):
        return True

    @functools.wraps(read)
    def read_or_drop(self: Any, sequence: str) -> Any:
        try:
            return read(self, sequence)
        except (ValueError, OverflowError):
            # Textual's own "ignore" key: the parser takes the sequence as
            # read and drops it (with no key at all it would go on reading
            # and hand the app its bytes as keys: "[", "1", ";", ...).
            return [events.Key(Keys.Ignore, sequence)]

    setattr(read_or_drop, _GUARDED, True)
    parser._parse_extended_key = read_or_drop
    return True


__all__ = ["guard_key_parser"]
