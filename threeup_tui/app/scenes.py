"""Fixed, repeatable states of every screen: for screenshots, snapshots, benchmarks.

Each scene is an app (built with :func:`create_app`) plus an async ``drive``
that brings it to the state to show.  Bots act at once (``bot_delay`` 0) and
every deal, bot and record is seeded, so the same scene always paints the
same screen.  Scenes may move through the client directly (they stage a
picture); the tests that check the controls use keys and clicks only.
"""

from __future__ import annotations

import asyncio
import atexit
import shutil
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from ..bots import GreedyBot
from ..client import TableClient
from ..client.local import LocalClient
from ..history import FinishedGame, History, SeatEntry
from ..launcher import HostedClient, HostSettings, JoinSettings, Launcher
from ..rules import GameState, Options, Phase, Record, record_of, seat_view
from ..savedgame import SavedGame
from ..settings import SettingsFile
from .app import StartSpec, ThreeUpApp, create_app
from .messages import StatsRequested
from .rules_text import BUILTIN_RULES
from .screens.game_over import GameOverScreen
from .screens.help import HelpScreen
from .screens.host import HostScreen
from .screens.join import JoinScreen
from .screens.lobby import LobbyScreen
from .screens.replay import ReplayScreen
from .screens.setup import SetupScreen
from .screens.start import StartScreen
from .screens.stats import StatsScreen
from .screens.table import TableScreen
from .widgets.chat import ChatLines
from .widgets.pile import PileView

Drive = Callable[[Pilot[int]], Awaitable[None]]


@dataclass(frozen=True)
class Announcement:
    """What LAN discovery reports of one table (netplay's TableAnnouncement shape)."""

    host: str
    port: int
    name: str
    free_seats: int
    seats: int
    code_required: bool = False
    started: bool = False

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


class GuestClient(LocalClient):
    """A second seat at a host's in-process table; leaving closes the host too."""

    def __init__(self, host: LocalClient, name: str) -> None:
        super().__init__(host.table, name, as_host=False, owns_runner=False)
        self.host = host

    async def close(self) -> None:
        await super().close()
        await self.host.close()


SCENE_PORT = 47990  # the port the lobby shows, so every picture is the same


class SceneLauncher(Launcher):
    """Bots without delay; hosting on loopback only, never announced; a join
    that seats a guest at an in-process table; a discovery that hears two
    made-up tables (documentation addresses, nothing is sent)."""

    bot_delay = 0.0
    crash_journals = False  # pictures keep nothing in the state directory

    def __init__(self) -> None:
        super().__init__(announce_address="off")

    async def host(self, settings: HostSettings) -> TableClient:
        # Any free loopback port: a fixed one could be taken on the machine.
        client = await super().host(replace(settings, bind="127.0.0.1", port=0))
        assert isinstance(client, HostedClient)
        # The picture shows what a table bound to every address (the default) shows.
        client.shown_address = ("::", SCENE_PORT)
        return client

    async def join(self, settings: JoinSettings) -> TableClient:
        # Ana hosts (on loopback, any port); the guest sits at her table in
        # this process, so the picture needs no network timing.
        host_settings = HostSettings(players=4, bots=1, code="PARTY", name="Ana", seed=3)
        host = await Launcher.host(self, replace(host_settings, bind="127.0.0.1", port=0))
        assert isinstance(host, LocalClient)
        guest = GuestClient(host, settings.name)
        await guest.start()
        host.chat("welcome! starting when Bo arrives")
        return guest

    async def discover(self) -> AsyncIterator[list[Announcement]]:  # type: ignore[override]
        yield [
            Announcement("192.0.2.10", 47823, "Ana's table", 2, 4, code_required=True),
            Announcement("192.0.2.22", 47823, "basement LAN", 1, 6, started=True),
        ]


