"""Exceptions the engine raises, each carrying a plain-words message."""

from __future__ import annotations


class RulesError(ValueError):
    """Base class: something the rules do not allow."""


class IllegalMove(RulesError):
    """An action that breaks a rule; the message names the rule and the cards."""


class SetupError(RulesError):
    """A deal or a face-up choice that the rules do not allow."""
