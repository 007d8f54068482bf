"""The discard pile (clickable: pick up) and the draw pile.

Small terminals get three lines: the pile's size and the run on top ("top 7,
two 7s: one more clears"), its last cards, the draw pile.  Roomy ones draw the
top cards fanned as cards, the run on top in the title, the draw pile as a
card back with its count, and the last move in one line at the bottom.
A card landing on the pile is highlighted for a moment (unless animation
is off); a clear shows until the next discard.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.events import Click, Resize
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget

from ...rules import LogEntry, View
from ...textclean import plural
from ..text import CARD_STYLES, MUTED, card_content, fit_parts, number_words, rank_label
from .card_art import CARD_H, CARD_W, STRIP_W, back_lines, face_lines, fan_lines, gone_lines

LANDED_FOR = 0.6  # seconds a card that lands stays highlighted
FAN_MOST = 6  # cards of the pile fanned at most; the title counts them all


def _cleared_entry(view: View) -> LogEntry | None:
    """The last discard, if it cleared the pile and the pile is as it left it.

    An early draw after a Clear +1 or +2 (D10) leaves the pile alone: the
    clear, and the extra discards it gave, still say why the pile is empty
    and why the same player discards next."""
    for entry in reversed(view.log):
        if entry.kind != "draw":
            return entry if entry.cleared else None
    return None


def run_words(view: View) -> str:
    """The run on top in words: "top 7", "two 7s: one more clears"."""
    if not view.pile:
        return ""
    rank = rank_label(view.pile[-1])
    run = view.top_run
    if run < 2:
        return f"top {rank}"
    more = 3 - run
    tail = f": {number_words(more)} more clears" if more > 0 else ""
    return f"{number_words(run)} {rank}s{tail}"


def clear_words(entry: LogEntry) -> str:
    """What cleared the pile, from the move that did."""
    card = entry.cards[-1] if entry.cards else ""
    rank = card[1:]
    if rank == "C":
        return "with a Clear"
    if rank in ("C1", "C2"):
        n = int(rank[1])
        if entry.out:
            # Its extra discards are never made: the player has no card left
            # (at a table playing for places the next player's turn comes).
            return f"with a Clear +{n}, going out"
        return f"with a Clear +{n}: {plural(n, 'extra discard')}"
    if card:
        return f"with three or more {rank_label(card)}s"
    return "cleared"


@dataclass(frozen=True)
class PileState:
    pile: tuple[str, ...]
    draw_size: int
    cleared_count: int
    cleared_by: LogEntry | None
    who: str  # the name of the clearing seat
    run: str
    moves_played: int
    last_move: str  # the last move in words ("" before the first)


class PileView(Widget):
    """The top of the discard pile, its length and size, and a clear's moment."""

    @dataclass
    class Clicked(Message):
        pass

    def __init__(self) -> None:
        super().__init__(id="pile")
        self.state: PileState | None = None
        self.landed = 0  # how many top cards are highlighted now
        self._timer: Timer | None = None
        self._drawn: tuple[object, Content] | None = None  # (what, how wide, lit), drawn

    def show(
        self, view: View, names: tuple[str, ...], last_move: str = "", animate: bool = False
    ) -> None:
        cleared = _cleared_entry(view)
        who = ""
        if cleared is not None:
            who = names[cleared.seat] if 0 <= cleared.seat < len(names) else "?"
        state = PileState(
            view.pile,
            view.draw_size,
            len(view.cleared),
            cleared,
            who,
            run_words(view),
            view.moves_played,
            last_move,
        )
        if state == self.state:
            return
        before = self.state
        self.state = state
        # The flash is tied to the move that cleared (not to a timer), so it
        # stays until the next discard and every snapshot of it is the same.
        self.set_class(cleared is not None and not view.pile, "-cleared")
        landed = 0
        if animate and before is not None and view.moves_played == before.moves_played + 1:
            entry = view.log[-1] if view.log else None
            if entry is not None and not entry.cleared and entry.kind in ("play", "flip"):
                landed = 0 if entry.flip_failed else len(entry.cards)
        self._highlight(landed)
        self._titles()
        self.refresh()  # a fixed size: a repaint, no layout

    # ---------------------------------------------------------------- landing
    def _highlight(self, count: int) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.landed = count
        self.set_class(count > 0, "-landed")
        if count:
            self._timer = self.set_timer(LANDED_FOR, self.end_highlight)

    def end_highlight(self) -> None:
        """The landing highlight is over (also: a picture wants it gone now)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.landed:
            self.landed = 0
            self.set_class(False, "-landed")
            self.refresh()

    # ---------------------------------------------------------------- drawing
    @property
    def roomy(self) -> bool:
        return self.screen.has_class("-roomy") and self.size.height >= CARD_H

    def _titles(self) -> None:
        state = self.state
        if state is None:
            return
        width = max(self.size.width - 4, 8)
        if not self.roomy:
            self.border_title = None
            self.border_subtitle = None
            return
        if state.pile:
            title = [
                [
                    f"Pile · {plural(len(state.pile), 'card')} · {state.run}",
                    f"Pile {len(state.pile)} · {state.run}",
                ]
            ]
        elif state.cleared_by is not None:
            title = [[f"✦ CLEARED ✦ by {state.who}", "✦ CLEARED ✦"]]
        else:
            title = [["Pile empty: any card may start it", "Pile empty"]]
        self.border_title = fit_parts([[Content(t) for t in title[0]]], width)
        self.border_subtitle = (
            fit_parts([[Content(state.last_move)]], width) if state.last_move else None
        )

    def on_resize(self, event: Resize) -> None:
        self._titles()
        self.refresh()

    def render(self) -> Content:
        state = self.state
        if state is None:
            return Content("")
        width = max(self.content_region.width, 1)
        key = (state, width, self.roomy, self.landed)
        if self._drawn is not None and self._drawn[0] == key:
            return self._drawn[1]
        drawn = self._draw(state, width)
        self._drawn = (key, drawn)
        return drawn

    def _draw(self, state: PileState, width: int) -> Content:
        if self.roomy:
            return Content("\n").join(self._roomy_lines(state, width))
        return Content("\n").join(
            fit_parts([[line]], width) for line in self._compact_lines(state, width)
        )

    def _landed_style(self, index: int, count: int) -> bool:
        return self.landed > 0 and index >= count - self.landed

    def _compact_lines(self, state: PileState, width: int) -> list[Content]:
        lines: list[Content] = []
        if state.pile:
            n = len(state.pile)
            size = [
                Content.assemble(("Pile ", "bold"), plural(n, "card")),
                Content.styled(f"Pile {n}", "bold"),
            ]
            run = [
                Content.styled(state.run, "bold"),
                Content.styled(state.run.split(":")[0], "bold"),
            ]
            lines.append(fit_parts([size, run], width, " · ", order=[0, 1]))
            # As many of the top cards as fit, the newest on the right.
            cards = [card_content(c) for c in state.pile]
            for i in range(len(cards)):
                if self._landed_style(i, len(cards)):
                    cards[i] = cards[i].stylize("reverse")
            shown: list[Content] = []
            used = 0
            for card in reversed(cards):
                need = card.cell_length + (1 if shown else 0)
                if used + need > width - 2:
                    break
                shown.insert(0, card)
                used += need
            more = Content("… ") if len(shown) < len(cards) else Content("")
            lines.append(more + Content(" ").join(shown))
        elif state.cleared_by is not None:
            lines.append(
                Content.assemble(
                    ("✦ CLEARED ✦", "bold reverse $text-warning"), " by ", (state.who, "bold")
                )
            )
            lines.append(Content.styled(clear_words(state.cleared_by), MUTED))
        else:
            lines.append(Content.styled("Pile empty", "bold"))
            lines.append(Content.styled("any card may start it", MUTED))
        lines.append(self._draw_words(state))
        return lines

    @staticmethod
    def _draw_words(state: PileState) -> Content:
        return Content.assemble(
            ("Draw pile ", "bold"),
            str(state.draw_size),
            (f" · out of game {state.cleared_count}", MUTED),
        )

    def _roomy_lines(self, state: PileState, width: int) -> list[Content]:
        # The draw pile and its words take the right; the fan gets the rest.
        side = [
            Content.assemble(("Draw pile ", "bold"), str(state.draw_size)),
            Content.styled(f"out of game {state.cleared_count}", MUTED),
            Content(""),
            Content(""),
            Content(""),
        ]
        if state.cleared_by is not None and not state.pile:
            side[2] = Content.styled(clear_words(state.cleared_by), "$text-warning")
        draw = (
            back_lines(str(state.draw_size), style=MUTED, frame=MUTED)
            if state.draw_size
            else gone_lines()
        )
        side_width = max(c.cell_length for c in side)
        # The fan has a place of its own, as wide as its most cards: the draw
        # pile beside it stays put as the pile grows.
        room = min(width - CARD_W - 2 - side_width - 3, STRIP_W * (FAN_MOST - 1) + CARD_W)
        fan = self._fan(state, max(room, CARD_W))
        place = max(room, max((f.cell_length for f in fan), default=0)) + 3
        lines = []
        for i in range(CARD_H):
            left = fan[i] if i < len(fan) else Content("")
            left = left + Content(" " * (place - left.cell_length))
            lines.append(left + draw[i] + Content("  ") + side[i])
        return [fit_parts([[line]], width) for line in lines]

    def _fan(self, state: PileState, room: int) -> list[Content]:
        if not state.pile:
            if state.cleared_by is not None:
                # The card that cleared, faded: the moment of the clear.
                code = state.cleared_by.cards[-1] if state.cleared_by.cards else None
                if code is not None:
                    return [
                        line.stylize("dim")
                        for line in face_lines(code, style=CARD_STYLES.get(code[0], ""))
                    ]
            return gone_lines()
        most = max(1, min(FAN_MOST, (room - CARD_W) // STRIP_W + 1))
        top = list(state.pile[-most:])
        count = len(top)
        strips = []
        for i, code in enumerate(top[:-1]):
            style = CARD_STYLES.get(code[0], "")
            if self._landed_style(i, count):
                style += " reverse"
            strips.append(face_lines(code, style=style, strip=True))
        code = top[-1]
        style = CARD_STYLES.get(code[0], "")
        if self._landed_style(count - 1, count):
            style += " reverse"
        return fan_lines(strips, face_lines(code, style=style, frame=CARD_STYLES.get(code[0], "")))

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Clicked())
