"""The footer of the game's screens: every key hint shows, at 80 columns too.

Textual's footer drops the hints that do not fit at its right end, without
a sign.  Below ``ROOMY`` columns this one packs its hints closer and leaves
out the command palette's own hint (ctrl+p still opens it, and the help
says so), which is what lets a table's nine keys fit at 80 columns.
"""

from __future__ import annotations

from textual.events import Resize
from textual.widgets import Footer

ROOMY = 100


class KeysFooter(Footer):
    def on_resize(self, event: Resize) -> None:
        narrow = self.app.size.width < ROOMY
        self.compact = narrow
        self.show_command_palette = not narrow

    def on_mount(self) -> None:
        narrow = self.app.size.width < ROOMY
        self.compact = narrow
        self.show_command_palette = not narrow


__all__ = ["KeysFooter"]
