"""The Textual app: one client, one event worker, screens fed from one session.

``create_app`` is the factory used by ``threeup``, the tests, the screenshot
script, the benchmarks and the SSH front door alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from textual import on
from textual.app import App, SystemCommand
from textual.screen import Screen

from ..client import (
    ActionRejected,
    ChatReceived,
    ConnectionChanged,
    Event,
    GameSaved,
    LobbyChanged,
    Notice,
    TableClient,
    TurnClock,
    ViewChanged,
    Welcome,
)
from ..launcher import HostSettings, JoinSettings, Launcher
from ..rules import Record
from .messages import (
    ChatArrived,
    ClientFailed,
    ClientReady,
    ClockUpdated,
    ConnectionUpdated,
    LobbyUpdated,
    MoveRejected,
    NoticeArrived,
    RecordSaved,
    Seated,
    ViewUpdated,
)
from .rules_text import load_rules
from .screens.base import TableScreenBase
from .screens.confirm import ConfirmScreen
from .screens.game_over import GameOverScreen
from .screens.guest import GuestScreen
from .screens.help import HelpScreen
from .screens.host import HostScreen
from .screens.join import JoinScreen
from .screens.lobby import LobbyScreen
from .screens.replay import ReplayScreen
from .screens.setup import SetupScreen
from .screens.start import StartScreen
from .screens.table import TableScreen
from .session import Session
from .text import clean, reason_words
from .widgets.status_line import route_notifications

Mode = Literal["menu", "play", "host", "join", "replay"]
GAME_OVER_DELAY = 0.5  # seconds between the last move and the result


@dataclass(frozen=True)
class StartSpec:
    """Where the app starts: the menu, a game against bots, a lobby, a replay."""

    mode: Mode = "menu"
    players: int = 4
    bot_level: str = "greedy"
    seed: int | None = None
    name: str | None = None
    host: HostSettings | None = None
    join: JoinSettings | None = None
    record: Record | None = None
    record_name: str = ""
    # A confined guest (THREEUP_GUEST=1, the SSH door's player): only the
    # table, nothing written on the host's disk, and the app ends with the
    # table (see threeup_tui.guest).
    guest: bool = False


def _message_for(
    event: Event,
) -> (
    ViewUpdated
    | LobbyUpdated
    | Seated
    | ChatArrived
    | (MoveRejected | ConnectionUpdated | RecordSaved | ClockUpdated | NoticeArrived | None)
):
    if isinstance(event, ViewChanged):
        return ViewUpdated(event.view)
    if isinstance(event, LobbyChanged):
        return LobbyUpdated(event.lobby)
    if isinstance(event, ChatReceived):
        return ChatArrived(event.seat, event.name, event.text)
    if isinstance(event, ActionRejected):
        return MoveRejected(event.reason)
    if isinstance(event, ConnectionChanged):
        return ConnectionUpdated(event.state, event.detail)
    if isinstance(event, GameSaved):
        return RecordSaved(event.path)
    if isinstance(event, Welcome):
        return Seated(event)
    if isinstance(event, TurnClock):
        return ClockUpdated(event.seat, event.remaining)
    if isinstance(event, Notice):
        return NoticeArrived(event.text)
    return None


class ThreeUpApp(App[int]):
    CSS_PATH = "styles.tcss"
    TITLE = "3UP 3DOWN"
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        launcher: Launcher | None = None,
        start: StartSpec | None = None,
        rules_text: str | None = None,
    ) -> None:
        super().__init__()
        self.launcher = launcher or Launcher()
        self.start_spec = start or StartSpec()
        self.rules_text = rules_text
        self.session: Session | None = None
        self._game_screen: TableScreenBase | None = None
        self._over_shown_for = -1
        self.leave_on_sigterm = False
        self.goodbye: str | None = None  # a guest's last line, printed as the app ends

    # ------------------------------------------------------------ start
    def on_mount(self) -> None:
        if self.leave_on_sigterm:
            # SIGTERM (the SSH door ending a session) exits like q: the event
            # worker's finally then closes the client, telling the host.
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self.exit)
        spec = self.start_spec
        if self.guest:
            self.push_screen(GuestScreen())
            if spec.join is not None:
                self.start_join(spec.join)
            return
        self.push_screen(StartScreen(spec.players, spec.bot_level))
        if spec.mode == "play":
            self.start_play(spec.players, spec.bot_level, spec.seed, spec.name)
        elif spec.mode == "host":
            self.start_host(spec.host or HostSettings())
        elif spec.mode == "join":
            self.open_join_form(spec.join)
            if spec.join is not None and spec.join.address:
                self.start_join(spec.join)
        elif spec.mode == "replay" and spec.record is not None:
            self.push_screen(ReplayScreen(spec.record, spec.record_name, exit_on_close=True))

    def start_play(
        self, players: int, bot_level: str, seed: int | None = None, name: str | None = None
    ) -> None:
        """A game against bots: the whole table lives in this process."""
        launcher = self.launcher
        self._launch(lambda: launcher.local_game(players, bot_level, seed, name or "you"), "play")

    def open_host_form(self) -> None:
        self.push_screen(HostScreen())

    def start_host(self, settings: HostSettings) -> None:
        launcher = self.launcher
        self._launch(lambda: launcher.host(settings), "host")

    def open_join_form(self, settings: JoinSettings | None = None) -> None:
        discover = getattr(self.launcher, "discover", None)
        self.push_screen(JoinScreen(settings, discover if callable(discover) else None))

    def start_join(self, settings: JoinSettings) -> None:
        launcher = self.launcher
        self._launch(lambda: launcher.join(settings), "join")

    def _launch(self, make: Callable[[], Awaitable[TableClient]], where: str) -> None:
        if self.session is not None:
            self.notify("Leave the current table first", severity="warning")
            return

        async def launch() -> None:
            try:
                client = await make()
            except Exception as err:  # shown to the player, never a traceback
                self.post_message(ClientFailed(str(err) or type(err).__name__, where))
            else:
                self.post_message(ClientReady(client))

        self.run_worker(launch(), group="launch", exclusive=True)

    @property
    def guest(self) -> bool:
        return self.start_spec.guest

    def guest_exit(self, words: str, code: int = 0) -> None:
        """A guest's app ends with a last line, which ``run_app`` prints once
        the terminal is restored (Textual's own exit message may still land
        on the alternate screen, and vanish with it)."""
        self.goodbye = words
        self.exit(code, return_code=code)

    @on(ClientFailed)
    def client_failed(self, message: ClientFailed) -> None:
        if self.guest:
            self.guest_exit(f"threeup: could not join: {message.error}", 1)
            return
        screen = self.screen
        if message.where == "host" and not isinstance(screen, HostScreen):
            # `threeup host` went straight for the lobby: show the form, with why.
            host = self.start_spec.host
            form = HostScreen(host.name if host else "host")
            self.push_screen(form)
            self.call_after_refresh(form.show_error, message.error)
        elif isinstance(screen, (HostScreen, JoinScreen)):
            screen.show_error(message.error)
        self.notify(
            message.error, title=f"Could not {message.where}", severity="error", markup=False
        )

    @on(ClientReady)
    def client_ready(self, message: ClientReady) -> None:
        self.session = Session(message.client)
        self._over_shown_for = -1
        self.run_worker(self._pump(message.client), group="events", exclusive=True)

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

    # ------------------------------------------------------------ events
    @on(Seated)
    def seated(self, message: Seated) -> None:
        if self.session is not None:
            self.session.welcome = message.welcome
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

    @on(ChatArrived)
    def chat_arrived(self, message: ChatArrived) -> None:
        session = self.session
        if session is None:
            return
        line = session.add_chat(message.seat, message.name, message.text)
        for screen in self._table_screens():
            screen.add_chat(line)

    @on(MoveRejected)
    def move_rejected(self, message: MoveRejected) -> None:
        # The engine's reason, as plain text (it may come from another machine).
        self.notify(
            reason_words(message.reason), title="Not allowed", severity="error", markup=False
        )
        for screen in self._table_screens():
            if isinstance(screen, SetupScreen):
                screen.rejected()

    @on(ConnectionUpdated)
    def connection_updated(self, message: ConnectionUpdated) -> None:
        session = self.session
        if session is None:
            return
        before = session.connection
        session.connection = message.state
        session.connection_detail = message.detail
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
                "reconnecting": "Connection lost: reconnecting…",
                # The host's reason ("your seat was taken over from another terminal").
                "closed": f"The connection is closed: {reason_words(message.detail)}"
                if message.detail
                else "The connection is closed",
            }
            self.notify(
                words.get(message.state, message.state),
                severity=severity,  # type: ignore[arg-type]
                markup=False,
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

    @on(RecordSaved)
    def record_saved(self, message: RecordSaved) -> None:
        self.notify(f"Saved the record to {message.path}", markup=False)

    def _table_screens(self) -> list[TableScreenBase]:
        return [s for s in self.screen_stack if isinstance(s, TableScreenBase)]

    def _sync_screens(self) -> None:
        for screen in self._table_screens():
            screen.sync()

    # ------------------------------------------------------------ screens
    def _target(self) -> type[TableScreenBase] | None:
        session = self.session
        if session is None:
            return None
        view = session.view
        if view is None:
            # A started game's view is on its way: no lobby flash before it.
            lobby = session.lobby
            return LobbyScreen if lobby is not None and not lobby.started else None
        if view.seat is None or view.phase != "setup":
            return TableScreen
        return SetupScreen

    def route(self) -> None:
        """Put the screen the table's state calls for on top (once per change)."""
        session = self.session
        target = self._target()
        if session is None or target is None:
            return
        top = self.screen
        if isinstance(top, (HelpScreen, ConfirmScreen)):
            return  # the covered screen routes again when it resumes
        if isinstance(top, GameOverScreen) and target is not TableScreen:
            self.pop_screen()  # a rematch: on to the set-up
            top = self.screen
        current = self._game_screen
        if current is None or not isinstance(current, target) or current not in self.screen_stack:
            new = target()
            if top is current or isinstance(top, (HostScreen, JoinScreen)):
                self.switch_screen(new)
            else:
                self.push_screen(new)
            self._game_screen = new
        view = session.view
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
        if session is not None and session.view is not None and session.view.phase == "over":
            self.show_game_over()

    def show_game_over(self) -> None:
        game = self._game_screen
        if game is not None and not isinstance(self.screen, GameOverScreen):
            self.push_screen(GameOverScreen(game))

    def show_help(self, tab: str = "rules") -> None:
        rules = self.rules_text if self.rules_text is not None else load_rules()
        self.push_screen(HelpScreen(rules, tab))

    def confirm_leave(self) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self.leave_table()

        self.push_screen(ConfirmScreen("Leave this table?"), answered)

    def leave_table(self) -> None:
        """Back to the start screen; the event worker closes the client.
        A guest has no start screen: leaving ends the app (and the SSH session)."""
        if self.guest:
            self.guest_exit("threeup: you left the table")
            return
        self.workers.cancel_group(self, "events")
        self.session = None
        self._game_screen = None
        while len(self.screen_stack) > 2 and not isinstance(self.screen, StartScreen):
            self.pop_screen()

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
            if not self.guest or command.title in self.GUEST_SYSTEM_COMMANDS:
                yield command
        if isinstance(screen, TableScreen):
            yield SystemCommand("Play", "Play the selected cards", screen.action_play)
            yield SystemCommand("Pick up", "Pick up the discard pile", screen.action_pickup)
            yield SystemCommand("Draw", "Draw (when the draw is open)", screen.action_draw)
            for slot in range(3):
                yield SystemCommand(
                    f"Flip face-down card {slot + 1}",
                    "Play a face-down card blind",
                    lambda slot=slot: screen.flip(slot),
                )
            yield SystemCommand("Chat", "Write to the table", screen.action_chat)
            yield SystemCommand("Leave the table", "Back to the start screen", screen.action_leave)
        if isinstance(screen, StartScreen) and not self.guest:
            yield SystemCommand(
                "Play against bots",
                "Start a game at once",
                lambda: self.start_play(screen.players, screen.bot_level),
            )
            yield SystemCommand("Host a table", "Open a table for others", self.open_host_form)
            yield SystemCommand("Join a table", "Sit at someone's table", self.open_join_form)
        yield SystemCommand("Rules", "How to play, and the keys", lambda: self.show_help("rules"))


def create_app(
    launcher: Launcher | None = None,
    start: StartSpec | None = None,
    rules_text: str | None = None,
) -> ThreeUpApp:
    """The app, ready to ``run()`` or ``run_test()``."""
    return ThreeUpApp(launcher, start, rules_text)


__all__ = ["StartSpec", "ThreeUpApp", "create_app"]
