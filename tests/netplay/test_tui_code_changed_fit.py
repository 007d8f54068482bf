"""Why the connection closed, said whole at 40x15.

A real table on loopback with a room code, Ann's real app joined with it
at 40x15 (``run_test``), game 1 played to her result box; the host stops
between games and the table is resumed on the same port with another
code, as ``host --headless --resume FILE --code b`` does.  Her app,
coming back by itself with the old code, is refused: its status line read
"✖ The connection is closed: the table's room code has changed: jo…",
cut before what to do, while the box above said it whole.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from app_helpers import lay_by_keys, play_by_client, play_to_the_end, wait_for, words_shown
from netplay_support import LOOPBACK, make_table, run_table, start_host, stop_runner

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.game_over import GameOverScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.widgets.status_line import StatusLine
from threeup_tui.bots import GreedyBot
from threeup_tui.launcher import JoinSettings, Launcher
from threeup_tui.netplay.host import NetHost
from threeup_tui.netplay.wire import CLOSE_HOST_STOPPED_BETWEEN_GAMES
from threeup_tui.table import Table

SAID = "the room code has changed: join again with the new one"


def status_shown(app: ThreeUpApp) -> str:
    """The words the top screen's status line shows, as the terminal shows them."""
    line = app.screen.query_one(StatusLine)
    return words_shown(app, line)


async def test_a_new_room_code_is_said_whole_on_the_status_line_at_40x15(
    tmp_path: Path,
) -> None:
    table = make_table(tmp_path, players=2, seed=5, bots=1, code="a")
    journal = table.config.journal
    assert journal is not None
    host = await start_host(table)
    runner = await run_table(table)  # the bot's moves
    port = host.address[1]
    join = JoinSettings(f"{LOOPBACK}:{port}", "Ann", code="a")
    app = create_app(Launcher(announce_address="off"), StartSpec(mode="join", join=join))
    resumed: NetHost | None = None
    try:
        async with app.run_test(size=(40, 15), notifications=True) as pilot:
            assert isinstance(app, ThreeUpApp)
            bot = GreedyBot(3)
            await lay_by_keys(pilot, bot)
            await play_to_the_end(pilot, bot, play_by_client)
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), 20, "the box")
            await stop_runner(runner)
            await host.close(CLOSE_HOST_STOPPED_BETWEEN_GAMES)
            resumed = await NetHost.start(Table.resume(journal, {"code": "b"}), LOOPBACK, port)
            await wait_for(pilot, lambda: SAID in status_shown(app), 20, "the reason, whole")
            shown = status_shown(app)
            assert shown == f"✖ {SAID}", shown  # no "…": nothing cut
            await pilot.press("t")  # the table, under the box: its status line says it too
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), 10, "the table")
            await asyncio.sleep(0.1)
            await pilot.pause()
            assert SAID in status_shown(app) and "…" not in status_shown(app), status_shown(app)
    finally:
        await stop_runner(runner)
        await host.close()
        if resumed is not None:
            await resumed.close()
