"""A checkbox whose mark says its state in plain or monochrome text.

Textual's checkbox draws an X in both states and tells them apart by
colour alone: an unchecked box is an X in a near-background colour, which
reads as checked under NO_COLOR, on TERM=linux's eight colours, or on a
monochrome screen.  This one draws the X only when checked.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Checkbox


class TickBox(Checkbox):
    MARK = "X"

    @property
    def _button(self) -> Content:
        # The mark the button is drawn with, for this state (an instance
        # attribute shadows the class's).
        self.BUTTON_INNER = self.MARK if self.value else " "
        return super()._button


__all__ = ["TickBox"]
