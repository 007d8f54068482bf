"""Play / Pick up / Draw buttons, disabled when the view says no, with why.

The reasons share a two-line box: when they do not fit, each says it
shorter (the engine's longer reasons have short forms here, down to a
word or two: "no draw", "G2: too low"), and only then is the box's last
line cut, with "…".  In a bar narrower than TIGHT the buttons are as
wide as their words, and give the reasons their room: at 40x15 the box
had 6 cells, and read "Pick…".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.events import Resize
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Button

from ..text import DRAWN_ALREADY, MUTED, fit_rows, reason_words

# Short forms of the reasons, matched on their words for players (reason_words).
SHORT_REASONS = {
    "you may not pick up while you can play": "not while you can play",
    "you may not pick up while you can draw: draw first": "draw first",
    "you may draw early only right after playing a Clear +1 or Clear +2": (
        "only right after a Clear +1 or +2"
    ),
    DRAWN_ALREADY: "you have drawn already",
    "the early draw is only for a hand of fewer than 3 cards": "only with under 3 cards in hand",
    "the draw pile is empty": "the draw pile is empty",
}
# The shortest way to say a button is off, by the button's word.
OFF = {"Play": "no play", "Pick up": "no pick-up", "Draw": "no draw", "Flip": "no flip"}
REASON_ROWS = 2
TIGHT = 70  # columns under which the buttons lose their blank sides


@dataclass(frozen=True)
class Reason:
    """One reason, as "Pick up: not while you can play": its words, longest first."""

    forms: tuple[str, ...]

    @classmethod
    def of(cls, what: str, reason: object) -> Reason:
        words = reason_words(reason)
        short = SHORT_REASONS.get(words)
        forms = [f"{what}: {words}" if what else words]
        if short and short != words:
            forms.append(f"{what}: {short}" if what else short)
        if what:
            forms.append(f"{what}: not now")  # the button says the rest: it is off
            forms.append(OFF.get(what, f"{what}: no"))
        return cls(tuple(forms))

    @classmethod
    def plain(cls, *forms: str) -> Reason:
        return cls(tuple(forms))


@dataclass(frozen=True)
class ActionState:
    play: bool
    pickup: bool
    draw: bool
    reasons: tuple[Reason, ...] = ()  # shown beside the buttons: why the disabled ones are

    @property
    def reason(self) -> str:
        """All the reasons, in full."""
        return " · ".join(r.forms[0] for r in self.reasons)


@lru_cache(maxsize=256)
def reasons_content(reasons: tuple[Reason, ...], width: int, rows: int = REASON_ROWS) -> Content:
    """The reasons fitted to a box ``width`` cells wide and ``rows`` high (they
    repeat turn after turn)."""
    parts = [[Content(f) for f in r.forms] for r in reasons]
    if not parts:
        return Content("")
    return fit_rows(parts, width, max(rows, 1)).stylize(MUTED)


class ReasonBox(Widget):
    """The reasons, fitted to the box whenever it is drawn."""

    def __init__(self) -> None:
        super().__init__(id="reason")
        self.reasons: tuple[Reason, ...] = ()

    def show(self, reasons: tuple[Reason, ...]) -> None:
        if reasons != self.reasons:
            self.reasons = reasons
            self.refresh()  # a fixed two-line box: no layout pass

    def render(self) -> Content:
        # One line on a short terminal (styles.tcss: .-short #reason): fitted
        # to it, the reasons end in "…" instead of losing their second line.
        region = self.content_region
        return reasons_content(self.reasons, region.width, min(region.height, REASON_ROWS))

    def on_resize(self, event: Resize) -> None:
        self.refresh()

    @property
    def text(self) -> str:
        """The box's words as one line (its line breaks are only wrapping)."""
        return self.render().plain.replace("\n", " ")


class BarButton(Button):
    """A button of the bar.  Tight, it is as wide as its words: Textual's
    buttons are two cells wider than their words, for a blank each side
    (its CSS refuses "line-pad: 0", hence the style set here)."""

    tight = reactive(False, layout=True)

    def watch_tight(self, tight: bool) -> None:
        if tight:
            self.styles.line_pad = 0
        else:
            self.styles.clear_rule("line_pad")

    def get_content_width(self, container: Size, viewport: Size) -> int:
        width = super().get_content_width(container, viewport)
        return width - 2 if self.tight else width


class ActionBar(Horizontal):
    def on_resize(self, event: Resize) -> None:
        # The buttons' blank sides (10 cells at least, a blank each side)
        # left a 40-column bar's reasons 6 cells; as wide as their words,
        # the buttons leave 16.
        tight = event.size.width < TIGHT
        self.set_class(tight, "-tight")
        for button in self.query(BarButton):
            button.tight = tight

    def compose(self) -> ComposeResult:
        # Buttons do not take focus: the table's keys (enter, u, d) act
        # whatever is focused, and Tab stays for chat.
        for label, id_, variant in (
            ("Play ⏎", "play", "success"),
            ("Pick up u", "pickup", "warning"),
            ("Draw d", "draw", "primary"),
        ):
            button = BarButton(label, id=id_, variant=variant, compact=True)  # type: ignore[arg-type]
            button.can_focus = False
            yield button
        yield ReasonBox()

    _shown: ActionState | None = None

    def show(self, state: ActionState) -> None:
        if state == self._shown:
            return
        self._shown = state
        self.query_one("#play", Button).disabled = not state.play
        self.query_one("#pickup", Button).disabled = not state.pickup
        self.query_one("#draw", Button).disabled = not state.draw
        self.query_one(ReasonBox).show(state.reasons)
