"""The lobby: seats filling up; the host adds bots, sets the options, starts."""

from __future__ import annotations

import shlex
from functools import partial

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.events import Resize
from textual.widgets import Button, Checkbox, Header, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from ...addresses import every_address, is_wildcard, show_address
from ...bots import BOT_LEVELS
from ...client import Lobby
from ...launcher import NO_NAME
from ...names import clean_name
from ...rules import Options
from ...textclean import plural
from ..leaving import option
from ..messages import HelpRequested, LeaveRequested
from ..session import Session, bot_words, presence_forms
from ..text import MUTED, cut_at_word, plain, reason_words
from ..widgets.chat import ChatPane
from ..widgets.fitted import FittedLine, FittedText, hanging_parts
from ..widgets.footer import KeysFooter
from ..widgets.tickbox import TickBox
from .base import TableScreenBase
from .name import NameScreen
from .table import NARROW as CHAT_BESIDE

# Short enough for the lobby's compact drop-down at 80x24 ("Finish: first out").
FINISH_CHOICES = [
    ("first out", "first_out"),
    ("for places", "places"),
]


NAME_KEPT = 8  # cells of a long name a narrow seat row keeps, "…" and all


def seat_line(lobby: Lobby, seat: int, me: int | None, live: bool, width: int) -> Content:
    """A seat's row of the list in at most ``width`` cells, on one line:
    spaced where it fits, then single spaces, its presence in shorter words
    ("◐ left", "●"), then its name cut ("Konstant…").  Wrapped by the list,
    a row at 40 columns read "2. seat 2 ○" and "open" under it."""
    slot = lobby.seats[seat]
    tags = []
    if seat == lobby.host_seat:
        tags.append("host")
    if seat == me:
        tags.append("you")
    name = plain(slot.name, "bold" if slot.kind != "open" else MUTED, 24)
    number = Content(f"{seat + 1}. ")
    # Muted as the words before them, not in the accent: on the list's
    # highlighted row, the accent all but vanished in many themes.
    tagged = f"({', '.join(tags)})" if tags else ""
    forms = presence_forms(slot, live) or [""]

    def row(name: Content, said: str, gap: str) -> Content:
        return Content.assemble(
            number,
            name,
            (gap + said if said else "", MUTED),
            (gap + tagged if tagged else "", MUTED),
        )

    lines = [row(name, forms[0], "  "), *(row(name, said, " ") for said in forms)]
    fits = next((line for line in lines if line.cell_length <= width), None)
    if fits is not None:
        return fits
    # The name gives way last: to the presence that still says why a bot
    # plays the seat ("◐ left"), then to the bare symbol.
    said = forms[1] if len(forms) > 2 else forms[-1]
    for words in (said, forms[-1]):
        room = width - row(Content(""), words, " ").cell_length
        if room >= NAME_KEPT:
            return row(name.truncate(room, ellipsis=True), words, " ")
    return cut_at_word(lines[-1], width)


def seat_row(lobby: Lobby, seat: int, me: int | None, live: bool = True) -> FittedLine:
    """The seat's row as the list draws it: :func:`seat_line` at its width."""
    return FittedLine(partial(seat_line, lobby, seat, me, live))


TURN_TIMES = (15.0, 30.0, 45.0, 60.0, 90.0, 120.0)  # seconds; the choices besides "off"
TURN_OFF = "off"  # a Select's value cannot be None

# The host's rows of buttons and drop-downs, in the column beside the
# chat, were cut where it is narrow: up to 73 columns "Finish: first ▼"
# lost "out"; at 60 the drop-downs showed "g", "firs" and "o", and "Remove
# (x)" and "Turn time (then a bot acts):" went past the column's edge.
# Narrower than TIGHT, the finish drop-down keeps the room its words need
# (the two drop-downs had a half each); narrower than NARROW, every row
# stacks its parts (styles.tcss).
TIGHT = 74
NARROW = 70
# Shorter than SHORT, the host's rows lose the blank lines between them: at
# 70x20 the Start button under the column left no line for the last option.
SHORT = 24
# A guest's column beside the chat (32 cells, or 40%) was 24 cells at 40x15:
# the seats wrapped, their own seat and what they wait for scrolled out of
# sight.  Narrower than the table keeps its chat (CHAT_BESIDE), a guest's
# chat gives its room to the column, and c lends it the column's room while
# a line is written, as at the table.  So does the host's: beside its chat
# at 40x15 the column was 24 cells, the seat rows cut to "2. greedy bot…
# ⚙" and "3. greedy bot… ⚙" (wrapped, before), and the join command took
# four lines.


