"""The status line: the app's notifications, in a row of their own.

Textual shows notifications as toasts over the bottom right of the screen,
which at 80x24 is the action bar, the hand and (when keys come quickly) the
pile and the top line.  Every screen that shows a game yields one
``StatusLine`` just above its footer, and the app hands every notification
to it (:func:`route_notifications`), so a notification never covers the
game.  A screen without one (the command palette, say) falls back to the
status line of the screen under it, and a full screen without one (a
form, say) is given one, docked above its footer, with its first
notification.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Any

from textual.app import App
from textual.content import Content
from textual.css.query import NoMatches
from textual.message import Message
from textual.notifications import Notification
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Static

from ..text import clean

# Words and a symbol, so severity never rests on colour alone (NO_COLOR).
SEVERITY_LOOK = {
    "error": ("✖ ", "bold $text-error"),
    "warning": ("⚠ ", "bold $text-warning"),
    "information": ("• ", "$text-primary"),
}


def notification_content(note: Notification, titled: bool = True) -> Content:
    """One notification as one line of plain parts (never markup: reasons may
    come from another machine, so the app's own notes are plain too).
    ``titled`` False: its message alone (a title that gives way)."""
    symbol, style = SEVERITY_LOOK.get(note.severity, SEVERITY_LOOK["information"])
    message = note.message
    if note.markup:
        # Not valid markup after all: show it as it is.
        with contextlib.suppress(Exception):
            message = Content.from_markup(message).plain
    message = clean(message, 300)
    title = clean(note.title, 60) if titled or not message else ""
    if not message:  # a title alone ("Your turn") reads as a message
        return Content.assemble((symbol, style), title)
    # A title that ends its own sentence (Textual's "Do you want to quit?")
    # takes no colon after it.
    after = " " if title.endswith(("?", "!", ".", ":")) else ": "
    return Content.assemble(
        (symbol, style),
        (f"{title}{after}" if title else "", style),
        message,
    )


MAX_ROWS = 2
# Titles that the message says again in its own words, left out where the
# note would not fit MAX_ROWS rows with them: at 40 columns "✖ The
# connection is closed: the table's room code has changed: jo…" lost what
# to do, when "✖" and the reason alone say it whole.
CONNECTION_CLOSED = "The connection is closed"
GIVES_WAY = frozenset({CONNECTION_CLOSED})


class StatusLine(Static):
    """The newest live notification, until it expires; then the next newest."""

    class RowsChanged(Message):
        """The line took or gave back a row (a notice too long for one row
        came or went): a screen that shares out its lines fits them again."""

    def __init__(self, *, id: str | None = None, docked: bool = False) -> None:
        classes = "status-line -docked" if docked else "status-line"
        super().__init__(id=id, classes=f"{classes} -quiet", markup=False)
        self.shown: Notification | None = None
        self._timer: Timer | None = None
        self._live: list[Notification] = []

    def show(self, notes: Iterable[Notification]) -> None:
        live = sorted((n for n in notes if not n.has_expired), key=lambda n: n.raised_at)
        self._live = live
        newest = live[-1] if live else None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if newest is not None:
            # Look again when it expires: an older, longer one may still be live.
            self._timer = self.set_timer(max(newest.time_left, 0.05), self._expired)
        if newest is self.shown:
            return
        self.shown = newest
        for severity in SEVERITY_LOOK:
            self.set_class(newest is not None and newest.severity == severity, f"-{severity}")
        self.set_class(newest is None, "-quiet")
        self._paint(newest)

    def _paint(self, note: Notification | None) -> None:
        # One row; two for a note too long for one (wrapped, never cut), and a
        # layout pass only when the row count changes.
        width = max(self.content_region.width or self.app.size.width, 1)
        content = Content("") if note is None else notification_content(note)
        lines = content.wrap(width) or [content]
        if len(lines) > MAX_ROWS and note is not None and note.title in GIVES_WAY:
            content = notification_content(note, titled=False)
            lines = content.wrap(width) or [content]
        if len(lines) > MAX_ROWS:
            # Longer still: the last row ends with "…", a sign that there is more.
            rest = Content(" ").join(lines[MAX_ROWS - 1 :])
            lines = [*lines[: MAX_ROWS - 1], rest.truncate(width, ellipsis=True)]
        rows = len(lines)
        shown = Content("\n").join(lines)
        if self.styles.height is not None and self.styles.height.value == rows:
            self.update(shown, layout=False)
        else:
            self.styles.height = rows
            self.update(shown)
            self.post_message(self.RowsChanged())

    def on_resize(self) -> None:
        self._paint(self.shown)

    def _expired(self) -> None:
        self._timer = None
        self.show(self._live)

    @property
    def text(self) -> str:
        """What the line says now, as plain text ("" when it is quiet)."""
        return "" if self.shown is None else notification_content(self.shown).plain


def status_line_for(app: App[Any]) -> StatusLine | None:
    """The status line that shows the app's notifications now: the top
    screen's, else (under a pop-up without one) the nearest below it.  A
    full screen without one is given one, docked above its footer."""
    for screen in reversed(app.screen_stack):
        try:
            line: StatusLine = screen.query_one(StatusLine)
        except NoMatches:
            if isinstance(screen, ModalScreen):
                continue
            line = StatusLine(docked=True)
            screen.mount(line)
            return line
        return line
    return None


def route_notifications(app: App[Any]) -> bool:
    """Show the app's notifications on a status line; False if there is no screen."""
    try:
        top = app.screen
        if not top.is_mounted:
            # Resumed before its widgets exist (a rematch's set-up screen):
            # look again once they do, rather than dock a second, blank line
            # into a screen that brings its own (it hid the sixth player).
            top.call_after_refresh(route_notifications, app)
            return True
        line = status_line_for(app)
    except Exception:  # no screen yet (start-up) or one being torn down
        return False
    if line is None:
        return False
    # Textual keeps the notifications; expired ones drop out as they are read.
    notes = app._notifications
    if line.is_mounted:
        line.show(notes)
    else:
        line.call_after_refresh(line.show, notes)
    _quiet_the_others(app, line)
    return True


def _quiet_the_others(app: App[Any], line: StatusLine) -> None:
    """Every status line but ``line`` goes quiet: a box over the table (the
    result, a question) has its own, and the table's, below it and in
    sight at 80x24, went on showing what it had (a player back from away
    read "you are back" twice, on the box and under it).  A covered screen
    shows the notes again as it resumes (Textual routes them then)."""
    for screen in app.screen_stack:
        for other in screen.query(StatusLine):
            if other is not line and other.shown is not None:
                other.show(())


# Titles of notifications about one moment of the game, which
# :func:`withdraw` takes back once it has passed: a hint and a refused move
# are about one position, and the turn notes about one turn.
HINT = "Hint"
NOT_ALLOWED = "Not allowed"
NOT_SAVED = "Not saved"  # the record, refused by its file's trouble (no such directory...)
NEXT_GAME_ASKED = "Asked for the next game"  # r in the result box: about the last game
YOUR_TURN = "Your turn"
NOT_YOUR_TURN = "Not your turn"


def withdraw(app: App[Any], *titles: str) -> None:
    """Take back at once the live notifications with any of these titles,
    rather than let them run out.  A hint left on the line after its move is made
    misleads: on the game-over box, Enter means the next game."""
    notes = app._notifications  # Textual's store, as route_notifications reads it
    gone = [note for note in notes if note.title in titles]
    for note in gone:
        del notes[note]
    if gone:
        app._refresh_notifications()


__all__ = [
    "CONNECTION_CLOSED",
    "HINT",
    "NEXT_GAME_ASKED",
    "NOT_ALLOWED",
    "NOT_SAVED",
    "NOT_YOUR_TURN",
    "YOUR_TURN",
    "StatusLine",
    "notification_content",
    "route_notifications",
    "status_line_for",
    "withdraw",
]