async def settle(pilot: Pilot[int], predicate: Callable[[], bool], timeout: float = 15.0) -> None:
    """Wait until ``predicate`` holds, then until the app has drawn it."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the scene did not reach its state")
        await asyncio.sleep(0.002)
    await pilot.pause()


async def finish(pilot: Pilot[int]) -> None:
    """Remove what changes with time: toasts, blinking cursors, a card's
    landing highlight, and logs whose scroll to the end is still pending (a
    log under a modal scrolls when it next repaints, which may be before or
    after the picture)."""
    app = pilot.app
    await pilot.pause()
    app.clear_notifications()
    for widget in app.screen.query(Input):
        widget.cursor_blink = False
    for screen in app.screen_stack:
        for log in screen.query(ChatLines):
            log.scroll_end(animate=False, immediate=True)
        for pile in screen.query(PileView):
            pile.end_highlight()  # a card's landing lasts a moment: not in a picture
    await pilot.pause()


def _app(pilot: Pilot[int]) -> ThreeUpApp:
    assert isinstance(pilot.app, ThreeUpApp)
    return pilot.app


def _on(
    pilot: Pilot[int], screen: type, also: Callable[[], bool] = lambda: True
) -> Callable[[], bool]:
    """Whether the app shows ``screen``, mounted, and ``also`` holds."""
    app = pilot.app
    return lambda: isinstance(app.screen, screen) and app.screen.is_mounted and also()


async def choose_face_up(pilot: Pilot[int], bot: GreedyBot) -> None:
    app = _app(pilot)
    await settle(pilot, _on(pilot, SetupScreen))
    session = app.session
    assert session is not None and session.view is not None
    session.client.choose_face_up(bot.choose_face_up(session.view))


async def my_turn(pilot: Pilot[int], after: int) -> bool:
    """Wait for our turn on a view newer than ``after`` moves; False if the game ended."""
    app = _app(pilot)

    def ready() -> bool:
        view = app.session.view if app.session else None
        if view is None:
            return False
        if view.phase == "over":
            return isinstance(app.screen, GameOverScreen)
        return view.my_turn and view.moves_played > after and isinstance(app.screen, TableScreen)

    await settle(pilot, ready, timeout=30)
    view = app.session.view if app.session else None
    return view is not None and view.phase != "over"


async def play_turns(pilot: Pilot[int], turns: int, bot: GreedyBot) -> None:
    """Let the greedy bot decide our next ``turns`` moves (sent through the client)."""
    app = _app(pilot)
    after = -1
    for _ in range(turns):
        if not await my_turn(pilot, after):
            return
        session = app.session
        assert session is not None and session.view is not None
        after = session.view.moves_played
        session.client.submit(bot.choose_move(session.view))
    await my_turn(pilot, after)


# ---------------------------------------------------------------- the scenes
async def drive_start(pilot: Pilot[int]) -> None:
    await settle(pilot, _on(pilot, StartScreen))
    await finish(pilot)


async def drive_start_continue(pilot: Pilot[int]) -> None:
    """The start screen with a game against bots left in the middle."""
    await settle(pilot, _on(pilot, StartScreen))
    start = _app(pilot).screen
    assert isinstance(start, StartScreen)
    start.show_saved(SavedGame(Path("game.json"), players=4, bot_level="greedy", game_number=2))
    await settle(pilot, lambda: start.saved is not None)
    await finish(pilot)


async def drive_host_form(pilot: Pilot[int]) -> None:
    await settle(pilot, _on(pilot, StartScreen))
    _app(pilot).open_host_form()
    await settle(pilot, _on(pilot, HostScreen))
    await finish(pilot)


async def drive_lobby(pilot: Pilot[int]) -> None:
    app = _app(pilot)

    def two_bots() -> bool:
        lobby = app.session.lobby if app.session is not None else None
        return lobby is not None and sum(s.kind == "bot" for s in lobby.seats) == 2

    await settle(pilot, _on(pilot, LobbyScreen, two_bots))
    await finish(pilot)


# The lobby-wide scene's people: names and a chat line of wide characters.
WIDE_HOST = "王小明"
WIDE_GUEST = "Zoë 👍"
WIDE_HELLO = "你好 👋 ready when you are"


async def drive_wide_lobby(pilot: Pilot[int]) -> None:
    """The host 王小明's lobby, a guest "Zoë 👍" sat down and saying hello:
    names of wide characters in the title, the seats and the chat."""
    await drive_lobby(pilot)
    app = _app(pilot)
    assert app.session is not None and isinstance(app.session.client, LocalClient)
    guest = LocalClient(app.session.client.table, WIDE_GUEST, as_host=False, owns_runner=False)
    await guest.start()
    guest.chat(WIDE_HELLO)

    def seated() -> bool:
        lobby = app.session.lobby if app.session is not None else None
        return (
            lobby is not None
            and app.session is not None
            and len(app.session.chat) >= 1
            and (any(s.name == WIDE_GUEST for s in lobby.seats))
        )

    await settle(pilot, _on(pilot, LobbyScreen, seated))
    await finish(pilot)


async def drive_guest_lobby(pilot: Pilot[int]) -> None:
    app = _app(pilot)

    def chatted() -> bool:
        return app.session is not None and len(app.session.chat) >= 3

    await settle(pilot, _on(pilot, LobbyScreen, chatted))
    await finish(pilot)


async def drive_join(pilot: Pilot[int]) -> None:
    app = _app(pilot)

    def heard_two() -> bool:
        return isinstance(app.screen, JoinScreen) and len(app.screen.found) >= 2

    await settle(pilot, _on(pilot, JoinScreen, heard_two))
    await finish(pilot)


async def drive_setup(pilot: Pilot[int]) -> None:
    await settle(pilot, _on(pilot, SetupScreen))
    await pilot.press("2", "5")  # two of three chosen: the picture shows a choice under way
    await finish(pilot)


def drive_table(my_moves: int, select: bool = True) -> Drive:
    async def drive(pilot: Pilot[int]) -> None:
        bot = GreedyBot(1)
        await choose_face_up(pilot, bot)
        await play_turns(pilot, my_moves, bot)
        app = _app(pilot)
        screen = app.screen
        session = app.session
        if select and isinstance(screen, TableScreen) and session and session.view:
            ranks = session.view.playable_ranks()
            for i, code in enumerate(session.view.hand):
                if any(code.endswith(str(r)) for r in ranks if r <= 10):
                    screen.toggle(i)
                    break
        await finish(pilot)

    return drive


async def drive_game_over(pilot: Pilot[int]) -> None:
    bot = GreedyBot(1)
    await choose_face_up(pilot, bot)
    await play_turns(pilot, 500, bot)
    await settle(pilot, _on(pilot, GameOverScreen))
    # The modal's backdrop is the table's last frame: go back to the table,
    # let it settle (no toasts, logs at the end), and bring the result back.
    await pilot.press("escape")
    await settle(pilot, _on(pilot, TableScreen))
    await finish(pilot)
    await pilot.press("g")
    await settle(pilot, _on(pilot, GameOverScreen))
    await finish(pilot)


def drive_help(tab: str) -> Drive:
    async def drive(pilot: Pilot[int]) -> None:
        await settle(pilot, _on(pilot, StartScreen))
        _app(pilot).show_help(tab)
        await settle(pilot, _on(pilot, HelpScreen))
        await finish(pilot)

    return drive


async def drive_replay(pilot: Pilot[int]) -> None:
    await settle(pilot, _on(pilot, ReplayScreen))
    await pilot.press(*["right"] * 24)
    await finish(pilot)


def demo_record(players: int = 3, seed: int = 4, options: Options | None = None) -> Record:
    """A finished greedy game, made in memory: the replay scene's record."""
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"][:players]
    state = GameState.new(names, options, seed=seed)
    bots = [GreedyBot(seed * 10 + s) for s in range(players)]
    for s in range(players):
        state.choose_face_up_codes(s, bots[s].choose_face_up(seat_view(state, s, log_length=0)))
    while state.phase != Phase.OVER:
        seat = state.seat
        state.apply_move(bots[seat].choose_move(seat_view(state, seat, log_length=0)))
    return record_of(state)


