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

from app_helpers import wait_for, writing
from netplay_support import LOOPBACK, run_table, start_host, stop_runner
from textual.pilot import Pilot

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.game_over import GameOverScreen
from threeup_tui.bots import make_bot
from threeup_tui.client.botseat import BotSeat
from threeup_tui.client.events import ViewChanged
from threeup_tui.history import FinishedGame, History, HistoryError, SeatEntry
from threeup_tui.launcher import JoinSettings, Launcher
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.host import NetHost
from threeup_tui.rules import Phase
from threeup_tui.table import Table, TableConfig

NAME = "Dan"


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
async def a_table(
    games: int | None = 1, bots: int = 1, seed: int = 7
) -> AsyncIterator[tuple[Table, NetHost]]:
    """Two seats: Dan's, and the table's own bot (or, with ``bots=0``, a
    friend's).  The bot takes Dan's seat over at once when he is away (D17)."""
    table = Table(
        TableConfig(players=2, seed=seed, auto_start=True, takeover_after=0.05, games=games)
    )
    for _ in range(bots):
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
        assert game.venue == "join"
        assert game.seats[seat] == SeatEntry(NAME, "you", "greedy")  # the bot finished it for him
        assert game.moves == len(table.state.history) if table.state else False
        # The game-over box again, from another app of the account: no second row.
        again = dans_app(host)
        async with again.run_test(size=(100, 30)) as pilot:
            await over(pilot, again)
            await wait_for(pilot, lambda: not writing(again), timeout=10, what="the history kept")
        assert len(kept_games()) == 1


async def eve_plays_the_first_game(eve: NetClient) -> None:
    """Eve, a person (her moves a bot's): she keeps the table playing while
    Dan is away (she asks for the next game; a network bot would not deal
    one while his seat waits), and plays the first game only: the second
    waits for her set-up, so that it cannot end before Dan is back."""
    seat = BotSeat(eve, make_bot("greedy", 3))
    ended = False
    while True:
        event = await eve.next_event()
        if isinstance(event, ViewChanged):
            if not ended and event.view.phase == "over":
                ended = True
                eve.rematch()
            if not ended:
                seat.on_view(event.view)


async def test_a_game_that_ended_while_away_reaches_the_app_after_the_next_game_began() -> None:
    """Dan was away when game 1 ended, and game 2 began before he came back
    (Eve was there, and asked for it): his app saw only game 2, and game 1 was in
    no history.  Now the host tells each new session of a seat its last
    games ("played"), and the app counts those it does not hold: game 1 is
    counted when Dan is back, once, however often he comes back."""
    async with a_table(games=None, bots=0) as (table, host):
        eve = NetClient(LOOPBACK, host.address[1], "Eve")
        await eve.start()
        playing = asyncio.create_task(eve_plays_the_first_game(eve))
        try:
            seat = await dan_sits_down_and_goes(host)
            await wait_for_table(lambda: table.game_number == 2)
            for app in (dans_app(host), dans_app(host)):  # back, and back from another terminal
                async with app.run_test(size=(100, 30)) as pilot:
                    await until(lambda: len(kept_games()) == 1, pilot, "game 1 in Dan's history")
                    await pilot.pause(0.3)
                    await wait_for(pilot, lambda: not writing(pilot.app), what="the history kept")
                assert table.game_number == 2  # he was back in the second game
            (game,) = kept_games()
            assert (game.table_id, game.game_number, game.my_seat) == (table.table_id, 1, seat)
            assert game.venue == "join" and game.players == 2
            assert game.seats[seat].kind == "you"
            assert game.seats[1 - seat] == SeatEntry("Eve", "human", None)
        finally:
            playing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await playing
            await eve.close()
