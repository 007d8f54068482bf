"""Game over: the winner or the places, rematch, save the record."""

from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from ...bots import next_bot_level
from ...client import Lobby
from ...recordfile import free_path
from ...rules import View
from ...textclean import plural
from ..messages import LeaveRequested
from ..session import Session
from ..text import MUTED, clean, reason_words
from ..widgets.fitted import FittedText, packed
from ..widgets.footer import KeysFooter
from ..widgets.line import InOrderInput
from ..widgets.status import AWAY_KEY, display_turn
from ..widgets.status_line import NEXT_GAME_ASKED, StatusLine
from .base import TableScreenBase, chat_key_words, reworded, seat_to_take_back

# The Rematch button has the focus, and ⏎ is also the table's Play key: a
# ⏎ typed as the last card went down (or queued behind it) pressed Rematch
# the moment the box came up, dealing the next game (at a host, for
# everyone) before anyone had read the result.  For this long after the box
# appears the button takes no press; the r key is deliberate and always does.
REMATCH_GRACE = 0.6
RECORD_STEM = "threeup-game"  # .json, or -2.json... if taken
# Columns under which the four buttons (16 wide each) no longer fit side by
# side: at 60 "Leave (q)" was off the screen, without a sign.  Narrower they
# are as wide as their words, and narrower still they take two rows.
WORD_WIDE_BUTTONS = 70
TWO_ROWS_OF_BUTTONS = 56
NOBODY_HERE = "No player is at the table now: the next game waits for one to come back."
EVERYONE_AWAY = "Every player is away: the next game waits for one to play again"
SHORT = 24  # lines under which the result gives up the blank line above it
# Lines under which the box gives up its blank lines: at 40x15 it was three
# lines taller than the screen, and "Saved the record to …", on its last
# line, was said out of sight.
TINY = 18


class RecordPathInput(InOrderInput):
    """The record's name.  While it has the keys, the box's letters type
    into it and its footer showed "esc Table" alone: nothing said that ⏎
    saves to the name typed.  Its ⏎ is shown, in the box's word for it."""

    BINDINGS = [Binding("enter", "submit", "Save", key_display="⏎")]


def free_record_name() -> str:
    """The name the box offers: threeup-game.json where the app runs, or
    threeup-game-2.json... if that is taken (the table writes over no file)."""
    return str(free_path(Path(), RECORD_STEM))


def result_content(view: View, names: tuple[str, ...], packed_at: int | None = None) -> Content:
    """The result in words: winner, places, or a stalemate.  ``packed_at``:
    the places side by side, as many to a line as fit that width (a short
    screen: six places, one a line, ran the box past 15 lines)."""
    lines: list[Content] = []
    if view.winner is None:
        lines.append(Content.styled("Stalemate: 1000 turns and no winner.", "bold"))
    elif view.winner == view.seat:
        lines.append(Content.styled("You win!", "bold $text-success"))
    else:
        lines.append(Content.assemble((names[view.winner], "bold"), " wins."))
    if len(view.places) > 1:
        places = [Content(f"{i}. ") + names[seat] for i, seat in enumerate(view.places, start=1)]
        lines += [packed(places, packed_at)] if packed_at is not None else places
    # The same turn number as the top line's (the turn the game ended in).
    turns = display_turn(view)
    lines.append(
        Content.styled(f"{plural(view.moves_played, 'move')}, {plural(turns, 'turn')}", MUTED)
    )
    return Content("\n").join(lines)


def rematch_mode(lobby: Lobby | None) -> str:
    """How the next game starts: "host", "vote" or "none" (the table closes).

    Read defensively: tables that do not say are host-started."""
    mode = getattr(lobby, "rematch", "host") if lobby is not None else "host"
    return mode if mode in ("host", "vote", "none") else "host"


@dataclass(frozen=True)
class Offers:
    """What this seat may do after the game: nothing it cannot do is offered."""

    rematch: bool  # a button that asks for (or starts) the next game
    rematch_word: str  # its label
    save: bool  # only the host's machine writes the record
    waiting: str  # what the others wait for, or ""
    bots: bool = False  # the table's bot level may be changed for the next game (b)
    asked: bool = False  # this seat's ask for the next game is counted: not offered again


ASKED = "Asked ✓"  # the next game's button once this seat's ask is counted


