"""Untrusted text made safe to keep and to show: one cleaner for the table,
the settings file and the command line (no UI, no network); and counted
words for them all."""

from __future__ import annotations

import unicodedata

MAX_NAME = 24  # characters in a player's name
SHOWN_VALUE = 40  # characters of a value quoted in an error or a refusal
SHOWN_DIGITS = 25  # digits of a whole number quoted whole; a longer one is cut
# Combining marks kept on one letter: enough for every script's names and
# words (Hindi's and Thai's vowel signs and tones are marks), and no pile of
# hundreds ("Zalgo" text) reaching across the rows above it on screen.
MAX_MARKS = 4


def shown_value(value: object) -> str:
    """A value as an error quotes it (a command-line argument, a peer's
    field, a number read from a file): its repr, cut to SHOWN_VALUE
    characters, so that a long one makes no long line; a whole number as
    ``shown_digits`` cuts it, with its count of digits."""
    if type(value) is int:
        try:
            return shown_digits(str(value))
        except ValueError:  # past Python's limit on digits (4,300)
            return "a whole number too long to show"
    try:
        text = repr(value)
    except RecursionError:  # a peer's list nested 1,000 deep: msgpack allows 1,024
        text = f"a {type(value).__name__} nested too deep to show"
    return text if len(text) <= SHOWN_VALUE else text[: SHOWN_VALUE - 1] + "…"


def shown_digits(digits: str) -> str:
    """A whole number's digits as an error quotes them: whole, unless they
    are many (a value of 4000 digits made a refusal of 4000 characters),
    then the first 20 and how many there are."""
    if len(digits) <= SHOWN_DIGITS:
        return digits
    return f"{digits[:20]}… ({len(digits.lstrip('-'))} digits)"


def clean_text(text: object, limit: int) -> str:
    """Untrusted text with control and format characters removed (ESC, BEL,
    bidi overrides, zero-width...), combining marks kept on letters only
    (``marks_on_letters``), line breaks and tabs made spaces, whitespace
    collapsed, trimmed to ``limit`` characters.

    The host cleans what it relays; the app also escapes Rich markup when it
    shows the text (defence in depth: a hostile client may skip our host).
    """
    if not isinstance(text, str):
        return ""
    return " ".join(marks_on_letters(without_controls(text)).split())[:limit]


# Unicode's default-ignorable code points that are not in category C: the
# Hangul fillers (letters that draw nothing), the grapheme joiner, Khmer's
# inherent vowels, the variation selectors.  A terminal may draw them 0, 1 or
# 2 cells wide while the app counts otherwise: a name of three HANGUL FILLERs
# was blank on screen, and pushed the chat box's right border out of sight
# (tmux draws each 2 cells wide, Rich counts 0).
_IGNORABLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0"
    + "".join(map(chr, range(0xFE00, 0xFE10)))
    + "".join(map(chr, range(0xE0100, 0xE01F0)))
    # The emoji skin-tone modifiers: one terminal joins 👍🏽 into one glyph 2
    # cells wide (as Rich counts it), tmux draws 👍 and 🏽 side by side, 4
    # cells: a chat line of three pushed the chat box's right border off the
    # screen.  👍 stays.
    + "".join(map(chr, range(0x1F3FB, 0x1F400)))
)


def without_controls(text: str) -> str:
    """``text`` without control and format characters (category C: ESC, BEL,
    bidi overrides, zero-width, unassigned, private use) and the other
    characters that draw nothing (``_IGNORABLE``); line breaks and tabs
    become spaces, and runs of spaces are left for the caller."""
    return "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or (unicodedata.category(ch)[0] != "C" and ch not in _IGNORABLE)
    )


def one_line(text: str) -> str:
    """``text`` as one line on a terminal: without control characters (an
    escape sequence in a file's name would be obeyed, a line break in it
    would make two lines), each run of whitespace one space."""
    return " ".join(without_controls(text).split())


def marks_on_letters(text: str) -> str:
    """``text`` without combining marks that follow no letter (at the start,
    after a space: alone they show as nothing, and they bend whatever stands
    before them on screen), and with at most MAX_MARKS on each letter."""
    kept: list[str] = []
    marks = MAX_MARKS  # none may come before the first letter
    for ch in text:
        if unicodedata.category(ch).startswith("M"):
            if marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = MAX_MARKS if ch.isspace() else 0
        kept.append(ch)
    return "".join(kept)


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 game``, ``2 games`` (``words``: an irregular plural)."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th...: a place as people write it."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
