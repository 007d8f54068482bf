"""Exceptions the engine raises, each carrying a plain-words message."""

from __future__ import annotations

from ..textclean import MAX_NAME


class RulesError(ValueError):
    """Base class: something the rules do not allow."""


class IllegalMove(RulesError):
    """An action that breaks a rule; the message names the rule and the cards."""


class SetupError(RulesError):
    """A deal or a face-up choice that the rules do not allow."""


def seat_words(seat: int, name: str) -> str:
    """A seat as the engine's messages name it: counted from 1, its player's
    name after it (``seat 2 (Ann)``; ``seat 2`` for no name).  Messages never
    make a possessive of the name ("you's hand", "Zoë 李's"): they say "the
    hand of seat 2 (you)", which reads well whatever the name, in a verdict
    and in the app's "Not allowed: ..." alike.

    The name is cut to MAX_NAME characters, as long as a table's names may
    be: a record's names are untrusted, and one of 100,000 characters made
    verify's verdict a line of 700 KB.  What it holds is left to the
    message's reader (verify's text takes control characters out; its
    JSON keeps them, escaped)."""
    shown = name[:MAX_NAME]
    return f"seat {seat + 1} ({shown})" if shown else f"seat {seat + 1}"
