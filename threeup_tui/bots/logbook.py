"""The whole public log of a game, pieced together from views that carry
only its last few moves (a network client's: the wire sends the last six).

A bot that reads the whole log (``Bot.log_length`` None: the expert's
inference replays it from the deal) gets it from the views it has seen,
when they leave no gap; when they do (more moves went by between two views
than a view carries, or the bot joined mid-game), it gets the view as it
came, and decides without the log's evidence, as it must.
"""

from __future__ import annotations

from dataclasses import replace

from ..rules.views import LogEntry, View


class LogBook:
    """The log of the game the views are from, as far as they tell it."""

    def __init__(self) -> None:
        self._entries: list[LogEntry] = []  # from the deal on, while no move was missed

    def see(self, view: View) -> None:
        """Take in what ``view``'s log tells (views in the order they came)."""
        if view.phase == "setup" or view.moves_played < len(self._entries):
            self._entries = []  # a new game (or an older view)
        first = view.moves_played - len(view.log)
        if first <= len(self._entries):  # else moves went by that no view showed
            self._entries[first:] = view.log

    def view_for(self, view: View, length: int | None) -> View:
        """``view`` with at least the last ``length`` moves of the log (None:
        all of them) when the views seen so far tell them; else ``view``."""
        self.see(view)
        moves = view.moves_played
        wanted = moves if length is None else min(length, moves)
        if len(view.log) >= wanted:
            return view
        if len(self._entries) == moves:
            return replace(view, log=tuple(self._entries[moves - wanted :]))
        return view
