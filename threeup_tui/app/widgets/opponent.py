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
from ..session import presence_forms
from ..text import MUTED, cards_forms, fit_parts, fitted_parts, out_content


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
    marker = ("▶ ", "bold $text-accent") if data.to_act else ("  ", "")
    clock = Content.styled(f" {data.clock}", MUTED) if data.clock else Content("")
    name = Content.styled(data.name, "bold")
    # "away, greedy bot plays" cut to its first word before the symbol goes
    # alone: a bare "◐" in the host's 100-column boxes said nothing.
    forms = [
        Content.assemble(marker, name, (f" {form}", MUTED)) + clock
        for form in presence_forms(data.slot, data.live)
    ]
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


@dataclass(frozen=True)
class RowStyle:
    """How tight a one-line row is written: which of the ways to write it
    (0: spaced bars and "up", 1: bare bars, 2: the known cards gone, 3: the
    up cards cut), whether its down cards have lost their word, and
    whether, bare, its name has lost its presence symbol.  The rows of one
    table share the tightest look any of them needs (:meth:`at_least`)."""

    way: int = 0
    down: int = 0  # 1: "▒▒▒", not "down ▒▒▒"
    name_only: bool = False  # bare bars, and the name without "⚙" or "●"

    def at_least(self, other: RowStyle) -> RowStyle:
        """This style, as tight as ``other`` is in its look: the bars and
        "up", the word "down", the symbol on tight rows.  Which cards a row
        leaves out (ways 2 and 3) is each row's own: a row with room keeps
        its known cards though the next row had to cut its up cards.  So
        are the presence words, and the symbols on spaced rows: they differ
        from seat to seat anyway, and one long name would have taken every
        bot's "⚙ greedy bot" away at 60 columns."""
        return RowStyle(
            max(self.way, min(other.way, 1)),
            max(self.down, other.down),
            self.name_only or other.name_only,
        )


def _ways(data: OpponentInfo, style: RowStyle) -> list[tuple[str, list[list[Content]]]]:
    """The ways to write a row in play, loosest first, as ``style`` allows."""
    info = data.info
    head = head_forms(data)
    tight = head[-1:] if style.name_only else head
    hand, down, known = hand_forms(info), _from(down_forms(info), style.down), known_forms(info)
    up = cards_forms(info.face_up, "up")
    bare = cards_forms(info.face_up)  # without "up", then cut short
    # The known cards go before the up cards are cut, a "…" of their own
    # saying so ("▒▒▒…" read as more face-down cards).
    gone = [Content.styled("…", MUTED)] if known else []
    return [
        (SEPARATORS[0], [head, hand, up[:1], down, known]),
        (SEPARATORS[1], [tight, hand, bare[:1], down, known]),
        (SEPARATORS[1], [tight, hand, bare[:1], down, gone]),
        (SEPARATORS[1], [tight, hand, bare, down, known]),
    ]


def _from(forms: list[Content], level: int) -> list[Content]:
    """``forms`` from the ``level``th on (the shortest, past the last)."""
    return forms[min(level, len(forms) - 1) :]


def compact_line(data: OpponentInfo, width: int, style: RowStyle = RowStyle()) -> Content:
    """The one-line row: head │ hand │ up │ down │ known, no looser than ``style``.

    What gives way, first to last: the presence word, the word "down", the
    known cards (to a count of them), the spaces around the bars and with
    them the word "up" (on every tight row: one row with "up" and the next
    without read as two different things), the known cards (a "…" says
    they went), the up cards (to a count of the rest), then whole parts
    from the end.  The name is never cut
    while anything else can go: two bots' names cut short would read alike."""
    return compact_row(data, width, style)[0]


def row_style(data: OpponentInfo, width: int) -> RowStyle:
    """The style this row alone takes at ``width`` (:func:`compact_line`)."""
    return compact_row(data, width)[1]


HEAD, DOWN = 0, 3  # the parts of a row in play (_ways): the name, the down cards


def reason_form(data: OpponentInfo) -> int | None:
    """Where a person's seat that a bot plays has its short form, the
    reason in a word ("◐ left", "◐ away"), among :func:`head_forms`; None
    for any other seat.  The spaced bars and "up" give way before that
    word: at 40 columns "Ann ◐ │ hand 5 │ up R6 R8 B9 │ ▒▒▒" kept the
    spaces and lost the word, and one who left read as one away."""
    slot = data.slot
    if slot is None or slot.kind != "human" or not slot.bot_level:
        return None
    forms = head_forms(data)  # the long form, the word, the symbol, the name
    return 1 if len(forms) == 4 else None


