"""Your name: asked in a small box (the start screen's n)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ...names import clean_name
from ...textclean import MAX_NAME
from ..text import MUTED
from ..widgets.footer import KeysFooter


class NameScreen(ModalScreen[str | None]):
    """Dismissed with the cleaned name (⏎), or None (Esc)."""

    # Not the shared .dialog look: the app's stylesheet would outrank these.
    DEFAULT_CSS = """
    #name-box {
        width: 44;
        max-width: 100%;
        height: auto;
        padding: 1 2;
        border: thick $primary;
        background: $surface;
    }
    #name-input { margin: 1 0; background: $boost; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    AUTO_FOCUS = "#name-input"

    HINT = "⏎ keep it · Esc cancel"  # what the keys do, under the box

    def __init__(self, name: str = "") -> None:
        super().__init__(id="name-screen")
        self.current = name

    def compose(self) -> ComposeResult:
        with Vertical(id="name-box"):
            yield Static(Content.styled("Your name at the table", "bold"))
            yield Input(
                self.current, placeholder="you", id="name-input", max_length=MAX_NAME, compact=True
            )
            yield Static(Content.styled(self.HINT, MUTED))
        # Its own keys: the start screen's bar under it offered "b Bot
        # level", "? Rules", "q Quit", which here only type into the name.
        yield KeysFooter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        # Cleaned and cut (24 terminal cells) as the table will seat it, so
        # the start screen shows the name that sits down, not a longer one.
        self.dismiss(clean_name(event.value, ""))

    def action_cancel(self) -> None:
        self.dismiss(None)
