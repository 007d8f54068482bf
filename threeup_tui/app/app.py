"""The Textual app: one client, one event worker, screens fed from one session.

``create_app`` is the factory used by ``threeup``, the tests, the screenshot
script, the benchmarks and the SSH front door alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from rich.console import RenderableType
from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.filter import Monochrome, NoColor
from textual.screen import Screen

from ..chatlimit import TOO_MANY
from ..client import (
    ActionRejected,
    ChatReceived,
    ConnectionChanged,
    Event,
    GameNotSaved,
    GameResult,
    GameSaved,
    GamesPlayed,
    LobbyChanged,
    Notice,
    SeatSlot,
    TableClient,
    TurnClock,
    ViewChanged,
    Welcome,
)
from ..gamerow import history_row
from ..guest import GUEST_WATCHES, INPUT_CUT, INPUT_CUT_SIGNAL
from ..history import FinishedGame, History, HistoryError
from ..launcher import HOST_NO_NAME, NO_NAME, HostSettings, JoinSettings, Launcher
from ..paths import how_to_resume, in_tables_dir, resume_command
from ..pendinggames import (
    RecordKeeper,
    Writer,
    add_pending_games,
    count_game,
    keep_game_ending,
    keep_record_aside,
    line_severity,
    record_not_kept,
)
from ..process import hangup_signal, output_to_nowhere
from ..recordfile import load_record
from ..rules import MalformedRecord, Record, RulesError, View
from ..rules.record import start_state
from ..savedgame import forget
from ..settings import Settings, SettingsFile
from .dead_cells import forget_dead_widgets_lines
from .keyparser import guard_key_parser
from .leaving import SEAT_WAITS, left_hosted_table, left_joined_table
from .messages import (
    ChatArrived,
    ClientFailed,
    ClientReady,
    ClockUpdated,
    ConnectionUpdated,
    ContinueRequested,
    ForgetKeptRequested,
    GameOverRequested,
    GamesPlayedArrived,
    HelpRequested,
    HostFormRequested,
    HostRequested,
    JoinCancelled,
    JoinFormRequested,
    JoinRequested,
    LeaveRequested,
    LobbyUpdated,
    MoveRejected,
    NoticeArrived,
    PlayRequested,
    RecordNotSaved,
    RecordSaved,
    ReplayRequested,
    ResumeTableRequested,
    Seated,
    SettingsChanged,
    StatsRequested,
    ViewUpdated,
)
from .rules_text import load_rules
from .screens.base import TableScreenBase
from .screens.confirm import ConfirmScreen
from .screens.game_over import GameOverScreen, closes_on_others
from .screens.guest import GuestScreen
from .screens.host import HostScreen
from .screens.join import TABLE_FULL, JoinScreen
from .screens.lobby import LobbyScreen
from .screens.name import NameScreen
from .screens.replay import ReplayScreen
from .screens.setup import SetupScreen
from .screens.start import StartScreen
from .screens.stats import StatsScreen
from .screens.table import TableScreen
from .session import Session
from .text import WORDS_MUTED, clean, host_stopped, reason_words, refusal_words
from .widgets.line import InOrderInput
from .widgets.status_line import (
    CONNECTION_CLOSED,
    NOT_ALLOWED,
    NOT_SAVED,
    route_notifications,
    withdraw,
)

log = logging.getLogger("threeup.app")

Mode = Literal["menu", "play", "host", "join", "replay"]
GAME_OVER_DELAY = 0.5  # seconds between the last move and the result
QUIT_CLOSE_WAIT = 5.0  # seconds the app waits for its table to be left as it quits
CLOSED_NOTE_SECONDS = 24 * 3600.0  # "the connection is closed: …" outlives any game
# The theme of a terminal of 16 colours, unless the player chose one: its own
# palette (the background and text too, so a light terminal stays light).
TERMINAL_COLOURS_THEME = "ansi-dark"


@dataclass(frozen=True)
class StartSpec:
    """Where the app starts: the menu, a game against bots, a lobby, a replay."""

    mode: Mode = "menu"
    players: int | None = None  # None: the settings' (the start screen's last choice)
    bot_level: str | None = None  # None: the settings'
    seed: int | None = None
    name: str | None = None  # None: the settings' name
    host: HostSettings | None = None
    join: JoinSettings | None = None
    record: Record | None = None
    record_name: str = ""
    # A confined guest (THREEUP_GUEST=1, the SSH door's player): only the
    # table, nothing written on the host's disk, and the app ends with the
    # table (see threeup_tui.guest).
    guest: bool = False
    seat_word: str | None = None  # a keyless guest's seat word, from the door
    # Started by a command for one table (`threeup join`, `threeup host`):
    # leaving it ends the app, with a line on how to come back (leaving).
    ends_with_table: bool = False


def _message_for(
    event: Event,
) -> (
    ViewUpdated
    | LobbyUpdated
    | Seated
    | ChatArrived
    | (MoveRejected | ConnectionUpdated | RecordSaved | ClockUpdated | NoticeArrived)
    | (RecordNotSaved | GamesPlayedArrived | None)
):
    if isinstance(event, ViewChanged):
        return ViewUpdated(event.view)
    if isinstance(event, LobbyChanged):
        return LobbyUpdated(event.lobby)
    if isinstance(event, ChatReceived):
        return ChatArrived(event.seat, event.name, event.text, event.spectator, event.old)
    if isinstance(event, ActionRejected):
        return MoveRejected(event.reason, event.request)
    if isinstance(event, ConnectionChanged):
        return ConnectionUpdated(event.state, event.detail)
    if isinstance(event, GameSaved):
        return RecordSaved(event.path)
    if isinstance(event, GameNotSaved):
        return RecordNotSaved(event.reason)
    if isinstance(event, Welcome):
        return Seated(event)
    if isinstance(event, TurnClock):
        return ClockUpdated(event.seat, event.remaining)
    if isinstance(event, Notice):
        return NoticeArrived(event.text)
    if isinstance(event, GamesPlayed):
        return GamesPlayedArrived(event.games)
    return None


QUIT_HOW = "Do you want to quit?"  # the title of Ctrl+C's word on how to quit


class ThreeUpApp(App[int]):
    CSS_PATH = "styles.tcss"
    TITLE = "3UP 3DOWN"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [
        # Textual's quit key, but in a game it asks first, as q does: it
        # left a host's table, or a friend's, without a word (quit_asking).
        Binding("ctrl+q", "quit_asking", "Quit", show=False, priority=True),
    ]

    def __init__(
        self,
        launcher: Launcher | None = None,
        start: StartSpec | None = None,
        rules_text: str | None = None,
        settings: SettingsFile | None = None,
        history: History | None = None,
    ) -> None:
        super().__init__()
        guard_key_parser()  # keys Textual cannot read are dropped, never fatal
        self.launcher = launcher or Launcher()
        self.start_spec = start or StartSpec()
        self.rules_text = rules_text
        # Both read the user's files (or nothing, for a confined guest); a
        # damaged file is reported once the app shows, and never stops it.
        self.settings_file = settings if settings is not None else SettingsFile()
        self.history = history if history is not None else History()
        self.session: Session | None = None
        self._game_screen: TableScreenBase | None = None
        self._over_shown_for = -1
        self.leave_on_sigterm = False
        # Whether to start in the terminal's own colours when no theme was
        # chosen: run_app sets it for a terminal of 16 colours.
        self.terminal_colours_first = False
        self._theme_by_terminal: str | None = None  # that theme, once started in it
        # The app is on its way out (the quit key, SIGTERM, exit()): its
        # table's last news is no longer shown (see _shown_no_more).
        self._quitting = False
        self._terminated = False  # SIGTERM: for a guest, the door says why it ends
        self.goodbye: str | None = None  # a guest's last line, printed as the app ends
        self._told: set[str] = set()  # lines on kept games, said once a run
        # The table last joined in this run: the join form offers it again,
        # so that a player who stepped away comes back to the seat that
        # waits for them with ⏎ (it took the address, the name and the
        # room code typed again).  Not kept between runs.
        self._last_join: JoinSettings | None = None
        # Hosting again a table the start screen offered (Resume your table):
        # a failure is told there, not on a host form it did not come from.
        self._resuming = False
        # The app's own lines at the end of the chat that the table's recent
        # lines, sent on connecting, go above (ChatArrived.pinned).
        self._pinned_lines = 0
        # A table asked for from the start screen is being set (_launch).
        self._starting = False
        # When the key whose bindings run now was typed (on_event).
        self.key_typed_at: float | None = None
        # The bot level the start screen shows, and whether this app started
        # thinking workers ahead for it (_settle_bots: one at a time).
        self._level_shown: str | None = None
        self._woke_bots = False
        self._settling = threading.Lock()
        self._unmounted = False  # none are woken after the app has gone

    async def on_event(self, event: events.Event) -> None:
        if not isinstance(event, events.Key):
            await super().on_event(event)
            return
        # A key's bindings run in here.  A screen may ask when that key was
        # typed (Key.time: when the terminal's bytes were read), which is
        # not when it is handled: keys typed while the loop was busy (a
        # screen being built) are handled after it, by whatever screen is
        # on top then.
        self.key_typed_at = event.time
        try:
            await super().on_event(event)
        finally:
            self.key_typed_at = None

    def post_display_hook(self) -> None:
        # Textual calls this after each frame it hands the terminal (headless,
        # after each it would have): the set-up learns when its cards were
        # first in sight, the table when the player's turn was, the name box
        # when it was, the start screen when it was back on top.  On
        # Textual's clock for Key.time: time.monotonic, on the POSIX systems
        # this app runs on.
        stack = self.screen_stack
        if stack and isinstance(stack[-1], TableScreenBase | NameScreen | StartScreen):
            stack[-1].frame_shown(time.monotonic())

    def on_key(self, event: events.Key) -> None:
        # Every line of the app is typed here, in the app's own queue, where
        # its Enter, Esc and Backspace run too (widgets/line.py: InOrderInput
        # lets printable keys bubble up), so keys that come together keep
        # their order.  Keys typed together with the `c` that opens the chat
        # (a fast typist, a paste) were sent on before the line took the
        # focus; they come back up here after it did, and the line, which
        # consumes printable keys, kept them from every binding (q: leave,
        # p: play).  They belong in the line.
        focused = self.focused
        if isinstance(focused, InOrderInput) and event.is_printable and event.character:
            focused.type_in(event.character)

    def on_paste(self, event: events.Paste) -> None:
        # A bracketed paste, typed in its turn among the keys (on_key).
        focused = self.focused
        if isinstance(focused, InOrderInput):
            focused.type_in(event.text)

    # ------------------------------------------------------------ start
    def on_mount(self) -> None:
        if self.leave_on_sigterm:
            # SIGTERM (the SSH door ending a session, `kill`) quits as the
            # quit key does: the table is left (or, by its host, closed) first.
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self._sigterm)
            # Even where it was ignored (`nohup`, or a tmux server or shell
            # begun from a job that ignores it): a headless host may live on
            # without its terminal, but an app has nothing left to do, and it
            # ran on for ever, two input threads reading the closed terminal's
            # end of file in a loop at most of a core.
            hangup = hangup_signal(even_if_ignored=True)
            if hangup is not None:
                # At once, not through the loop: the SIGCONT that comes with a
                # hang-up must not reach Textual (see _hangup).
                loop = asyncio.get_running_loop()
                with contextlib.suppress(ValueError):
                    signal.signal(hangup, lambda *_: self._hangup(loop))
        if self.guest and INPUT_CUT_SIGNAL is not None:
            # The door cut this guest's keys (too much at once): only the app can say so.
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                asyncio.get_running_loop().add_signal_handler(INPUT_CUT_SIGNAL, self._input_cut)
        self._apply_theme()
        if self.settings_file.problem:
            self.notify(self.settings_file.problem, severity="warning", markup=False, timeout=8)
        spec = self.start_spec
        if self.guest:
            if self.history.enabled:
                self.run_worker(self._add_pending_games, thread=True, group="history")
            self.push_screen(GuestScreen())
            if spec.join is not None:
                self.start_join(spec.join)
            return
        settings = self.settings
        players = spec.players or settings.players
        level = spec.bot_level or settings.bot_level
        # What the command line gives holds for this run: the start screen
        # offers it again after that game (and remembers what is changed there).
        self.push_screen(StartScreen(players, level, spec.name or settings.name))
        if spec.mode == "menu":  # else a table (its own workers), or a replay
            self._show_bot_level(level)
        self._show_saved_game()
        # A game a killed app left over (in games/ or tables/) is kept aside
        # and counted with the others, in the worker: the history may be
        # locked by another program, a second's wait the start screen
        # spent frozen.
        self.run_worker(self._count_left_games, thread=True, group="history")
        if spec.mode == "play":
            self.start_play(players, level, spec.seed, spec.name)
        elif spec.mode == "host":
            self.start_host(spec.host or HostSettings(name=settings.name or "host"))
        elif spec.mode == "join":
            self.open_join_form(spec.join, autojoin=True)
        elif spec.mode == "replay" and spec.record is not None:
            self.push_screen(ReplayScreen(spec.record, spec.record_name, exit_on_close=True))

    # ------------------------------------------------------------ settings
    @property
    def settings(self) -> Settings:
        return self.settings_file.settings

    def remember(self, **changes: Any) -> None:
        """Keep these settings for the next run; say so in one line if that fails."""
        problem = self.settings_file.change(**changes)
        if problem:
            self.notify(problem, severity="warning", markup=False)

    def _apply_theme(self) -> None:
        self.settings_file.check_theme(self.available_themes)  # an unknown one is told
        theme = self.settings.theme
        if theme and theme in self.available_themes:
            self.theme = theme
        elif self.terminal_colours_first and TERMINAL_COLOURS_THEME in self.available_themes:
            # A theme of RGB colours brought down to 16 turned every card's
            # tint the same white; the terminal's own red, green and blue
            # are the card colours it has.  Not remembered: the same player
            # may come back in a terminal of millions of colours.
            self.theme = self._theme_by_terminal = TERMINAL_COLOURS_THEME
        # From now on a theme chosen (in the command palette) is remembered.
        self.theme_changed_signal.subscribe(self, self._theme_changed)

    def watch_theme(self) -> None:
        """Under NO_COLOR, keep the black-and-white filter that suits the theme.

        Textual picks it once, for the theme it starts with: shades of grey for
        a theme of RGB colours, the terminal's own foreground and background
        for an ANSI theme.  The theme comes later (from the settings, the
        palette), and an ANSI one (ansi-dark, ansi-light) put through the
        greys came out as black text on black.
        """
        if not self.no_color:
            return
        wanted = NoColor if self.native_ansi_color else Monochrome
        # Textual's own list: there is no public way in. A Textual without it
        # (pyproject allows any from 1.0) keeps its own choice, as before.
        filters = getattr(self, "_filters", None)
        if not isinstance(filters, list):
            return
        for index, line_filter in enumerate(filters):
            if isinstance(line_filter, NoColor | Monochrome) and type(line_filter) is not wanted:
                # The stylesheet refresh that follows every change of theme
                # draws the screen again, through this one.
                filters[index] = wanted()

    def get_css_variables(self) -> dict[str, str]:
        variables = super().get_css_variables()
        # Words drawn muted inside a line (Content spans: "● here", " · turn
        # 16"): "$text-muted" worked out against whatever they are drawn on.
        # The terminal's own colours cannot be worked out, and there it is
        # the terminal's default text colour, light on a highlighted row that
        # is dark text on white; dim words in the row's own colour read.
        ansi = bool(getattr(self.current_theme, "ansi", False))
        variables[WORDS_MUTED] = "dim" if ansi else variables.get("text-muted", "dim")
        return variables

    def _theme_changed(self, theme: object) -> None:
        name = getattr(theme, "name", None)
        if name is not None and name == self._theme_by_terminal:
            self._theme_by_terminal = None  # the terminal's choice; the next is the player's
            return
        if isinstance(name, str) and name != self.settings.theme:
            self.remember(theme=name)

    @on(SettingsChanged)
    def settings_changed(self, message: SettingsChanged) -> None:
        self.remember(**message.changes)
        level = message.changes.get("bot_level")
        if isinstance(level, str):
            self._show_bot_level(level)

    # ------------------------------------------------------------ thinking workers
    def _show_bot_level(self, level: str) -> None:
        """The start screen shows bots of ``level``: their thinking worker
        starts now if they think (the first expert bot's first decision
        waited seconds for it), and one started so stops if they do not.
        In a thread: spawning or stopping a process would hold the screen."""
        self._level_shown = level
        self.run_worker(self._settle_bots, thread=True, group="wake-bots", exit_on_error=False)

    def _settle_bots(self) -> None:
        # One at a time, each for the level shown when it runs: `b` pressed
        # fast asks for several, and the last level shown is what counts.
        with self._settling:
            if self.session is not None or self._starting or self._unmounted:
                return  # a table's workers now, or the app gone: not the start screen's
            level = self._level_shown
            try:
                if level is not None and self.launcher.bots_think(level):
                    if self.launcher.wake_bots(level):
                        self._woke_bots = True
                elif self._woke_bots:  # woken for a level no longer chosen
                    self.launcher.rest_bots()
                    self._woke_bots = False
            except Exception as err:  # the table starts its worker itself, as before
                log.warning("could not start or stop the thinking worker: %r", err)

    def _rest_woken_bots(self) -> None:
        # Under the lock: a `b` pressed as the app quit may be waking one now.
        with self._settling:
            if self._woke_bots:
                self.launcher.rest_bots()
                self._woke_bots = False

    def toggle_animation(self) -> None:
        on_now = not self.settings.animation
        self.remember(animation=on_now)
        self.notify(f"Card animation {'on' if on_now else 'off'}", timeout=2)

    # ------------------------------------------------------------ requests
    @on(PlayRequested)
    def play_requested(self, message: PlayRequested) -> None:
        seed = self.start_spec.seed  # a seed given on the command line still applies
        start = self._start_screen
        name = self._player_name()

        def play(yes: bool | None = True) -> None:
            if not yes:
                return
            if saved is not None:
                forget(saved.journal)  # the player chose a new game over it
            self.start_play(message.players, message.bot_level, seed, name)

        saved = start.saved if start is not None else None
        if saved is None:
            play()
            return
        self.open_once(
            ConfirmScreen(
                f"Start a new game? Your unfinished game ({saved.words()}) will be lost."
            ),
            play,
        )

    @on(ContinueRequested)
    def continue_requested(self, message: ContinueRequested) -> None:
        launcher = self.launcher
        saved = message.saved
        name = self._player_name() or "you"
        starting = self._waking_words(saved.bot_level) or "Bringing back your game…"
        self._launch(lambda: launcher.continue_game(saved, name), "play", starting)

    def _player_name(self) -> str | None:
        """The name a game from the start screen seats: the one it shows
        (the command line's for this run, until n changes it; a name typed
        with n was passed over for the command line's)."""
        start = self._start_screen
        name = start.player_name if start is not None else self.start_spec.name
        return name or self.settings.name or None

    @property
    def _start_screen(self) -> StartScreen | None:
        return next((s for s in self.screen_stack if isinstance(s, StartScreen)), None)

    def _show_saved_game(self) -> None:
        """Offer the newest kept game (if any) on the start screen, as it is
        now; say so once of any that could not be read (set aside)."""
        start = self._start_screen
        if start is None or self.session is not None:
            return
        games, unreadable = self.launcher.kept_games()
        for line in unreadable:
            if line in self._told:
                continue  # one that could not be moved aside is found again
            self._told.add(line)
            self.notify(line, severity="warning", markup=False, timeout=10)
        start.show_saved(
            games[0] if games else None,
            len(games) - 1 if games else 0,
            self.launcher.newest_kept_table(),
        )

    @on(ForgetKeptRequested)
    def forget_kept_requested(self, message: ForgetKeptRequested) -> None:
        def answered(yes: bool | None) -> None:
            if not yes:
                return
            if not forget(message.journal):
                self.notify("It is open in another window: left as it is.", timeout=5)
            self._show_saved_game()

        self.open_once(ConfirmScreen(message.question), answered)

    @on(ResumeTableRequested)
    def resume_table_requested(self, message: ResumeTableRequested) -> None:
        kept = message.kept
        self._resuming = True
        settings = HostSettings(name=kept.host_name, resume=kept.journal)
        launcher = self.launcher
        self._launch(lambda: launcher.host(settings), "host", "Opening your table…")

    @on(HostFormRequested)
    def host_form_requested(self) -> None:
        self.open_host_form()

    def remember_name(self, name: str, no_name: str) -> None:
        """Keep the name a form sat down with, unless it is the form's own
        word for a player who never chose one (``no_name``): a newcomer who
        hosted as the form offered became "host", and the start screen
        read "host against 3 greedy bots", not "You against ...", in every
        run after."""
        if self.settings.name or name != no_name:
            self.remember(name=name)

    @on(HostRequested)
    def host_requested(self, message: HostRequested) -> None:
        self.remember_name(message.settings.name, HOST_NO_NAME)
        self.start_host(message.settings)

    @on(JoinFormRequested)
    def join_form_requested(self) -> None:
        self.open_join_form()

    @on(JoinRequested)
    def join_requested(self, message: JoinRequested) -> None:
        if message.remember:
            self.remember_name(message.settings.name, NO_NAME)
        self.start_join(message.settings)

    @on(JoinCancelled)
    def join_cancelled(self) -> None:
        # A game the start screen is dealing is not the join form's to stop
        # (Esc on a form left joining cancelled it, and "Dealing…" stayed).
        if self.session is None and not self._starting:
            self.workers.cancel_group(self, "launch")

    @on(HelpRequested)
    def help_requested(self, message: HelpRequested) -> None:
        self.show_help(message.tab)

    def open_once(self, screen: Screen[Any], callback: Callable[[Any], None] | None = None) -> None:
        """Push ``screen`` unless one with its id is open already: keys that
        come together (a key held down, an SSH burst) ask twice before the
        first screen shows, and a second copy of one would crash the app."""
        if not any(open_.id == screen.id for open_ in self.screen_stack):
            self.push_screen(screen, callback)

    @on(StatsRequested)
    def stats_requested(self) -> None:
        self.open_once(StatsScreen(self.history))

    @on(ReplayRequested)
    def replay_requested(self, message: ReplayRequested) -> None:
        try:
            record = load_record(message.path)
            start_state(record)
        except MalformedRecord as err:
            self.notify(f"Cannot replay: {err}", severity="error", markup=False)
            return
        except RulesError as err:
            self.notify(f"Cannot replay {message.path}: {err}", severity="error", markup=False)
            return
        self.open_once(ReplayScreen(record, Path(message.path).name))

    @on(GameOverRequested)
    def game_over_requested(self) -> None:
        self.show_game_over()

    @on(LeaveRequested)
    def leave_requested(self, message: LeaveRequested) -> None:
        session = self.session
        # At a table that is closed (the host closed it, or removed this
        # player) nothing is lost by leaving: "Leave this table?" was asked
        # of a friend whose screen said the table was gone.
        if message.confirm and (session is None or session.live):
            self.confirm_leave()
        else:
            self.leave_table()

    # ------------------------------------------------------------ tables
    def start_play(
        self, players: int, bot_level: str, seed: int | None = None, name: str | None = None
    ) -> None:
        """A game against bots: the whole table lives in this process."""
        launcher = self.launcher
        name = name or self.settings.name or "you"
        starting = self._waking_words(bot_level) or "Dealing…"
        self._launch(lambda: launcher.local_game(players, bot_level, seed, name), "play", starting)

    def _waking_words(self, bot_level: str) -> str | None:
        """What the start screen says while bots of ``bot_level`` wake: the
        expert's worker processes start with its first table (most of a
        second on a busy machine), unless the start screen showing expert
        bots started them (_show_bot_level); None when there is nothing to wake."""
        if not self.launcher.bots_to_wake(bot_level):
            return None
        return f"Waking the {bot_level} bots…"

    def open_host_form(self) -> None:
        settings = self.settings
        self.open_once(HostScreen(settings.name or HOST_NO_NAME, settings.bot_level))

    def start_host(self, settings: HostSettings) -> None:
        launcher = self.launcher
        self._launch(lambda: launcher.host(settings), "host")

    def open_join_form(self, settings: JoinSettings | None = None, autojoin: bool = False) -> None:
        """The join form; with ``autojoin`` it joins ``settings.address`` at once."""
        discover = getattr(self.launcher, "discover", None)
        kept_at = getattr(self.launcher, "kept_names_at", None)
        if settings is None:
            settings = self._last_join or JoinSettings("", self.settings.name or NO_NAME)
        self.open_once(
            JoinScreen(
                settings,
                discover if callable(discover) else None,
                autojoin=autojoin,
                kept_at=kept_at if callable(kept_at) else None,
            )
        )

    def start_join(self, settings: JoinSettings) -> None:
        # A seat token is the SSH door's, for its one session: not offered again.
        self._last_join = replace(settings, token=None)
        launcher = self.launcher
        self._launch(lambda: launcher.join(settings), "join")

    def _launch(
        self, make: Callable[[], Awaitable[TableClient]], where: str, starting: str | None = None
    ) -> None:
        """Get a table's client in a worker; ``starting``: a table from the
        start screen, which says these words until it is set, and takes no
        second table meanwhile (a second Enter, the palette)."""
        if self.session is not None:
            self.notify("Leave the current table first", severity="warning")
            return
        if self._starting:
            # One table at a time: the start screen says what is happening.
            # A form opened meanwhile (the palette's) says why it waits no more.
            screen = self.screen
            if starting is None and isinstance(screen, (HostScreen, JoinScreen)):
                screen.show_error("a game is starting from the start screen: leave it first")
            return

        async def launch() -> None:
            try:
                client = await make()
            except asyncio.CancelledError:
                if starting is not None:  # the start screen says its words no more
                    self._starting = False
                    self._show_starting(None)
                raise
            except Exception as err:  # shown to the player, never a traceback
                self.post_message(ClientFailed(str(err) or type(err).__name__, where))
            else:
                self.post_message(ClientReady(client, where))

        if starting is None:
            self.run_worker(launch(), group="launch", exclusive=True)
            return
        self._starting = True
        self._show_starting(starting)
        # Drawn before the work begins: the first expert table starts its
        # worker processes from this thread, and the screen stood still.
        self.call_after_refresh(lambda: self.run_worker(launch(), group="launch", exclusive=True))

    def _show_starting(self, words: str | None) -> None:
        start = self._start_screen
        if start is not None:
            start.show_starting(words)

    @property
    def guest(self) -> bool:
        return self.start_spec.guest

    def _input_cut(self) -> None:
        self.notify(INPUT_CUT, severity="warning", timeout=6)

    def _sigterm(self) -> None:
        self._terminated = True
        self.run_worker(self.action_quit(), group="quit")

    def _hangup(self, loop: asyncio.AbstractEventLoop) -> None:
        """SIGHUP: the terminal is gone (its window closed, the SSH session
        dropped).  The app quits as on SIGTERM, leaving (or, as the host,
        stopping) its table; it once died on the spot, a host's players
        told nothing until their idle time-out.  The kernel sends SIGCONT
        with the hang-up, which Textual takes for a return from Ctrl-Z: it
        starts its terminal afresh, and its shutdown then waited for ever
        (every run, until SIGCONT was left to its default here).  What the
        app still draws goes to /dev/null."""
        cont = getattr(signal, "SIGCONT", None)
        if cont is not None:
            signal.signal(cont, signal.SIG_DFL)
        output_to_nowhere()
        loop.call_soon_threadsafe(self._sigterm)

    def guest_exit(self, words: str, code: int = 0) -> None:
        """A guest's app ends with a last line, which ``run_app`` prints once
        the terminal is restored (Textual's own exit message may still land
        on the alternate screen, and vanish with it).  None once the door
        has ended the app (SIGTERM): the session dropped, with nobody to
        read it, or the host stopped, and the door says so and how to come
        back; the app's "you left the table" would tell them otherwise."""
        self.goodbye = None if self._terminated else words
        self.exit(code, return_code=code)

    @on(ClientFailed)
    def client_failed(self, message: ClientFailed) -> None:
        self._starting = False
        self._show_starting(None)
        if self.guest:
            join = self.start_spec.join
            if join is not None and not join.watch and TABLE_FULL in message.error:
                # The door saw a seat open, and another guest took it first:
                # watch, as the door seats a guest at a full table (s sits
                # them down if one opens), rather than end with a refusal.
                watching = replace(join, watch=True)
                self.start_spec = replace(self.start_spec, join=watching)
                self.notify("The last open seat went to someone else first: you watch the table")
                self.start_join(watching)
                return
            self.guest_exit(f"threeup: could not join: {message.error}", 1)
            return
        self._show_saved_game()  # a kept game that could not come back is set aside
        screen = self.screen
        resuming, self._resuming = self._resuming, False
        if message.where == "host" and not isinstance(screen, HostScreen) and not resuming:
            # `threeup host` went straight for the lobby: show the form, with why.
            host = self.start_spec.host
            form = HostScreen(host.name if host else "host", port=host.port if host else None)
            self.push_screen(form)
            self.call_after_refresh(form.show_error, message.error)
        elif isinstance(screen, (HostScreen, JoinScreen)):
            screen.show_error(message.error)
        self.notify(
            message.error, title=f"Could not {message.where}", severity="error", markup=False
        )

    @on(ClientReady)
    def client_ready(self, message: ClientReady) -> None:
        self._resuming = False
        self._starting = False  # the start screen's words go once it is back (leave_table)
        self.session = Session(message.client, where=message.where)
        self._over_shown_for = -1
        journal = getattr(message.client, "journal", None)
        if message.where == "host" and isinstance(journal, Path):
            # The host's own line, in the table's voice (nobody else hears
            # it): how to bring the table back if this app stops.
            self.post_message(
                ChatArrived(
                    None, "table",
                    f"if this app stops, {how_to_resume(journal)}: no move is lost",
                )
            )  # fmt: skip
        if self.guest:
            self._tell_door_lines()
        self.run_worker(self._pump(message.client), group="events", exclusive=True)

    def _tell_door_lines(self) -> None:
        """What the door said to its guest before the app began, in the chat:
        a keyless player's seat word; or, to one the door seated as a
        spectator (which they did not ask for: a key at a full table), that
        they watch, as the table, drawn as for a player, said it only in its
        count of those watching."""
        join = self.start_spec.join
        if not (join is not None and join.watch):
            # (No seat word to one who watches: no seat yet, or the last one
            # went to another first; told once they sit down.)
            self._tell_seat_word()
        else:
            self.post_message(ChatArrived(None, "table", GUEST_WATCHES, pinned=True))

    def _tell_seat_word(self) -> None:
        """A keyless guest's only key to its seat, in the chat: the door said
        it before the app began (not to a spectator, who sits down later),
        and the prompt's screen is gone now."""
        word = self.start_spec.seat_word
        if self.guest and word:
            self.post_message(
                ChatArrived(
                    None, "table", f"your seat word is {word}: to get this seat back, "
                    f"reconnect and give it at the door", pinned=True,
                )
            )  # fmt: skip

    async def on_unmount(self) -> None:
        """The app's last step: let the events worker close its client, and
        stop the thinking workers woken ahead for the start screen.
        Textual cancels workers as an app ends but does not wait for them,
        so the client's close (its goodbye to the host, its socket) could be
        cut off with the loop: the host heard silence instead of "bye", and
        the socket was closed only when collected, after the loop ("Exception
        ignored in DatagramStream.__del__", seen in the suite under load)."""
        self._unmounted = True
        pumps = [worker for worker in self.workers if worker.group == "events"]
        for worker in pumps:
            worker.cancel()
        for worker in pumps:
            with contextlib.suppress(Exception):  # cancelled (as it must be), or never started
                await asyncio.wait_for(worker.wait(), QUIT_CLOSE_WAIT)
        # (run_app closes the pool too; an app run by a test has no such entry point.)
        await asyncio.to_thread(self._rest_woken_bots)

    async def _pump(self, client: TableClient) -> None:
        """Turn every client event into a message, in order; close the client at the end."""
        try:
            while True:
                message = _message_for(await client.next_event())
                if message is not None:
                    self.post_message(message)
        finally:
            with contextlib.suppress(Exception):
                await client.close()
            # A game against bots is kept, or forgotten, once its client is closed.
            self.call_later(self._show_saved_game)

    # ------------------------------------------------------------ events
    @on(Seated)
    def seated(self, message: Seated) -> None:
        session = self.session
        if session is None:
            return
        joined = self._last_join
        if message.welcome.seat is not None and joined is not None and joined.watch:
            # A spectator who sat down: the join form offers them this seat
            # again (their name, not "Only watch"), as it does a player.
            self._last_join = replace(joined, name=session.client.name, watch=False)
            # A new session: its recent lines go above the word, not above
            # what was said when this guest came to watch.
            self._pinned_lines = 0
            self._tell_seat_word()  # a guest's way back to it, as a player's
        session.welcome = message.welcome
        self.route()

    @on(LobbyUpdated)
    def lobby_updated(self, message: LobbyUpdated) -> None:
        session = self.session
        if session is None:
            return
        session.lobby = message.lobby
        self.route()
        self._sync_screens()

    @on(ViewUpdated)
    def view_updated(self, message: ViewUpdated) -> None:
        session = self.session
        if session is None:
            return
        before = session.view
        if message.view.phase == "setup" and (before is None or before.phase != "setup"):
            session.game_number += 1
        session.view = message.view
        self.route()
        self._sync_screens()
        if message.view.phase == "play":
            session.played_game = session.game_number
        elif message.view.phase == "over":
            self._remember_game(session, message.view)

    @on(ChatArrived)
    def chat_arrived(self, message: ChatArrived) -> None:
        session = self.session
        if session is None:
            return
        # The table's recent lines, sent again to each new session, go above
        # the door's lines about it, which must stay in sight below them: said
        # after a fixed wait, they went above lines that came later (a lost
        # datagram's, resent; the first lobby comes ahead of them). A line
        # said since the session began shows that they have all come.
        above = self._pinned_lines if message.old else 0
        if not message.old:
            self._pinned_lines = self._pinned_lines + 1 if message.pinned else 0
        line = session.add_chat(
            message.seat, message.name, message.text, message.spectator, above, message.old
        )
        for screen in self._table_screens():
            screen.add_chat(line, above)

    @on(MoveRejected)
    def move_rejected(self, message: MoveRejected) -> None:
        # The engine's reason, as plain text (it may come from another machine).
        view = self.session.view if self.session is not None else None
        words = refusal_words(view, message.reason)
        self.notify(words, title=NOT_ALLOWED, severity="error", markup=False)
        # Only the choice's refusal gives the set-up its button back: a chat
        # line refused did too, and a second Enter sent the choice again.  A
        # host that does not say which request it refuses (older than "re")
        # may be refusing the choice: the button comes back, or the player
        # could not lay their cards at all.
        setup_refused = message.request in ("setup", None)
        for screen in self._table_screens():
            if isinstance(screen, SetupScreen) and setup_refused:
                screen.rejected()
            if message.reason.startswith(TOO_MANY):  # the line is the writer's again
                screen.give_back_chat()

    @on(ConnectionUpdated)
    def connection_updated(self, message: ConnectionUpdated) -> None:
        session = self.session
        if session is None:
            return
        before = session.connection
        if message.state != before:
            session.connection_since = time.monotonic()
        session.connection = message.state
        session.connection_detail = message.detail
        if message.state == "reconnecting":
            # The lines a reconnect brings again, said while it was away, are
            # newer than the app's own lines: they go below them; and they
            # are new to the player, unread while the chat is out of sight.
            self._pinned_lines = 0
            session.heard_live = True
        if message.state in ("closed", "reconnecting"):
            # Nobody counts down at a closed table; and while the link is lost
            # this app cannot know the clock (a crashed host holds it until
            # its players are back, a live one runs it) nor act on it: the
            # host's snapshot times it again once connected.
            session.set_clock(None, None)
        if self.guest and message.state == "closed":
            # The table closed, or the seat went to this player's newer
            # session: the guest's app ends and the door says goodbye.
            self.guest_exit(f"threeup: {reason_words(message.detail) or 'the table closed'}")
            return
        # Say so when the link is lost, closed, or back; not for the first connect.
        if message.state != before and (message.state != "connected" or before != "connecting"):
            severity = {"connected": "information", "reconnecting": "warning"}.get(
                message.state, "error"
            )
            words = {
                "connected": "Connected again",
                # A host stopped on purpose, to be resumed, lost no link: the
                # app waits for it (the chat says so in the host's words).
                "reconnecting": "The host stopped: waiting for it to come back"
                if host_stopped(message.detail)
                else "Connection lost: reconnecting…",
                # The host's reason ("your seat was taken over from another
                # terminal"), under a title that gives way where it is narrow.
                "closed": reason_words(message.detail) if message.detail else "",
            }
            self.notify(
                words.get(message.state, message.state),
                title=CONNECTION_CLOSED if message.state == "closed" else "",
                severity=severity,  # type: ignore[arg-type]
                markup=False,
                # A closed connection stays closed: its reason ("your seat was
                # taken over from another terminal") stays until the player leaves.
                timeout=CLOSED_NOTE_SECONDS if message.state == "closed" else None,
            )
        self._sync_screens()

    @on(ClockUpdated)
    def clock_updated(self, message: ClockUpdated) -> None:
        if self.session is not None:
            self.session.set_clock(message.seat, message.remaining)
            self._sync_screens()

    @on(NoticeArrived)
    def notice_arrived(self, message: NoticeArrived) -> None:
        # The table's words for this seat alone, shown on the status line.
        self.notify(clean(message.text, 200), markup=False, timeout=6)

    @on(GamesPlayedArrived)
    def games_played(self, message: GamesPlayedArrived) -> None:
        """The table told this seat its last games: count each one the
        history does not hold yet (a game that ended while this player was
        away, or after their app was gone)."""
        session = self.session
        table_id = None if session is None else session.client.table_identity()
        if (
            session is None
            or session.where == "play"  # a game against bots here: counted as it ends
            or table_id is None
            or session.seat is None
            or not self.history.enabled
        ):
            return
        for result in message.games:
            if not 0 <= session.seat < len(result.names):
                continue
            # Even one this app counted already: the history keeps no second
            # row, but learns what the host's result knows that this app's
            # view did not (the bot that finished a seat, D17).
            identity = (table_id, result.number)
            session.counted.add(identity)
            game = game_from_result(result, session, identity)
            self.run_worker(
                lambda game=game: self._add_to_history(game), thread=True, group="history"
            )

    @on(RecordSaved)
    def record_saved(self, message: RecordSaved) -> None:
        session = self.session
        if session is not None and message.path in session.kept_records:
            return  # the history's own copy: no news to the player
        # In full: "threeup-game.json" alone did not say where the app
        # runs, so where the file went (a launcher's, an SSH login's).
        self.notify(f"Saved the record to {Path(message.path).absolute()}", markup=False)
        for screen in self.screen_stack:
            if isinstance(screen, GameOverScreen):
                screen.record_saved(message.path)

    @on(RecordNotSaved)
    def record_not_saved(self, message: RecordNotSaved) -> None:
        # Under its own title: "Not allowed", a rule's word, told a player
        # whose folder was not there that they had broken one.  The box
        # stays up with the name as typed, to be put right.
        self.notify(clean(message.reason), title=NOT_SAVED, severity="error", markup=False)

    # ------------------------------------------------------------ history
    def _remember_game(self, session: Session, view: View) -> None:
        """This seat's view shows a game over: count it in your history
        (once), with its record.  A network game is counted by its identity
        whenever its end is seen, however this app came to it (a new app in
        another terminal, a reconnect to the game-over box): the history
        keeps no second row of it.  A game against bots here has none, and
        is counted only by the app that played it."""
        if not self.history.enabled or view.seat is None:  # a spectator played no game
            return
        identity = session.game_identity()
        if identity is None and (
            session.played_game != session.game_number  # we only saw the end
            or session.remembered_game == session.game_number
        ):
            return
        if identity is not None and identity in session.counted:
            return  # this app has handed it to the history already
        session.remembered_game = session.game_number
        if identity is not None:
            session.counted.add(identity)
        keep = self._record_keeper(session) if session.is_host else None
        # A game against bots is kept by its table's identity too: the one a
        # start gives it from its journal, if this app is killed before it
        # keeps the game (leftgame), so that it is counted once either way.
        if identity is None and session.where == "play":
            identity = session.table_game()
        # The game is kept aside whole before its record and before the
        # history: an app killed at any step leaves it to be counted at the
        # next start, never lost (pendinggames.keep_game_ending).
        game, kept = keep_game_ending(finished_game(view, session, None, identity), keep)
        self.run_worker(lambda: self._add_to_history(game, kept), thread=True, group="history")

    def _record_keeper(self, session: Session) -> RecordKeeper:
        """How a hosted game's record is kept as it ends, given the writer
        that names each try first: where, or None (the player told why)."""

        def keep(named: Callable[[Writer], Writer]) -> Path | None:
            def write(path: Path) -> str | None:
                session.kept_records.add(str(path))
                return session.client.keep_record(str(path))

            kept, why = self.history.keep_record(named(write))
            if kept is None:
                # records/ cannot be written (nor, most likely, the history
                # beside it): the record waits with the games kept aside, and
                # goes into records/ as its game is added (pendinggames).
                kept, _ = keep_record_aside(named(write))
            if kept is None and self.history.record_trouble_news("not kept"):
                # Once while it lasts: the next game's copy meets the same
                # directory.  Told again once records/ has taken one since.
                self.notify(record_not_kept(why), severity="warning", markup=False, timeout=10)
            return kept

        return keep

    def _add_to_history(self, game: FinishedGame, kept: Path | None = None) -> None:
        """In a worker thread: a locked file waits a moment without freezing the app.
        ``kept``: the game's own file kept aside as it ended, removed once it is counted."""
        # A history that cannot be written now keeps the game aside, to be
        # added when it can (pendinggames): a finished game is never lost.
        game_id, lines = count_game(self.history, game, kept=kept)
        if game_id is None and game.record is not None:
            # Kept already (by another app of this account, or an earlier
            # run of this one): the copy of its record just saved is not
            # needed, unless the row is that other app's, naming this very
            # copy (it counted this game from its file kept aside).
            with contextlib.suppress(OSError, HistoryError):
                if not self.history.names_record(game.record):
                    Path(game.record).unlink()
        for line in lines:
            # Trouble is a warning; news that a game or record that waited is in, not.
            self.call_from_thread(self.notify, line, severity=line_severity(line), markup=False)

    def _count_left_games(self) -> None:
        """In a worker thread, at a start: the games left over by killed
        apps kept aside (leftgame), then counted with the others kept aside."""
        self.launcher.keep_left_games(self.history)
        if self.history.enabled:
            self._add_pending_games()

    def _add_pending_games(self) -> None:
        """In a worker thread: games kept aside while the history could not be written."""
        for line in add_pending_games(self.history):
            mark = line_severity(line)  # a damaged game file set aside is trouble, not news
            self.call_from_thread(self.notify, line, severity=mark, markup=False, timeout=8)

    def _table_screens(self) -> list[TableScreenBase]:
        return [s for s in self.screen_stack if isinstance(s, TableScreenBase)]

    def _sync_screens(self) -> None:
        if self._shown_no_more():
            return
        for screen in self._table_screens():
            screen.sync()
            screen.sync_chat()

    # ------------------------------------------------------------ screens
    def _target(self) -> type[TableScreenBase] | None:
        session = self.session
        if session is None:
            return None
        view = session.view
        if view is None:
            # A started game's view is on its way: no lobby flash before it.
            # Nor at a game against bots: its bots sit down after the player,
            # and a lobby of open seats would stand there until the deal.
            lobby = session.lobby
            if session.where == "play" or lobby is None or lobby.started:
                return None
            return LobbyScreen
        if view.seat is None or view.phase != "setup":
            return TableScreen
        return SetupScreen

    def _shown_no_more(self) -> bool:
        """Whether the app is quitting, and its screens take no more news.
        Leaving a table (quitting closes it) sends its last words (a host's
        table closing, a lobby that "closes after this game", a closed
        link), and Textual handles what is queued before its exit with
        every widget already cut off: the result box, mounting a line for
        that news, ended the app in Textual's MountError.  The news is still
        read (a game over is counted); it is only not shown."""
        return self._quitting

    def exit(
        self, result: int | None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        self._quitting = True  # however it came (a guest's table closing, a replay's q)
        super().exit(result, return_code, message)

    def route(self) -> None:
        """Put the screen the table's state calls for on top (once per change)."""
        session = self.session
        target = self._target()
        if session is None or target is None or self._shown_no_more():
            return
        top = self.screen
        if getattr(top, "covers_game", False):
            return  # the rules or a question: the covered screen routes again when it resumes
        view = session.view
        if isinstance(top, GameOverScreen) and (
            target is not TableScreen or (view is not None and view.phase != "over")
        ):
            # A rematch: on to the set-up, or (a spectator, who has none) to
            # the next game's table; the result box is about the last game.
            self.pop_screen()
            top = self.screen
        current = self._game_screen
        if current is None or not isinstance(current, target) or current not in self.screen_stack:
            forget_dead_widgets_lines()  # the last game's screens are gone, or about to be
            new = target()
            if top is current or isinstance(top, (HostScreen, JoinScreen)):
                self.switch_screen(new)
            else:
                self.push_screen(new)
            self._game_screen = new
        if (
            view is not None
            and view.phase == "over"
            and self._over_shown_for != session.game_number
        ):
            self._over_shown_for = session.game_number
            # A moment to see the last move land before the result covers it.
            self.set_timer(GAME_OVER_DELAY, self._game_over_now)

    def _game_over_now(self) -> None:
        session = self.session
        if not self.screen_stack or self._shown_no_more():  # the timer came too late
            return
        if session is not None and session.view is not None and session.view.phase == "over":
            self.show_game_over()

    def show_game_over(self) -> None:
        game = self._game_screen
        if game is not None and not isinstance(self.screen, GameOverScreen):
            self.push_screen(GameOverScreen(game))

    def show_help(self, tab: str = "rules") -> None:
        # Imported on first use: Markdown and the tabs add ~90 ms to every start.
        from .screens.help import HelpScreen

        rules = self.rules_text if self.rules_text is not None else load_rules()
        self.open_once(HelpScreen(rules, tab))

    def confirm_leave(self) -> None:
        session = self.session

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            journal = self._kept_journal(session)
            self.leave_table()
            if journal is not None and not self._quitting:
                # Closed for everyone, but its journal stays: say how to
                # bring it back.  A journal of the app's own is offered on
                # the start screen the host is now on; the command, whose
                # path filled the note, was cut off at 80 columns.
                how = (
                    'choose "Resume your table" to bring it back'
                    if in_tables_dir(journal)
                    else f"{resume_command(journal)} brings it back"
                )
                self.notify(f"The table is closed: {how}, no move lost", markup=False, timeout=15)

        question = "Leave this table?"
        if session is not None and session.where == "host":
            # The host's app is the table: leaving closes it for everyone.
            question = "Leave this table? You host it: it closes for everyone."
        elif session is not None and session.client.kept and session.mid_game:
            question = "Leave this game? It is kept: continue it from the start screen."
        elif session is not None and session.where == "join" and session.mid_game:
            question = self._leave_joined_question(session)
        self.open_once(ConfirmScreen(question), answered)

    @staticmethod
    def _kept_journal(session: Session | None) -> Path | None:
        """The journal a host's leaving keeps, closed in the middle of a
        game, for a resume; None for any other leaving."""
        if session is None or not (session.is_host and session.mid_game):
            return None
        journal = getattr(session.client, "journal", None)
        return journal if isinstance(journal, Path) else None

    def _leave_joined_question(self, session: Session) -> str:
        """A seated player's seat is kept for them (D17): say so, and how to
        come back; a spectator has no seat to come back to."""
        if session.seat is None:
            return "Leave this table?"
        return f"Leave this table? {self._seat_waits()}"

    def _seat_waits(self) -> str:
        """What leaving or quitting a seat at someone else's table mid-game
        does to it (D17), and how to come back: q and Ctrl+Q say the same."""
        again = "connect again" if self.guest else "join the table again"
        return f"{SEAT_WAITS[0].upper()}{SEAT_WAITS[1:]}: {again} to play on."

    def quit_question(self) -> str | None:
        """What Ctrl+Q asks before the app ends, or None when nothing is
        lost by quitting at once (no table, a game over, a spectator).  A
        game is asked about as q asks about it, in what quitting does to it."""
        session = self.session
        if session is None or not session.live:
            return None
        if session.where == "host" and getattr(session.client, "stops_when_ended", False):
            # The table stops as a headless host's does (HostedClient.stop),
            # in a game, or between games and in the lobby with others seated.
            return "Quit threeup? Your table stops: its players wait until you resume it."
        if not session.mid_game:
            # Between games, in a lobby: only a host's leaving costs anyone.
            if closes_on_others(session):
                return "Quit threeup? You host this table: it closes for everyone."
            return None
        if session.where == "host":
            return "Quit threeup? You host this table: it closes for everyone."
        if session.where == "play":
            if session.client.kept:
                return "Quit threeup? Your game is kept: continue it from the start screen."
            return "Quit threeup? This game is not kept: it ends here."
        if session.seat is None:
            return None  # a spectator has no seat to lose
        return f"Quit threeup? {self._seat_waits()}"

    async def action_quit_asking(self) -> None:
        """Ctrl+Q and the palette's Quit: in a game, the question first."""
        question = self.quit_question()
        if question is None:
            await self.action_quit()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_worker(self.action_quit(), group="quit")

        # Ctrl+C's "Press ctrl+q to quit" has served: left on the question's
        # line, it told a newcomer to press a key that does nothing there.
        withdraw(self, QUIT_HOW)
        self.open_once(ConfirmScreen(question), answered)

    def action_help_quit(self) -> None:
        """Ctrl+C: say how to quit (Textual's own looks for its action only)."""
        self.notify("Press [b]ctrl+q[/b] to quit the app", title=QUIT_HOW)

    async def action_quit(self) -> None:
        """Leave the table before the app ends: the client is closed while
        the loop still runs, so the host hears it (and a host's players are
        told the table closed) instead of the close being cut off with the
        loop (guests once saw only silence, and the terminal a traceback)."""
        if self._quitting:
            return  # a second quit (Ctrl-Q, SIGTERM) while the first closes
        self._quitting = True
        session = self.session
        if session is not None:
            with contextlib.suppress(Exception):
                said = await asyncio.wait_for(session.client.stop(), QUIT_CLOSE_WAIT)
                if said and not self.goodbye:
                    self.goodbye = said  # a host stopped mid-game: how to resume
        self.exit()

    def leave_table(self) -> None:
        """Back to the start screen; the event worker closes the client.
        A guest has no start screen: leaving ends the app (and the SSH
        session); so does leaving a table its own command opened."""
        if self.guest:
            self.guest_exit("threeup: you left the table")
            return
        if self.start_spec.ends_with_table:
            self._leave_with_table()
            return
        self.workers.cancel_group(self, "events")
        self.session = None
        self.clear_notifications()  # that table's news (a closed connection's reason) ends here
        self._game_screen = None
        self._show_starting(None)
        while len(self.screen_stack) > 2 and not isinstance(self.screen, StartScreen):
            self.pop_screen()

    def _leave_with_table(self) -> None:
        """A table opened by its own command (`threeup join`, `threeup host`)
        is left by ending the app, with a line on the shell that says how to
        come back.  It once went on to the start screen, and the shell
        command typed next went to it as keys: `n` opened the name box, and
        the rest of the line was saved as the player's name.  The client is
        closed as the app unmounts (the host hears "bye", a host's table
        closes for everyone), as leaving closes it."""
        session = self.session
        if session is not None and session.where == "host":
            self.goodbye = left_hosted_table(self._kept_journal(session))
        else:
            self.goodbye = left_joined_table(session, self._last_join)
        self.exit(0)

    def _refresh_notifications(self) -> None:
        # Notifications go to the screen's status line, never over the game
        # (issue 12); toasts only before there is a screen to hold one.
        if not route_notifications(self):
            super()._refresh_notifications()

    # ------------------------------------------------------------ palette
    # Textual's own palette entries a guest may use: none writes a file.
    GUEST_SYSTEM_COMMANDS = frozenset({"Theme", "Quit", "Keys", "Maximize", "Minimize"})

    def deliver_screenshot(self, *args: object, **kwargs: object) -> None:
        if self.guest:  # it would write a file on the host's disk
            self.notify("Screenshots are not available here", severity="warning")
            return
        super().deliver_screenshot(*args, **kwargs)  # type: ignore[arg-type]

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if command.title == "Quit":  # asks first in a game, as Ctrl+Q does
                command = command._replace(
                    help="Quit threeup (in a game it asks first)",
                    callback=self.action_quit_asking,
                )
            elif command.title == "Keys":
                # Textual's key panel listed its own tab and copy keys beside
                # ours, and Esc did not close it: the help's Keys page does.
                command = command._replace(
                    help="Every key of every screen", callback=lambda: self.show_help("keys")
                )
            if not self.guest or command.title in self.GUEST_SYSTEM_COMMANDS:
                yield command
        if isinstance(screen, TableScreen):
            # A spectator, or a finished game, has no moves to offer: as the
            # footer's keys, so the palette (the screen's check_action decides).
            if screen.check_action("play", ()) is not False:
                yield SystemCommand("Play", "Play the selected cards", screen.action_play)
                yield SystemCommand("Pick up", "Pick up the discard pile", screen.action_pickup)
                yield SystemCommand("Draw", "Draw (when the draw is open)", screen.action_draw)
                for slot in range(3):
                    yield SystemCommand(
                        f"Flip face-down card {slot + 1}",
                        "Play a face-down card blind",
                        lambda slot=slot: screen.flip(slot),
                    )
            if screen.check_action("chat", ()) is not False:
                # One who may not write (a spectator where the chat is the
                # players') still reads a narrow table's chat on c: the
                # palette says so, not "Write to the table".
                session = screen.session
                if session is None or session.may_chat:
                    yield SystemCommand("Chat", "Write to the table", screen.action_chat)
                else:
                    yield SystemCommand("Read the chat", "What the table said", screen.action_chat)
            # A guest of the SSH door has no start screen: leaving ends the session.
            where = "Back to the start screen"
            if self.guest:
                where = "Ends this SSH session"
            elif self.start_spec.ends_with_table:
                where = "Ends threeup, saying how to come back"
            yield SystemCommand("Leave the table", where, screen.action_leave)
        if isinstance(screen, (TableScreen, SetupScreen)) and screen.check_action("hint", ()):
            yield SystemCommand("Hint", "The expert's suggestion, selected", screen.action_hint)
        if isinstance(screen, StartScreen) and not self.guest:
            saved = screen.saved
            if saved is not None:
                yield SystemCommand(
                    "Continue your game",
                    f"Against {saved.words()}, where you left it",
                    lambda: self.continue_requested(ContinueRequested(saved)),
                )
            yield SystemCommand(
                "Play against bots",
                "Start a game at once",
                # As the menu's entry: a kept game is not given up unasked.
                lambda: self.play_requested(PlayRequested(screen.players, screen.bot_level)),
            )
            yield SystemCommand("Host a table", "Open a table for others", self.open_host_form)
            yield SystemCommand("Join a table", "Sit at someone's table", self.open_join_form)
            yield SystemCommand(
                "Your games", "Wins, places and the last games", self.stats_requested
            )
        yield SystemCommand("Rules", "How to play, and the keys", lambda: self.show_help("rules"))
        on_now = self.settings.animation
        kept = "" if self.guest or self.settings_file.confined else " (remembered)"
        yield SystemCommand(
            f"Card animation: turn {'off' if on_now else 'on'}",
            f"Cards landing on the pile move{kept}",
            self.toggle_animation,
        )


def finished_game(
    view: View,
    session: Session,
    record: str | None,
    identity: tuple[str, int] | None = None,
) -> FinishedGame:
    """The history's entry for the game ``view`` shows over, seen from its
    seat; ``identity``: a network game's (table id, game number)."""
    me = view.seat
    assert me is not None
    kinds = tuple(_lobby_kind(session.slot(i)) for i in range(len(view.names)))
    return _history_entry(
        GameResult.of_view(view, 0 if identity is None else identity[1], kinds),
        me,
        session,
        record,
        identity,
    )


def _lobby_kind(slot: SeatSlot | None) -> tuple[str, str | None]:
    """A seat's kind for the history as the lobby shows it now: a person's
    seat carries the level of the bot playing it for them, if one is (D17)."""
    if slot is None:
        return "human", None
    return ("bot" if slot.kind == "bot" else "human"), slot.bot_level


def game_from_result(
    result: GameResult, session: Session, identity: tuple[str, int]
) -> FinishedGame:
    """The history's entry for a game the table told this seat it played."""
    me = session.seat
    assert me is not None
    return _history_entry(result, me, session, None, identity)


def _history_entry(
    game: GameResult,
    me: int,
    session: Session,
    record: str | None,
    identity: tuple[str, int] | None,
) -> FinishedGame:
    venue = {"play": "bots"}.get(session.where, session.where)
    return history_row(game, me, venue, record, identity)


def create_app(
    launcher: Launcher | None = None,
    start: StartSpec | None = None,
    rules_text: str | None = None,
    settings: SettingsFile | None = None,
    history: History | None = None,
) -> ThreeUpApp:
    """The app, ready to ``run()`` or ``run_test()``.

    ``settings`` and ``history`` default to the user's files (none at all for
    a confined guest); pictures and benchmarks pass in-memory ones.
    """
    return ThreeUpApp(launcher, start, rules_text, settings, history)


__all__ = ["StartSpec", "ThreeUpApp", "create_app", "finished_game"]