def rematch_label(offers: Offers) -> str:
    """The next game's button: its word and key, or that it was asked for
    (it read "Next game (r)" after r, as if nothing had been asked)."""
    return ASKED if offers.asked else f"{offers.rematch_word} (r)"


HOST_STOPPED_WAIT = "The host stopped the table: the next game waits for it to come back."


def told_if_away(session: Session | None, words: str) -> str:
    """``words`` after what a player marked away must know first: that
    they are, and what brings their seat back, as the table's top line says
    (the box hid that line, and a player whose turns the bot had played to
    the end read only "waiting for Cy", and took the next game for theirs)."""
    if session is None or session.away_bot() is None:
        return words
    return f"{AWAY_KEY}. {words}".rstrip()


def offers_for(session: Session | None) -> Offers:
    view = session.view if session is not None else None
    lobby = session.lobby if session is not None else None
    seated = view is not None and view.seat is not None
    host = session is not None and session.is_host
    if session is not None and not session.live:
        # No next game will come here.  Said in the host's words, for a
        # closed link is not always a closed table: a seat taken over from
        # another terminal plays on there, and its first app read "The
        # table has closed: there is no next game" above "your seat was
        # taken over".
        why = reason_words(session.connection_detail).rstrip(".")
        if not why:
            return Offers(False, "", host, "The connection is closed: there is no next game here.")
        return Offers(False, "", host, f"No next game here: {why}.")
    mode = rematch_mode(lobby)
    if session is not None and session.waiting_for_host:
        # Stopped to be resumed: no vote goes, nor any game comes, until it
        # is back.  It read "The next game starts when every player here has
        # asked for it … waiting for you", above "The host stopped".
        word = "Next game" if mode == "vote" else ""
        return Offers(seated and bool(word), word, host, HOST_STOPPED_WAIT)
    if mode == "none":
        return Offers(False, "", host, "This table closes after this game.")
    if mode == "vote":
        # A dedicated host: every seated player asks; the next game starts
        # when all who are here have.
        seats = lobby.seats if lobby is not None else ()
        # A player marked away (here, but the bot plays their seat until
        # they act: the table says so) is not waited for, as the table counts.
        here = [s.seat for s in seats if s.kind == "human" and s.connected and not s.away]
        me = view.seat if view is not None else None
        away = [s.seat for s in seats if s.kind == "human" and s.connected and s.away]
        if seats and not here:
            # Nobody plays (every player gone or away, the bots finished
            # their game): the table deals no game to bots alone.  A
            # spectator read "The next game starts when every player here has
            # asked for it", and with every player away, "…, or in 3 s" while
            # the host waited for one to come back.
            if any(s.connected for s in seats):
                # Here, and away: any key of theirs brings their seat back,
                # as the lone player away is told (it ended "(r)", as if only
                # r did, and said nothing of this player being away).
                words = told_if_away(session, EVERYONE_AWAY + ".")
                return Offers(seated, "Next game", host, words)
            return Offers(seated, "Next game", host, NOBODY_HERE)
        after = getattr(lobby, "rematch_after", None)
        words = "The next game starts when every player here has asked for it"
        if isinstance(after, (int, float)) and after > 0:
            words += f", or in {round(after)} s"
        votes = tuple(getattr(lobby, "rematch_votes", ()) or ())
        asked = [seat for seat in here if seat in votes]
        mine = seated and view is not None and view.seat in votes
        if here:
            words += f" ({len(asked)} of {len(here)} asked"
            words += ", you too" if mine else ""
            waited = [seat for seat in here if seat not in votes]
            if waited and session is not None:
                words += "; waiting for " + waited_names(session, waited)
            # Not waited for, and their seat is the bot's next game: said,
            # or the others take them for players who have not asked yet.
            others_away = [seat for seat in away if seat != me]
            if others_away and session is not None:
                verb = " is away" if len(others_away) == 1 else " are away"
                words += "; " + waited_names(session, others_away) + verb
            words += ")."
        else:
            words += "."
        return Offers(seated, "Next game", host, told_if_away(session, words), asked=mine)
    if host:
        return Offers(True, "Rematch", True, told_if_away(session, ""), bots=bots_at(lobby))
    if not seated:
        return Offers(False, "", False, "The host may start another game.")
    host_seat = getattr(lobby, "host_seat", None)
    slot = session.slot(host_seat) if session is not None and host_seat is not None else None
    if slot is not None and slot.kind == "human" and not slot.connected:
        return Offers(False, "", False, "The host has left: no rematch for now.")
    waiting = "Waiting for the host to start a rematch…"
    return Offers(False, "", False, told_if_away(session, waiting))


