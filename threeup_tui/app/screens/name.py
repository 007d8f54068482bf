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
from ..widgets.line import InOrderInput
from .sight import typed_unseen


class NameInput(InOrderInput):
    """The name's line: its ⏎ keeps the name only if typed with the box in
    sight.  Keys that come at once (typed fast, or pasted into a terminal
    that does not bracket pastes) were read with the `n` that opened the
    box, and the ⏎ among them kept what they typed: "name Zed⏎", meant for
    the shell, saved "ame Zed" as the player's name before the box was ever
    on the screen.  Such keys are typed into the box, and its player, who
    sees it now, keeps (⏎) or cancels (Esc) what it holds."""

    async def action_submit(self) -> None:
        screen = self.screen
        if isinstance(screen, NameScreen) and screen.typed_unseen():
            return
        await super().action_submit()


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

    # When the first frame showing the box was handed to the terminal (the
    # app's post_display_hook calls frame_shown).
    shown_at: float | None = None

    HINT = "⏎ keep it · Esc cancel"  # what the keys do, under the box

    def __init__(self, name: str = "") -> None:
        super().__init__(id="name-screen")
        self.current = name

    def compose(self) -> ComposeResult:
        with Vertical(id="name-box"):
            yield Static(Content.styled("Your name at the table", "bold"))
            yield NameInput(
                self.current, placeholder="you", id="name-input", max_length=MAX_NAME, compact=True
            )
            yield Static(Content.styled(self.HINT, MUTED))
        # Its own keys: the start screen's bar under it offered "b Bot
        # level", "? Rules", "q Quit", which here only type into the name.
        yield KeysFooter()

    def frame_shown(self, at: float) -> None:
        if self.shown_at is None and self.is_mounted:
            self.shown_at = at

    def typed_unseen(self) -> bool:
        """Whether the key being handled was typed before the box was on
        the screen (Key.time, which the app keeps while a key's bindings
        run; None for a key the input handles itself, in sight)."""
        return typed_unseen(getattr(self.app, "key_typed_at", None), self.shown_at)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        # Cleaned and cut (24 terminal cells) as the table will seat it, so
        # the start screen shows the name that sits down, not a longer one.
        self.dismiss(clean_name(event.value, ""))

    def action_cancel(self) -> None:
        self.dismiss(None)
