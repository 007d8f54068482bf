"""Rules and key help, rendered from Markdown."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Markdown, TabbedContent, TabPane

from ..rules_text import KEYS_HELP


class HelpScreen(Screen[None]):
    BINDINGS = [
        Binding("escape,q", "close", "Back"),
        Binding("k", "tab('keys')", "Keys"),
        Binding("r", "tab('rules')", "Rules"),
    ]

    def __init__(self, rules: str, tab: str = "rules") -> None:
        super().__init__(id="help-screen")
        self.rules = rules
        self.tab = tab

    def compose(self) -> ComposeResult:
        yield Header()
        with TabbedContent(initial=self.tab, id="help-tabs"):
            with TabPane("Rules", id="rules"), VerticalScroll():
                yield Markdown(self.rules, id="rules-md")
            with TabPane("Keys", id="keys"), VerticalScroll():
                yield Markdown(KEYS_HELP, id="keys-md")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab
