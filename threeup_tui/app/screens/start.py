"""The start screen: Enter and you are playing against bots."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ...bots import BOT_LEVELS
from ..text import card_content

LOGO = """\
 ╔═╗╦ ╦╔═╗  ╔═╗╔╦╗╔═╗╦ ╦╔╗╔
  ═╣║ ║╠═╝   ═╣ ║║║ ║║║║║║║
 ╚═╝╚═╝╩    ╚═╝═╩╝╚═╝╚╩╝╝╚╝"""

MENU = [
    ("play", "Play against bots"),
    ("host", "Host a table"),
    ("join", "Join a table"),
    ("rules", "Rules and keys"),
    ("quit", "Quit"),
]


class StartScreen(Screen[None]):
    BINDINGS = [
        Binding("plus,equals_sign", "players(1)", "More players", key_display="+"),
        Binding("minus", "players(-1)", "Fewer players", key_display="-"),
        Binding("b", "bot_level", "Bot level"),
        Binding("question_mark", "rules", "Rules", key_display="?"),
        Binding("q", "quit_app", "Quit"),
    ]
    AUTO_FOCUS = "#menu"

    def __init__(self, players: int = 4, bot_level: str = "greedy") -> None:
        super().__init__(id="start-screen")
        self.players = players
        self.bot_level = bot_level

    def compose(self) -> ComposeResult:
        with Vertical(id="start-box"):
            yield Static(Content.styled(LOGO, "bold $text-accent"), id="logo")
            yield Static(
                Content.assemble(
                    Content(" ").join(card_content(c) for c in ("R3", "G3", "B3")),
                    "   up, three down, and a pile to beat   ",
                    ("▒ ▒ ▒", "$text-muted"),
                ),
                id="tagline",
            )
            with Center():
                yield OptionList(*(Option(text, id=key) for key, text in MENU), id="menu")
            yield Static(id="play-settings")
        yield Footer()

    def on_mount(self) -> None:
        self._show_settings()

    def _show_settings(self) -> None:
        bots = self.players - 1
        self.query_one("#play-settings", Static).update(
            Content.assemble(
                "You against ",
                (f"{bots} {self.bot_level} bot{'s' if bots > 1 else ''}", "bold"),
                ("   + / - players · b bot level", "$text-muted"),
            )
        )

    def action_players(self, step: int) -> None:
        self.players = min(6, max(2, self.players + step))
        self._show_settings()

    def action_bot_level(self) -> None:
        levels = list(BOT_LEVELS)
        i = levels.index(self.bot_level) if self.bot_level in levels else -1
        self.bot_level = levels[(i + 1) % len(levels)]
        self._show_settings()

    def action_rules(self) -> None:
        from ..app import ThreeUpApp

        if isinstance(self.app, ThreeUpApp):
            self.app.show_help("rules")

    def action_quit_app(self) -> None:
        self.app.exit(0)

    @on(OptionList.OptionSelected, "#menu")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        from ..app import ThreeUpApp

        app = self.app
        if not isinstance(app, ThreeUpApp):
            return
        key = event.option.id
        if key == "play":
            spec = app.start_spec  # a seed or name given on the command line still applies
            app.start_play(self.players, self.bot_level, spec.seed, spec.name)
        elif key == "host":
            app.open_host_form()
        elif key == "join":
            app.open_join_form()
        elif key == "rules":
            app.show_help("rules")
        elif key == "quit":
            app.exit(0)
