"""Table chat: the lines, and an input to write one.

The lines are one wrapped text in a scrolling pane, so they wrap again at
the pane's width whenever it changes (a resize, a scrollbar showing up):
no line loses its last letters.  The pane scrolls with ↑ ↓ PgUp PgDn Home
End once focused (Tab), and with the mouse wheel.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Static

from ..session import ChatLine

KEEP = 300
TITLE = "Chat (c)"
PLACEHOLDER = "c to chat, Enter to send"


def speaker(line: ChatLine) -> str:
    """Who said it: a player's name, or a spectator's marked as one, so that
    nobody's line can pass for the table's own ("· greedy bot 2 won")."""
    return f"{line.name} (watching)" if line.spectator else line.name


def line_text(line: ChatLine) -> str:
    # Names and text are already cleaned, and go out as Content (never markup).
    if line.seat is None and not line.spectator:
        return f"· {line.text}"
    return f"{speaker(line)}: {line.text}"


def line_content(line: ChatLine) -> Content:
    if line.seat is None and not line.spectator:
        return Content.styled(line_text(line), "$text-muted")
    return Content.assemble((f"{speaker(line)}:", "bold"), f" {line.text}")


class ChatLines(VerticalScroll):
    """The chat's lines, newest at the bottom, scrolled to the end as they come."""

    def __init__(self) -> None:
        super().__init__(id="chat-lines")
        self.lines: list[ChatLine] = []

    def compose(self) -> ComposeResult:
        yield Static(id="chat-text", markup=False)

    def set_lines(self, lines: list[ChatLine]) -> None:
        self.lines = list(lines[-KEEP:])
        follow = self.is_vertical_scroll_end or self.max_scroll_y == 0
        text = Content("\n").join(line_content(line) for line in self.lines)
        self.query_one("#chat-text", Static).update(text)
        if follow:
            # After the new text is laid out: then the end is where it ends.
            self.call_after_refresh(self.scroll_end, animate=False)

    @property
    def text(self) -> str:
        return "\n".join(line_text(line) for line in self.lines)


class ChatPane(Vertical):
    @dataclass
    class Said(Message):
        text: str

    def __init__(self, *, id: str = "chat") -> None:
        super().__init__(id=id)
        self.border_title = TITLE

    def compose(self) -> ComposeResult:
        yield ChatLines()
        yield Input(placeholder=PLACEHOLDER, id="chat-input", compact=True, max_length=200)

    @property
    def talk_allowed(self) -> bool:
        return not self.query_one("#chat-input", Input).disabled

    def allow_talk(self, allowed: bool) -> None:
        """A spectator at a table whose chat is the players' alone reads it
        and is told why there is nothing to type in."""
        self.border_title = TITLE if allowed else "Chat"
        box = self.query_one("#chat-input", Input)
        box.disabled = not allowed
        box.placeholder = PLACEHOLDER if allowed else "only players chat here"

    def load(self, lines: list[ChatLine]) -> None:
        self.query_one(ChatLines).set_lines(lines)

    def add(self, line: ChatLine) -> None:
        log = self.query_one(ChatLines)
        log.set_lines([*log.lines, line])

    def focus_input(self) -> None:
        # At once, not by Widget.focus (which waits for the keys already
        # queued): typed fast or pasted after `c`, a line's letters would
        # otherwise reach the table as keys ("quick" -> q: leave, p: play).
        self.screen.set_focus(self.query_one("#chat-input", Input))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.post_message(self.Said(text))
        # Back to the cards: the table's keys work again.
        self.screen.set_focus(None)
