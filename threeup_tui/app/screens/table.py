"""The table: opponents, the piles, your cards, the actions, the log and chat.

Everything legal or not comes from the view (``view.legal``, the reasons,
``view.source``); a move the view does not allow can still be sent, and the
engine's reason comes back as a rejection.
"""

from __future__ import annotations

import math

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.events import Key, Resize
from textual.widgets import Button, Input, Static

from ...bots.hint import hint_move
from ...rules import FLIP, Move, View, play_action
from ..animation import animation_wanted
from ..messages import GameOverRequested, HelpRequested, LeaveRequested
from ..text import card_label, cut_at_word, rank_label, rank_of_code, refusal_words
from ..widgets.action_bar import ActionBar, ActionState, Reason
from ..widgets.card import CardTile, TileSpec
from ..widgets.card_row import CardRow
from ..widgets.chat import ChatPane
from ..widgets.footer import KeysFooter
from ..widgets.move_log import MoveLog
from ..widgets.opponent import OpponentInfo, OpponentPane
from ..widgets.pile import PileView
from ..widgets.status import SOURCE_WORDS, StatusBar, draw_forced
from ..widgets.status_line import (
    HINT,
    NOT_ALLOWED,
    NOT_YOUR_TURN,
    YOUR_TURN,
    StatusLine,
    withdraw,
)
from .base import CHATTING, TableScreenBase, seat_to_take_back
from .game_over import GameOverScreen, closes_on_others

# view.source -> the zone whose cards are played now
ZONE_OF_SOURCE = {"hand": "hand", "face-up": "up", "face-down": "down"}
ROOMY_WIDTH = 100  # from here on, cards are drawn as cards and opponents get boxes
# Lines the roomy layout needs besides the opponents' boxes: the top line,
# the pile (7), your face-up and face-down cards (1 + 5), a line of your hand
# (1 + 5), the action bar (2), the status line and the footer.
ROOMY_LINES = 24
OPPONENT_BOX = 6  # lines of one row of opponents' boxes (three to a row)
WATCHING = "You are watching"  # the title of the note a spectator's card key gets


SHORT = 20  # lines under which the opponents' rows scroll in two lines
SHORT_ROWS = 2  # (styles.tcss: .-short #opponents)
# and take, besides, the lines your cards leave (_fit_opponent_rows)
# Cells your face-up and face-down cards need side by side: two labels of 5
# and two rows of three tiles (5 wide, 1 apart: 17, or 29 when roomy).
CENTRE_LEAST = 44
ROOMY_CENTRE = 68
SIDE_SHARE = 0.38  # of the width, for the moves and chat (styles.tcss: #side)
SIDE_LEAST = 16  # the chat's title and a few words a line: less, and it goes
NARROW = CENTRE_LEAST + SIDE_LEAST  # columns under which the moves and chat are left out
SIDE_MOST = 50


