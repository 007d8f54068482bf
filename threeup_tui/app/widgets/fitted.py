"""Text laid out for the width it is drawn at, by a function of that width.

Textual wraps a Static's text at the left edge: a replay's seat whose cards
ran past the line showed "(GC)" alone under the names, and the header's
"turn 25" wrapped onto its own line.  Here the text is made for the width
(shorter forms, a hanging indent), and the height follows it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.content import Content
from textual.css.styles import RulesMap
from textual.geometry import Size
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
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


class FittedLine(Visual):
    """``layout(width)`` as an option list's row: made for the width the list
    draws it at, as FittedText is for a widget.  A Content prompt is
    wrapped by the list (a seat's row at 40 columns took two lines, "open"
    under "2. seat 2 ○", and the list scrolled); this one is drawn anew,
    shorter, when the list's width changes (it clears its rows then).
    ``str()`` is the widest form's text: what the row says in full."""

    def __init__(self, layout: Layout, widest: int = 200) -> None:
        self._layout = layout
        self._widest = widest
        self._drawn: tuple[int, Content] | None = None

    def at(self, width: int) -> Content:
        width = max(width, 1)
        if self._drawn is None or self._drawn[0] != width:
            self._drawn = (width, self._layout(width))
        return self._drawn[1]

    def __str__(self) -> str:
        return self.at(self._widest).plain

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        return self.at(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.at(container_width).get_optimal_width(rules, container_width)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.at(width).get_height(rules, width)
