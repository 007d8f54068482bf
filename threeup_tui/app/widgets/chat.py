"""Table chat: the lines, and an input to write one."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, RichLog

from ..session import ChatLine


def line_text(line: ChatLine) -> str:
    # Names and text are already cleaned, and go out as Text (never markup).
    if line.seat is None:
        return f"· {line.text}"
    return f"{line.name}: {line.text}"


class ChatPane(Vertical):
    @dataclass
    class Said(Message):
        text: str

    def __init__(self, *, id: str = "chat") -> None:
        super().__init__(id=id)
        self.border_title = "Chat (c)"

    def compose(self) -> ComposeResult:
        yield RichLog(id="chat-lines", max_lines=300, wrap=True, markup=False, min_width=16)
        yield Input(
            placeholder="c to chat, Enter to send", id="chat-input", compact=True, max_length=200
        )

    def load(self, lines: list[ChatLine]) -> None:
        log = self.query_one("#chat-lines", RichLog)
        log.clear()
        for line in lines:
            log.write(Text(line_text(line)))

    def add(self, line: ChatLine) -> None:
        self.query_one("#chat-lines", RichLog).write(Text(line_text(line)))

    def focus_input(self) -> None:
        self.query_one("#chat-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.post_message(self.Said(text))
        # Back to the cards: the table's keys work again.
        self.screen.set_focus(None)