def roomy_height(opponents: int) -> int:
    """Lines from which the roomy layout fits ``opponents`` boxes."""
    rows = max(1, -(-opponents // 3))
    return ROOMY_LINES + rows * OPPONENT_BOX


def why_not_playable(view: View, code: str) -> str:
    """Why a card of the active zone cannot be played now (from the view alone)."""
    return why_not_playable_forms(view, code)[0]


def why_not_playable_forms(view: View, code: str) -> tuple[str, ...]:
    """:func:`why_not_playable`, then shorter, for a narrow action bar."""
    label = card_label(code)
    rank = rank_of_code(code)
    if view.pile and rank <= 10 and rank < view.top_rank:
        top = rank_label(view.pile[-1])
        return (
            f"{label} is lower than the {top} on top",
            f"{label} is below {top}",
            f"{label}: too low",
        )
    return f"{label} cannot be played now", f"{label}: not now"


def empty_hand_words(view: View) -> str:
    """What an empty hand means now, where its cards would be.  Right after
    a Clear +1 or +2 the draw is the one move (D11, D12): "nothing in your
    hand" was true, and left the player to find the draw in the top line."""
    if view.my_turn and draw_forced(view):
        return "you must draw first (d)"
    where = {
        "face-up": "your face-up cards are in play",
        "face-down": "only your face-down cards are left",
    }
    return where.get(view.source, "nothing in your hand")


def seat_order(view: View) -> list[int]:
    """Opponents in play order, starting after this seat (all seats for a watcher)."""
    n = len(view.seats)
    if view.seat is None:
        return list(range(n))
    return [(view.seat + k) % n for k in range(1, n)]


class TableScreen(TableScreenBase):
    """The game itself (also the watcher's screen)."""

    AUTO_FOCUS = ""  # keys go to the table, not to the chat input
    BINDINGS = [
        Binding("left", "cursor(-1)", "Move", show=False),
        Binding("right", "cursor(1)", "Move", show=False),
        Binding("home", "cursor_to(0)", show=False),
        Binding("end", "cursor_to(-1)", show=False),
        # The digits select every card of a number, the quickest way to a
        # play: the bar shows them with space, as the set-up's does.
        Binding("space", "select_card", "Select", key_display="0-9/space"),
        Binding("enter,p", "play", "Play", key_display="⏎/p"),
        Binding("u", "pickup", "Pick up"),
        Binding("d", "draw", "Draw"),
        Binding("f", "flip_prompt", "Flip"),
        Binding("h", "hint", "Hint"),
        # A spectator whose own seat waits for them (D17): shown only then.
        Binding("s", "take_seat", "Take your seat"),
        *(Binding(str(n % 10), f"number({n})", show=False) for n in range(1, 11)),
        # Reading the log and chat: Tab into them, then ↑ ↓ PgUp PgDn Home End.
        Binding("escape", "escape", "Clear", show=False),
        Binding("c", "chat", "Chat"),
        Binding("g", "game_over", "Result"),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("q", "leave", "Leave"),
    ]
    # A turn is a play, or a pick-up when no card will do; a play needs
    # its cards selected first.
    FOOTER_ORDER = (
        "back", "play", "select_card", "pickup", "draw", "flip",
        "take_seat", "hint", "chat", "game_over",
    )  # fmt: skip

    def __init__(self) -> None:
        super().__init__(id="table-screen")
        self.zone = "hand"
        self.selected: set[int] = set()
        self.cursor = 0
        self.flip_prompt = False
        # A hinted pick-up or draw, for Enter to make: (moves_played, move).
        self._hint: tuple[int, Move] | None = None
        # A hint being thought out (for this move count), and whether Enter
        # came meanwhile: then the hinted move is made as soon as it comes.
        self._hint_for: int | None = None
        self._play_hint = False
        self._zone_key: tuple[object, ...] | None = None
        self._my_turn_before = False
        self._moves_seen: int | None = None  # moves_played of the last view shown
        self._to_act_seen: int | None = None  # and whose turn it was
        self._turn_followed: tuple[int | None, str] | None = None  # (seat, phase) scrolled to
        self._panes: dict[int, OpponentPane] = {}
        self._keys_for: tuple[bool, bool, bool, str | None] | None = None
        # The view last painted makes it this seat's turn: the next frame
        # shows the turn (in_sight), and keys typed from then on act on it.
        self._turn_painted = False

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        view = self._view()
        yield StatusBar()
        with VerticalScroll(id="opponents"):
            for seat in seat_order(view) if view else []:
                pane = OpponentPane(seat)
                self._panes[seat] = pane
                yield pane
        yield Static(id="opponents-more")
        with Horizontal(id="middle"):
            with Vertical(id="centre"):
                yield PileView()
                with Horizontal(id="mine"):
                    yield Static("Up", classes="zone-label", id="up-label")
                    yield CardRow("up")
                    yield Static("Down", classes="zone-label", id="down-label")
                    yield CardRow("down")
                with Horizontal(id="hand-box"):
                    yield Static("Hand", classes="zone-label", id="hand-label")
                    yield CardRow("hand")
                    yield Static(id="hand-empty")
            with Vertical(id="side"):
                yield MoveLog()
                yield ChatPane()
        yield ActionBar(id="actions")
        yield StatusLine()
        yield KeysFooter()

    def prepare(self) -> None:
        self._set_roomy()
        self.watch(self.query_one("#opponents"), "scroll_y", self._say_rows_hidden, init=False)

    def on_resize(self, event: Resize) -> None:
        # A short terminal (40x12, say) keeps room for the pile and the hand.
        self.set_class(self.size.height < SHORT, "-short")
        # A narrow one gives the moves and the chat's room to the cards.
        self.set_class(self.size.width < NARROW, "-narrow")
        self._size_side()
        if self._set_roomy():
            for row in self.query(CardRow):
                row.relayout()
            self.sync(force=True)
        self.call_after_refresh(self._fit_opponent_rows)

    def on_status_line_rows_changed(self, _message: StatusLine.RowsChanged) -> None:
        # A two-line notice takes a line from the middle, and gives it back
        # as it goes: on a short table the rows were fitted only on a resize
        # and a game update, so the hand lost its line to the notice, and
        # the line it freed stayed blank until the next move.
        if self.has_class("-short"):
            self.call_after_refresh(self._fit_opponent_rows)

    def _size_side(self) -> None:
        """The moves and chat get what the cards leave: a row of cards wider
        than its column is clipped, and its last card hidden under the chat
        (60 to 70 columns, before the side yielded)."""
        side = self.query_one("#side")
        width = self.size.width
        if self.has_class("-narrow") and self.has_class(CHATTING):
            side.styles.width = "1fr"  # the cards' room, while a line is written
        elif self.has_class("-roomy"):
            side.styles.width = max(24, min(SIDE_MOST, round(width * 0.32), width - ROOMY_CENTRE))
        elif width - math.ceil(width * SIDE_SHARE) < CENTRE_LEAST:
            side.styles.width = max(SIDE_LEAST, width - CENTRE_LEAST)
        else:
            side.styles.width = None  # the stylesheet's share

    def _set_roomy(self) -> bool:
        """Toggle the roomy layout; True if it changed."""
        opponents = len(self._panes)
        roomy = self.size.width >= ROOMY_WIDTH and self.size.height >= roomy_height(opponents)
        if roomy == self.has_class("-roomy"):
            return False
        self.set_class(roomy, "-roomy")
        self._size_side()
        return True

    # ------------------------------------------------------------ state
    def _view(self) -> View | None:
        session = self.session
        return None if session is None else session.view

    def zone_cards(self, view: View) -> tuple[str | None, ...]:
        """The cards of the zone the cursor is in (None: a face-down slot)."""
        me = view.me
        if me is None:
            return ()
        if self.zone == "up":
            return me.face_up
        if self.zone == "down":
            return (None, None, None)
        return view.hand

    def selected_codes(self, view: View) -> list[str]:
        cards = self.zone_cards(view)
        return [c for i, c in enumerate(cards) if i in self.selected and c is not None]

    def _reset_zone(self, view: View) -> None:
        """Keep selection and cursor while the cards stay; reset when they change."""
        me = view.me
        source_zone = ZONE_OF_SOURCE.get(view.source, "hand")
        key = (
            source_zone,
            view.hand,
            me.face_up if me else (),
            me.face_down if me else (),
            view.phase,
        )
        if key == self._zone_key:
            return
        self._zone_key = key
        self.zone = source_zone
        self.selected = set()
        self.flip_prompt = self.flip_prompt and self.zone == "down"
        size = len(self.zone_cards(view))
        self.cursor = min(self.cursor, max(size - 1, 0))
        if self.zone == "down" and me is not None and not me.face_down[self.cursor]:
            self.cursor = next((i for i in range(3) if me.face_down[i]), 0)

    # ------------------------------------------------------------ painting
    def sync(self, force: bool = False) -> None:
        view = self._view()
        session = self.session
        if view is None or session is None or not self.ready:
            return
        if force:
            for pane in self._panes.values():
                pane.forget()
        self._reset_zone(view)
        names = session.names()
        self._show_banner(view)
        self._show_opponents(view)
        self._follow_turn(view)
        log = self.query_one(MoveLog)
        log.show(view, names)
        animate = animation_wanted(self.app, session.client)
        self.query_one(PileView).show(view, names, log.last, animate)
        watcher = view.seat is None
        for id_, hide in (
            ("#mine", watcher),
            ("#hand-box", watcher),
            ("#actions", watcher or view.phase == "over" or not session.live),
        ):
            widget = self.query_one(id_)
            if widget.display == hide:
                widget.display = not hide
        if set(self._panes) != set(seat_order(view)):
            # A spectator who took their seat back: the opponents are the
            # others now, in play order from it (their own row went on
            # showing as an opponent's, beside their cards).
            self.run_worker(self._seat_opponents(view), group="opponents", exclusive=True)
        keys = (watcher, view.phase == "over", session.live, seat_to_take_back(session))
        if keys != self._keys_for:
            self._keys_for = keys
            self.refresh_bindings()  # the footer offers what this seat can do now
        if not watcher:
            self._paint_mine(view)
            self.query_one(ActionBar).show(self.action_state(view))
        if self.has_class("-short"):
            self.call_after_refresh(self._fit_opponent_rows)  # the hand may have grown
        stale = self._passed_notes(view)
        if stale:
            # After the frame that shows the view: taking a note back repaints
            # the status line, which need not hold up the move's repaint.
            self.call_after_refresh(withdraw, self.app, *stale)
        self._announce_turn(view)
        self._turn_painted = view.my_turn
        if not view.my_turn:
            self.shown_at = None  # the seat's next turn is seen afresh
        self.watch_clock()
        for screen in self.app.screen_stack:
            if isinstance(screen, GameOverScreen) and screen.table is self:
                screen.refresh_offers()

    def _show_banner(self, view: View) -> None:
        session = self.session
        if session is None:
            return
        self.query_one(StatusBar).show(
            view,
            session.names(),
            self.flip_prompt,
            session.link_words(),
            session.connection_detail,
            session.my_countdown() if view.phase == "play" else "",
            # Who watches is known only while the link is: a closed table
            # went on saying "2 watching" beside "⚠ closed" (and a lost link,
            # as the rows' "● here" no longer did).
            session.lobby.watching if session.lobby is not None and session.presence_known else 0,
            session.away_bot(),
        )

    def _show_opponents(self, view: View) -> None:
        session = self.session
        if session is None:
            return
        names = session.names()
        roomy = self.has_class("-roomy")
        places = {seat: i + 1 for i, seat in enumerate(view.places)}
        for seat, pane in self._panes.items():
            if seat >= len(view.seats):
                continue
            pane.show(
                OpponentInfo(
                    view.seats[seat],
                    names[seat],
                    session.slot(seat),
                    view.to_act == seat,
                    view.phase,
                    places.get(seat),
                    len(view.seats),
                    session.clock_of(seat) if view.phase == "play" else "",
                    session.presence_known,
                ),
                roomy,
            )

    async def _seat_opponents(self, view: View) -> None:
        """Show the opponents of ``view``'s seat, in play order."""
        box = self.query_one("#opponents")
        await box.remove_children()
        self._panes = {seat: OpponentPane(seat) for seat in seat_order(view)}
        await box.mount_all(self._panes.values())
        self._turn_followed = None
        if self._set_roomy():
            for row in self.query(CardRow):
                row.relayout()
        self.sync(force=True)

    def _fit_opponent_rows(self) -> None:
        """On a short terminal, as many opponents' rows as the lines your
        cards leave allow, and a line naming the rows still out of sight:
        at 40x15 two of five rows showed, the other three scrolled away
        with nothing to say so, over two blank lines.  Measured after a
        layout, and again after its own (it settles: the lines it takes
        are the lines that were spare)."""
        if not self.ready:
            return
        box = self.query_one("#opponents")
        note = self.query_one("#opponents-more", Static)
        rows = len(self._panes)
        self._label_hand()
        if not self.has_class("-short") or self.has_class("-roomy") or not rows:
            box.styles.max_height = None  # the stylesheet's
            note.display = False
            return
        # All three as the last layout left them (a note shown since has
        # no height yet, and the box and the hand have not given it theirs).
        lines = box.size.height + note.size.height + self._spare_lines()
        lines = max(SHORT_ROWS, lines)
        # In two lines (40x12), two rows say more than one and the names of
        # the rest: the row that plays next stays in sight (_follow_turn).
        hidden = rows > lines > SHORT_ROWS
        shown = lines - 1 if hidden else min(rows, lines)
        if box.styles.max_height is None or box.styles.max_height.value != shown:
            box.styles.max_height = shown
        if note.display != hidden:
            note.display = hidden
        self.call_after_refresh(self._say_rows_hidden)  # at the note's width

    def _label_hand(self) -> None:
        """ "Hand" and, under it, how many cards: on a short terminal, when
        they all show on one line, the word alone (the hand takes one line
        and gives the rest to the opponents' rows)."""
        hand = self.query_one("#hand", CardRow)
        count = len(hand.specs)
        one_line = self.has_class("-short") and hand.display and self._card_lines() == 1
        label = "Hand" if one_line else f"Hand\n{count:>3}"
        hand_label = self.query_one("#hand-label", Static)
        if str(hand_label.content) != label:
            hand_label.update(label, layout=False)

    def _spare_lines(self) -> int:
        """Lines of the centre column that its widgets do not need: the
        hand takes what is left of it, and needs only its cards' lines."""
        centre = self.query_one("#centre")
        used = 0
        for child in centre.children:
            if not child.display:
                continue
            if child.id == "hand-box":
                used += self._hand_lines() + child.styles.margin.height
            else:
                used += child.outer_size.height + child.styles.margin.height
        return centre.size.height - used

    def _hand_lines(self) -> int:
        """The lines your hand needs: its cards' (or the words for an empty
        hand), and its label's."""
        label = str(self.query_one("#hand-label", Static).content).count("\n") + 1
        if self.query_one("#hand", CardRow).display:
            return max(label, self._card_lines())
        return max(label, self.query_one("#hand-empty", Static).size.height)

    def _card_lines(self) -> int:
        """The lines your hand's cards take in their row."""
        hand = self.query_one("#hand", CardRow)
        columns = max(1, hand.styles.grid_size_columns or 1)
        return max(1, -(-len(hand.specs) // columns))

    def _say_rows_hidden(self, _scrolled: float = 0.0) -> None:
        """Name the opponents whose rows are scrolled out of sight."""
        note = self.query_one("#opponents-more", Static)
        if not note.display:
            return
        box = self.query_one("#opponents")
        top, seen = round(box.scroll_y), box.scrollable_content_region.height
        panes = list(self._panes.values())
        hidden = [p.data.name for i, p in enumerate(panes) if not top <= i < top + seen and p.data]
        if not hidden:
            words = Content("")
        else:
            width = max(1, note.content_region.width)
            more = Content.styled(f"+{len(hidden)} more: ", "bold") + Content(", ".join(hidden))
            words = cut_at_word(more, width, sep=" ,")
        if note.content != words:
            note.update(words)

    def _follow_turn(self, view: View) -> None:
        """Keep the seat that plays now in sight: a short terminal shows two
        of up to five opponents' lines, and the one thinking may be below.
        On this seat's own turn the list goes back to its top, the seats
        that play next."""
        turn = (view.to_act, view.phase)
        if turn == self._turn_followed:
            return  # the player may have scrolled since: leave it until the turn moves
        self._turn_followed = turn
        pane = self._panes.get(view.to_act) if view.to_act is not None else None
        if pane is not None:
            pane.scroll_visible(animate=False)
        else:
            self.query_one("#opponents").scroll_home(animate=False)

    def tick_clock(self) -> None:
        view = self._view()
        if view is None:
            return
        # Both repaint only when the words change (once a second at most).
        self._show_banner(view)
        self._show_opponents(view)

    def _paint_mine(self, view: View) -> None:
        me = view.me
        assert me is not None
        playable = view.playable_ranks() if view.my_turn else set()

        def specs(zone: str, cards: tuple[str, ...]) -> list[TileSpec]:
            active = self.zone == zone
            out = []
            for i, code in enumerate(cards):
                can = view.my_turn and active and rank_of_code(code) in playable
                dimmed = view.my_turn and active and not can
                out.append(
                    TileSpec(
                        code,
                        selected=active and i in self.selected,
                        cursor=active and i == self.cursor,
                        playable=can,
                        dimmed=dimmed,
                        why=why_not_playable(view, code) if dimmed else "",
                    )
                )
            return out

        self.query_one("#hand", CardRow).show(specs("hand", view.hand))
        self.query_one("#up", CardRow).show(specs("up", me.face_up))
        down = []
        for slot in range(3):
            active = self.zone == "down"
            down.append(
                TileSpec(
                    None,
                    slot=slot,
                    cursor=active and slot == self.cursor,
                    playable=view.my_turn and (FLIP + slot) in view.legal,
                    present=me.face_down[slot],
                )
            )
        self.query_one("#down", CardRow).show(down)
        empty = self.query_one("#hand-empty", Static)
        hand_row = self.query_one("#hand", CardRow)
        # The words take the row's place (all of its width: they wrap, never cut).
        if empty.display != (not view.hand):
            empty.display = not view.hand
        if hand_row.display != bool(view.hand):
            hand_row.display = bool(view.hand)
        if not view.hand:
            words = f"Empty: {empty_hand_words(view)}"
            if str(empty.content) != words:
                empty.update(words)
        self._label_hand()

    def action_state(self, view: View) -> ActionState:
        if not view.my_turn:
            reasons: tuple[Reason, ...] = ()
            if view.to_act is not None and view.to_act < len(view.names) and self.session:
                who = self.session.names()[view.to_act]
                # Short, "waiting": the top line names whose turn it is.
                reasons = (Reason.plain(f"waiting for {who}", "waiting"),)
            return ActionState(False, False, False, reasons)
        found: list[Reason] = []
        under = self._cursor_card(view)
        if under is not None and rank_of_code(under) not in view.playable_ranks():
            found.append(Reason.plain(*why_not_playable_forms(view, under)))
        if self.zone == "down":
            play_ok = view.can_flip()
            if not play_ok:
                found.append(Reason.plain("Flip: not now", "no flip"))
        else:
            codes = self.selected_codes(view)
            # With nothing selected, ⏎ plays the card under the cursor (action_play):
            # the button and its reason say so rather than asking for a selection.
            alone = not codes and under is not None
            if alone:
                codes = [str(under)]
            play_ok = bool(codes) and play_action(rank_of_code(codes[0]), len(codes)) in view.legal
            if not codes and draw_forced(view):
                # Nothing to select: the draw comes first (an empty hand after a clear).
                found.append(
                    Reason.plain(
                        "Play: nothing to play, draw first", "Play: draw first", "draw first"
                    )
                )
            elif not codes:
                found.append(
                    Reason.plain("Play: select cards first", "Play: select first", "select first")
                )
            elif alone and rank_of_code(codes[0]) not in view.playable_ranks():
                pass  # why that card cannot go is already said above
            elif not play_ok:
                found.append(
                    Reason.plain("Play: not allowed now (⏎ asks why)", "Play: not now", "no play")
                )
        if not view.can_pickup() and view.pickup_reason:
            found.append(Reason.of("Pick up", view.pickup_reason))
        if not view.can_draw() and view.draw_reason:
            found.append(Reason.of("Draw", refusal_words(view, view.draw_reason)))
        return ActionState(play_ok, view.can_pickup(), view.can_draw(), tuple(found))

    def _cursor_card(self, view: View) -> str | None:
        """The card under the cursor in the hand or face-up cards, if any."""
        if self.zone == "down":
            return None
        cards = self.zone_cards(view)
        if 0 <= self.cursor < len(cards):
            return cards[self.cursor]
        return None

    def _passed_notes(self, view: View) -> list[str]:
        """The titles of the notes about a moment of the game that ``view``
        puts in the past (read before _announce_turn moves on)."""
        stale = []
        if view.moves_played != self._moves_seen:
            self._moves_seen = view.moves_played
            # A hint, and the reason a move was refused, are about the position before.
            stale += [HINT, NOT_ALLOWED]
        # A note about a turn that has passed would contradict the top line.
        if view.phase == "over":
            stale += [YOUR_TURN, NOT_YOUR_TURN]  # nobody's turn now
        else:
            if view.to_act != self._to_act_seen:
                stale.append(NOT_YOUR_TURN)  # it names who plays
            if self._my_turn_before and not view.my_turn:
                stale.append(YOUR_TURN)
        self._to_act_seen = view.to_act
        return stale

    def in_sight(self) -> bool:
        """This seat's turn is painted, and the table laid out: the first
        frame from then on shows the player the pile they play on."""
        return self._turn_painted and bool(self.query_one(PileView).region)

    def _typed_before_turn(self, view: View) -> bool:
        """Whether the key being handled was typed before this turn of the
        player's was in sight: Enter typed during a bot's turn, and handled
        once the turn's view had come but before it was painted, played the
        selected cards on a pile the player had not seen.  Such a key makes
        no move and asks no hint: typed, it was a key out of turn, whose
        "Bot plays now" the turn's coming takes back (_passed_notes)."""
        return view.phase == "play" and view.my_turn and self.typed_unseen()

    def _announce_turn(self, view: View) -> None:
        mine = view.my_turn
        session = self.session
        # Not to a player marked away: the bot plays the turn, and "Your
        # turn" with the bell, at each of their turns, called them to a move
        # that was never theirs to make (the top line says why not).
        away = session is not None and session.away_bot() is not None
        if mine and not self._my_turn_before and not away:
            self.app.bell()
            self.notify("", title=YOUR_TURN, timeout=2)
        self._my_turn_before = mine

    SEAT_ACTIONS = frozenset(
        {
            "play",
            "pickup",
            "draw",
            "flip_prompt",
            "select_card",
            "number",
            "cursor",
            "cursor_to",
            "hint",
        }
    )

    # The keys that act for a seat.  A spectator's press of one did nothing
    # at all (rightly: the footer does not offer them), and an app that
    # ignores ⏎ and u reads as frozen: the status line says why instead.
    WATCHER_TOLD = frozenset(
        key
        for binding in BINDINGS
        if isinstance(binding, Binding)
        and binding.action.split("(")[0]
        in {"play", "pickup", "draw", "flip_prompt", "hint", "number", "select_card"}
        for key in binding.key.split(",")
    )

    def on_key(self, event: Key) -> None:
        view = self._view()
        if view is not None and view.seat is not None:
            self.say_here()
            return
        if view is None or view.phase == "over":
            return
        if isinstance(self.focused, Input) or self.reading_chat():
            # Typed into the chat box, which went on to the screen too; or
            # pressed while reading the chat in the cards' room, where
            # "only the players play" spoke of cards out of sight.
            return
        if event.key in self.WATCHER_TOLD:
            withdraw(self.app, WATCHING)  # one note, however many presses
            session = self.session
            kept = seat_to_take_back(session) if session is not None else None
            words = "only the players play" + (": s takes your seat back" if kept else "")
            self.notify(words, title=WATCHING, timeout=3)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "chat":
            return super().check_action(action, parameters)
        # A watcher has no cards, and a game over takes no moves: no card
        # keys (nor a hint) in the footer then; the result's key only then.
        session = self.session
        if action == "take_seat":
            return session is not None and seat_to_take_back(session) is not None
        view = self._view()
        if view is None:
            return True
        if action == "game_over":
            return view.phase == "over"
        closed = session is not None and not session.live  # no move can reach the table
        return not (
            action in self.SEAT_ACTIONS and (view.seat is None or view.phase == "over" or closed)
        )

    # ------------------------------------------------------------ requests
    def _submit(self, move: Move) -> None:
        session = self.session
        view = self._view()
        if session is None or view is None:
            return
        if view.phase == "play" and not view.my_turn:
            self._not_your_turn(view)
            return
        if self._typed_before_turn(view):
            return
        if self.flip_prompt:
            # The top line's "Flip which face-down card?" goes with the prompt
            # now: a refused flip brings no new view to repaint it.
            self.flip_prompt = False
            self._repaint()
        session.client.submit(move)

    def _not_your_turn(self, view: View) -> None:
        """Say who plays now, in names (the engine's refusal would number the
        seats); the note goes when the turn changes hands (_passed_notes)."""
        session = self.session
        if session is None:
            return
        who = session.names()[view.to_act] if view.to_act is not None else "someone else"
        self.notify(
            f"{who} plays now", title=NOT_YOUR_TURN, severity="warning", markup=False, timeout=2
        )

    def _seat(self) -> int | None:
        view = self._view()
        return None if view is None else view.seat

    def action_play(self) -> None:
        view = self._view()
        seat = self._seat()
        if view is None or seat is None or self._typed_before_turn(view):
            return
        if self._hint_for == view.moves_played and not self.selected:
            self._play_hint = True  # h then Enter: the hint is on its way
            return
        if self.zone == "down":
            self._submit(Move.flip(seat, self.cursor))
            return
        codes = self.selected_codes(view)
        hint = self._hint
        if not codes and hint is not None and hint[0] == view.moves_played:
            self._hint = None
            self._submit(hint[1])
            return
        if not codes:
            cards = self.zone_cards(view)
            if 0 <= self.cursor < len(cards) and cards[self.cursor] is not None:
                codes = [str(cards[self.cursor])]
        if not codes:
            what = "Nothing to play: draw first (d)" if draw_forced(view) else "Select cards first"
            self.notify(what, severity="warning", timeout=2)
            return
        self._submit(Move.play(seat, tuple(codes)))

    def action_pickup(self) -> None:
        seat = self._seat()
        if seat is not None:
            self._submit(Move.pickup(seat))

    def action_draw(self) -> None:
        seat = self._seat()
        if seat is not None:
            self._submit(Move.draw(seat))

    def flip(self, slot: int) -> None:
        seat = self._seat()
        if seat is not None:
            self._submit(Move.flip(seat, slot))

    # ------------------------------------------------------------ selection
    def _repaint(self) -> None:
        view = self._view()
        session = self.session
        if view is None or session is None or view.seat is None:
            return
        self._paint_mine(view)
        self.query_one(ActionBar).show(self.action_state(view))
        self._show_banner(view)

    def toggle(self, index: int) -> None:
        """Select or deselect one card; a card of another number starts afresh."""
        view = self._view()
        if view is None:
            return
        cards = self.zone_cards(view)
        if not 0 <= index < len(cards) or cards[index] is None:
            return
        rank = rank_of_code(str(cards[index]))
        same = all(rank_of_code(str(cards[i])) == rank for i in self.selected)
        if index in self.selected:
            self.selected.discard(index)
        elif same:
            self.selected.add(index)
        else:
            self.selected = {index}
        self.cursor = index
        self._repaint()

    def action_select_card(self) -> None:
        if self.zone == "down":
            self.action_play()
        else:
            self.toggle(self.cursor)

    def action_cursor(self, step: int) -> None:
        view = self._view()
        if view is None or view.me is None:
            return
        size = len(self.zone_cards(view))
        if not size:
            return
        cursor = self.cursor
        for _ in range(size):
            cursor = (cursor + step) % size
            if self.zone != "down" or view.me.face_down[cursor]:
                break
        self.cursor = cursor
        self._repaint()

    def action_cursor_to(self, index: int) -> None:
        view = self._view()
        if view is None:
            return
        size = len(self.zone_cards(view))
        if size:
            self.cursor = index % size
            self._repaint()

    def action_number(self, number: int) -> None:
        """Digits: after f, flip that slot; else select every card of that number."""
        view = self._view()
        if view is None or view.seat is None:
            return
        if self.flip_prompt or self.zone == "down":
            if 1 <= number <= 3:
                if self.flip_prompt:
                    self.flip(number - 1)
                else:
                    self.cursor = number - 1
                    self._repaint()
            return
        cards = self.zone_cards(view)
        group = {i for i, c in enumerate(cards) if c is not None and rank_of_code(c) == number}
        if not group:
            where = "hand" if self.zone == "hand" else "face-up cards"
            self.notify(f"No {number}s in your {where}", severity="warning", timeout=2)
            return
        self.selected = set() if group <= self.selected else group
        self.cursor = min(group)
        self._repaint()

    def action_hint(self) -> None:
        """Select what the best bot would do; Enter then makes the move.  The
        bot thinks off the UI loop (bots/hint.py); the screen stays live."""
        view = self._view()
        if view is None or view.seat is None:
            return  # a watcher has no hint key (check_action)
        if not view.my_turn:
            self._not_your_turn(view)
            return
        if self._typed_before_turn(view):
            return
        if self._hint_for == view.moves_played:
            # Being thought out for this very position: h again waits for it.
            # It started afresh, and forgot an Enter already pressed for it:
            # h pressed again and again while a slow first hint (its worker
            # starting) was thought never let one come, nor the move be made.
            self.notify("thinking…", title=HINT, timeout=2)
            return
        self._hint_for, self._play_hint = view.moves_played, False
        # The first hint of a session may wait for a worker to start (up to
        # a second): say so at once, so the key is seen to have worked.
        self.notify("thinking…", title=HINT, timeout=2)
        self.run_worker(self._show_hint(view), group="hint", exclusive=True)

    async def _show_hint(self, view: View) -> None:
        move = await hint_move(view)
        play, self._hint_for, self._play_hint = self._play_hint, None, False
        now = self._view()
        if now is None or now.moves_played != view.moves_played or not now.my_turn:
            return  # the game moved on while the hint was thought out
        if not self.ready or not self.query(ActionBar):
            # The screen stopped, or the app is quitting and has already taken
            # its widgets down (they go before the screen stops running).
            return
        self._hint = None
        if play:
            self._submit(move)
            return
        if move.kind == "play":
            cards = list(self.zone_cards(view))
            chosen: set[int] = set()
            for code in move.cards:
                index = next(i for i, c in enumerate(cards) if c == code and i not in chosen)
                chosen.add(index)
            self.selected = chosen
            self.cursor = min(chosen)
            words = "play " + " ".join(card_label(c) for c in move.cards)
        elif move.kind == "flip":
            self.cursor = move.slot
            words = f"flip face-down card {move.slot + 1}"
        else:
            self._hint = (view.moves_played, move)
            words = "pick up the pile" if move.kind == "pickup" else "draw"
        self._repaint()
        self.notify(f"{words} (⏎ to do it)", title=HINT, timeout=3)

    def action_flip_prompt(self) -> None:
        if self._seat() is None:
            return
        self.flip_prompt = True
        self._repaint()

    def action_escape(self) -> None:
        if isinstance(self.focused, Input):
            self.set_focus(None)
        elif self.flip_prompt:
            self.flip_prompt = False
            self._repaint()
        elif self.selected:
            self.selected = set()
            self._repaint()

    # ------------------------------------------------------------ mouse
    @on(CardTile.Clicked)
    def card_clicked(self, event: CardTile.Clicked) -> None:
        view = self._view()
        if view is None or view.seat is None:
            return
        tile = event.tile
        if tile.zone == "down":
            if tile.spec.present:
                self.flip(tile.index)
            return
        if tile.zone != self.zone:
            # A card of a zone that is not being played: say which one is.
            source = SOURCE_WORDS.get(view.source, "")
            words = f"You play {source} now" if source else "None of your cards can be played now"
            self.notify(words, severity="warning", timeout=3)
            return
        if event.chain >= 2:
            if tile.index not in self.selected:
                self.toggle(tile.index)
            self.action_play()
        else:
            self.toggle(tile.index)

    @on(PileView.Clicked)
    def pile_clicked(self) -> None:
        self.action_pickup()

    @on(Button.Pressed)
    def button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        {"play": self.action_play, "pickup": self.action_pickup, "draw": self.action_draw}.get(
            event.button.id or "", lambda: None
        )()

    def action_take_seat(self) -> None:
        """A spectator takes back the seat that waits for them, as the lobby's
        s sits one down: the table gives it to the token kept for its name,
        and refuses, in words, a seat that is not theirs."""
        self.take_seat_back()

    # ------------------------------------------------------------ chat and more
    def chat_out_of_sight(self) -> bool:
        return self.has_class("-narrow")

    def chat_room_changed(self) -> None:
        self._size_side()

    def action_help(self) -> None:
        self.post_message(HelpRequested("keys"))

    def action_game_over(self) -> None:
        view = self._view()
        if view is not None and view.phase == "over":
            self.post_message(GameOverRequested())

    def action_leave(self) -> None:
        # Once the game is over nothing is lost by leaving, as from the
        # result box (which does not ask): q on the table looked at after
        # the game asked "Leave this table?", even at a table since closed.
        session = self.session
        over = session is not None and not session.mid_game
        self.post_message(LeaveRequested(confirm=not over or closes_on_others(session)))
