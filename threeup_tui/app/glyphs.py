"""What the Linux console can show, and what the app draws there instead.

The console (``TERM=linux``) draws from a font of 256 or 512 glyphs.  The
kernel's own font holds IBM code page 437, and its Unicode map
(``drivers/tty/vt/cp437.uni``) says which characters reach a glyph:
``CONSOLE_CHARACTERS`` below, with ASCII.  Every other character shows as
the map's substitute, a square: a player on the console saw no tick on a
selected card, no gear on a bot's seat, no dot for who is here, and
Textual's borders and buttons (eighth blocks) as rows of squares.

Under ``TERM=linux`` (and its ``linux-*`` variants), and only there, the
app's output passes through ``FALLBACKS``: each glyph the console lacks
becomes one it has, one cell for one cell, so nothing moves.  Heavy lines
become double across and single down (the card frames stay three: plain,
under the cursor, selected); rounded corners become square ones; the
marks that carry meaning mostly become ASCII, which any console font
holds (a distro's font, Lat2-Terminus16 say, differs from the kernel's in
what else it holds).  Every other terminal gets exactly what it got
before: nothing passes through.
"""

from __future__ import annotations

import os

from textual.driver import Driver

# The characters that the kernel's default console font maps to a glyph
# (drivers/tty/vt/cp437.uni, as read from the kernel's tree: CP437 and its
# aliases; anything else shows as U+FFFD's glyph, a square).
_CONSOLE_RANGES = (  # first and last code point of each run
    (0x0020, 0x007E),
    (0x00A0, 0x00AE),
    (0x00B0, 0x00B2),
    (0x00B4, 0x00B8),
    (0x00BA, 0x00BD),
    (0x00BF, 0x00DD),
    (0x00DF, 0x00FD),
    (0x00FF, 0x00FF),
    (0x0192, 0x0192),
    (0x0393, 0x0393),
    (0x0398, 0x0398),
    (0x03A3, 0x03A3),
    (0x03A6, 0x03A6),
    (0x03A9, 0x03A9),
    (0x03B1, 0x03B2),
    (0x03B4, 0x03B5),
    (0x03BC, 0x03BC),
    (0x03C0, 0x03C0),
    (0x03C3, 0x03C4),
    (0x03C6, 0x03C6),
    (0x2022, 0x2022),
    (0x203C, 0x203C),
    (0x207F, 0x207F),
    (0x20A7, 0x20A7),
    (0x2126, 0x2126),
    (0x212A, 0x212B),
    (0x2190, 0x2195),
    (0x21A8, 0x21A8),
    (0x2208, 0x2208),
    (0x2219, 0x221A),
    (0x221E, 0x221F),
    (0x2229, 0x2229),
    (0x2248, 0x2248),
    (0x2261, 0x2261),
    (0x2264, 0x2265),
    (0x2302, 0x2302),
    (0x2310, 0x2310),
    (0x2320, 0x2321),
    (0x23BD, 0x23BD),
    (0x2500, 0x2500),
    (0x2502, 0x2502),
    (0x250C, 0x250C),
    (0x2510, 0x2510),
    (0x2514, 0x2514),
    (0x2518, 0x2518),
    (0x251C, 0x251C),
    (0x2524, 0x2524),
    (0x252C, 0x252C),
    (0x2534, 0x2534),
    (0x253C, 0x253C),
    (0x2550, 0x256C),
    (0x2580, 0x2580),
    (0x2584, 0x2584),
    (0x2588, 0x2588),
    (0x258C, 0x258C),
    (0x2590, 0x2593),
    (0x25A0, 0x25A0),
    (0x25AC, 0x25AC),
    (0x25B2, 0x25B2),
    (0x25B6, 0x25B6),
    (0x25BA, 0x25BA),
    (0x25BC, 0x25BC),
    (0x25C0, 0x25C0),
    (0x25C4, 0x25C4),
    (0x25C6, 0x25C6),
    (0x25CB, 0x25CB),
    (0x25D8, 0x25D9),
    (0x263A, 0x263C),
    (0x2640, 0x2640),
    (0x2642, 0x2642),
    (0x2660, 0x2660),
    (0x2663, 0x2663),
    (0x2665, 0x2666),
    (0x266A, 0x266B),
    (0xF804, 0xF804),
    (0xFFFD, 0xFFFD),
)
CONSOLE_CHARACTERS = frozenset(chr(c) for a, b in _CONSOLE_RANGES for c in range(a, b + 1))

# What the app (and Textual under it) draws that the console lacks, and
# what it draws there instead.  ▶ (to act), ○, ▒ (face down), · and the
# arrows are in the console's font and stay.
FALLBACKS = {
    # Marks that carry meaning.
    "✓": "*",  # a selected card, a seat that is ready
    "⚙": "#",  # a bot's seat
    "◐": "#",  # away or left: a bot plays the seat
    "●": "•",  # here (○, away, the console has)
    "⏎": "◄",  # the Enter key, as DOS drew it
    "✖": "X",  # the connection is closed, an error
    "⚠": "!",  # a warning
    "✦": "*",  # the pile cleared
    "⏱": "@",  # a seat's turn clock
    "…": "~",  # more left out
    "⭘": "○",  # Textual's checkbox and radio button
    # Heavy lines (the cursor's card frame, the big ranks): double across,
    # single down.  Not all double: the selected card's frame is double, and
    # the cursor on a selected card must still show; not single: that is a
    # card's plain frame (the rounded corners below).
    "━": "═", "┃": "│", "┏": "╒", "┓": "╕", "┗": "╘", "┛": "╛",
    "┣": "╞", "┫": "╡", "┳": "╤", "┻": "╧", "╋": "╪",
    "╸": "═", "╺": "═", "╹": "│", "╻": "│",
    # Rounded corners (a card, a pane): square ones.
    "╭": "┌", "╮": "┐", "╰": "└", "╯": "┘",
    # Dashed lines (an empty slot): still dashed.
    "┄": "-", "┈": "-", "┆": ":", "┊": ":",
    # Textual's eighth blocks (the tall borders of buttons and inputs, the
    # scroll bars): the half block on the same side, in the same colours.
    "▔": "▀", "▁": "▄", "▂": "▄", "▃": "▄", "▅": "▄", "▆": "▄", "▇": "█",
    "▏": "▌", "▎": "▌", "▍": "▌", "▋": "▌", "▊": "▌", "▉": "█", "▕": "▐",
}  # fmt: skip

_TABLE = str.maketrans(FALLBACKS)


def on_the_console(term: str | None = None) -> bool:
    """Whether ``term`` (TERM, by default) names the Linux console."""
    name = (os.environ.get("TERM", "") if term is None else term).strip().lower()
    return name == "linux" or name.startswith("linux-")


def for_the_console(text: str) -> str:
    """``text`` as the console can show it (escapes pass unchanged)."""
    return text.translate(_TABLE)


def console_driver(base: type[Driver]) -> type[Driver]:
    """``base`` (the driver Textual chose) writing for the console: every
    frame through ``FALLBACKS``.  Below the screens, so that no screen or
    widget (nor Textual's own) draws differently for it."""

    class ConsoleDriver(base):  # type: ignore[valid-type,misc]
        def write(self, data: str) -> None:
            super().write(data.translate(_TABLE))

    ConsoleDriver.__name__ = f"Console{base.__name__}"
    return ConsoleDriver
