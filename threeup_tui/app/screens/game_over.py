"""Game over: the winner or the places, rematch, save the record."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Static

from ...rules import View
from .base import TableScreenBase

DEFAULT_RECORD = "threeup-game.json"


def result_content(view: View, names: tuple[str, ...]) -> Content:
    """The result in words: winner, places, or a stalemate."""
    lines: list[Content] = []
    if view.winner is None:
        lines.append(Content.styled("Stalemate: 1000 turns and no winner.", "bold"))
    elif view.winner == view.seat:
        lines.append(Content.styled("You win!", "bold $text-success"))
    else:
        lines.append(Content.assemble((names[view.winner], "bold"), " wins."))
    if len(view.places) > 1:
        for i, seat in enumerate(view.places, start=1):
            lines.append(Content.assemble(f"{i}. ", names[seat]))
    turns = view.turn
    lines.append(Content.styled(f"{view.moves_played} moves, {turns} turns", "$text-muted"))
    return Content("\n").join(lines)


class GameOverScreen(ModalScreen[None]):
    """Shown over the final table; Esc goes back to look at it (g brings this back)."""

    BINDINGS = [
        Binding("r", "rematch", "Rematch"),
        Binding("s", "save", "Save record"),
        Binding("escape,t", "close", "See the table"),
        Binding("q", "leave", "Leave"),
    ]

    def __init__(self, table: TableScreenBase) -> None:
        super().__init__(id="game-over-screen")
        self.table = table

    def compose(self) -> ComposeResult:
        session = self.table.session
        view = session.view if session else None
        with Vertical(id="game-over", classes="dialog"):
            yield Static(Content.styled("Game over", "bold"), id="game-over-title")
            if view is not None and session is not None:
                yield Static(result_content(view, session.names()), id="result")
            yield Label("Save the record to:")
            yield Input(DEFAULT_RECORD, id="record-path", compact=True)
            with Horizontal(classes="buttons"):
                host = session is not None and session.is_host
                rematch = Button(
                    "Rematch (r)", id="rematch", variant="success", disabled=not host, compact=True
                )
                if not host:
                    rematch.tooltip = "only the host starts a rematch"
                yield rematch
                yield Button("Save (s)", id="save", variant="primary", compact=True)
                yield Button("Table (t)", id="close", compact=True)
                yield Button("Leave (q)", id="leave", variant="error", compact=True)
            if not host:
                yield Static("Waiting for the host to start a rematch…", id="rematch-wait")
        yield Footer()

    def on_mount(self) -> None:
        if self.query("#rematch").first(Button).disabled:
            self.query_one("#save", Button).focus()
        else:
            self.query_one("#rematch", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        action = {
            "rematch": self.action_rematch,
            "save": self.action_save,
            "close": self.action_close,
            "leave": self.action_leave,
        }
        action.get(event.button.id or "", lambda: None)()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def action_rematch(self) -> None:
        session = self.table.session
        if session is not None:
            session.client.rematch()

    def action_save(self) -> None:
        session = self.table.session
        path = self.query_one("#record-path", Input).value.strip() or DEFAULT_RECORD
        if session is not None:
            session.client.save_record(path)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_leave(self) -> None:
        self.table.game_app.leave_table()
