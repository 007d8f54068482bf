"""Your games at a network table: the app of a friend who was away when a
game ended counts it when they come back, from any terminal, once.

A real table and host on loopback (``NetHost``), the friend's first
terminal a real ``NetClient`` that leaves (the take-over bot plays the seat,
D17), then the real app (``run_test``) joining as the same account, and the
history a real SQLite file in the test's own data directory."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

from app_helpers import wait_for
from netplay_support import LOOPBACK, run_table, start_host, stop_runner
from textual.pilot import Pilot

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.game_over import GameOverScreen
from threeup_tui.history import FinishedGame, History, HistoryError
from threeup_tui.launcher import JoinSettings, Launcher
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.host import NetHost
from threeup_tui.rules import Phase
from threeup_tui.table import Table, TableConfig

NAME = "Dan"


def writing(app: ThreeUpApp) -> bool:
    """A history worker of the app is still at work (one is started as the
    game-over view arrives, before the box shows)."""
    return any(w.group == "history" and not w.is_finished for w in app.workers)


def kept_games() -> list[FinishedGame]:
    """The history's games, or none while an app's worker holds the file."""
    try:
        return History().games()
    except HistoryError:
        return []


async def wait_for_table(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(wait(), timeout)


@contextlib.asynccontextmanager
async def a_table(games: int | None = 1, seed: int = 7) -> AsyncIterator[tuple[Table, NetHost]]:
    """Two seats: Dan's, and the table's own bot.  The bot takes Dan's seat
    over at once when he is away (D17)."""
    table = Table(
        TableConfig(players=2, seed=seed, auto_start=True, takeover_after=0.05, games=games)
    )
    table.add_bot(None, "greedy")
    runner = await run_table(table)
    host = await start_host(table)
    try:
        yield table, host
    finally:
        await host.close()
        await stop_runner(runner)


async def dan_sits_down_and_goes(host: NetHost) -> int:
    """Dan's first terminal takes the seat (its token kept in the account's
    state directory, as any client does) and closes: his link is gone."""
    first = NetClient(LOOPBACK, host.address[1], NAME)
    await first.start()
    assert first.seat is not None
    await first.close()
    return first.seat


def dans_app(host: NetHost) -> ThreeUpApp:
    """Dan's app, joining as the same account (a new app, another terminal)."""
    address = f"{LOOPBACK}:{host.address[1]}"
    return create_app(
        Launcher(announce_address="off"), StartSpec("join", join=JoinSettings(address, NAME))
    )


async def over(pilot: Pilot[int], app: ThreeUpApp) -> None:
    await wait_for(
        pilot,
        lambda: (
            app.session is not None
            and app.session.view is not None
            and app.session.view.phase == "over"
            and isinstance(app.screen, GameOverScreen)
        ),
        timeout=30,
        what="the game-over box",
    )


async def until(condition: Callable[[], bool], pilot: Pilot[int], what: str) -> None:
    await wait_for(pilot, condition, timeout=30, what=what)


async def test_a_game_that_ended_while_away_is_counted_when_back_at_its_end_once() -> None:
    """Dan's link dropped just after the deal; the bot played his seat to
    the end.  His app, opened again in another terminal, came back to the
    game-over box and counted nothing ("a game we only saw the end of").
    Now it is counted by its identity (the table id, game 1), and a second
    app of the same account, at the same box, counts it no second time."""
    async with a_table() as (table, host):
        seat = await dan_sits_down_and_goes(host)
        await wait_for_table(lambda: table.state is not None and table.state.phase == Phase.OVER)
        app = dans_app(host)
        async with app.run_test(size=(100, 30)) as pilot:
            await over(pilot, app)
            await until(lambda: len(kept_games()) == 1, pilot, "the game in Dan's history")
        (game,) = kept_games()
        assert (game.table_id, game.game_number, game.my_seat) == (table.table_id, 1, seat)
        assert game.venue == "join" and game.seats[seat].kind == "you"
        assert game.moves == len(table.state.history) if table.state else False
        # The game-over box again, from another app of the account: no second row.
        again = dans_app(host)
        async with again.run_test(size=(100, 30)) as pilot:
            await over(pilot, again)
            await wait_for(pilot, lambda: not writing(again), timeout=10, what="the history kept")
        assert len(kept_games()) == 1
