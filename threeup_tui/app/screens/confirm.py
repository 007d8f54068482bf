"""A yes/no question in a small modal (leaving a game, quitting)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..widgets.footer import KeysFooter
from ..widgets.status_line import StatusLine


class ConfirmScreen(ModalScreen[bool]):
    # Over a game: the app routes no table change while this is on top (app.route).
    covers_game: ClassVar[bool] = True

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, yes: str = "Yes (y)", no: str = "No (n)") -> None:
        super().__init__(id="confirm-screen")
        self.question = question
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box", classes="dialog"):
            # Plain words: a question may name a table from a file.
            yield Static(self.question, id="question", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(self.yes, id="yes", variant="error", compact=True)
                yield Button(self.no, id="no", variant="primary", compact=True)
            yield StatusLine()
        # Its own keys: the footer of the screen under it offered keys that
        # do nothing while the question is up.
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
