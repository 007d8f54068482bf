"""One opponent's pane: name, presence, hand size, face-up, face-down, known cards.

A one-line row on small terminals, a box on roomy ones.  Every line is
fitted to the pane's width when it is drawn: long words give way to short
ones, and a run of known cards too long for the line shows its first cards
and how many more (``known G1 G2 B2 …+4``), never a silently shorter list.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.events import Resize
from textual.widget import Widget

from ...client import SeatSlot
from ...rules import SeatInfo
from ..session import presence
from ..text import MUTED, cards_forms, fit_parts, out_content


@dataclass(frozen=True)
class OpponentInfo:
    info: SeatInfo
    name: str  # cleaned
    slot: SeatSlot | None
    to_act: bool
    phase: str
    place: int | None  # 1-based finishing place (finish: places)
    seats: int  # at the table: the last place is told apart
    clock: str = ""  # a quiet "⏱ 25s" while this seat's turn clock runs
    live: bool = True  # our connection is up (closed: nobody's presence is known)


def head_forms(data: OpponentInfo) -> list[Content]:
    """The name line, from the longest form to the shortest."""
    symbol, word = presence(data.slot, data.live)
    marker = ("▶ ", "bold $text-accent") if data.to_act else ("  ", "")
    clock = Content.styled(f" {data.clock}", MUTED) if data.clock else Content("")
    name = Content.styled(data.name, "bold")
    forms = []
    if word:
        forms.append(Content.assemble(marker, name, (f" {symbol} {word}", MUTED)) + clock)
    if symbol:
        forms.append(Content.assemble(marker, name, (f" {symbol}", MUTED)) + clock)
    forms.append(Content.assemble(marker, name) + clock)
    return forms


def status_forms(data: OpponentInfo) -> list[Content] | None:
    """What replaces the cards once the seat is out, or during set-up."""
    info = data.info
    if info.out:
        return [out_content(data.place, data.seats)]
    if data.phase == "setup":
        return [Content("ready ✓" if info.ready else "choosing…")]
    return None


def down_forms(info: SeatInfo) -> list[Content]:
    down = "▒" * info.face_down_count or "-"
    return [Content(f"down {down}"), Content(down)]


def hand_forms(info: SeatInfo) -> list[Content]:
    return [Content(f"hand {info.hand_size}")]


def known_forms(info: SeatInfo) -> list[Content]:
    """The known cards, cut short with a count of the rest, then a count alone."""
    if not info.known:
        return []
    return [*cards_forms(info.known, "known"), Content(f"{len(info.known)} known")]


# Narrow, the bars lose their spaces before a card is left out of the row:
# at 40 columns the row ended "up R7 …+2…" or "▒▒▒…", the up cards and then
# the down cards cut for the spaces around four bars.
SEPARATORS = (" │ ", "│")


def compact_line(data: OpponentInfo, width: int) -> Content:
    """The one-line row: head │ hand │ up │ down │ known.

    What gives way, first to last: the presence word, the word "down", the
    known cards (to a count of them), the spaces around the bars and with
    them the word "up" (on every tight row: one row with "up" and the next
    without read as two different things), the known cards (a "…" says
    they went), the up cards (to a count of the rest), then whole parts
    from the end.  The name is never cut
    while anything else can go: two bots' names cut short would read alike."""
    info = data.info
    status = status_forms(data)
    if status is not None:
        return fit_parts([head_forms(data), status], width, " │ ", order=[0])
    head, hand = head_forms(data), hand_forms(info)
    down, known = down_forms(info), known_forms(info)
    up = cards_forms(info.face_up, "up")
    bare = cards_forms(info.face_up)  # without "up", then cut short
    order = [0, 3, *[4] * len(known), 0]
    tries: list[tuple[str, list[list[Content]]]] = [
        (SEPARATORS[0], [head, hand, up[:1], down, known]),
        (SEPARATORS[1], [head, hand, bare[:1], down, known]),
    ]
    if known:
        # They go before the up cards are cut, a "…" of their own saying so
        # ("▒▒▒…" read as more face-down cards).
        gone = [Content.styled("…", MUTED)]
        tries.append((SEPARATORS[1], [head, hand, bare[:1], down, gone]))
    for sep, parts in tries:
        shortest = Content(sep).join(forms[-1] for forms in parts if forms)
        if shortest.cell_length <= width:
            return fit_parts(parts, width, sep, order=order)
    parts = [head, hand, bare, down, known]
    return fit_parts(parts, width, SEPARATORS[1], order=order, drop=[4])


def box_lines(data: OpponentInfo, width: int) -> list[Content]:
    """The lines of the roomy box, each fitted to ``width``."""
    info = data.info
    lines = [fit_parts([head_forms(data)], width)]
    status = status_forms(data)
    if status is not None:
        return [*lines, fit_parts([status], width)]
    lines.append(fit_parts([hand_forms(info), down_forms(info)], width, "  "))
    lines.append(fit_parts([cards_forms(info.face_up, "up")], width))
    if info.known:
        lines.append(fit_parts([cards_forms(info.known, "known")], width))
    return lines


class OpponentPane(Widget):
    """A compact one-line row on small terminals, a box on roomy ones."""

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"opp-{seat}", classes="opponent")
        self.seat = seat
        self._shown: tuple[OpponentInfo, bool] | None = None
        self._drawn: tuple[object, Content] | None = None  # (what, at which width), drawn

    @property
    def data(self) -> OpponentInfo | None:
        return None if self._shown is None else self._shown[0]

    def show(self, data: OpponentInfo, roomy: bool) -> None:
        if self._shown == (data, roomy):
            return
        self._shown = (data, roomy)
        self.set_class(data.to_act, "-to-act")
        self.set_class(data.info.out, "-out")
        self.set_class(
            data.slot is not None and data.slot.kind == "human" and not data.slot.connected, "-away"
        )
        self.refresh()  # fixed height by CSS: a repaint, no layout

    def forget(self) -> None:
        """Paint afresh at the next ``show`` (after a change of layout)."""
        self._shown = None

    def render(self) -> Content:
        if self._shown is None:
            return Content("")
        data, roomy = self._shown
        width = max(self.content_region.width, 1)
        key = (data, roomy, width)
        if self._drawn is not None and self._drawn[0] == key:
            return self._drawn[1]
        drawn = Content("\n").join(box_lines(data, width)) if roomy else compact_line(data, width)
        self._drawn = (key, drawn)
        return drawn

    def on_resize(self, event: Resize) -> None:
        self.refresh()
