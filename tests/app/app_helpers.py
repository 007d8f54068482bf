"""Shared pieces of the app tests: a fast launcher, waiting, and acting like a player.

Moves are chosen from the seat's view (the greedy bot decides), but the
tests act only through keys and clicks, as a player would.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from textual import events
from textual.pilot import Pilot

from threeup_tui.app.app import ThreeUpApp
from threeup_tui.app.screens.game_over import GameOverScreen
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.text import rank_of_code
from threeup_tui.bots.base import Bot
from threeup_tui.launcher import JoinSettings, Launcher
from threeup_tui.rules import Move, View
from threeup_tui.table import Table, TableConfig

MAX_MOVES = 400  # a 2-player game takes far fewer; a loop here is a bug


def fast_launcher() -> Launcher:
    """A launcher whose bots act at once (no delay), for fast and repeatable tests."""
    launcher = Launcher()
    launcher.bot_delay = 0
    return launcher


async def wait_for(
    pilot: Pilot[int], predicate: Callable[[], bool], timeout: float = 10.0, what: str = ""
) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        # A plain sleep lets the app run; pilot.pause() would also force a
        # full repaint on every turn of this loop.
        await asyncio.sleep(0.002)
    await pilot.pause()


def app_of(pilot: Pilot[int]) -> ThreeUpApp:
    app = pilot.app
    assert isinstance(app, ThreeUpApp)
    return app


def view_of(pilot: Pilot[int]) -> View:
    session = app_of(pilot).session
    assert session is not None and session.view is not None
    return session.view


async def wait_for_setup(pilot: Pilot[int]) -> SetupScreen:
    app = app_of(pilot)
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, SetupScreen)
            and app.screen.is_mounted
            and bool(app.screen.query("#setup-0"))
            # In sight, as a player sees them before an Enter lays them.
            and app.screen.shown_at is not None
        ),
        what="the set-up screen",
    )
    screen = app.screen
    assert isinstance(screen, SetupScreen)
    return screen


async def wait_for_turn(pilot: Pilot[int], after_moves: int) -> str:
    """Wait until it is our turn on a fresh view, in sight, or the game is
    over: "turn" / "over"."""
    app = app_of(pilot)

    def ready() -> bool:
        session = app.session
        if session is None or session.view is None:
            return False
        view = session.view
        if view.phase == "over":
            return isinstance(app.screen, GameOverScreen)
        return (
            view.my_turn
            and view.moves_played > after_moves
            and isinstance(app.screen, TableScreen)
            and app.screen.is_mounted
            # In sight, as a player sees it before a key plays on it.
            and app.screen.shown_at is not None
        )

    await wait_for(pilot, ready, timeout=20, what="our turn")
    return "over" if view_of(pilot).phase == "over" else "turn"


def zone_indices(view: View, screen: TableScreen, cards: tuple[str, ...]) -> list[int]:
    """Positions in the active zone of the cards a move plays."""
    pool = list(screen.zone_cards(view))
    chosen: list[int] = []
    for code in cards:
        i = next(i for i, c in enumerate(pool) if c == code and i not in chosen)
        chosen.append(i)
    return chosen


async def lay_by_keys(pilot: Pilot[int], bot: Bot) -> None:
    """At the set-up: the bot's three face-up cards, by their number keys, then Enter."""
    await wait_for_setup(pilot)
    hand = list(view_of(pilot).hand)
    for code in bot.choose_face_up(view_of(pilot)):
        i = hand.index(code)
        hand[i] = ""
        await pilot.press(str(i + 1))
    await pilot.press("enter")


async def play_to_the_end(
    pilot: Pilot[int], bot: Bot, play: Callable[[Pilot[int], Move], Awaitable[None]]
) -> None:
    """Make the bot's move on each of our turns with ``play`` (mouse or keys)."""
    acted_at = -1
    for _ in range(MAX_MOVES):
        if await wait_for_turn(pilot, acted_at) == "over":
            return
        view = view_of(pilot)
        acted_at = view.moves_played
        await play(pilot, bot.choose_move(view))
    raise AssertionError("the game did not end")


