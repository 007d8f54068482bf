"""Rules and key help, rendered from Markdown.

The page scrolls at once with ↑ ↓ PgUp PgDn Home End (no Tab first): the
open tab's page has the focus, and the screen's own keys scroll it
whatever is focused.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Markdown, TabbedContent, TabPane

from ..rules_text import KEYS_HELP
from ..widgets.footer import KeysFooter
from ..widgets.status_line import StatusLine

SCROLL_KEYS = [
    Binding("up", "scroll('up')", "Scroll", show=False),
    Binding("down", "scroll('down')", "Scroll", show=False),
    Binding("pageup", "scroll('page_up')", show=False),
    Binding("pagedown", "scroll('page_down')", show=False),
    Binding("home", "scroll('home')", show=False),
    Binding("end", "scroll('end')", show=False),
]


class HelpScreen(Screen[None]):
    # Over a game: the app routes no table change while this is on top (app.route).
    covers_game: ClassVar[bool] = True

    BINDINGS = [
        Binding("escape,q", "close", "Back"),
        Binding("k", "tab('keys')", "Keys"),
        Binding("r", "tab('rules')", "Rules"),
        *SCROLL_KEYS,
    ]

    def __init__(self, rules: str, tab: str = "rules") -> None:
        super().__init__(id="help-screen")
        self.rules = rules
        self.tab = tab

    def compose(self) -> ComposeResult:
        yield Header()
        with TabbedContent(initial=self.tab, id="help-tabs"):
            with TabPane("Rules", id="rules"), VerticalScroll(id="rules-page"):
                yield Markdown(self.rules, id="rules-md")
            with TabPane("Keys", id="keys"), VerticalScroll(id="keys-page"):
                yield Markdown(KEYS_HELP, id="keys-md")
        yield StatusLine()
        yield KeysFooter()

    def on_mount(self) -> None:
        self.page().focus()

    def page(self) -> VerticalScroll:
        """The open tab's scrolling page."""
        active = self.query_one(TabbedContent).active or self.tab
        return self.query_one(f"#{active}-page", VerticalScroll)

    @on(TabbedContent.TabActivated)
    def tab_opened(self) -> None:
        self.page().focus()

    def action_scroll(self, how: str) -> None:
        page = self.page()
        {
            "up": page.scroll_up,
            "down": page.scroll_down,
            "page_up": page.scroll_page_up,
            "page_down": page.scroll_page_down,
            "home": page.scroll_home,
            "end": page.scroll_end,
        }[how](animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab
