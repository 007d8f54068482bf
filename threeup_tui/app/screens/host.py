"""Host a table: a few settings, then the lobby."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static

from ...bots import BOT_LEVELS
from ...launcher import HostSettings
from ..messages import HostRequested
from ..text import clean, plain
from .lobby import TURN_OFF, turn_time_choices, turn_time_value


class HostScreen(Screen[None]):
    BINDINGS = [Binding("escape", "back", "Back")]
    AUTO_FOCUS = "#host-name"

    def __init__(self, name: str = "host", bot_level: str = "greedy") -> None:
        super().__init__(id="host-screen")
        self.default_name = name
        self.default_level = bot_level if bot_level in BOT_LEVELS else next(iter(BOT_LEVELS))

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="host-form", classes="form"):
            yield Static(Content.styled("Host a table", "bold"), classes="form-title")
            with Horizontal(classes="field"):
                yield Label("Your name")
                yield Input(self.default_name, id="host-name", max_length=24, compact=True)
            yield _choice("Seats", [(str(n), n) for n in range(2, 7)], 4, "host-players")
            yield _choice("Bots now", _bot_counts(4), 0, "host-bots")
            yield _choice(
                "Bot level", [(lv, lv) for lv in BOT_LEVELS], self.default_level, "host-level"
            )
            with Horizontal(classes="field"):
                yield Label("Room code")
                yield Input(
                    placeholder="none: anyone may sit", id="host-code", max_length=32, compact=True
                )
            yield _choice("Turn time", turn_time_choices(), TURN_OFF, "host-turn-time")
            yield Static(id="host-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Open the table", id="open", variant="success", compact=True)
                yield Button("Back", id="back", compact=True)
        yield Footer()

    def settings(self) -> HostSettings:
        players = int(str(self.query_one("#host-players", Select).value))
        bots = min(int(str(self.query_one("#host-bots", Select).value)), players - 1)
        code = clean(self.query_one("#host-code", Input).value, 32) or None
        return HostSettings(
            players=players,
            bots=bots,
            bot_level=str(self.query_one("#host-level", Select).value),
            code=code,
            name=clean(self.query_one("#host-name", Input).value, 24) or "host",
            turn_time=turn_time_value(self.query_one("#host-turn-time", Select).value),
        )

    @on(Select.Changed, "#host-players")
    def seats_changed(self, event: Select.Changed) -> None:
        """Offer only as many bots as the seats leave beside the host's own:
        5 bots at 3 seats were offered, and quietly became 2."""
        players = int(str(event.value))
        bots = self.query_one("#host-bots", Select)
        keep = min(int(str(bots.value)), players - 1)
        bots.set_options(_bot_counts(players))
        bots.value = keep

    @on(Button.Pressed, "#open")
    @on(Input.Submitted)
    def open_table(self) -> None:
        self.query_one("#host-error", Static).update("")
        self.post_message(HostRequested(self.settings()))

    def show_error(self, error: str) -> None:
        self.query_one("#host-error", Static).update(plain(f"Could not open the table: {error}"))

    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        self.dismiss(None)


def _bot_counts(players: int) -> list[tuple[str, int]]:
    """The "Bots now" choices: 0 up to every seat but the host's."""
    return [(str(n), n) for n in range(players)]


def _choice(label: str, options: list[tuple[str, Any]], value: Any, widget_id: str) -> Horizontal:
    """One labelled drop-down of the form."""
    select = Select(options, value=value, allow_blank=False, id=widget_id, compact=True)
    return Horizontal(Label(label), select, classes="field")
