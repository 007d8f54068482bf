"""The move log: every move in plain words, the newest at the bottom.

It draws the moves that fit its box itself instead of being a scroll view:
a growing scroll view would cost a layout pass on every move.  Focused
(Tab), it still scrolls, a move at a time, with ↑ ↓ PgUp PgDn Home End
(and the mouse wheel), over the last moves kept (the full history is in
the game record): it counts how many of the newest moves it leaves out
below, and says so in its bottom border.

Extra discards are labelled: after a Clear +1 or +2 the same player's next
discards read "extra 1 of 2: Bob played R5", so they never look like
several turns in a row.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.widget import Widget

from ...rules import LogEntry, View
from ...textclean import plural
from ..text import card_label, cards_label, clamp_rows, whole_words

KEEP = 200
EXTRA_OF = {"C1": 1, "C2": 2}  # the extra discards a Clear +1 / +2 gives (D7-D9)


@dataclass
class ExtraCount:
    """Extra discards owed in the turn the log is in (read from public moves)."""

    seat: int = -1
    owed: int = 0
    done: int = 0

    def label(self, entry: LogEntry) -> str:
        """ "extra 1 of 2" for an extra discard, else ""; counts ``entry`` in."""
        if entry.seat != self.seat:
            self.seat, self.owed, self.done = entry.seat, 0, 0
        label = ""
        discard = entry.kind in ("play", "flip")
        if discard and self.owed > 0:
            self.done += 1
            label = f"extra {self.done} of {self.done - 1 + self.owed}"
            self.owed -= 1
        elif discard:
            self.done = 0  # a turn's first discard
        if discard and entry.cards and not entry.flip_failed:
            self.owed += EXTRA_OF.get(entry.cards[-1][1:], 0)
        if entry.kind == "pickup" or entry.flip_failed:
            self.owed = self.done = 0  # the turn ends: extras still owed are lost
        return label


def move_words(entry: LogEntry, names: tuple[str, ...] | list[str], extra: str = "") -> str:
    """One move in one line, as the app says it ("Bob played GC+2: pile
    cleared, 2 extra discards")."""
    who = names[entry.seat] if 0 <= entry.seat < len(names) else f"seat {entry.seat + 1}"
    cards = cards_label(entry.cards)
    if entry.kind == "play":
        words = f"{who} played {cards}"
    elif entry.kind == "flip":
        card = card_label(entry.cards[0]) if entry.cards else "?"
        if entry.flip_failed:
            words = f"{who} flipped {card}, could not play it and picked up {entry.picked_up}"
        else:
            words = f"{who} flipped {card} and played it"
    elif entry.kind == "pickup":
        words = f"{who} picked up the pile ({plural(entry.picked_up, 'card')})"
    else:
        words = f"{who} drew {entry.drawn} early"
    if entry.cleared:
        rank = entry.cards[-1][1:] if entry.cards else ""
        bonus = EXTRA_OF.get(rank, 0)
        words += ": pile cleared" + (f", {plural(bonus, 'extra discard')}" if bonus else "")
    if entry.out:
        # The app's own player is named "you" (a namesake elsewhere reads
        # "you (seat 3)": session.names), and "you is" is not English.
        words += f"; {who} {'are' if who.casefold() == 'you' else 'is'} out of cards"
    return f"{extra}: {words}" if extra else words


def labelled(
    entries: Iterable[LogEntry], names: tuple[str, ...], count: ExtraCount
) -> Iterator[str]:
    for entry in entries:
        yield move_words(entry, names, count.label(entry))


def entry_text(entry: LogEntry, names: tuple[str, ...]) -> str:
    """One move, on its own (no extra-discard count)."""
    return move_words(entry, names)


def last_move_words(view: View, names: tuple[str, ...]) -> str:
    """The last move in words, labelled if it was an extra discard."""
    if not view.log:
        return ""
    lines = list(labelled(view.log, names, ExtraCount()))
    return lines[-1]


class MoveLog(Widget, can_focus=True):
    """Appends the moves a new view adds; starts over with a new game."""

    # The Keys help promises these once Tab has brought the focus here; a
    # focused widget's bindings come before the table's (Home and End move
    # the card cursor only while nothing is focused).
    BINDINGS = [
        Binding("up", "older(1)", show=False),
        Binding("down", "older(-1)", show=False),
        Binding("pageup", "older_page(1)", show=False),
        Binding("pagedown", "older_page(-1)", show=False),
        Binding("home", "oldest", show=False),
        Binding("end", "newest", show=False),
    ]

    def __init__(self) -> None:
        super().__init__(id="moves")
        self.border_title = "Moves"
        self.lines: deque[str] = deque(maxlen=KEEP)
        self._seen = 0  # moves_played already written
        self._extras = ExtraCount()
        self._wrapped: dict[tuple[str, int], list[Content]] = {}  # wrapping is the costly part
        self.back = 0  # the newest moves scrolled out below (0: the newest shows)

    def show(self, view: View, names: tuple[str, ...]) -> None:
        if view.moves_played < self._seen:
            self.lines.clear()
            self._seen = 0
            self._extras = ExtraCount()
            self._go_back(0)
            self.refresh()  # a new game: the last one's moves go now, not at its first move
        new = view.moves_played - self._seen
        if new <= 0:
            return
        entries = view.log[-new:] if new <= len(view.log) else view.log
        added = len(entries)
        if new > len(view.log):
            if self._seen:
                self.lines.append("…")
                added += 1
            self._extras = ExtraCount()  # moves were missed: count afresh
        # Names are cleaned by the session; Content from a str is never markup.
        self.lines.extend(labelled(entries, names, self._extras))
        self._seen = view.moves_played
        if self.back:
            # Scrolled back, the moves being read stay put as new ones come.
            self._go_back(self.back + added)
        self.refresh()  # a repaint only: the box keeps its size

    @property
    def last(self) -> str:
        return self.lines[-1] if self.lines else ""

    # ------------------------------------------------------------ scrolling
    def _rows(self, text: str, width: int) -> list[Content]:
        key = (text, width)
        wrapped = self._wrapped.get(key)
        if wrapped is None:
            if len(self._wrapped) > 4 * KEEP:
                self._wrapped.clear()
            wrapped = self._wrapped[key] = whole_words(Content(text), width).wrap(width)
        return wrapped

    def most_back(self) -> int:
        """How far back the log goes: the oldest move kept at the top of the box."""
        width, height = self.content_region.width, self.content_region.height
        if width <= 0 or height <= 0:
            return max(0, len(self.lines) - 1)
        rows = fitting = 0
        for text in self.lines:
            rows += len(self._rows(text, width))
            if rows > height:
                break
            fitting += 1
        return max(0, len(self.lines) - max(1, fitting))

    def _go_back(self, back: int) -> None:
        back = max(0, min(back, self.most_back()))
        if back == self.back:
            return
        self.back = back
        self.border_subtitle = f"{back} newer ↓" if back else ""
        self.refresh()

    def _shown_count(self) -> int:
        """The moves the box shows now (a page)."""
        return max(1, len(self._shown()[1]))

    def action_older(self, moves: int) -> None:
        self._go_back(self.back + moves)

    def action_older_page(self, pages: int) -> None:
        self._go_back(self.back + pages * self._shown_count())

    def action_oldest(self) -> None:
        self._go_back(self.most_back())

    def action_newest(self) -> None:
        self._go_back(0)

    def on_blur(self, event: events.Blur) -> None:
        # Tabbed away (or back to the cards), the box follows the game again:
        # a log left scrolled back would hide each new move from then on.
        self._go_back(0)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self._go_back(self.back + 1)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self._go_back(self.back - 1)

    # ------------------------------------------------------------ drawing
    def _shown(self) -> tuple[Content, list[str]]:
        """What the box shows: whole moves, the newest of them ``back``
        moves before the last (or one move too tall, cut with "…")."""
        width = self.content_region.width
        height = self.content_region.height
        if width <= 0 or height <= 0:
            return Content(""), []
        shown: list[Content] = []
        texts: list[str] = []
        for text in islice(reversed(self.lines), self.back, None):
            wrapped = self._rows(text, width)
            if len(shown) + len(wrapped) > height:
                if not shown:  # one move taller than the box: its start, and "…"
                    return clamp_rows(whole_words(Content(text), width), width, height), [text]
                break  # only whole moves: an older one never shows its tail alone
            shown[:0] = wrapped
            texts.insert(0, text)
        return Content("\n").join(shown), texts

    def render(self) -> Content:
        return self._shown()[0]
