"""Whether a key was typed before what it acts on was on the screen."""

from __future__ import annotations


def typed_unseen(typed_at: float | None, shown_at: float | None) -> bool:
    """Whether a key typed ``typed_at`` (Key.time, which the app keeps while
    the key's bindings run: None for a click, the palette, a key a widget
    handles itself) came before ``shown_at``, when the first frame showing
    what it acts on was handed to the terminal (None: not yet)."""
    if typed_at is None:
        return False  # not a key typed ahead
    return shown_at is None or typed_at < shown_at
