"""What every screen that shows a table has in common."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol, cast

from textual import on
from textual.binding import ActiveBinding
from textual.events import DescendantBlur, Resize
from textual.screen import Screen
from textual.timer import Timer

from ...names import clean_name, seated_as
from ...settings import Settings
from ..session import ChatLine, Session
from ..text import clean
from ..widgets.chat import ChatInput, ChatLines, ChatPane
from .sight import typed_unseen

# A narrow screen's class while its chat takes the cards' room (action_chat).
CHATTING = "-chatting"
# A screen's class at a game against bots here (Session.solo): no chat pane,
# its room the table's (styles.tcss), and no c.
SOLO = "-solo"


class GameApp(Protocol):
    """What a table screen may read of the app (and ``route`` on resume).

    Screens never import the app module (an import contract keeps it so):
    they read the app through this, and ask for anything by posting a
    message (``..messages``: HelpRequested, LeaveRequested, ...).
    """

    session: Session | None
    # When the key whose bindings run now was typed (None: no key's).
    key_typed_at: float | None

    @property
    def settings(self) -> Settings: ...

    def route(self) -> None: ...


def seat_to_take_back(session: Session) -> str | None:
    """The name of this spectator's own seat, waiting for them at the table
    (their token is kept for it, and nobody plays it from a terminal), for s
    to ask for it back; None when there is none, or the key cannot work now
    (the link lost, an asking under way).  The table checks the token."""
    lobby = session.lobby
    if lobby is None or session.seat is not None or not session.live or session.reconnecting:
        return None
    if not session.client.may_sit_down:
        return None
    return session.client.kept_seat(lobby)


def seat_as_shown(session: Session, name: str) -> str | None:
    """The seat kept for ``name`` as the table shows it: "Ann (2)" where the
    host told this Ann from one seated before her (the notice named "Ann",
    and the row it meant read "Ann (2)").  With two Anns away, the seat the
    client's token was kept for; None when nothing tells which it is (a
    token kept without its seat's number)."""
    lobby = session.lobby
    if lobby is None:
        return None
    away = [
        slot.seat
        for slot in lobby.seats
        if slot.kind == "human" and not slot.connected and seated_as(slot.name, name)
    ]
    if len(away) != 1:
        # Two of that name away ("Ann" and "Ann (2)"): the seat this client's
        # token was kept for is the one (the notice said only "your seat").
        kept = session.client.kept_seat_number(lobby)
        if kept not in away:
            return None
        away = [kept]
    names = session.names()
    seat = away[0]
    return names[seat] if seat < len(names) else clean(lobby.seats[seat].name, 24)


def reworded(
    bindings: dict[str, ActiveBinding], words: Callable[[ActiveBinding], str]
) -> dict[str, ActiveBinding]:
    """``bindings`` with each key described in ``words`` (for the footer)."""
    for key, active in bindings.items():
        said = words(active)
        if said != active.binding.description:
            bindings[key] = active._replace(binding=replace(active.binding, description=said))
    return bindings


def chat_key_words(active: ActiveBinding, session: Session | None) -> str:
    """The chat key's words with the count of lines unread: "Chat (2)"."""
    unread = session.unread_chat if session is not None else 0
    if active.binding.action == "chat" and unread:
        return f"{active.binding.description} ({unread})"
    return active.binding.description


CLOCK_TICK = 0.25  # seconds between looks at a running turn clock


