"""The bottom screen of a confined guest (the SSH door's player).

A guest's app has no start menu: this screen is all there is under the
table's screens, and it only says what is happening.  When the player
leaves the table the app ends (the SSH session with it).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Footer, Static


class GuestScreen(Screen[None]):
    BINDINGS = [Binding("q", "app.quit", "Leave")]

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static("Joining the table…", id="guest-status")
        yield Footer()
