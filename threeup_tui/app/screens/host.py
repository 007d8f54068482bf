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

from ...addresses import DEFAULT_GAME_PORT, port_number
from ...bots import BOT_LEVELS
from ...launcher import HostSettings
from ...names import clean_name
from ..messages import HostRequested
from ..text import clean, plain
from ..widgets.line import InOrderInput
from .lobby import TURN_OFF, turn_time_choices, turn_time_value


class HostScreen(Screen[None]):
    BINDINGS = [Binding("escape", "back", "Back")]
    AUTO_FOCUS = "#host-name"

    def __init__(
        self, name: str = "host", bot_level: str = "greedy", port: int | None = None
    ) -> None:
        super().__init__(id="host-screen")
        self.default_name = name
        self.default_level = bot_level if bot_level in BOT_LEVELS else next(iter(BOT_LEVELS))
        # A `threeup host --port` that could not open comes back here with
        # its port, so that ⏎ tries that port again, not the default (0,
        # "any free port", is the command line's alone: shown as empty).
        self.default_port = str(port) if port else ""

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="host-form", classes="form"):
            yield Static(Content.styled("Host a table", "bold"), classes="form-title")
            with Horizontal(classes="field"):
                yield Label("Your name")
                yield InOrderInput(self.default_name, id="host-name", max_length=24, compact=True)
            yield _choice("Seats", [(str(n), n) for n in range(2, 7)], 4, "host-players")
            yield _choice("Bots now", _bot_counts(4), 0, "host-bots")
            yield _choice(
                "Bot level", [(lv, lv) for lv in BOT_LEVELS], self.default_level, "host-level"
            )
            with Horizontal(classes="field"):
                yield Label("Room code")
                yield InOrderInput(
                    placeholder="none: anyone may sit", id="host-code", max_length=32, compact=True
                )
            yield _choice("Turn time", turn_time_choices(), TURN_OFF, "host-turn-time")
            with Horizontal(classes="field"):
                yield Label("Port")
                yield InOrderInput(
                    self.default_port,
                    placeholder=f"{DEFAULT_GAME_PORT}, the usual one (UDP)",
                    id="host-port",
                    max_length=5,
                    restrict=r"[0-9]*",
                    compact=True,
                )
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
            # Cleaned as the table seats it (markup tags go too), so that the
            # table's name ("NAME's table") is the seated name's, as with
            # `threeup host --name`, not the letters typed.
            name=clean_name(self.query_one("#host-name", Input).value, "host"),
            turn_time=turn_time_value(self.query_one("#host-turn-time", Select).value),
            port=port_number(self._port_text()),
        )

    def _port_text(self) -> str:
        return self.query_one("#host-port", Input).value.strip()

    def _port_problem(self) -> str | None:
        """What is wrong with the port typed, in words; None if it is a port or empty."""
        typed = self._port_text()
        if not typed or port_number(typed) is not None:
            return None
        return f"{typed} is not a port (1-65535); leave it empty for {DEFAULT_GAME_PORT}"

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
        problem = self._port_problem()
        if problem is not None:
            self.query_one("#host-error", Static).update(plain(problem))
            self.query_one("#host-port", Input).focus()
            return
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