class TableScreenBase(Screen[None]):
    """A screen fed by the app's session: ``sync`` after every change."""

    _ready = False
    _clock_timer: Timer | None = None
    _here_said_at: object = None  # the lobby a key said "here" at (say_here)
    # Its first Resize handled: whether the chat shows is known (a narrow
    # screen puts it away then).
    laid_out = False
    # Where Esc in the chat line gives the keys back to, in the footer's words.
    CHAT_BACK_TO = "table"
    # The footer's keys, the most important first: the last to go when it
    # is narrow (see KeysFooter).  Help and leave, at its end, always stay.
    # "back" (the chat's way back to the screen's own keys) leads each.
    FOOTER_ORDER: tuple[str, ...] = ()

    @property
    def ready(self) -> bool:
        """The widgets exist and are staying: set at the end of on_mount, and
        false again once the screen stops (the app closing tears children
        down while late messages may still arrive)."""
        return self._ready and self.is_running

    @ready.setter
    def ready(self, value: bool) -> None:
        self._ready = value

    def on_unmount(self) -> None:
        self._ready = False

    # When the first frame showing what this screen's keys act on (the
    # set-up's cards, the table's turn: in_sight) was handed to the terminal.
    shown_at: float | None = None

    def frame_shown(self, at: float) -> None:
        """A frame of this screen was handed to the terminal ``at`` (the app's
        post_display_hook; headless, when it would have been)."""
        if self.shown_at is None and self.ready and self.in_sight():
            self.shown_at = at

    def in_sight(self) -> bool:
        """Whether what this screen's keys act on is laid out now, and so in
        the frame being handed to the terminal."""
        return True

    def typed_unseen(self) -> bool:
        """Whether the key being handled was typed before what it acts on was
        in sight (in_sight): Enter typed twice fast on "Play against bots",
        its second read while the set-up was built, said "Choose 3 cards
        (you have 0)" to a player who had not seen a card; Enter typed
        during a bot's turn played on the pile the bot had just changed.
        Told by when the key was typed, not when it is handled: a key typed
        at the cards in sight and queued behind a refresh is a choice
        (waiting for a callback after that refresh dropped such keys: "1 2
        3 Enter" laid nothing)."""
        return typed_unseen(self.game_app.key_typed_at, self.shown_at)

    def take_seat_back(self) -> None:
        """A spectator asks for the seat that waits for them (the table's and
        the game-over box's s): the table gives it to the token kept for its
        name, and refuses, in words, a seat that is not theirs."""
        session = self.session
        name = seat_to_take_back(session) if session is not None else None
        if session is None or name is None:
            return
        shown = seat_as_shown(session, name)
        words = f"your seat as {shown}" if shown else "your seat"
        self.notify(f"asking the table for {words}…", markup=False, timeout=3)
        session.client.sit_down(name)

    def say_here(self) -> None:
        """A key of a player whose seat the bot plays (marked away): the
        table hands the seat back.  Its own keys did not (a move out of turn
        is refused here, a card chosen is this app's alone), and on the
        seat's turn the bot had played before any key could; at the set-up
        the bot had laid the cards, and no key of the screen reached the
        table at all."""
        session = self.session
        if session is None or session.away_bot() is None:
            return
        if self._here_said_at is session.lobby:
            return  # said for this state of the table: the next lobby answers
        self._here_said_at = session.lobby
        session.client.here()

    # A turn clock counts down between the host's reports: tick while one runs.
    def watch_clock(self) -> None:
        """Start or stop ticking as the session's clock runs or stops."""
        session = self.session
        # A lost link ticks too: how long it has been lost is shown.
        running = session is not None and (session.clock is not None or session.reconnecting)
        if running and self._clock_timer is None:
            self._clock_timer = self.set_interval(CLOCK_TICK, self._tick)
        elif not running and self._clock_timer is not None:
            self._clock_timer.stop()
            self._clock_timer = None

    def _tick(self) -> None:
        if self.ready:
            self.tick_clock()
        self.watch_clock()

    def tick_clock(self) -> None:
        """Show the clocks' time now (each screen shows what it has room for)."""

    @property
    def game_app(self) -> GameApp:
        return cast(GameApp, self.app)

    @property
    def session(self) -> Session | None:
        return self.game_app.session

    def on_mount(self) -> None:
        self.ready = True
        session = self.session
        self.set_class(session is not None and session.solo, SOLO)
        self.prepare()
        if session is not None:
            self.query_one(ChatPane).load(session.chat)
        self.sync()
        self.sync_chat()

    def sync_chat(self) -> None:
        """Offer the chat only to whom the table lets speak (the lobby says)."""
        session = self.session
        if session is None or not self.ready:
            return
        refusal = session.chat_refusal()
        pane = self.query_one(ChatPane)
        if (refusal is None) != pane.talk_allowed:
            pane.allow_talk(refusal)
            self.refresh_bindings()  # the footer's "c Chat" comes and goes with it

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Who may not write (a spectator at a table that keeps its chat to
        # the players, anyone at a closed table) still reads: c shows a
        # narrow screen's hidden chat to them, which they never saw.
        session = self.session
        if action != "chat" or session is None:
            return True
        if session.solo:
            return False  # nobody to talk to, nor a line to read
        if session.may_chat:
            return True
        return self.chat_out_of_sight()

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """The keys as the footer shows them, in this screen's words."""
        bindings = reworded(super().active_bindings, self.key_words)
        if self.reading_chat():
            # Esc and c both give the room back: one hint says so ("esc/c
            # Back to the table"), not "c Chat" beside it.
            for key, active in bindings.items():
                binding = active.binding
                if binding.action == "chat":
                    binding = replace(binding, show=False)
                elif isinstance(active.node, ChatLines) and binding.action == "back":
                    binding = replace(binding, key_display="esc/c")
                bindings[key] = active._replace(binding=binding)
        return bindings

    def key_words(self, active: ActiveBinding) -> str:
        """What the footer says of a key here: the chat line's Esc read "Back
        to the table" in a lobby too, where there is no table yet."""
        chat = isinstance(active.node, (ChatInput, ChatLines))
        if chat and active.binding.action in ("leave", "back"):
            return f"Back to the {self.CHAT_BACK_TO}"
        return chat_key_words(active, self.session)

    def reading_chat(self) -> bool:
        """Whether the chat has the cards' room for one who may only read it."""
        return self.has_class(CHATTING) and isinstance(self.focused, ChatLines)

    def focus_in_chat(self) -> bool:
        """Whether the keys are the chat's (its line, or its lines to read)."""
        focused = self.focused
        return focused is not None and any(
            isinstance(node, ChatPane) for node in focused.ancestors_with_self
        )

    def footer_keeps(self) -> frozenset[str]:
        """The actions whose keys the footer shows however narrow it is: the
        chat's, while it counts lines unread (a 40-column table's footer
        has room for none of its own beside Select, Play, Help and Leave)."""
        session = self.session
        return frozenset({"chat"}) if session is not None and session.unread_chat else frozenset()

    def prepare(self) -> None:
        """Set up what the first ``sync`` needs (the widgets exist)."""

    def sync(self) -> None:
        """Show the session's latest lobby and view."""

    # Every table screen has the chat pane: one way to focus, send and show.
    def action_chat(self) -> None:
        if not self.check_action("chat", ()):
            return
        pane = self.query_one(ChatPane)
        if not pane.talk_allowed:
            self.read_chat(pane)
        else:
            if self.chat_out_of_sight():
                # Too narrow to show the chat beside the cards: it takes the
                # cards' room while a line is written, and gives it back when
                # the keys go back to the table (Esc, or Enter on an empty
                # line).  "Chat needs 60 columns" left the next letters
                # typed to the table as keys (u: pick up the pile).
                self.lend_chat_the_room()
            pane.focus_input()
            self.chat_seen()

    def read_chat(self, pane: ChatPane) -> None:
        """c for one who may not write: a narrow screen lends the cards' room
        to the lines, to read and scroll (no line to write), and c again or
        Esc gives it back.  c was refused them, and under 60 columns they
        never saw a line, nor a count of them."""
        if self.reading_chat():
            self.set_focus(None)  # the blur gives the room back
        elif self.chat_out_of_sight():
            self.lend_chat_the_room()
            pane.focus_lines()
            self.chat_seen()

    def chat_out_of_sight(self) -> bool:
        """Whether the chat is left out of this screen's layout (too narrow)."""
        return False

    def chat_room_changed(self) -> None:
        """The chat took the cards' room, or gave it back (CHATTING)."""

    def lend_chat_the_room(self) -> None:
        """The chat takes the cards' room (a narrow screen leaves it out)."""
        self.add_class(CHATTING)
        self.chat_room_changed()

    def chat_in_sight(self) -> bool:
        return not self.chat_out_of_sight() or self.has_class(CHATTING)

    @on(Resize)
    def chat_resized(self) -> None:
        """After the screen's own Resize handler has set the classes that say
        whether the chat shows: a line being written keeps its chat in
        sight, and a chat in sight has its lines read."""
        if self.focus_in_chat() and not self.chat_in_sight():
            # c at a wide table, then the terminal narrowed (a pane split):
            # the chat went out of sight under the keys, Textual gave them
            # to the table, and the "p" of the next word played a card.
            self.lend_chat_the_room()
        self.laid_out = True
        self.chat_seen()

    def chat_seen(self) -> None:
        """The chat shows (c, or a terminal wide enough): its lines are read,
        and the footer's count of them goes."""
        session = self.session
        if session is not None and session.unread_chat and self.chat_read_now():
            # The lines counted in sight as the count goes: scrolled back
            # before, c showed old lines and the count went, the new ones
            # below, out of sight.
            self.query_one(ChatPane).show_newest()
            session.unread_chat = 0
            self.refresh_bindings()

    def chat_read_now(self) -> bool:
        """Whether the chat is in sight and nothing covers it: a line said
        under the game-over box or the help, at a table wide enough to show
        its chat, was counted as read (and the box's "c Chat" said nothing)."""
        return self.chat_in_sight() and self.app.screen is self

    def unread(self, line: ChatLine) -> bool:
        """Whether ``line`` goes unread here: said by someone else (a player
        or a spectator; not the table's own notes, joins and bots' turns,
        which would count up all game) while this screen, the table's
        topmost, keeps its chat out of sight or covered."""
        session = self.session
        if session is None or self.chat_read_now() or not self.topmost_table():
            return False
        if line.earlier or (line.seat is None and not line.spectator):
            return False  # said before this app came, or the table's own line
        if line.spectator:
            mine = session.seat is None and line.name == clean_name(session.client.name, "")
        else:
            mine = line.seat == session.seat
        return not mine

    def topmost_table(self) -> bool:
        """Whether no table screen is over this one (each of them is told of
        every line, and one counts it)."""
        stack = self.app.screen_stack
        later = stack[stack.index(self) + 1 :] if self in stack else []
        return not any(isinstance(screen, TableScreenBase) for screen in later)

    def on_descendant_blur(self, event: DescendantBlur) -> None:
        # The keys gone from the chat (not from its line to its lines, Tab).
        if self.has_class(CHATTING) and not self.focus_in_chat():
            self.remove_class(CHATTING)
            self.chat_room_changed()

    @on(ChatPane.Said)
    def said(self, event: ChatPane.Said) -> None:
        session = self.session
        if session is not None:
            session.client.chat(event.text)

    def give_back_chat(self) -> None:
        """The table refused the last chat line: back in the box."""
        if self.ready:
            self.query_one(ChatPane).give_back()

    def add_chat(self, line: ChatLine, above: int = 0) -> None:
        """A chat line arrived (to go ``above`` lines before the end)."""
        if self.ready:
            self.query_one(ChatPane).add(line, above)
            session = self.session
            if session is not None and self.unread(line):
                session.unread_chat += 1
                self.refresh_bindings()  # "c Chat (2)"
                if self.app.screen is not self:
                    self.app.screen.refresh_bindings()  # the game-over box's, over it

    def on_screen_resume(self) -> None:
        # The view may have moved on while a help or confirm screen covered us.
        self.game_app.route()
        if self.is_current:
            self.sync()
            if self.laid_out:
                # The lines said under it, in sight again.  Not on its first
                # showing: before its first Resize a narrow screen has not
                # yet put its chat away, and seemed to show it (a 40-column
                # table lost the set-up's "c Chat (2)", its lines unseen);
                # that Resize sees to the lines then.
                self.chat_seen()