WAITED_NAMED = 3  # names in "waiting for ann, bob, cy and 2 more"


def waited_names(session: Session, seats: list[int]) -> str:
    """Whom the next game waits for, as every label names them ("you" for
    this seat): a dedicated host's players read "1 of 2 asked" and could not
    tell whom they waited for, nor tell them."""
    names = session.names()
    me = session.view.seat if session.view is not None else None
    shown = []
    # "you" first, as one says it ("you and Ann"), whichever seat is yours.
    for seat in sorted(seats, key=lambda seat: seat != me):
        slot = session.slot(seat)
        if seat == me:
            shown.append("you")
        elif seat < len(names):
            shown.append(names[seat])
        else:
            shown.append(clean(slot.name if slot is not None else "", 24) or f"seat {seat + 1}")
    if len(shown) > WAITED_NAMED:
        more = len(shown) - WAITED_NAMED + 1
        return ", ".join(shown[: WAITED_NAMED - 1]) + f" and {more} more"
    if len(shown) == 1:
        return shown[0]
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def bots_at(lobby: Lobby | None) -> bool:
    """Whether a bot of the table's plays here, one whose level b changes (a
    bot seat, or one standing in for an absent player): a table of people
    alone read "Bots: greedy   b: another level next game".  A connected
    bot seat is a network guest's ``join --bot``, which plays at its own
    level whatever the table's (gone, the table's stand-in plays for it)."""
    if lobby is None or not lobby.bot_level:
        return False
    return any(
        (s.kind == "bot" and not s.connected) or (s.kind == "human" and s.bot_level)
        for s in lobby.seats
    )


def bot_level_words(lobby: Lobby | None) -> Content:
    """The table's bot level, which b changes for the next game."""
    level = clean(lobby.bot_level, 16) if lobby is not None and lobby.bot_level else "?"
    return Content.assemble("Bots: ", (level, "bold"), ("   b: another level next game", MUTED))


def closes_on_others(session: Session | None) -> bool:
    """Whether this seat's leaving closes the table on someone else: the
    host's, with another player or a spectator still connected."""
    if session is None or not session.is_host or not session.live or session.lobby is None:
        return False
    lobby = session.lobby
    others = [
        s for s in lobby.seats if s.kind == "human" and s.connected and s.seat != session.seat
    ]
    return bool(others) or lobby.watching > 0


