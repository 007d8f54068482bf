"""The move log: every move in plain words, the newest at the bottom.

It draws the last moves that fit its box instead of scrolling: a growing
scroll view would cost a layout pass on every move, and the full history
is in the game record anyway.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from textual.content import Content
from textual.widget import Widget

from ...rules import LogEntry, View
from ..text import card_label

KEEP = 200


def entry_text(entry: LogEntry, names: tuple[str, ...]) -> str:
    """LogEntry.text with cards written as the app writes them (``BC+1``)."""
    return replace(entry, cards=tuple(card_label(c) for c in entry.cards)).text(names)


class MoveLog(Widget):
    """Appends the moves a new view adds; starts over with a new game."""

    def __init__(self) -> None:
        super().__init__(id="moves")
        self.border_title = "Moves"
        self.lines: deque[str] = deque(maxlen=KEEP)
        self._seen = 0  # moves_played already written
        self._wrapped: dict[tuple[str, int], list[Content]] = {}  # wrapping is the costly part

    def show(self, view: View, names: tuple[str, ...]) -> None:
        if view.moves_played < self._seen:
            self.lines.clear()
            self._seen = 0
        new = view.moves_played - self._seen
        if new <= 0:
            return
        entries = view.log[-new:] if new <= len(view.log) else view.log
        if new > len(view.log) and self._seen:
            self.lines.append("…")
        # Names are cleaned by the session; Content from a str is never markup.
        self.lines.extend(entry_text(e, names) for e in entries)
        self._seen = view.moves_played
        self.refresh()  # a repaint only: the box keeps its size

    def render(self) -> Content:
        width = self.content_region.width
        height = self.content_region.height
        if width <= 0 or height <= 0:
            return Content("")
        if len(self._wrapped) > 4 * KEEP:
            self._wrapped.clear()
        shown: list[Content] = []
        for text in reversed(self.lines):
            key = (text, width)
            wrapped = self._wrapped.get(key)
            if wrapped is None:
                wrapped = self._wrapped[key] = Content(text).wrap(width)
            shown[:0] = wrapped
            if len(shown) >= height:
                break
        return Content("\n").join(shown[-height:])