async def play_by_keys(pilot: Pilot[int], move: Move) -> None:
    app = app_of(pilot)
    screen = app.screen
    assert isinstance(screen, TableScreen)
    view = view_of(pilot)
    if move.kind == "pickup":
        await pilot.press("u")
    elif move.kind == "draw":
        await pilot.press("d")
    elif move.kind == "flip":
        await pilot.press("f", str(move.slot + 1))
    else:
        wanted = zone_indices(view, screen, move.cards)
        rank = rank_of_code(move.cards[0])
        same = [i for i, c in enumerate(screen.zone_cards(view)) if c and rank_of_code(c) == rank]
        if screen.selected:
            await pilot.press("escape")
        if rank <= 10 and sorted(same) == sorted(wanted):
            await pilot.press(str(rank % 10))  # every card of that number at once
        else:
            await pilot.press("home")
            at = 0
            for i in sorted(wanted):
                await pilot.press(*(["right"] * (i - at)), "space")
                at = i
        assert sorted(screen.selected) == sorted(wanted), "selection by keys went wrong"
        await pilot.press("enter")


async def play_by_client(pilot: Pilot[int], move: Move) -> None:
    """The move sent by the app's client, as its keys would send it: for a
    test whose game is only the way to what it looks at (a result box)."""
    session = app_of(pilot).session
    assert session is not None
    session.client.submit(move)


async def play_by_mouse(pilot: Pilot[int], move: Move) -> None:
    app = app_of(pilot)
    screen = app.screen
    assert isinstance(screen, TableScreen)
    view = view_of(pilot)
    if move.kind == "pickup":
        await click(pilot, "#pile")
    elif move.kind == "draw":
        await click(pilot, "#draw")
    elif move.kind == "flip":
        await click(pilot, f"#down-{move.slot}")
    else:
        zone = {"hand": "hand", "face-up": "up"}[view.source]
        wanted = zone_indices(view, screen, move.cards)
        for i in sorted(set(screen.selected) ^ set(wanted)):
            await click(pilot, f"#{zone}-{i}")
        assert sorted(screen.selected) == sorted(wanted), "selection by clicks went wrong"
        await click(pilot, "#play")


async def click(pilot: Pilot[int], selector: str, offset: tuple[int, int] = (1, 0)) -> None:
    hit = await pilot.click(selector, offset=offset)
    assert hit, f"the click on {selector} landed elsewhere"


def screen_text(app: object) -> str:
    """Every character the screen shows, as plain text."""
    strips = app.screen._compositor.render_strips()  # type: ignore[attr-defined]
    return "\n".join(strip.text for strip in strips)


def words_shown(app: object, widget: Any) -> str:
    """The words ``widget``'s content region shows on the screen, in order, as one line."""
    # By cells, as the terminal shows them: a wide character ("王") takes two.
    strips = app.screen._compositor.render_strips()  # type: ignore[attr-defined]
    region = widget.content_region
    rows = [strip.crop(region.x, region.right).text for strip in strips[region.y : region.bottom]]
    return " ".join(" ".join(rows).split())


def send_at_once(app: Any, keys: list[str]) -> None:
    """Queue keys all at once, as a terminal (or an SSH link) delivers a burst."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        name = {" ": "space", ",": "comma"}.get(key, key)
        event = events.Key(name, key if len(key) == 1 else None)
        event.set_sender(app)
        driver.send_message(event)


def writing(app: Any) -> bool:
    """A history worker of the app is still at work: it is started as the
    game-over view arrives, writes the history, and only then tells its
    notes (the game counted before the player is told of it)."""
    return any(w.group == "history" and not w.is_finished for w in app.workers)


def notes_heard(app: ThreeUpApp) -> list[str]:
    """Every note the app shows from now on, as it comes ("title: message",
    or the message alone): a note is withdrawn from the screen soon after."""
    said: list[str] = []
    notify = app.notify

    def heard(message: str, *args: Any, **kwargs: Any) -> None:
        title = kwargs.get("title")
        said.append(f"{title}: {message}" if title else message)
        notify(message, *args, **kwargs)

    app.notify = heard  # type: ignore[method-assign]
    return said


@asynccontextmanager
async def joined_at_a_real_host(
    name: str = "Bo",
) -> AsyncIterator[tuple[Table, ThreeUpApp, Pilot[int]]]:
    """An app joined, as ``name``, to a two-seat table (a greedy bot in the
    other seat) hosted on loopback, at its set-up, at 80x24; the host is
    closed after."""
    from threeup_tui.app.app import StartSpec, create_app
    from threeup_tui.netplay.host import NetHost

    table = Table(TableConfig(players=2, seed=5, auto_start=True))
    table.add_bot(None, "greedy")
    host = await NetHost.start(table, "127.0.0.1", 0)
    join = JoinSettings(f"127.0.0.1:{host.address[1]}", name)
    app = create_app(Launcher(announce_address="off"), StartSpec(mode="join", join=join))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
            yield table, app, pilot
    finally:
        await host.close()
