"""A table hosted from the app, the app ending between games or in its
lobby with a guest seated (Ctrl+Q, SIGTERM, a hang-up): the table stops as
a headless host's does.  Its guest waits ("the host stopped between games:
it may resume the table") and comes back by itself once the start screen
brings the table back, the game over as it was left.  It once closed for
everyone there: the guest's app ended its session, and the start screen
offered nothing to bring back.  Leaving on purpose (q, "yes") still closes
it.  The host's app is the real app (run_test, keys); the guest a real
client over UDP on loopback."""

from __future__ import annotations

import asyncio
from pathlib import Path

from app_helpers import (
    lay_by_keys,
    play_by_client,
    play_to_the_end,
    screen_text,
    wait_for,
    wait_for_setup,
)
from netplay_support import LOOPBACK, ClientLog, free_udp_port, make_client, play_bot
from textual.pilot import Pilot
from textual.widgets import OptionList

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.confirm import ConfirmScreen
from threeup_tui.app.screens.game_over import GameOverScreen
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.bots import GreedyBot
from threeup_tui.client.events import ConnectionChanged
from threeup_tui.history import History
from threeup_tui.launcher import HostedClient, HostSettings, Launcher
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.wire import (
    CLOSE_HOST_STOPPED_BETWEEN_GAMES,
    CLOSE_HOST_STOPPED_IN_LOBBY,
    CLOSE_TABLE_CLOSED,
)
from threeup_tui.paths import tables_dir
from threeup_tui.table import Table


def hosting(port: int) -> tuple[Launcher, ThreeUpApp]:
    """Ann's app hosting a table of two on ``port``, its journal its own (tables/)."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    settings = HostSettings(
        players=2, name="Ann", seed=11, port=port, bind=LOOPBACK, takeover_after=600
    )
    return launcher, create_app(launcher, StartSpec(mode="host", host=settings))


def hosting_for_bo(tokens: Path) -> tuple[int, Launcher, ThreeUpApp, NetClient]:
    """Ann's app hosting on a free port (``hosting``), and Bo's client for
    that table, not started, his seats kept in ``tokens``."""
    port = free_udp_port()
    launcher, app = hosting(port)
    return port, launcher, app, make_client((LOOPBACK, port), "Bo", tokens)


async def play_game_one_with_bo(pilot: Pilot[int], bo: NetClient) -> None:
    """Bo (a greedy bot's client over UDP) joins Ann's lobby, s deals, and
    both play game 1 to Ann's result box: her face-up cards by keys, her
    moves sent by her app's client (the keys are tested elsewhere; each
    move by keys took most of these tests' time)."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
    playing = asyncio.ensure_future(play_bot(bo, ClientLog("Bo"), seed=4))
    await wait_for(pilot, lambda: "Bo" in screen_text(app), timeout=20, what="Bo in the lobby")
    await pilot.press("s")
    bot = GreedyBot(3)
    await lay_by_keys(pilot, bot)
    await play_to_the_end(pilot, bot, play_by_client)
    await asyncio.wait_for(playing, 20)


async def seat_bo_in_the_lobby(pilot: Pilot[int], bo: NetClient) -> None:
    """Bo joins the host's lobby, once the app shows it, and is seen there."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
    await bo.start()
    await wait_for(pilot, lambda: "Bo" in screen_text(app), what="Bo in the lobby")


async def next_change(client: NetClient, state: str) -> ConnectionChanged:
    while True:
        event = await client.next_event()
        if isinstance(event, ConnectionChanged) and event.state == state:
            return event


async def quit_saying(pilot: Pilot[int], question: str) -> None:
    """Ctrl+Q, the question read, and "yes"."""
    app = pilot.app
    await pilot.press("ctrl+q")
    await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="quit?")
    screen = app.screen
    assert isinstance(screen, ConfirmScreen) and question in str(screen.question)
    await pilot.press("y")
    await wait_for(pilot, lambda: not app.is_running, timeout=20, what="the app ended")


def offered(app: ThreeUpApp) -> list[str | None]:
    if not isinstance(app.screen, StartScreen):
        return []
    menu = app.screen.query_one("#menu", OptionList)
    return [menu.get_option_at_index(i).id for i in range(menu.option_count)]


async def test_the_app_quit_between_games_stops_the_table_and_brings_it_back(
    tmp_path: Path,
) -> None:
    """Ann and Bo play game 1; Ann quits (Ctrl+Q) at the result box.  Bo's
    app waits rather than closing; Ann's next start offers the table
    "between games 1 and 2", and Enter brings it back: the result as it
    was, Bo back at his seat by himself, r deals game 2, and game 1 is in
    Ann's history once."""
    tokens = tmp_path / "bo-seats.json"
    port, launcher, app, bo = hosting_for_bo(tokens)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_game_one_with_bo(pilot, bo)
        assert app.session is not None and isinstance(app.screen, GameOverScreen)
        bo_seat = bo.seat
        await quit_saying(pilot, "Your table stops: its players wait until you resume it.")
    assert "stopped after game 1;" in str(app.goodbye), app.goodbye
    try:
        change = await asyncio.wait_for(next_change(bo, "reconnecting"), 15)
        assert change.detail == CLOSE_HOST_STOPPED_BETWEEN_GAMES
        assert bo.closed_by_host is None

        again = create_app(launcher)
        async with again.run_test(size=(80, 24)) as pilot:
            await wait_for(
                pilot,
                lambda: offered(again)[:1] == ["resume"],
                what=f"the table offered, not: {screen_text(again)}",
            )
            shown = screen_text(again)
            assert "Ann's table" in shown and "between games 1 and 2" in shown, shown
            await pilot.press("enter")
            await wait_for(
                pilot,
                lambda: isinstance(again.screen, GameOverScreen),
                timeout=20,
                what=f"the result as it was left, not: {screen_text(again)}",
            )
            resumed = again.session
            assert resumed is not None and isinstance(resumed.client, HostedClient)
            assert resumed.client.address is not None and resumed.client.address[1] == port
            await asyncio.wait_for(next_change(bo, "connected"), 20)
            assert bo.seat == bo_seat
            await pilot.press("r")  # Rematch: game 2 is dealt for both
            await wait_for_setup(pilot)
            assert resumed.client.table.game_number == 2
            rows = [g for g in History().games() if g.venue == "host"]
            assert [g.game_number for g in rows] == [1]  # counted once, not again on resume
            await pilot.press("ctrl+q")
            await wait_for(pilot, lambda: isinstance(again.screen, ConfirmScreen), what="quit?")
            await pilot.press("y")
    finally:
        await bo.close()


async def test_a_guest_who_left_between_games_keeps_the_table_stopped_for_their_seat(
    tmp_path: Path,
) -> None:
    """Ann and Bo play game 1; Bo leaves at the result box (q: his client
    says goodbye), and the table tells everyone his seat waits for him.
    Ann's Ctrl+Q then closed the table for good, asking nothing: the seat
    said to wait was gone, Bo's way back with it.  Now it stops, as the
    question says, and the start screen offers it; resumed, Bo's seat is
    his, and the token he left with seats him there again."""
    tokens = tmp_path / "bo-seats.json"
    port, launcher, app, bo = hosting_for_bo(tokens)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_game_one_with_bo(pilot, bo)
        bo_seat = bo.seat
        await bo.close()  # q at his result box
        table = app.session.client.table if app.session is not None else None
        assert isinstance(table, Table)
        await wait_for(
            pilot, lambda: not table.seats[bo_seat].connected, timeout=20, what="Bo gone"
        )
        assert any("the seat waits for them" in line.text for line in table.chat_log)
        await quit_saying(pilot, "Your table stops: its players wait until you resume it.")
    assert "stopped after game 1;" in str(app.goodbye), app.goodbye
    (kept,) = launcher.kept_tables()
    assert kept.where() == "between games 1 and 2"
    again = create_app(launcher)
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: offered(again)[:1] == ["resume"], what="the table offered")
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(again.screen, GameOverScreen), timeout=20, what="resumed"
        )
        back = make_client((LOOPBACK, port), "Bo", tokens)
        try:
            await back.start()
            assert back.seat == bo_seat
        finally:
            await back.close()
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(again.screen, ConfirmScreen), what="quit?")
        await pilot.press("y")


