"""Table chat: the lines, and an input to write one.

The lines are one wrapped text in a scrolling pane, so they wrap again at
the pane's width whenever it changes (a resize, a scrollbar showing up):
no line loses its last letters.  The pane scrolls with ↑ ↓ PgUp PgDn Home
End once focused (Tab), and with the mouse wheel.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Static

from ...chatlimit import MAX_CELLS
from ...names import cut_cells
from ..session import ChatLine
from ..text import MUTED
from .line import InOrderInput

KEEP = 300
TITLE = "Chat (c)"
PLACEHOLDER = "c to chat, Enter to send"
SHORT_PLACEHOLDER = "c to chat"  # for a box narrower than PLACEHOLDER


def speaker(line: ChatLine) -> str:
    """Who said it: a player's name, or a spectator's marked as one, so that
    nobody's line can pass for the table's own ("· greedy bot 2 won")."""
    return f"{line.name} (watching)" if line.spectator else line.name


def line_text(line: ChatLine) -> str:
    # Names and text are already cleaned, and go out as Content (never markup).
    if line.seat is None and not line.spectator:
        return f"· {line.text}"
    return f"{speaker(line)}: {line.text}"


def line_content(line: ChatLine) -> Content:
    if line.seat is None and not line.spectator:
        return Content.styled(line_text(line), MUTED)
    return Content.assemble((f"{speaker(line)}:", "bold"), f" {line.text}")


class ChatText(Static):
    """The chat's lines as one text, in :class:`ChatLines`."""

    def on_resize(self, event: events.Resize) -> None:
        # Laid out anew (more lines, or wrapped at another width): the pane
        # keeps its end in sight now that the end is where it ends.
        pane = self.parent
        if isinstance(pane, ChatLines):
            pane.keep_the_end()


class ChatLines(VerticalScroll):
    """The chat's lines, newest at the bottom, scrolled to the end as they
    come, unless the reader has scrolled back to older ones.  Esc gives the
    keys back to the table, as the chat line's does."""

    # Not "leave", as the chat line's Esc is: the footer shows one key of
    # an action, and q still leaves the table from here (only the line
    # types it), so "q Leave" stays beside the way back.
    BINDINGS = [Binding("escape", "back", "Back to the table")]

    def action_back(self) -> None:
        self.screen.set_focus(None)

    def __init__(self) -> None:
        super().__init__(id="chat-lines")
        self.lines: list[ChatLine] = []
        self.following = True  # the newest line is in sight: new lines and resizes keep it so

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.following = new_value >= self.max_scroll_y

    def on_resize(self, event: events.Resize) -> None:
        # A shorter pane (a smaller terminal) leaves the end below what was
        # the end: the newest lines went out of sight, and so did every
        # later one, since a pane not at its end follows no new line.
        self.keep_the_end()

    def keep_the_end(self) -> None:
        if self.following:
            self.scroll_end(animate=False)

    def compose(self) -> ComposeResult:
        yield ChatText(id="chat-text", markup=False)

    def set_lines(self, lines: list[ChatLine]) -> None:
        self.lines = list(lines[-KEEP:])
        follow = self.following or self.max_scroll_y == 0
        text = Content("\n").join(line_content(line) for line in self.lines)
        self.query_one("#chat-text", Static).update(text)
        if follow:
            # After the new text is laid out: then the end is where it ends.
            # (And again when the text's new size is known, ChatText: lines
            # in quick succession, a door's line then the table's recent
            # lines above it, once left a watcher's pane two lines short of
            # its end, "you are watching" cut in half, under CI's load.)
            self.call_after_refresh(self.scroll_end, animate=False)

    @property
    def text(self) -> str:
        return "\n".join(line_text(line) for line in self.lines)


