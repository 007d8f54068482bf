"""Play / Pick up / Draw buttons, disabled when the view says no, with why."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Button, Static

from ..text import reason_words


@dataclass(frozen=True)
class ActionState:
    play: bool
    pickup: bool
    draw: bool
    reason: str  # shown beside the buttons: why the disabled ones are


class ActionBar(Horizontal):
    def compose(self) -> ComposeResult:
        # Buttons do not take focus: the table's keys (enter, u, d) act
        # whatever is focused, and Tab stays for chat.
        for label, id_, variant in (
            ("Play ⏎", "play", "success"),
            ("Pick up u", "pickup", "warning"),
            ("Draw d", "draw", "primary"),
        ):
            button = Button(label, id=id_, variant=variant, compact=True)  # type: ignore[arg-type]
            button.can_focus = False
            yield button
        yield Static(id="reason")

    _shown: ActionState | None = None

    def show(self, state: ActionState) -> None:
        if state == self._shown:
            return
        self._shown = state
        self.query_one("#play", Button).disabled = not state.play
        self.query_one("#pickup", Button).disabled = not state.pickup
        self.query_one("#draw", Button).disabled = not state.draw
        reason = reason_words(state.reason)
        # A fixed two-line box: no layout pass for a new reason.
        self.query_one("#reason", Static).update(
            Content.styled(reason, "$text-muted"), layout=False
        )