async def drive_stats(pilot: Pilot[int]) -> None:
    await settle(pilot, _on(pilot, StartScreen))
    pilot.app.post_message(StatsRequested())
    await settle(pilot, _on(pilot, StatsScreen, lambda: _stats_screen(pilot).laid_out()))
    await finish(pilot)


def _stats_screen(pilot: Pilot[int]) -> StatsScreen:
    screen = pilot.app.screen
    assert isinstance(screen, StatsScreen)
    return screen


def demo_history() -> History:
    """A history of made-up games in a fresh temporary file (the Stats scene's).

    The times are naive, so they show as written whatever the time zone."""
    folder = tempfile.mkdtemp(prefix="threeup-scene-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    history = History(Path(folder) / "history.sqlite3", enabled=True)
    start = datetime(2025, 3, 1, 20, 0)
    plan = [  # (players, bot level or "people", your place, won)
        (4, "greedy", 2, False),
        (4, "greedy", 1, True),
        (2, "random", 1, True),
        (3, "people", None, False),
        (4, "greedy", 3, False),
        (2, "greedy", 1, True),
        (6, "random", 1, True),
        (3, "greedy", 1, True),
    ]
    for i, (players, level, place, won) in enumerate(plan):
        kind = "human" if level == "people" else "bot"
        record = None
        if level != "people":  # a file there: the picture offers its replay
            record = Path(folder) / f"game-{i}.json"
            record.write_text("{}")
        seats = [SeatEntry("you", "you")] + [
            SeatEntry(f"{level}-{s + 1}", kind, None if kind == "human" else level)
            for s in range(1, players)
        ]
        history.add(
            FinishedGame(
                seats=tuple(seats),
                my_seat=0,
                place=place,
                won=won,
                stalemate=False,
                moves=60 + 7 * i,
                turns=50 + 5 * i,
                finish="places" if place not in (None, 1) else "first_out",
                venue="join" if level == "people" else "bots",
                record=None if record is None else str(record),
                finished_at=start + timedelta(days=i, minutes=13 * i),
            )
        )
    return history


@dataclass(frozen=True)
class Scene:
    name: str
    start: StartSpec
    drive: Drive
    rules_text: str | None = None
    history: Callable[[], History] = History.disabled

    def app(self) -> ThreeUpApp:
        # Never the user's settings or history: every picture is the same,
        # and taking one writes nothing.
        return create_app(
            SceneLauncher(),
            self.start,
            self.rules_text,
            settings=SettingsFile.in_memory(),
            history=self.history(),
        )


def scenes(rules_text: str | None = BUILTIN_RULES) -> list[Scene]:
    """Every screen, in the order a player meets them.

    ``rules_text`` fixes the rules page (snapshots keep the built-in text so
    that editing docs/rules.md does not break them; screenshots pass None).
    """
    play6 = StartSpec(mode="play", players=6, seed=21, name="you")
    play4 = StartSpec(mode="play", players=4, seed=5, name="you")
    host = HostSettings(players=4, bots=2, code="PARTY", name="Ana", seed=1)
    return [
        Scene("start", StartSpec(), drive_start),
        Scene("start-continue", StartSpec(), drive_start_continue),
        Scene("host", StartSpec(), drive_host_form),
        Scene("lobby", StartSpec(mode="host", host=host), drive_lobby),
        Scene(
            "lobby-wide",
            StartSpec(mode="host", host=replace(host, name=WIDE_HOST)),
            drive_wide_lobby,
        ),
        Scene(
            "lobby-guest",
            StartSpec(mode="join", join=JoinSettings("192.0.2.10", "Bo", "PARTY")),
            drive_guest_lobby,
        ),
        Scene("join", StartSpec(mode="join", join=JoinSettings("", "Bo")), drive_join),
        Scene("stats", StartSpec(), drive_stats, history=demo_history),
        Scene("setup", play4, drive_setup),
        Scene("table", play6, drive_table(2)),
        Scene("table-2p", StartSpec(mode="play", players=2, seed=12), drive_table(10)),
        Scene("game-over", StartSpec(mode="play", players=2, seed=12), drive_game_over),
        Scene("rules", StartSpec(), drive_help("rules"), rules_text),
        Scene("keys", StartSpec(), drive_help("keys"), rules_text),
        Scene(
            "replay",
            StartSpec(mode="replay", record=demo_record(), record_name="demo-game.json"),
            drive_replay,
        ),
    ]


def scene(name: str, rules_text: str | None = BUILTIN_RULES) -> Scene:
    return next(s for s in scenes(rules_text) if s.name == name)


__all__ = ["Announcement", "Scene", "SceneLauncher", "scene", "scenes", "settle"]