class ChatInput(InOrderInput):
    """The line being written.  Enter sends it and the chat stays open for
    the next line; Esc (keeping what is written) or Enter on an empty line
    gives the keys back to the table at once.

    Every key's effect happens in the app's own queue, in the order the
    keys came: bindings (Enter, Esc, Backspace...) run there, and so does
    typing, because this line lets a printable key bubble up to the app
    (ThreeUpApp.on_key types it in) instead of typing it in its own queue.
    Keys that arrive together (a fast typist, or an SSH link delivering
    ``c a1 Enter c b2 Enter`` at once) are routed to whatever had the focus
    when the app first saw them, so typing here, in a second queue, once
    let ``c b 2`` land after the sent "a1" ("a1cb2")."""

    BINDINGS = [Binding("escape", "leave", "Back to the table")]

    def __init__(self) -> None:
        # Not selected on taking the keys: a line taken up again ("c to go
        # on: ab") is written on, not over.
        super().__init__(
            placeholder=PLACEHOLDER,
            id="chat-input",
            compact=True,
            max_length=200,
            select_on_focus=False,
        )
        self.draft = ""  # a line left unsent, put away while the keys are the table's
        self.sent = ""  # the last line sent, until the table has it or refuses it

    def on_blur(self) -> None:
        # Left (Esc, or Tab), a half-written line must not look open: its
        # letters showing, the next keys (moves now) once seemed to be typed
        # into it.  It is put away, and the box says how to take it up.
        if self.value and not self.disabled:
            text, self.value = self.value, ""
            self._put_away(text)

    def resting_words(self) -> str:
        """The words of the empty box: whole where they fit.  In the 14 cells
        of the chat at 60x18, "c to chat, Enter to send" was cut to "c to
        chat,", without a sign."""
        width = self.content_region.width
        return PLACEHOLDER if not width or width >= len(PLACEHOLDER) else SHORT_PLACEHOLDER

    def on_resize(self) -> None:
        if self.placeholder in (PLACEHOLDER, SHORT_PLACEHOLDER):
            self.placeholder = self.resting_words()

    def on_focus(self) -> None:
        if self.draft:
            text, self.draft = self.draft, ""
            self._take_up(text)
            self.placeholder = self.resting_words()

    def _put_away(self, text: str) -> None:
        """``text`` kept unsent while the keys are the table's, and shown so."""
        self.draft = text
        self.placeholder = f"c to go on: {text}"

    def _take_up(self, text: str) -> None:
        """``text`` in the box to write on, the cursor at its end."""
        self.value = text
        self.cursor_position = len(text)

    async def action_submit(self) -> None:
        """Send the line and stay in the chat for the next one: keys typed on
        after Enter are words, never moves (a ``p`` once played a card).
        Enter on an empty line, like Esc, goes back to the cards."""
        text = self.value.strip()
        self.value = ""
        if text:
            self.sent = text
            self.post_message(ChatPane.Said(text))
        else:
            self.action_leave()

    def give_back(self) -> None:
        """The table refused the last line sent (too many lines): it is the
        writer's again, to send once the wait is over, unless another has
        been begun since."""
        if not self.sent or self.value or self.draft:
            return
        if self.has_focus:
            self._take_up(self.sent)
        else:
            self._put_away(self.sent)
        self.sent = ""

    def action_leave(self) -> None:
        self.screen.set_focus(None)  # at once: the next key is the table's

    def insert_text_at_cursor(self, text: str) -> None:
        """Typed (or pasted) text, as much of it as fits the host's limit by
        display width: a line is never cut after it is sent, unseen."""
        room = MAX_CELLS - cell_len(self.value)
        fitting = cut_cells(text, max(room, 0))
        if fitting:
            super().insert_text_at_cursor(fitting)
        if fitting != text:
            self.app.bell()


class ChatPane(Vertical):
    @dataclass
    class Said(Message):
        text: str

    def __init__(self, *, id: str = "chat") -> None:
        super().__init__(id=id)
        self.border_title = TITLE

    def compose(self) -> ComposeResult:
        yield ChatLines()
        yield ChatInput()

    @property
    def talk_allowed(self) -> bool:
        return not self.query_one("#chat-input", Input).disabled

    def allow_talk(self, refusal: str | None) -> None:
        """Talk, or (``refusal``: why not) read only: a spectator at a table
        whose chat is the players' alone, anyone at a closed table, is told
        why there is nothing to type in."""
        allowed = refusal is None
        self.border_title = TITLE if allowed else "Chat"
        box = self.query_one(ChatInput)
        box.disabled = not allowed
        box.placeholder = box.resting_words() if refusal is None else refusal

    def give_back(self) -> None:
        self.query_one(ChatInput).give_back()

    def load(self, lines: list[ChatLine]) -> None:
        self.query_one(ChatLines).set_lines(lines)

    def add(self, line: ChatLine, above: int = 0) -> None:
        """A line, at the end or ``above`` lines before it."""
        log = self.query_one(ChatLines)
        lines = list(log.lines)
        lines.insert(len(lines) - above, line)
        log.set_lines(lines)

    def show_newest(self) -> None:
        """The newest lines in sight, and followed again: the lines a count
        said were unread, below where the reader had scrolled back to."""
        log = self.query_one(ChatLines)
        log.following = True
        log.call_after_refresh(log.scroll_end, animate=False)  # once laid out in sight

    def focus_lines(self) -> None:
        """The lines to read and scroll (one who may not write: no line)."""
        self.screen.set_focus(self.query_one(ChatLines))

    def focus_input(self) -> None:
        # At once, not by Widget.focus (which waits for the keys already
        # queued): typed fast or pasted after `c`, a line's letters would
        # otherwise reach the table as keys ("quick" -> q: leave, p: play).
        self.screen.set_focus(self.query_one(ChatInput))