def compact_row(
    data: OpponentInfo, width: int, style: RowStyle = RowStyle()
) -> tuple[Content, RowStyle]:
    """:func:`compact_line`, and the style it came out in: the way taken,
    and from the forms the fitting chose, whether the down cards kept
    their word and whether a bare row's name lost its symbol (the style
    was read back from the drawn line once: "down " in a part, the line
    starting with the bare name and a bar)."""
    status = status_forms(data)
    if status is not None:
        return fit_parts([head_forms(data), status], width, " │ ", order=[0]), RowStyle()
    known = bool(data.info.known)
    order = [0, 3, *[4] * len(known_forms(data.info)), 0]
    ways = _ways(data, style)
    reason = reason_form(data)

    def fits(way: int) -> bool:
        sep, parts = ways[way]
        shortest = [forms[-1] for forms in parts if forms]
        if way == 0 and reason is not None:
            shortest[HEAD] = parts[HEAD][reason]
        return Content(sep).join(shortest).cell_length <= width

    way = next((i for i in range(style.way, len(ways) - 1) if fits(i)), len(ways) - 1)
    sep, parts = ways[way]
    drop = [4] if known and way == len(ways) - 1 else []
    fitted = fitted_parts(parts, width, sep, order=order, drop=drop)
    down_form = fitted.forms[DOWN]
    # "down ▒▒▒" is the first of the down part's forms, unless the style took it away.
    down = 0 if down_form is not None and style.down + down_form == 0 else 1
    heads = parts[HEAD]
    bare_name = (
        sep == SEPARATORS[1]
        and len(head_forms(data)) > 1
        and fitted.forms[HEAD] == len(heads) - 1
        and not fitted.cut
        and any(form is not None for form in fitted.forms[HEAD + 1 :])
    )
    return fitted.content, RowStyle(way, down, bare_name)


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
    """A compact one-line row on small terminals, a box on roomy ones.

    The rows of one table (the panes beside this one) are written in one
    style, the tightest any of them needs at their width: fitted one at a
    time, a short name's row kept its spaced bars and "up" while a long
    name's row under it lost them, and the rows read as different things."""

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"opp-{seat}", classes="opponent")
        self.seat = seat
        self._shown: tuple[OpponentInfo, bool] | None = None
        self._drawn: tuple[object, Content] | None = None  # (what, at which width), drawn
        self._style: tuple[tuple[OpponentInfo, int], RowStyle] | None = None  # alone, at a width

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
        # Fixed height by CSS: a repaint, no layout; the other rows too, as
        # this one may loosen or tighten the style they share.
        for pane in self._rows():
            pane.refresh()

    def forget(self) -> None:
        """Paint afresh at the next ``show`` (after a change of layout)."""
        self._shown = None

    def _rows(self) -> list[OpponentPane]:
        """This pane and the ones beside it: the rows of the table."""
        parent = self.parent
        if parent is None:
            return [self]
        return [pane for pane in parent.children if isinstance(pane, OpponentPane)]

    def style_alone(self, width: int) -> RowStyle:
        """The style this row would take by itself at ``width``."""
        data = self.data
        if data is None or self._shown is None or self._shown[1]:
            return RowStyle()
        if self._style is None or self._style[0] != (data, width):
            self._style = ((data, width), row_style(data, width))
        return self._style[1]

    def render(self) -> Content:
        if self._shown is None:
            return Content("")
        data, roomy = self._shown
        width = max(self.content_region.width, 1)
        style = RowStyle()
        if not roomy:
            for pane in self._rows():
                style = style.at_least(pane.style_alone(width))
        key = (data, roomy, width, style)
        if self._drawn is not None and self._drawn[0] == key:
            return self._drawn[1]
        if roomy:
            drawn = Content("\n").join(box_lines(data, width))
        else:
            drawn = compact_line(data, width, style)
        self._drawn = (key, drawn)
        return drawn

    def on_resize(self, event: Resize) -> None:
        self.refresh()
