"""The start screen: Enter and you are playing against bots."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...bots import next_bot_level
from ...kepttables import KeptTable
from ...savedgame import SavedGame
from ...textclean import plural
from ..messages import (
    ContinueRequested,
    ForgetKeptRequested,
    HelpRequested,
    HostFormRequested,
    JoinFormRequested,
    PlayRequested,
    ResumeTableRequested,
    SettingsChanged,
    StatsRequested,
)
from ..text import MUTED, card_content, clean, plain
from ..widgets.footer import KeysFooter
from .name import NameScreen
from .sight import typed_unseen

LOGO = """\
 ╔═╗╦ ╦╔═╗  ╔═╗╔╦╗╔═╗╦ ╦╔╗╔
  ═╣║ ║╠═╝   ═╣ ║║║ ║║║║║║║
 ╚═╝╚═╝╩    ╚═╝═╩╝╚═╝╚╩╝╝╚╝"""

MENU = [
    ("play", "Play against bots"),
    ("host", "Host a table"),
    ("join", "Join a table"),
    ("stats", "Your games"),
    ("rules", "Rules and keys"),
    ("quit", "Quit"),
]


# Lines under which the tagline gives way: at 70x20 a kept game's entry
# pushed the line of keys (+ / - players · b bot level · n name) off the screen.
SHORT = 24
# Lines besides the logo and the menu's entries: the menu's border and the
# margin under it, the settings and their keys, the status line, the footer.
AROUND_MENU = 2 + 1 + 2 + 1 + 1
TAGLINE_LINES = 1 + 2  # the tagline and its margins (styles.tcss: #tagline)
START_ROOMY = 60  # columns from which the footer shows the palette's hint

# The menu's ways to a table, and the keys that change what the next one
# will be: neither is taken while a table is being set (show_starting).
TABLES = ("resume", "continue", "play", "host", "join")
WAIT_WHILE_STARTING = ("players", "bot_level", "name", "forget_kept")


class StartMenu(OptionList):
    """The menu: its ⏎ takes a way to a table only if typed with the start
    screen in sight (StartScreen.typed_unseen)."""

    def action_select(self) -> None:
        screen = self.screen
        if isinstance(screen, StartScreen) and screen.typed_unseen():
            return
        super().action_select()


# Columns a line under "Continue your game" has, after its indent of two,
# in the menu (styles.tcss: #menu is 32 wide, less its border and padding).
ABOUT_ROOM = 26


class StartScreen(Screen[None]):
    DEFAULT_CSS = "#play-settings { text-align: center; }"
    BINDINGS = [
        # + - and n are told on the line under the menu; the footer keeps to
        # what fits in 80 columns.
        Binding("plus,equals_sign", "players(1)", "More players", key_display="+", show=False),
        Binding("minus", "players(-1)", "Fewer players", key_display="-", show=False),
        Binding("b", "bot_level", "Bot level"),
        Binding("n", "name", "Your name", show=False),
        # On the footer only while a kept game or table is highlighted.
        Binding("x,delete", "forget_kept", "Forget it", key_display="x"),
        Binding("question_mark,f1", "rules", "Rules", key_display="?"),
        Binding("q", "quit_app", "Quit"),
    ]
    AUTO_FOCUS = "#menu"

    def __init__(
        self,
        players: int = 4,
        bot_level: str = "greedy",
        name: str = "",
    ) -> None:
        super().__init__(id="start-screen")
        self.players = players
        self.bot_level = bot_level
        self.player_name = name  # "" until chosen: "You" then
        # A game against bots left in the middle, once the app has looked
        # (show_saved), and how many more are kept.
        self.saved: SavedGame | None = None
        self.more_saved = 0  # other kept games, offered once this one is done
        # A table this app hosted, stopped in the middle of a game.
        self.kept_table: KeptTable | None = None
        # What the app is doing while it sets a table ("Dealing…"), or None.
        self.starting: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="start-box"):
            yield Static(Content.styled(LOGO, "bold $text-accent"), id="logo")
            yield Static(
                Content.assemble(
                    Content(" ").join(card_content(c) for c in ("R3", "G3", "B3")),
                    "   up, three down, and a pile to beat   ",
                    ("▒ ▒ ▒", MUTED),
                ),
                id="tagline",
            )
            with Center():
                yield StartMenu(*self._options(), id="menu")
            yield Static(id="play-settings")
        # Three keys and the palette's hint fit from 60 columns; narrower,
        # the hint covered "q Quit" (at 40: "q Q▏^p palette").
        yield KeysFooter(roomy=START_ROOMY)

    def _options(self) -> list[Option]:
        options = [Option(text, id=key) for key, text in MENU]
        if self.saved is not None:
            # First, so that Enter takes the player back to where they were.
            saved = self.saved
            # "left 18:38", not "18:38" alone: a bare time read as a clock,
            # or as how long the game had run.
            when = saved.when()
            parts = [w for w in (saved.words(), f"left {when}" if when else "") if w]
            about = " · ".join(parts)
            if len(about) > ABOUT_ROOM:  # "5 expert bots · game 3 · left 18:38"
                about = "\n  ".join(parts)  # one part a line, each indented
            more = f"\n  and {plural(self.more_saved, 'more kept game')}" if self.more_saved else ""
            words = Content.assemble("Continue your game\n", (f"  {about}{more}", MUTED))
            options.insert(0, Option(words, id="continue"))
        if self.kept_table is not None:
            # First of all: friends are waiting at that table.
            options.insert(0, Option(_resume_words(self.kept_table), id="resume"))
        return options

    def show_saved(
        self, saved: SavedGame | None, more: int = 0, table: KeptTable | None = None
    ) -> None:
        """The kept game to offer, as it is now, and how many more there are,
        and the hosted table to resume (the app looks)."""
        if (saved, more, table) == (self.saved, self.more_saved, self.kept_table):
            return
        self.saved = saved
        self.more_saved = more
        self.kept_table = table
        if not self.is_mounted:
            return  # compose() offers it
        menu = self.query_one("#menu", OptionList)
        menu.clear_options()
        menu.add_options(self._options())
        menu.highlighted = 0
        self._fit_logo()

    def on_mount(self) -> None:
        self._show_settings()

    # When the first frame showing this screen, since it last came on top,
    # was handed to the terminal (the app's post_display_hook).
    shown_at: float | None = None

    def frame_shown(self, at: float) -> None:
        if self.shown_at is None and self.is_mounted:
            self.shown_at = at

    def on_screen_suspend(self) -> None:
        self.shown_at = None  # covered: seen afresh when it is back on top

    def typed_unseen(self) -> bool:
        """Whether the key being handled was typed before this screen was in
        sight.  Back from a `threeup play` table, keys typed ahead by a
        player who thought the command had ended (a shell command) came to
        this screen: "-" took a player off the next table, "b" changed the
        bot level, each saved, and a ⏎ dealt a new game.  They change and
        start nothing now; keys typed at the screen in sight work at once."""
        return typed_unseen(getattr(self.app, "key_typed_at", None), self.shown_at)

    def on_resize(self) -> None:
        self._fit_logo()

    def _fit_logo(self) -> None:
        """The tagline, then the logo, give way where they would push the
        line of keys under the menu off the screen (at 40x15 the screen
        scrolled to keep it; at 80x24 a kept table and a kept game did)."""
        menu = self.query_one("#menu", OptionList)
        entries = sum(len(str(option.prompt).splitlines()) for option in menu.options)
        needed = len(LOGO.splitlines()) + entries + AROUND_MENU
        height = self.size.height
        self.set_class(height < SHORT or height < needed + TAGLINE_LINES, "-short")
        self.set_class(height < needed, "-tiny")

    def _show_settings(self) -> None:
        bots = self.players - 1
        who = plain(self.player_name, "bold", 24) if self.player_name else Content("You")
        # While a table is set, what is happening instead of the keys, which
        # wait: the first expert table took most of a second to show anything.
        under: tuple[str, str] = (
            (f"\n{self.starting}", "bold $text-accent")
            if self.starting
            else ("\n+ / - players · b bot level · n name", MUTED)
        )
        self.query_one("#play-settings", Static).update(
            Content.assemble(
                who, " against ", (plural(bots, f"{self.bot_level} bot"), "bold"), under
            )
        )

    def show_starting(self, words: str | None) -> None:
        """Say what the app is doing while it sets a table (``words``), or
        that it is done (None).  Meanwhile the menu and the settings' keys
        take no key: a second Enter (a key held, typed again into the
        silence) asked for a second table."""
        if words == self.starting:
            return
        self.starting = words
        if self.is_mounted:
            # The footer is left as it is (check_action refuses the keys):
            # building it again cost the set-up a frame's work.
            self._show_settings()

    def action_players(self, step: int) -> None:
        if self.typed_unseen():
            return
        players = min(6, max(2, self.players + step))
        if players != self.players:
            self.players = players
            self.post_message(SettingsChanged({"players": players}))
            self._show_settings()

    def action_bot_level(self) -> None:
        if self.typed_unseen():
            return
        self.bot_level = next_bot_level(self.bot_level)
        self.post_message(SettingsChanged({"bot_level": self.bot_level}))
        self._show_settings()

    def action_name(self) -> None:
        if self.typed_unseen():
            return

        def named(name: str | None) -> None:
            if name is not None and name != self.player_name:
                self.player_name = name
                self.post_message(SettingsChanged({"name": name}))
                self._show_settings()

        self.app.push_screen(NameScreen(self.player_name), named)

    def action_rules(self) -> None:
        self.post_message(HelpRequested("rules"))

    def _highlighted(self) -> str | None:
        menu = self.query_one("#menu", OptionList)
        index = menu.highlighted
        return None if index is None else menu.get_option_at_index(index).id

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.starting and action in WAIT_WHILE_STARTING:
            return False
        if action == "forget_kept":
            return self.is_mounted and self._highlighted() in ("resume", "continue")
        return True

    @on(OptionList.OptionHighlighted, "#menu")
    def _highlight_moved(self) -> None:
        self.refresh_bindings()  # "x Forget it" comes and goes with a kept entry

    def action_forget_kept(self) -> None:
        if self.typed_unseen():
            return
        key = self._highlighted()
        if key == "resume" and self.kept_table is not None:
            table = self.kept_table
            name = clean(table.table_name, 24)
            self.post_message(
                ForgetKeptRequested(
                    table.journal,
                    f"Forget your table {name} ({table.where()})? "
                    "Nobody will be able to resume it.",
                )
            )
        elif key == "continue" and self.saved is not None:
            saved = self.saved
            self.post_message(
                ForgetKeptRequested(
                    saved.journal,
                    f"Forget your unfinished game ({saved.words()})? It cannot be continued after.",
                )
            )

    def action_quit_app(self) -> None:
        self.app.exit(0)

    @on(OptionList.OptionSelected, "#menu")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        key = event.option.id
        if self.starting and key in TABLES:
            return  # one table at a time: this one is being set
        if key == "resume" and self.kept_table is not None:
            self.post_message(ResumeTableRequested(self.kept_table))
        elif key == "continue" and self.saved is not None:
            self.post_message(ContinueRequested(self.saved))
        elif key == "play":
            self.post_message(PlayRequested(self.players, self.bot_level))
        elif key == "host":
            self.post_message(HostFormRequested())
        elif key == "join":
            self.post_message(JoinFormRequested())
        elif key == "stats":
            self.post_message(StatsRequested())
        elif key == "rules":
            self.post_message(HelpRequested("rules"))
        elif key == "quit":
            self.app.exit(0)


def _resume_words(kept: KeptTable) -> Content:
    """``Resume your table``, and under it which table, where it stopped and
    when: ``Ann's table`` / ``game 3 · left 18:38`` (or ``between games 2
    and 3``, ``in its lobby``)."""
    when = kept.when()
    parts = [kept.where(), f"left {when}" if when else ""]
    game = " · ".join(p for p in parts if p)
    if len(game) > ABOUT_ROOM:  # "between games 12 and 13 · left 18:38"
        game = "\n  ".join(p for p in parts if p)
    about = f"{clean(kept.table_name, ABOUT_ROOM)}\n  {game}"
    return Content.assemble("Resume your table\n", (f"  {about}", MUTED))
