"""Text laid out for the width it is drawn at, by a function of that width.

Textual wraps a Static's text at the left edge: a replay's seat whose cards
ran past the line showed "(GC)" alone under the names, and the header's
"turn 25" wrapped onto its own line.  Here the text is made for the width
(shorter forms, a hanging indent), and the height follows it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget

Layout = Callable[[int], Content]


def hanging(content: Content, width: int, indent: int) -> Content:
    """``content`` wrapped at spaces to ``width`` cells; the lines a line
    wraps onto are indented by ``indent`` cells, so they read as its own."""
    width = max(width, indent + 1)
    lines: list[Content] = []
    for line in content.split("\n"):
        if line.cell_length <= width:
            lines.append(line)  # as it is, its spaces' styles and all
        else:
            lines.append(hanging_parts(line.split(" "), width, indent))
    return Content("\n").join(lines)


def hanging_parts(parts: Sequence[Content], width: int, indent: int) -> Content:
    """``parts`` side by side, a space between, as many to a line as fit
    ``width`` cells, a part never split between lines (one that holds a
    space too: "--code 'pizza night'"); the lines after the first indented
    by ``indent`` cells, so they read as the first one's."""
    width = max(width, indent + 1)
    pad = Content(" " * indent)
    lines: list[Content] = []
    current = parts[0] if parts else Content("")
    for part in parts[1:]:
        longer = current + Content(" ") + part
        if longer.cell_length <= width or not part.plain:
            current = longer
        else:
            lines.append(current.rstrip())
            current = pad + part
    lines.append(current.rstrip())
    return Content("\n").join(lines)


def packed(items: list[Content], width: int, sep: str = "   ") -> Content:
    """``items`` side by side, as many to a line as fit ``width``; an item
    is never split between lines (one wider than the line goes alone)."""
    lines: list[Content] = []
    for item in items:
        if lines and (lines[-1] + sep + item).cell_length <= width:
            lines[-1] = lines[-1] + sep + item
        else:
            lines.append(item)
    return Content("\n").join(lines)


class FittedText(Widget):
    """Draws ``layout(width)`` at the width it is given (height: auto)."""

    DEFAULT_CSS = "FittedText { height: auto; }"

    def __init__(self, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id, classes=classes)
        self._layout: Layout = lambda width: Content("")

    def update(self, layout: Layout) -> None:
        self._layout = layout
        self.refresh(layout=True)

    def lines_at(self, width: int) -> Content:
        return self._layout(max(width, 1))

    def render(self) -> Content:
        return self.lines_at(self.content_region.width)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # As drawn: a line still wider than the width (a name wider than
        # a narrow box) wraps, and is counted as the lines it takes.
        return len(self.lines_at(width).wrap(max(width, 1)))
