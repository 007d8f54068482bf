"""The discard pile (clickable: pick up) and the draw pile."""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

from ...rules import LogEntry, View
from ..text import card_content, rank_text

SHOWN = 7  # cards of the pile drawn at most; the count tells the rest


def _cleared_entry(view: View) -> LogEntry | None:
    """The last move, if it cleared the pile."""
    if view.log and view.log[-1].cleared:
        return view.log[-1]
    return None


class PileView(Static):
    """The top of the discard pile, its length and size, and a clear's moment."""

    @dataclass
    class Clicked(Message):
        pass

    def __init__(self) -> None:
        super().__init__(id="pile")
        self._key: tuple[object, ...] | None = None

    def show(self, view: View, names: tuple[str, ...]) -> None:
        cleared = _cleared_entry(view)
        key = (view.pile, view.draw_size, len(view.cleared), cleared, view.moves_played)
        if key == self._key:
            return
        self._key = key
        # The flash is tied to the move that cleared (not to a timer), so it
        # stays until the next move and every snapshot of it is the same.
        self.set_class(cleared is not None and not view.pile, "-cleared")
        self.update(self.render_pile(view, names, cleared), layout=False)  # always 3 lines

    @staticmethod
    def render_pile(view: View, names: tuple[str, ...], cleared: LogEntry | None) -> Content:
        lines: list[Content] = []
        if view.pile:
            top = view.pile[-1]
            run = view.top_run
            run_word = f" x{run}" if run > 1 else ""  # "top 7 x2": two 7s on top
            lines.append(
                Content.assemble(
                    ("Pile ", "bold"),
                    f"{len(view.pile)} card{'s' if len(view.pile) != 1 else ''} · top ",
                    (f"{rank_text(top)}{run_word}", "bold"),
                )
            )
            shown = view.pile[-SHOWN:]
            cards = [card_content(c) for c in shown]
            more = Content("… ") if len(view.pile) > SHOWN else Content("")
            lines.append(more + Content(" ").join(cards))
        elif cleared is not None:
            who = names[cleared.seat] if 0 <= cleared.seat < len(names) else "?"
            lines.append(Content.styled("✦ CLEARED ✦", "bold reverse $text-warning"))
            lines.append(Content.assemble("by ", (who, "bold")))
        else:
            lines.append(Content.styled("Pile empty", "bold"))
            lines.append(Content.styled("any card may start it", "$text-muted"))
        lines.append(
            Content.assemble(
                ("Draw pile ", "bold"),
                str(view.draw_size),
                (f" · out of game {len(view.cleared)}", "$text-muted"),
            )
        )
        return Content("\n").join(lines)

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Clicked())
