"""Set-up: choose 3 of your 6 cards to lay face up (all players at once, D2)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.events import Key
from textual.widgets import Button, Static

from ...bots.hint import hint_face_up
from ...rules import View
from ..messages import HelpRequested, LeaveRequested
from ..session import Session
from ..text import MUTED, card_label, cards_content, fit_parts, plain
from ..widgets.card import COMPACT_W, CardTile, TileSpec
from ..widgets.card_row import CardRow
from ..widgets.chat import ChatPane
from ..widgets.fitted import FittedText
from ..widgets.footer import KeysFooter
from ..widgets.status import away_parts
from ..widgets.status_line import (
    HINT,
    NEXT_GAME_ASKED,
    NOT_ALLOWED,
    NOT_SAVED,
    StatusLine,
    withdraw,
)
from .base import CHATTING, TableScreenBase
from .game_over import waited_names
from .table import NARROW, SIDE_LEAST

FACE_UP = 3
CHOOSE_TITLE = f"Choose {FACE_UP} cards to lay face up"
LAID_TITLE = "Your face-up cards"  # once laid (the line below says whom they wait for)
ROOMY_SIZE = (100, 30)  # columns, lines from which the six cards are drawn as cards
# Lines under which the help paragraph gives way to who is ready: at 70x20
# the list of who has chosen was cut off below the screen.
SHORT = 24
# Lines under which the column loses its blank lines: at 40x15 the six
# players' "choosing" lines were scrolled away, and the scroll bar took the
# two columns the sixth card needed, so it wrapped onto a line of its own.
TINY = 20
# Cells the six cards need in a line (tiles 5 wide, 1 apart), and what the
# column around them takes: its padding (2 a side, 1 when snug or tiny)
# and a scroll bar (2), which a short terminal shows.
SIX_CARDS = 2 * FACE_UP * COMPACT_W + 2 * FACE_UP - 1
SCROLL_BAR = 2
CHAT_MOST = 36  # styles.tcss: #setup-side
# Columns under which the column around the cards is snug (1 cell a side):
# from 60 columns to 70, the chat beside them left the six cards too few
# cells, and they wrapped (five and one at 60x18).
SNUG = 70


def laid_forms(session: Session, still: list[int]) -> list[Content]:
    """What a player whose cards are laid waits for, longest first: whom
    by name (as the result box names them), else how many."""
    if not still:
        return [Content("Laid: the game begins…")]
    forms = [f"Laid: waiting for {waited_names(session, still)}…"]
    if len(still) > 1:
        forms.append(f"Laid: waiting for {len(still)} players…")
    forms.append("Laid: waiting…")
    return [Content(form) for form in forms]  # Content: a name is never markup


class SetupScreen(TableScreenBase):
    AUTO_FOCUS = ""
    BINDINGS = [
        Binding("left", "cursor(-1)", "Move", show=False),
        Binding("right", "cursor(1)", "Move", show=False),
        # The digits choose the nth card, and are what a regular uses: the
        # footer shows them with space (it showed space alone).
        Binding("space", "select_card", "Select", key_display="1-6/space"),
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 7)),
        Binding("enter", "confirm", "Lay face up", key_display="⏎"),
        Binding("escape", "clear", "Clear", show=False),
        Binding("h", "hint", "Hint"),
        Binding("c", "chat", "Chat"),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("q", "leave", "Leave"),
    ]
    # Laying the cards is the set-up's way on: its key, the last to go
    # (at 40 columns "1-6/space Select" makes way for it; the help lists it).
    FOOTER_ORDER = ("back", "confirm", "select_card", "hint", "chat")

    def __init__(self) -> None:
        super().__init__(id="setup-screen")
        self.selected: list[int] = []  # in the order chosen
        self.cursor = 0
        self.sent = False
        self._choosing = True  # what the footer offers: the choosing keys, until the cards are laid
        self._title_for: tuple[str, str | None, bool, bool] | None = None  # what the title shows

    def compose(self) -> ComposeResult:
        with Horizontal(id="setup-body"):
            yield from self._body()
        yield StatusLine()
        yield KeysFooter()

    def _body(self) -> ComposeResult:
        # Scrolls (by the wheel) where even that is not enough (six players
        # on a tiny terminal); not focused, so ← → stay the cards' keys.
        with VerticalScroll(id="setup-main", can_focus=False):
            yield FittedText(id="setup-title")
            yield Static(
                "They lie on your 3 face-down cards and are played last, before the "
                "blind ones. The other 3 stay in your hand. Everyone chooses at once.",
                id="setup-help",
            )
            yield CardRow("setup")
            yield Static(id="setup-choice")
            with Horizontal(classes="buttons"):
                yield Button("Lay face up ⏎", id="confirm", variant="success", disabled=True)
            yield FittedText(id="setup-laid")  # in the button's place, once it has served
            yield Static(id="setup-others")
        with VerticalScroll(id="setup-side"):
            yield ChatPane()

    def _view(self) -> View | None:
        session = self.session
        return None if session is None else session.view

    def sync(self) -> None:
        view = self._view()
        session = self.session
        if view is None or session is None or not self.ready:
            return
        me = view.me
        ready = me is not None and me.ready
        if ready:
            self.sent = True
        self._show_title(ready)
        self.watch_clock()
        cards = view.hand if not ready else view.hand + (me.face_up if me else ())
        if ready and me is not None:
            specs = [TileSpec(c, dimmed=True) for c in view.hand] + [
                TileSpec(c, selected=True) for c in me.face_up
            ]
        else:
            self.selected = [i for i in self.selected if i < len(cards)]
            specs = [
                TileSpec(c, selected=i in self.selected, cursor=i == self.cursor)
                for i, c in enumerate(cards)
            ]
        self.query_one(CardRow).show(specs)
        chosen = [cards[i] for i in self.selected if i < len(cards)]
        choice = self.query_one("#setup-choice", Static)
        if ready and me is not None:
            choice.update(Content.assemble("Face up: ", cards_content(me.face_up)))
        else:
            choice.update(
                Content.assemble(
                    f"Chosen {len(chosen)}/{FACE_UP}: ", cards_content(chosen, empty="none yet")
                )
            )
        button = self.query_one("#confirm", Button)
        button.disabled = ready or len(chosen) != FACE_UP or self.sent
        # Laid (by Enter, or by the bot for a player away), the button has
        # served: it went on showing "Lay face up ⏎", greyed, beside
        # "waiting for the others…".  A line says what is true in its place,
        # shorter too (at 40x15 the list of who is choosing needs the room);
        # a choice the table refuses brings the button back (rejected).
        self.set_class(self.sent, "-laid")
        if self.sent:
            still = [s.seat for s in view.seats if s.seat != view.seat and not s.ready]
            forms = laid_forms(session, still)
            self.query_one("#setup-laid", FittedText).update(
                lambda width: fit_parts([forms], width)
            )
        if self._choosing != (not self.sent):
            self._choosing = not self.sent
            self.refresh_bindings()  # no choosing keys in the footer once the cards are laid
        names = session.names()
        others = [
            Content.assemble(
                plain(names[s.seat]), (" ✓ ready" if s.ready else " … choosing", MUTED)
            )
            for s in view.seats
            if s.seat != view.seat
        ]
        self.query_one("#setup-others", Static).update(Content("\n").join(others))

    def prepare(self) -> None:
        self._fit()
        self._set_roomy()
        # A new game: a refusal about the last one ("threeup-game.json
        # already exists", from the result box) is not about this one, nor
        # is "Asked for the next game" (it stayed on this screen for 3 s).
        withdraw(self.app, NOT_ALLOWED, NOT_SAVED, NEXT_GAME_ASKED)

    def in_sight(self) -> bool:
        """The cards are laid out (the first frame with them shows them)."""
        tiles = self.query_one(CardRow).tiles
        return bool(tiles and tiles[0].region)

    def on_resize(self) -> None:
        self._fit()
        if self._set_roomy():
            self.query_one(CardRow).relayout()

    def _fit(self) -> None:
        self.set_class(self.size.height < SHORT, "-short")
        self.set_class(self.size.height < TINY, "-tiny")
        # Narrower, the chat (as at the table) gives its room to the cards:
        # beside it, at 40 columns, the cards took two rows and the button
        # that lays them was scrolled out of sight, its key cut from the
        # footer, and nothing said how to lay the three cards chosen.
        self.set_class(self.size.width < NARROW, "-narrow")
        self.set_class(self.size.width < SNUG, "-snug")
        # Beside the cards, the chat takes what the six of them leave it
        # (down to the least a chat has), or 45% (styles.tcss) when roomy.
        padding = 2 if self.size.width < SNUG or self.size.height < TINY else 4
        room = self.size.width - SIX_CARDS - padding - SCROLL_BAR
        side = self.query_one("#setup-side")
        side.styles.width = max(SIDE_LEAST, min(CHAT_MOST, room))
        if self.has_class("-narrow") and self.has_class(CHATTING):
            side.styles.width = "1fr"  # the cards' room, while a line is written

    def chat_out_of_sight(self) -> bool:
        return self.has_class("-narrow")

    def chat_room_changed(self) -> None:
        self._fit()

    def _set_roomy(self) -> bool:
        """Cards drawn as cards on a roomy terminal (as at the table)."""
        roomy = self.size.width >= ROOMY_SIZE[0] and self.size.height >= ROOMY_SIZE[1]
        if roomy == self.has_class("-roomy"):
            return False
        self.set_class(roomy, "-roomy")
        return True

    def _show_title(self, ready: bool) -> None:
        """The title, and the set-up clock's countdown in its last seconds.
        A player marked away (their turns timed out) is told so instead, as
        at the table: the bot lays their cards at once, and only a key of
        theirs gives the seat back (they play the game from its first turn;
        cards laid stay laid)."""
        session = self.session
        # Laid as soon as Enter sent them: the title said "Choose 3 cards to
        # lay face up" above "Laid: waiting for Cy and Di…" (the sync puts
        # it back to choosing if the table refuses them).
        laid = ready or self.sent
        countdown = session.my_countdown() if session is not None and not laid else ""
        away = session.away_bot() if session is not None else None
        if (countdown, away, ready, laid) == self._title_for:
            return  # the clock ticks four times a second: no layout for nothing
        self._title_for = (countdown, away, ready, laid)
        widget = self.query_one("#setup-title", FittedText)
        widget.set_class(away is not None, "-away")
        if away is not None:
            # The key on one line, what the bot does on the next: at 80x24
            # the cards' column is 40 wide, and one line had room for
            # "Away: any key to play again · bot laid".
            lines = [
                [Content(form) for form in part]
                for part in away_parts(away, "laid" if ready else "setup")
            ]
            widget.update(lambda width: Content("\n").join(fit_parts([f], width) for f in lines))
            return
        title = Content.styled(LAID_TITLE if laid else CHOOSE_TITLE, "bold")
        if countdown:
            title += Content.styled(f"  {countdown} left", "bold reverse $text-error")
        widget.update(lambda width: title)

    def tick_clock(self) -> None:
        view = self._view()
        me = view.me if view is not None else None
        self._show_title(me is not None and me.ready)

    def on_key(self, event: Key) -> None:
        view = self._view()
        if view is not None and view.seat is not None:
            self.say_here()  # the key goes on to do what it does (laid, nothing)

    def toggle(self, index: int) -> None:
        view = self._view()
        if view is None or self.sent or not 0 <= index < len(view.hand):
            return
        if index in self.selected:
            self.selected.remove(index)
        else:
            if len(self.selected) >= FACE_UP:
                self.selected.pop(0)  # the oldest choice makes room
            self.selected.append(index)
        self.cursor = index
        self.sync()

    def action_select_card(self) -> None:
        self.toggle(self.cursor)

    def action_pick(self, index: int) -> None:
        self.toggle(index)

    def action_cursor(self, step: int) -> None:
        view = self._view()
        if view is None or not view.hand:
            return
        self.cursor = (self.cursor + step) % len(view.hand)
        self.sync()

    def action_clear(self) -> None:
        if self.focused is not None:  # leave the chat input first
            self.set_focus(None)
            return
        self.selected = []
        self.sync()

    def action_confirm(self) -> None:
        view = self._view()
        session = self.session
        if view is None or session is None or self.sent or self.typed_unseen():
            return
        chosen = [view.hand[i] for i in self.selected if i < len(view.hand)]
        if len(chosen) != FACE_UP:
            self.notify(
                f"Choose {FACE_UP} cards (you have {len(chosen)})", severity="warning", timeout=3
            )
            return
        self.sent = True
        session.client.choose_face_up(chosen)
        withdraw(self.app, HINT)  # laid: the hint has served
        self.sync()

    # The keys that choose the cards: once they are laid (by the player, or
    # by the bot for a player away) they do nothing, and the footer went on
    # offering "1-6/space Select ⏎ Lay face up" beside "waiting for the others".
    CHOOSING = frozenset({"select_card", "pick", "confirm", "hint"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "chat":
            return super().check_action(action, parameters)
        return not (action in self.CHOOSING and self.sent)

    def action_hint(self) -> None:
        """Select the three cards the best bot would lay face up; Enter lays
        them.  The bot thinks off the UI loop (bots/hint.py)."""
        view = self._view()
        if view is None or view.seat is None:
            return
        if self.sent or len(view.hand) != 2 * FACE_UP:
            self.notify("Your cards are already face up", severity="warning", timeout=2)
            return
        self.notify("thinking…", title=HINT, timeout=2)
        self.run_worker(self._show_hint(view), group="hint", exclusive=True)

    async def _show_hint(self, view: View) -> None:
        codes = await hint_face_up(view)
        now = self._view()
        if now is None or now.hand != view.hand or self.sent:
            return  # chosen meanwhile, or the game went on
        if not self.ready or not self.query(CardRow):
            return  # the screen stopped, or the app is quitting
        chosen: list[int] = []
        for code in codes:
            chosen.append(next(i for i, c in enumerate(view.hand) if c == code and i not in chosen))
        self.selected = sorted(chosen)  # in the hand's order, as the row shows them
        self.cursor = self.selected[0]
        self.sync()
        words = " ".join(card_label(view.hand[i]) for i in self.selected)
        self.notify(f"lay {words} face up (⏎ to do it)", title=HINT, timeout=3)

    def rejected(self) -> None:
        """The table refused the choice: let the player choose again."""
        self.sent = False
        self.sync()

    @on(CardTile.Clicked)
    def card_clicked(self, event: CardTile.Clicked) -> None:
        if event.chain == 1:
            self.toggle(event.tile.index)

    @on(Button.Pressed, "#confirm")
    def confirm_pressed(self) -> None:
        self.action_confirm()

    def action_help(self) -> None:
        self.post_message(HelpRequested("keys"))

    def action_leave(self) -> None:
        self.post_message(LeaveRequested())
