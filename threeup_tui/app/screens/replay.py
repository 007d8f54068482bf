"""Step through a game record, forwards and back; a replay shows every card.

The stepping keys are the screen's whatever is focused (priority
bindings): PgDn or End never scroll the seats instead.  ↑ ↓ and the mouse
wheel scroll the seats when they do not all fit.
"""

from __future__ import annotations

from functools import partial

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, Static

from ...rules import GameState, Record, View, replay, seat_view
from ...rules.cards import CODES
from ...rules.record import RESULT, start_state
from ..messages import HelpRequested
from ..text import MUTED, card_content, cards_content, clean, fit_parts, out_content, plain
from ..widgets.fitted import FittedText, hanging
from ..widgets.footer import KeysFooter
from ..widgets.move_log import last_move_words
from ..widgets.pile import PileView
from ..widgets.status import display_turn, owed_parts
from ..widgets.status_line import StatusLine


def down_content(state: GameState, seat: int) -> Content:
    """Face-down cards revealed (a replay may show everything), in brackets."""
    parts = [
        Content.assemble("(", card_content(CODES[kind]), ")") if kind >= 0 else Content("·")
        for kind in state.down[seat]
    ]
    return Content(" ").join(parts)


def next_words(view: View, names: tuple[str, ...]) -> Content:
    """Who plays next and what they owe (extra discards, the early draw), in
    the words the live table's top line gives another seat's turn."""
    if view.to_act is None:
        return Content("")
    parts = [names[view.to_act]] + [forms[0] for forms in owed_parts(view)]
    return Content.assemble(("\nNext: ", "bold"), " · ".join(parts))


# Cells of the header's title (the record file's name): "Replay ", the title
# and "  move 1000 of 1000 · turn 1000" fit one line of 80 columns.
TITLE_CELLS = 36
# Narrower, the title is cut to this, after "Replay " and " of " have gone.
SHORT_TITLE_CELLS = 16
# Where a seat's line goes on when its cards run past the width: under its
# cards, not at the left edge under the names.
SEAT_INDENT = 6


def head_line(title: str, index: int, last: int, turn: int, width: int) -> Content:
    """The header's first line in ``width`` cells: at 40 columns its
    "turn 25" wrapped onto a line of its own.  Shorter, "Replay " goes,
    then "of", then the title is cut; the turn last."""
    full = Content(title).truncate(TITLE_CELLS, ellipsis=True)
    head = Content.assemble(
        ("Replay ", "bold"), full, f"  move {index} of {last}", (f" · turn {turn}", MUTED)
    )
    if head.cell_length <= width:
        return head
    titles = [Content.assemble(("Replay ", "bold"), full), full]
    titles.append(Content(title).truncate(SHORT_TITLE_CELLS, ellipsis=True))
    moves = [Content(f"move {index} of {last}"), Content(f"move {index}/{last}")]
    parts = [titles, moves, [Content.styled(f"turn {turn}", MUTED)]]
    return fit_parts(parts, width, " · ", order=[0, 1, 0])