async def test_the_app_quit_in_its_lobby_with_a_guest_stops_the_table(tmp_path: Path) -> None:
    """Ctrl+Q in the lobby with Bo seated: Bo waits ("before the game
    began"), and the start screen offers the table "in its lobby"."""
    _port, launcher, app, bo = hosting_for_bo(tmp_path / "bo.json")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await seat_bo_in_the_lobby(pilot, bo)
            await quit_saying(pilot, "Your table stops: its players wait until you resume it.")
        change = await asyncio.wait_for(next_change(bo, "reconnecting"), 15)
        assert change.detail == CLOSE_HOST_STOPPED_IN_LOBBY
        (kept,) = launcher.kept_tables()
        assert kept.where() == "in its lobby" and kept.host_name == "Ann"
    finally:
        await bo.close()


async def test_the_host_leaving_the_lobby_on_purpose_still_closes_the_table(
    tmp_path: Path,
) -> None:
    """q and "yes" in the lobby with Bo seated: the table closes for
    everyone, as the question said; nothing is kept to resume."""
    _port, launcher, app, bo = hosting_for_bo(tmp_path / "bo.json")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await seat_bo_in_the_lobby(pilot, bo)
            await pilot.press("q")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="leave?")
            assert "it closes for everyone" in screen_text(app)
            await pilot.press("y")
            await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="start")
            assert "resume" not in offered(app)
        await asyncio.wait_for(next_change(bo, "closed"), 15)
        assert bo.closed_by_host == CLOSE_TABLE_CLOSED
        assert launcher.kept_tables() == []
    finally:
        await bo.close()


async def test_the_app_quit_alone_in_its_lobby_closes_the_table_at_once() -> None:
    """With nobody else seated there is nobody to wait: Ctrl+Q asks
    nothing, and no table is offered at the next start."""
    launcher, app = hosting(free_udp_port())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, timeout=20, what="the app ended")
    assert launcher.kept_tables() == []
    assert not list(tables_dir().glob("*.json.table"))