def turn_words(seconds: float) -> str:
    whole = int(seconds) if seconds == int(seconds) else seconds
    return f"{whole} s" if seconds < 60 or seconds % 60 else f"{int(seconds // 60)} min"


def turn_time_choices(current: float | None = None) -> list[tuple[str, object]]:
    """Off, the usual lengths, and ``current`` if it is none of them (a --turn-time)."""
    times = sorted({*TURN_TIMES, *([current] if current is not None else [])})
    return [("off", TURN_OFF)] + [(turn_words(t), t) for t in times]


def turn_time_value(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and value > 0 else None


def turn_time_line(seconds: float, bot_level: str | None) -> str:
    """What a guest is told of the turn timer, and which bot acts when it
    runs out: the table's level (its host's choice), which "then a bot
    acts" did not say."""
    bot = bot_words("", bot_level)
    article = "an" if bot[:1] in "aeiou" else "a"
    return f"Turn time: {turn_words(seconds)} for each move, then {article} {bot} acts"


def code_option(code: str | None) -> str:
    """The room code as ``threeup join`` takes it, quoted for the shell (a
    code may hold a space or a shell's characters); one that begins with
    "-" is joined to its option, or the command line takes it for one."""
    return option("--code", code) if code else ""


COMMAND_INDENT = 2  # a command's lines under its label, or after its first


def command_lines(label: Content, words: list[Content], width: int) -> Content:
    """``label`` and a command of ``words``, for ``width`` cells: on one
    line; else the command whole on the line under its label (one line to
    copy); else, narrower than the command, wrapped between its words (an
    option kept with its value), the lines after the first indented."""
    command = Content(" ").join(words)
    if label.cell_length + 1 + command.cell_length <= width:
        return Content.assemble(label, " ", command)
    if COMMAND_INDENT + command.cell_length <= width:
        return Content.assemble(label, "\n", " " * COMMAND_INDENT, command)
    return hanging_parts([label, *words], width, COMMAND_INDENT)


def join_lines(client: object, code: str | None, width: int) -> list[Content]:
    """How others join the host's table, for ``width`` cells: the game's
    command, room code and all (a friend who copied "threeup join HOST:PORT"
    was refused for want of the code, shown on another line), and the SSH
    door's port."""
    lines = []
    address = getattr(client, "address", None)
    game_on_ipv6 = False
    code_words = [code_option(code)] if code else []

    def join_command(label: Content, where: str, style: str) -> Content:
        # The address quoted as the code is: an IPv6 address's brackets are
        # a pattern to zsh ("no matches found"), as the README quotes them.
        words = ["threeup", "join", shlex.quote(where), *code_words]
        command = [Content.styled(word, style) for word in words]
        return command_lines(label, command, width)

    if isinstance(address, tuple) and len(address) == 2:
        host, port = reach(address[0]), address[1]
        lines.append(join_command(Content("Join:"), show_address(host, port), "bold"))
        game_on_ipv6 = every_address(address[0])
        if game_on_ipv6:
            # HOST:PORT with an IPv6 address is no address at all ("fd00::5:5000"
            # even reads as another IPv6 address): a friend on IPv6 writes brackets.
            lines.append(join_command(Content.styled("IPv6:", MUTED), f"[{host}]:{port}", MUTED))
    ssh = getattr(client, "ssh_address", None)
    if isinstance(ssh, tuple) and len(ssh) == 2:
        where = f"-p {ssh[1]} {reach(ssh[0])}"
        lines.append(Content.assemble("SSH, nothing to install: ", (f"ssh {where}", "bold")))
        if game_on_ipv6 and ssh[0] == "0.0.0.0":
            # --ssh-port 0 on every address: the door took one free port, on
            # IPv4 (IPv6 would have had another), while the game takes both.
            lines.append(Content.styled("(the SSH door listens on IPv4 only)", MUTED))
    return lines


WAITING = "Waiting for the host to start the game…"


def waiting_words(lobby: Lobby | None) -> str:
    """What a guest waits for.  A dedicated host (``--headless``: no seat of
    its own) starts the game by itself once every seat is taken, and nobody
    presses a start key: its guests and spectators read "Waiting for the
    host to start the game…" and waited for someone who never would."""
    if lobby is None or lobby.host_seat is not None:
        return WAITING
    free = open_seats(lobby)
    if not free:
        return "Every seat is taken: the game is about to start…"
    return f"The game starts once every seat is taken ({plural(free, 'seat')} open)."


def open_seats(lobby: Lobby | None) -> int:
    return 0 if lobby is None else sum(1 for seat in lobby.seats if seat.kind == "open")


def sit_offered(session: Session) -> bool:
    """Whether a spectator here may ask for a seat now (s): the game not
    begun, a seat open, the link up.  The table decides; this only keeps
    the key from being offered where it cannot work."""
    lobby = session.lobby
    return (
        session.welcome is not None
        and session.seat is None
        and session.client.may_sit_down
        and session.live
        and not session.reconnecting
        and lobby is not None
        and not lobby.started
        and open_seats(lobby) > 0
    )


SIT_HINT = "You are watching. s sits you down at an open seat."


def guest_wait_line(session: Session) -> Content:
    """A guest's line under the seats: the wait for the start while the link
    to the host holds, else plainly that it does not.  The app's note on the
    status line goes after a few seconds, and the lobby, which changes only
    when the host sends something, went on looking as if all were well."""
    reason = reason_words(session.connection_detail)
    if session.waiting_for_host:
        # Stopped on purpose, to be resumed: no link was lost ("lost: the
        # host stopped…" read as a failure), and the wait has no end to count.
        return Content.assemble(
            ("The host stopped the table: waiting for it to come back…", "bold $text-warning"),
            (f"\n({reason})", MUTED),
        )
    if session.reconnecting:  # nothing heard from the host ("nothing received for 5 s")
        return Content.assemble(
            (f"⚠ Lost the link to the host: {session.link_words()}…", "bold $text-warning"),
            # Why it was judged lost, not how long ago: "26 s" above and
            # "nothing received for 5 s" side by side read as a contradiction.
            (f"\n(lost: {reason})" if reason else "", MUTED),
        )
    if not session.live:  # closed for good ("the host closed the table"): no game comes
        said = f"✖ The connection is closed: {reason}" if reason else "✖ The connection is closed"
        return Content.assemble(
            (said, "bold $text-error"),
            ("\nNo game will start here: q leaves the table.", MUTED),
        )
    if sit_offered(session):
        # A spectator who sees an open seat: how to take it, not only the wait.
        return Content.assemble(waiting_words(session.lobby), "\n", (SIT_HINT, "bold"))
    return Content(waiting_words(session.lobby))


def reach(bound: str) -> str:
    """What others type to reach an address the table is bound to: a table
    bound to every address is reached by this machine's own ("HOST"), one
    bound to 127.0.0.1 only by that address, from this machine."""
    return "HOST" if is_wildcard(bound) else bound


def first_seat_to_act_on(lobby: Lobby, host: bool) -> int:
    """Where the seat list's highlight starts: for the host, on the first bot
    (what x removes), else the first open seat, else a guest's.  It started
    on the host's own seat, and the first x was refused with "the host keeps
    their own seat"; a guest is not first, where one x would send them away."""
    if not host:
        return 0
    others = [slot for slot in lobby.seats if slot.seat != lobby.host_seat]
    for kind in ("bot", "open", "human"):
        for slot in others:
            if slot.kind == kind:
                return slot.seat
    return 0


def sat_down(before: tuple[str, ...], now: tuple[str, ...], seat: int) -> bool:
    """Whether a player has just sat down on ``seat``, which was not theirs."""
    return seat < len(before) and before[seat] != "human" and now[seat] == "human"


def why_not_removed(lobby: Lobby, seat: int) -> str | None:
    """Why x does nothing to ``seat``, in the words of what to do instead;
    None when x removes whoever sits there."""
    if seat == lobby.host_seat:
        return "That is your own seat: highlight a bot or a player (↑ ↓), then x"
    if lobby.seats[seat].kind == "open":
        return "That seat is open already: a adds a bot"
    return None


class SitNameScreen(NameScreen):
    """The name to sit down under, asked of a spectator who gave none."""

    HINT = "⏎ sit down · Esc watch on"
    BINDINGS = [Binding("escape", "cancel", "Watch on")]  # the key bar's words, as the hint's

    # Over the lobby: the app routes no table change while it is on top, and
    # the lobby routes again once it is answered (a game may have begun).
    covers_game = True


class LobbyScreen(TableScreenBase):
    AUTO_FOCUS = ""  # the seats, in prepare: without scrolling to them
    CHAT_BACK_TO = "lobby"
    BINDINGS = [
        Binding("a", "add_bot", "Add bot"),
        # The footer's words are the buttons' ("Remove seat" and "Start"
        # were beside "Remove (x)" and "Start the game (s)"); "Start game",
        # short enough for the footer at 40 columns beside "a Add bot".
        Binding("x,delete", "remove_seat", "Remove"),
        Binding("s", "start", "Start game"),
        # A spectator's s (the host's starts the game): shown only when it can work.
        Binding("s", "sit", "Sit down"),
        Binding("c", "chat", "Chat"),
        Binding("question_mark,f1", "help", "Rules", key_display="?"),
        Binding("q", "leave", "Leave"),
    ]
    FOOTER_ORDER = ("back", "start", "sit", "add_bot", "remove_seat", "chat")

    def __init__(self) -> None:
        super().__init__(id="lobby-screen")
        self._shown: tuple[object, ...] | None = None
        self._kinds: tuple[str, ...] = ()  # each seat's kind, as last shown
        self._sit_shown = False  # whether the footer offers "s Sit down"
        self._own_seat: int | None = None  # a guest's seat, as last highlighted
        # Where _own_seat_in_sight left a guest's column (None: not yet): a
        # column elsewhere was moved by the guest, and is theirs to move.
        self._placed_at: float | None = None

    def on_resize(self, event: Resize) -> None:
        self.set_class(self.size.width < TIGHT, "-tight")
        self.set_class(self.size.width < NARROW, "-narrow")
        self.set_class(self.size.height < SHORT, "-short")
        aside = self.size.width < CHAT_BESIDE
        # Wide again while a line is written, the chat is beside the column
        # (-chatting counts only with -chat-aside, styles.tcss), and stays
        # open if the terminal narrows again: -chatting goes only when the
        # chat line loses the keys (base.py), as at the table and the set-up.
        # Taken off here, narrowing again hid the box that had the keys.
        self.set_class(aside, "-chat-aside")
        if not self._hosting():
            # Narrow, what the guest waits for goes above the seats: under
            # six of them, a turn time and the room code's words, it was
            # scrolled out of sight at 40x15.
            wait, seats = self.query_one("#lobby-wait"), self.query_one("#seats")
            if aside:
                self.query_one("#lobby-main").move_child(wait, before=seats)
            else:
                self.query_one("#lobby-main").move_child(wait, after=seats)

        # Once laid out at the new size: the column the guest had scrolled
        # is laid out anew, and shows their seat again.
        self.call_after_refresh(self._own_seat_in_sight, True)

    def _own_seat_in_sight(self, always: bool = False) -> None:
        """A guest's seat list in sight, their own seat with it: seated sixth
        of six at 40x15, under the table's name, its turn time and the wait,
        the guest's own row was below the column's end, and nothing said
        they were seated.  The column scrolls as little as it takes (the list
        is at most 8 rows: styles.tcss).  Not the host's column, which
        scrolls to its controls, nor a spectator's (no seat).

        Unless ``always`` (the lobby first shown, the guest's seat changed,
        the terminal resized), a column the guest has scrolled since stays
        where they put it: one who scrolled up to read the table's name or
        another seat was thrown back down whenever anyone joined or left."""
        session = self.session
        if not self.ready or session is None or session.is_host or session.seat is None:
            return
        main = self.query_one("#lobby-main", VerticalScroll)
        if not always and self._placed_at is not None and main.scroll_y != self._placed_at:
            # Moved since it was placed; not by the guest only if the column
            # got shorter under a view placed at its end (held at the new end).
            held = main.scroll_y == main.max_scroll_y < self._placed_at
            if not held:
                return
        seats = self.query_one("#seats", OptionList)
        seats.scroll_to_highlight()  # their own seat, unless they moved the highlight
        main.scroll_to_widget(seats, animate=False, immediate=True)
        self._placed_at = main.scroll_y

    def footer_keeps(self) -> frozenset[str]:
        """The host's Start however narrow the footer: it is the lobby's way
        on.  At 40x15 the footer dropped "s" (the rightmost key it could),
        under a button that said "(s)"."""
        keeps = super().footer_keeps()
        return keeps | {"start"} if self._hosting() else keeps

    def _hosting(self) -> bool:
        session = self.session
        return session is not None and session.is_host

    def chat_out_of_sight(self) -> bool:
        return self.has_class("-chat-aside")

    def _table_bot_level(self) -> str:
        """The level Add bot starts at: the table's own (``--bot-level``, or
        the host screen's choice), else greedy."""
        session = self.session
        welcome = session.welcome if session is not None else None
        if welcome is not None and welcome.bot_level in BOT_LEVELS:
            return welcome.bot_level
        return "greedy" if "greedy" in BOT_LEVELS else next(iter(BOT_LEVELS))

    def compose(self) -> ComposeResult:
        session = self.session
        host = session is not None and session.is_host
        yield Header()
        with Horizontal(id="lobby-body"):
            with Vertical(id="lobby-column"):
                with VerticalScroll(id="lobby-main"):
                    yield FittedText(id="lobby-title")
                    yield OptionList(id="seats")
                    if host:
                        yield from self.host_controls()
                    else:
                        yield Static(WAITING, id="lobby-wait")
                if host:
                    # Under the column, not in it: the host's main action is in
                    # sight whatever scrolls (at 60x18 the stacked controls put
                    # it below the column's end, and at 80x24 too, by a line).
                    with Horizontal(id="lobby-start"):
                        yield Button("Start game (s)", id="start", variant="success", compact=True)
            yield ChatPane()
        # The game's footer: Textual's own cut "q Leave" to "q Lea" at 70
        # columns, to leave room for its ^p palette.
        yield KeysFooter()

    def host_controls(self) -> ComposeResult:
        """The host's rows of seats and options (Start is under the column)."""
        with Horizontal(classes="controls"):
            yield Button("Add bot (a)", id="add-bot", variant="primary", compact=True)
            yield Select(
                [(level, level) for level in BOT_LEVELS],
                value=self._table_bot_level(),
                allow_blank=False,
                id="bot-level",
                compact=True,
            )
            yield Button("Remove (x)", id="remove", variant="warning", compact=True)
        with Horizontal(classes="controls"):
            yield Label("Finish:")
            yield Select(
                FINISH_CHOICES,
                value="first_out",
                allow_blank=False,
                id="finish",
                compact=True,
            )
            yield Label("First:")
            yield Select(
                [("random", "random")],
                value="random",
                allow_blank=False,
                id="first",
                compact=True,
            )
        with Horizontal(classes="controls"):
            yield Label("Turn time (then a bot acts):", id="turn-time-label")
            yield Select(
                turn_time_choices(),
                value=TURN_OFF,
                allow_blank=False,
                id="turn-time",
                compact=True,
            )
        # Short enough for the lobby's column at 70 columns.
        yield TickBox("Voluntary pick-up (at any time)", id="voluntary", compact=True)

    def prepare(self) -> None:
        # The seats take the keys (↑ ↓ x), but the column stays at its top:
        # at 70x20 focusing them scrolled the table's name, its room code
        # and the join line out of sight, and no key scrolled them back.
        self.set_focus(self.query_one("#seats", OptionList), scroll_visible=False)

    def sync(self) -> None:
        session = self.session
        if session is None or session.lobby is None or not self.ready:
            return
        lobby = session.lobby
        live = session.presence_known
        offered = sit_offered(session)
        if offered != self._sit_shown:
            self._sit_shown = offered
            self.refresh_bindings()  # "s Sit down" comes and goes with the open seats
        key = (lobby, session.seat, session.connection, session.connection_detail, offered)
        if key == self._shown:
            return
        self._shown = key
        title = [plain(lobby.table_name or "threeup table", "bold", 40)]
        if lobby.code:
            title.append(Content.assemble("Room code: ", (lobby.code, "bold reverse")))
        elif lobby.code_required:
            title.append(Content("This table uses a room code."))
        else:
            title.append(Content.styled("No room code: anyone who finds the table may sit.", MUTED))
        # How to join, for the column's width (FittedText): the command
        # kept whole on a line where it fits, wrapped between its words
        # where nothing would hold it.
        joining = len(title)
        client, code = session.client, lobby.code
        if lobby.turn_time is not None and not session.is_host:  # the host has its control
            title.append(Content(turn_time_line(lobby.turn_time, lobby.bot_level)))
        filled = sum(1 for s in lobby.seats if s.kind != "open")
        seats_line = f"Seats: {filled} of {len(lobby.seats)} taken"
        if lobby.watching:
            seats_line += f" · {lobby.watching} watching"
        title.append(Content(seats_line))
        self.query_one("#lobby-title", FittedText).update(
            lambda width: Content("\n").join(
                [*title[:joining], *join_lines(client, code, width), *title[joining:]]
            )
        )
        seats = self.query_one("#seats", OptionList)
        highlighted = seats.highlighted
        seats.clear_options()
        seats.add_options(
            Option(
                seat_row(lobby, i, session.seat, live),
                id=f"seat-{i}",
            )
            for i in range(len(lobby.seats))
        )
        before, self._kinds = self._kinds, tuple(slot.kind for slot in lobby.seats)
        if highlighted is None or highlighted >= len(lobby.seats):
            highlighted = first_seat_to_act_on(lobby, session.is_host)
        elif session.is_host and sat_down(before, self._kinds, highlighted):
            # A friend sat down on the open seat the highlight was on (where
            # it starts): x, pressed for the bot just added, sent them away.
            highlighted = first_seat_to_act_on(lobby, session.is_host)
        own_seat_changed = not session.is_host and session.seat != self._own_seat
        if own_seat_changed:
            # A guest (x removes nothing of theirs): the highlight on their own
            # seat, where they are, and what the list scrolls to (a long name
            # takes two rows, and the list of six scrolled in itself).
            self._own_seat = session.seat
            if session.seat is not None and session.seat < len(lobby.seats):
                highlighted = session.seat
        seats.highlighted = highlighted
        # Once the new rows are laid out.
        self.call_after_refresh(self._own_seat_in_sight, own_seat_changed)
        if session.is_host:
            self._sync_options(lobby)
        else:
            self.tick_clock()
        self.watch_clock()

    def tick_clock(self) -> None:
        session = self.session
        if session is not None and not session.is_host and self.ready:
            self.query_one("#lobby-wait", Static).update(guest_wait_line(session))

    def _sync_options(self, lobby: Lobby) -> None:
        options = lobby.options
        first = self.query_one("#first", Select)
        finish = self.query_one("#finish", Select)
        voluntary = self.query_one("#voluntary", Checkbox)
        # Showing the table's options must not send them back.
        with self.prevent(Select.Changed, Checkbox.Changed):
            first.set_options(
                [("random", "random")]
                + [(f"seat {i + 1}", str(i)) for i in range(len(lobby.seats))]
            )
            first.value = "random" if options.first is None else str(options.first)
            finish.value = options.finish
            voluntary.value = options.voluntary_pickup
            turn = self.query_one("#turn-time", Select)
            turn.set_options(turn_time_choices(lobby.turn_time))
            turn.value = TURN_OFF if lobby.turn_time is None else lobby.turn_time

    # ------------------------------------------------------------ host controls
    HOST_ACTIONS = frozenset({"add_bot", "remove_seat", "start"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "chat":
            return super().check_action(action, parameters)
        session = self.session
        if action == "sit":
            return session is not None and sit_offered(session)
        # A guest's footer shows no host keys (and the keys do nothing).
        host = session is not None and session.is_host
        return host or action not in self.HOST_ACTIONS

    def _options(self) -> Options:
        first = self.query_one("#first", Select).value
        finish = self.query_one("#finish", Select).value
        return Options(
            first=None if first in ("random", Select.BLANK) else int(str(first)),
            voluntary_pickup=self.query_one("#voluntary", Checkbox).value,
            finish="places" if finish == "places" else "first_out",
        )

    @on(Select.Changed, "#first, #finish")
    @on(Checkbox.Changed, "#voluntary")
    def options_changed(self) -> None:
        session = self.session
        # Only what the host changed: widgets catching up with the table's
        # options must not send them back.
        if session is not None and session.lobby is not None:
            options = self._options()
            if options != session.lobby.options:
                session.client.set_options(options)

    @on(Select.Changed, "#turn-time")
    def turn_time_changed(self) -> None:
        session = self.session
        if session is not None and session.lobby is not None:
            # The widget's value now, not the event's: a Select's first Changed
            # (its initial "off") may arrive after the table's time is shown.
            seconds = turn_time_value(self.query_one("#turn-time", Select).value)
            if seconds != session.lobby.turn_time:
                session.client.set_turn_time(seconds)

    def action_add_bot(self) -> None:
        session = self.session
        if session is None:
            return
        level = self._table_bot_level()
        if self.query("#bot-level"):
            level = str(self.query_one("#bot-level", Select).value)
        session.client.add_bot(level)

    def action_remove_seat(self) -> None:
        session = self.session
        seats = self.query_one("#seats", OptionList)
        if session is None or seats.highlighted is None:
            self.notify("Highlight a seat first (↑ ↓)", severity="warning", timeout=3)
            return
        lobby = session.lobby
        why = None if lobby is None else why_not_removed(lobby, seats.highlighted)
        if why is not None:
            self.notify(why, severity="warning", timeout=3)
            return
        session.client.remove_seat(seats.highlighted)

    def action_start(self) -> None:
        session = self.session
        if session is not None:
            session.client.start_game()

    def action_sit(self) -> None:
        """Sit down at the table under the name this spectator gave, or one
        asked for now if it gave none (it watches as "player", the join
        form's and the command line's name for nobody in particular)."""
        session = self.session
        if session is None or not sit_offered(session):
            return
        name = clean_name(session.client.name, "")
        if name and name.casefold() != NO_NAME:
            session.client.sit_down(name)
        else:
            self.app.push_screen(SitNameScreen(), self._sit_as)

    def _sit_as(self, name: str | None) -> None:
        session = self.session
        if name is None or session is None:
            return  # Esc: watching on
        if not name:
            self.notify("A seat needs a name: s, then type one", severity="warning", timeout=4)
        elif sit_offered(session):
            session.client.sit_down(name)
        else:
            self.notify("No seat is open any more: you watch on", severity="warning", timeout=4)

    @on(Button.Pressed)
    def button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        action = {
            "add-bot": self.action_add_bot,
            "remove": self.action_remove_seat,
            "start": self.action_start,
        }
        action.get(event.button.id or "", lambda: None)()

    # ------------------------------------------------------------ chat and more
    def action_help(self) -> None:
        self.post_message(HelpRequested("rules"))

    def action_leave(self) -> None:
        self.post_message(LeaveRequested())