class ReplayScreen(Screen[None]):
    BINDINGS = [
        # One move back and on, as PgUp PgDn ten: "Back" is every other
        # screen's word for leaving it (esc Back), as it is this one's.
        Binding("left,h", "step(-1)", "-1", key_display="←", priority=True),
        Binding("right,l", "step(1)", "+1", key_display="→", priority=True),
        Binding("pageup", "step(-10)", "-10", key_display="PgUp", priority=True),
        Binding("pagedown", "step(10)", "+10", key_display="PgDn", priority=True),
        # "First" and "Last": the footer read "End End".
        Binding("home", "goto(0)", "First", key_display="Home", priority=True),
        Binding("end", "goto(-1)", "Last", key_display="End", priority=True),
        Binding("space", "autoplay", "Play/pause", priority=True),
        Binding("up", "scroll_seats(-1)", "Seats", key_display="↑↓", show=False),
        Binding("down", "scroll_seats(1)", show=False),
        Binding("escape,q", "close", "Back"),
        # The help key of every other screen (the footer is full at 80
        # columns: it is not shown there).  It did nothing here, and below
        # 80 columns the footer drops the keys it would have told.
        Binding("question_mark,f1", "help", "Help", key_display="?", show=False),
    ]

    def __init__(self, record: Record, title: str = "", exit_on_close: bool = False) -> None:
        super().__init__(id="replay-screen")
        self.record = record
        self.title_text = clean(title, 80)
        self.exit_on_close = exit_on_close
        _final, verdict = replay(record)
        # Stop before the first illegal move: everything up to it still replays.
        self.last = (
            verdict.move if (not verdict.ok and verdict.move is not None) else len(record.moves)
        )
        self.problem = None if verdict.ok else verdict.error
        # A result the replay does not give is no move (record.md: "move": null).
        self.wrong_result = verdict.wrong == RESULT
        self.index = 0
        self.state = start_state(record)
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="replay-body"):
            yield FittedText(id="replay-head")
            yield Static(id="replay-move")
            with Horizontal(id="replay-middle"):
                yield PileView()
                yield Static(id="replay-problem")
            with VerticalScroll(id="replay-seats", can_focus=False):
                for seat in range(len(self.record.players)):
                    yield FittedText(id=f"replay-seat-{seat}", classes="replay-seat")
        yield StatusLine()
        yield KeysFooter()

    def on_mount(self) -> None:
        self.show()

    def _before_words(self) -> str:
        """Before the first move: "→ steps forward" only where there is a
        move to step to.  A record of no moves (a game saved as dealt) and
        one whose first move is illegal said it, and → did nothing."""
        if self.last:
            return "Before the first move. → steps forward."
        if self.record.moves:
            return "Before the first move."  # the problem beside the pile says why no more
        return "The record holds no moves: the game as dealt."

    def names(self) -> tuple[str, ...]:
        return tuple(clean(n, 24) or f"seat {i + 1}" for i, n in enumerate(self.record.players))

    def _goto(self, index: int) -> None:
        index = max(0, min(index, self.last))
        if index < self.index:
            self.state = start_state(self.record)
            self.index = 0
        while self.index < index:
            self.state.apply_move(self.record.moves[self.index])
            self.index += 1

    def show(self) -> None:
        state = self.state
        names = self.names()
        watcher = seat_view(state, None, log_length=12)
        title, index, last, turn = self.title_text, self.index, self.last, display_turn(watcher)
        over = Content("")
        if watcher.phase == "over":
            # On a line of its own, so the header breaks in one place; each
            # seat's row below shows its place in a game for places.
            result = f"{names[watcher.winner]} won" if watcher.winner is not None else "stalemate"
            over = Content.styled(f"\nGame over: {result}", "bold")
        self.query_one("#replay-head", FittedText).update(
            lambda width: head_line(title, index, last, turn, width) + over
        )
        move = (
            Content.assemble(("Last move: ", "bold"), last_move_words(watcher, names))
            if watcher.log and self.index
            else Content(self._before_words())
        ) + next_words(watcher, names)
        self.query_one("#replay-move", Static).update(move)
        self.query_one(PileView).show(watcher, names)
        problem = self.query_one("#replay-problem", Static)
        if self.problem and self.index == self.last:
            problem.update(
                plain(
                    f"The record's result is wrong: {self.problem}"
                    if self.wrong_result
                    # Moves are counted from 1 where people read them.
                    else f"The record stops here: move {self.last + 1} is illegal: {self.problem}",
                    "bold $text-error",
                )
            )
        else:
            problem.update("")
        places = {seat: i + 1 for i, seat in enumerate(watcher.places)}
        for seat in range(len(self.record.players)):
            view = seat_view(state, seat, log_length=0)
            info = view.seats[seat]
            to_act = watcher.to_act == seat
            row = Content.assemble(
                ("▶ " if to_act else "  ", "bold $text-accent"),
                plain(names[seat], "bold"),
                Content(" ") + out_content(places.get(seat), len(names)) if info.out else "",
                "  hand ",
                cards_content(view.hand),
                "\n    up ",
                cards_content(info.face_up),
                "   down ",
                down_content(state, seat),
            )
            widget = self.query_one(f"#replay-seat-{seat}", FittedText)
            widget.set_class(to_act, "-to-act")
            widget.update(partial(hanging, row, indent=SEAT_INDENT))
            if to_act:
                # The seat to act stays in view when the seats do not all fit.
                self.call_after_refresh(widget.scroll_visible, animate=False)

    def action_scroll_seats(self, lines: int) -> None:
        seats = self.query_one("#replay-seats", VerticalScroll)
        seats.scroll_relative(y=lines, animate=False)

    def action_step(self, step: int) -> None:
        self._goto(self.index + step)
        self.show()

    def action_goto(self, index: int) -> None:
        self._goto(self.last if index < 0 else index)
        self.show()

    def action_autoplay(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
            return
        self._timer = self.set_interval(0.6, self._tick)

    def _tick(self) -> None:
        if self.index >= self.last and self._timer is not None:
            self._timer.stop()
            self._timer = None
            return
        self.action_step(1)

    def action_help(self) -> None:
        self.post_message(HelpRequested("keys"))

    def action_close(self) -> None:
        if self.exit_on_close:
            self.app.exit(0)
        else:
            self.dismiss(None)
