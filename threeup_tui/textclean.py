"""Untrusted text made safe to keep and to show: one cleaner for the table,
the settings file and the command line (no UI, no network); and counted
words for them all."""

from __future__ import annotations

import unicodedata

MAX_NAME = 24  # characters in a player's name
SHOWN_VALUE = 40  # characters of a value quoted in an error or a refusal


def shown_value(value: object) -> str:
    """A value as an error quotes it (a command-line argument, a peer's
    field): its repr, cut to SHOWN_VALUE characters, so that a long one
    makes no long line."""
    try:
        text = repr(value)
    except RecursionError:  # a peer's list nested 1,000 deep: msgpack allows 1,024
        text = f"a {type(value).__name__} nested too deep to show"
    return text if len(text) <= SHOWN_VALUE else text[: SHOWN_VALUE - 1] + "…"


def clean_text(text: object, limit: int) -> str:
    """Untrusted text with control and format characters removed (ESC, BEL,
    bidi overrides, zero-width...), line breaks and tabs made spaces,
    whitespace collapsed, trimmed to ``limit`` characters.

    The host cleans what it relays; the app also escapes Rich markup when it
    shows the text (defence in depth: a hostile client may skip our host).
    """
    if not isinstance(text, str):
        return ""
    return " ".join(without_controls(text).split())[:limit]


def without_controls(text: str) -> str:
    """``text`` without control and format characters (category C: ESC, BEL,
    bidi overrides, zero-width, unassigned, private use); line breaks and
    tabs become spaces, and runs of spaces are left for the caller."""
    return "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch)[0] != "C"
    )


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 game``, ``2 games`` (``words``: an irregular plural)."""
    return f"{n} {word if n == 1 else (words or word + 's')}"