class GameOverScreen(ModalScreen[None]):
    """Shown over the final table; Esc goes back to look at it (g brings this back)."""

    BINDINGS = [
        # One key, and the footer says what the button says: "Rematch" with
        # a host, "Next game" where the players ask for it (check_action).
        Binding("r", "rematch", "Rematch"),
        Binding("r", "next_game", "Next game"),
        # The footer's words are the buttons' (it said "Save record" and
        # "esc See the table" beside "Save (s)" and "Table (t)"; the longer
        # button's word cut "Leave (q)" at 70 columns).  Esc works too.
        Binding("s", "save", "Save"),
        # A spectator's s (the host's saves): their own seat, waiting for them
        # between games, as the table's s offers it; shown only then.
        Binding("s", "take_seat", "Take your seat"),
        Binding("b", "bot_level", "Bot level"),
        Binding("t,escape", "close", "Table"),
        Binding("c", "chat", "Chat"),
        Binding("q", "leave", "Leave"),
    ]
    # The next game first, then the record; the table (t) before the bots'
    # level.
    FOOTER_ORDER = ("rematch", "next_game", "take_seat", "save", "close", "bot_level")

    def __init__(self, table: TableScreenBase) -> None:
        super().__init__(id="game-over-screen")
        self.table = table
        self.offers = offers_for(table.session)
        self._shown_at = time.monotonic()  # again on mount: see REMATCH_GRACE
        self._take_shown = False  # whether the footer offers "s Take your seat"
        self._being_made_again = False  # a spectator seated here: see refresh_offers
        session = table.session
        self._seated_when_made = session is not None and session.seat is not None

    def compose(self) -> ComposeResult:
        session = self.table.session
        view = session.view if session else None
        offers = self.offers = offers_for(session)
        with Vertical(id="game-over", classes="dialog"):
            yield Static(Content.styled("Game over", "bold"), id="game-over-title")
            if view is not None and session is not None:
                names = session.names()
                result = FittedText(id="result")
                result.update(
                    lambda width: result_content(
                        view, names, width if self.has_class("-tiny") else None
                    )
                )
                # Scrolls where even side by side the places do not fit (six
                # long names at 40x15): the buttons stay in the box.
                with VerticalScroll(id="result-box"):
                    yield result
            if offers.bots and session is not None:
                yield Static(bot_level_words(session.lobby), id="bot-level")
            if offers.save:
                yield Label("Save the record to:")
                yield RecordPathInput(free_record_name(), id="record-path", compact=True)
            with Horizontal(classes="buttons"):
                if offers.rematch:
                    yield Button(
                        rematch_label(offers),
                        id="rematch",
                        variant="success",
                        compact=True,
                        disabled=offers.asked,
                    )
                if offers.save:
                    yield Button("Save (s)", id="save", variant="primary", compact=True)
                yield Button("Table (t)", id="close", compact=True)
                yield Button("Leave (q)", id="leave", variant="error", compact=True)
            if offers.waiting:
                # Content: the line names players, and a name is never markup.
                yield Static(Content(offers.waiting), id="rematch-wait")
            yield StatusLine()
        yield KeysFooter()

    def on_resize(self) -> None:
        self._fit()

    def on_key(self, event: Key) -> None:
        """Any key of a player marked away gives their seat back, as at the
        table (the line above says so); the key goes on to do what it does."""
        self.table.say_here()

    def _fit(self) -> None:
        width = self.size.width or self.app.size.width
        height = self.size.height or self.app.size.height
        self.set_class(width < WORD_WIDE_BUTTONS, "-narrow")
        self.set_class(width < TWO_ROWS_OF_BUTTONS, "-two-rows")
        self.set_class(height < SHORT, "-short")
        tiny = height < TINY
        if tiny != self.has_class("-tiny"):
            self.set_class(tiny, "-tiny")
            for result in self.query("#result").results(FittedText):
                result.refresh(layout=True)  # the places side by side, or one a line

    def on_mount(self) -> None:
        self._fit()
        self._shown_at = time.monotonic()
        self._focus_first_button()

    def _focus_first_button(self) -> None:
        """The first button that still does something: a next game asked for
        (its button off) or no longer possible (gone) leaves the box with no
        focus at all, and ⏎ or Tab went nowhere the player could see."""
        for button in ("#rematch", "#save", "#close"):
            for found in self.query(button).results(Button):
                if not found.disabled:
                    found.focus()
                    return

    def refresh_offers(self) -> None:
        """The table changed (a vote, the host leaving, the table closing):
        say so.  The buttons stay as they were made, but the next game's
        says when this seat's ask is counted (and is not offered again), and
        goes when no next game can come here (and its key with it: turned
        off, it still read "Next game (r)", and r did nothing)."""
        session = self.table.session
        for shown in self.query("#bot-level").results(Static):
            shown.update(bot_level_words(session.lobby if session is not None else None))
        if self._seated_when_made is False and session is not None and session.seat is not None:
            # A spectator took their seat back here: the box is made again,
            # for a player (the next game's key: they are asked for it too).
            self._seated_when_made = True
            self._being_made_again = True
            self.run_worker(self._made_again(), group="game-over", exclusive=True)
            return
        if self._being_made_again:
            # Its widgets are being replaced: the wait line was put above a
            # status line already gone, and the app ended (NoMatches).  The
            # box made again reads the table as it is then, and looks again.
            return
        take = session is not None and seat_to_take_back(session) is not None
        if take != self._take_shown:
            self._take_shown = take
            self.refresh_bindings()  # "s Take your seat" comes and goes with the lobby
        offers = offers_for(session)
        rematch = self.offers.rematch and offers.rematch
        asked = rematch and offers.asked
        before = self.offers
        if (offers.waiting, rematch, asked) == (before.waiting, before.rematch, before.asked):
            return
        self.offers = dataclasses.replace(
            before, rematch=rematch, waiting=offers.waiting, asked=asked
        )
        found = self.query("#rematch-wait")
        if found:
            found.first(Static).update(Content(offers.waiting))
        elif offers.waiting:
            self.query_one("#game-over").mount(
                Static(Content(offers.waiting), id="rematch-wait"),
                before=self.query_one(StatusLine),
            )
        for button in self.query("#rematch").results(Button):
            if not rematch:
                button.remove()
            else:
                button.label = rematch_label(self.offers)
                button.disabled = asked
        if self.focused is None or self.focused.id == "rematch":
            self.call_after_refresh(self._focus_first_button)
        self.refresh_bindings()

    async def _made_again(self) -> None:
        try:
            await self.recompose()
        finally:
            self._being_made_again = False
        self._take_shown = False
        self.refresh_bindings()
        self.on_mount()
        self.refresh_offers()  # what changed while it was made

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """The keys as the footer shows them: c counts the chat lines said
        while the box covers a narrow table's hidden chat ("gg")."""
        session = self.table.session
        return reworded(super().active_bindings, lambda active: chat_key_words(active, session))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Keys (and the footer) offer only what this seat may do.
        if action in ("rematch", "next_game"):
            word = "Rematch" if action == "rematch" else "Next game"
            offered = self.offers.rematch and not self.offers.asked
            return offered and self.offers.rematch_word == word
        if action == "save":
            return self.offers.save
        if action == "bot_level":
            return self.offers.bots
        if action == "chat":
            return self.table.check_action("chat", ())
        if action == "take_seat":
            session = self.table.session
            return session is not None and seat_to_take_back(session) is not None
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "rematch" and time.monotonic() - self._shown_at < REMATCH_GRACE:
            return
        action = {
            "rematch": self.action_rematch,
            "save": self.action_save,
            "close": self.action_close,
            "leave": self.action_leave,
        }
        action.get(event.button.id or "", lambda: None)()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def action_rematch(self) -> None:
        session = self.table.session
        if session is not None and self.offers.rematch and not self.offers.asked:
            session.client.rematch()
            if self.offers.rematch_word != "Rematch":
                self.notify("", title=NEXT_GAME_ASKED, timeout=3)

    def action_bot_level(self) -> None:
        """The table's bots play the next game at the next level (as the
        start screen's b goes round them): a host could change them only
        by closing the table on everyone at it."""
        session = self.table.session
        if session is not None and self.offers.bots and session.lobby is not None:
            session.client.set_bot_level(next_bot_level(session.lobby.bot_level))

    def action_take_seat(self) -> None:
        """The table's s: the seat kept for this spectator, between games."""
        self.table.take_seat_back()

    def action_next_game(self) -> None:
        self.action_rematch()

    def action_save(self) -> None:
        session = self.table.session
        if session is None or not self.offers.save:
            return
        path = self._typed_path() or free_record_name()
        session.client.save_record(path)

    def _typed_path(self) -> str:
        """The name in the box, ``~`` as the home directory, as a shell reads
        it: the table took "~/games/x.json" as a directory named ~ where the
        app runs, and said "Saved the record to ~/games/x.json"."""
        typed = self.query_one("#record-path", Input).value.strip()
        return os.path.expanduser(typed) if typed else ""

    def record_saved(self, path: str) -> None:
        """The record is written where the box said: it offers the next free
        name now, so that a second Save writes a second file rather than
        being refused as "already exists"."""
        field = self.query_one("#record-path", Input)
        if self._typed_path() == path:
            saved = Path(path)
            field.value = str(free_path(saved.parent, saved.stem, saved.suffix or ".json"))

    def action_close(self) -> None:
        self.dismiss(None)

    def action_chat(self) -> None:
        """The table, its chat box open: after a game is when people talk
        ("gg"), and the box hid the chat's key."""
        self.dismiss(None)
        self.table.action_chat()

    def action_leave(self) -> None:
        # The host's leaving closes the table on the players still at it,
        # who may be waiting for its rematch: asked first, as in the lobby
        # and during a game.  Anyone else leaves at once: nothing is lost.
        self.post_message(LeaveRequested(confirm=closes_on_others(self.table.session)))
