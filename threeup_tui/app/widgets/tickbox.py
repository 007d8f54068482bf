"""A checkbox whose mark says its state in plain or monochrome text.

Textual's checkbox draws an X in both states and tells them apart by
colour alone: an unchecked box is an X in a near-background colour, which
reads as checked under NO_COLOR, on TERM=linux's eight colours, or on a
monochrome screen.  This one draws the X only when checked.

Textual's checkbox is also one line as wide as its words, whatever room
its form has: at 40 columns "Only watch (a spectator, no seat)" lost "no
seat)" past the join form's edge without a sign.  This one is at most as
wide as its container and wraps its words onto more lines.
"""

from __future__ import annotations

from textual.content import Content
from textual.geometry import Size
from textual.widgets import Checkbox


class TickBox(Checkbox):
    MARK = "X"

    DEFAULT_CSS = """
    TickBox {
        max-width: 100%;
        text-wrap: wrap;
    }
    """

    @property
    def _button(self) -> Content:
        # The mark the button is drawn with, for this state (an instance
        # attribute shadows the class's).
        self.BUTTON_INNER = self.MARK if self.value else " "
        return super()._button

    def render(self) -> Content:
        # Textual pads the label with a blank at its end: in a box one cell
        # too narrow for that blank, "time)" was cut to "time…" instead of
        # wrapping.  Where it does not fit, the blank goes.
        content = super().render()
        return content.rstrip() if content.cell_length > self.content_size.width else content

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, len(super().render().rstrip().wrap(width)))


__all__ = ["TickBox"]
