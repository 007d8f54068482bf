"""A dedicated host's result box after a player asks for the next game.

A real table on loopback (``NetHost``, no seat of its own: its players ask
for the next game), Ann's real app joined over UDP (``run_test``), Bo a
real client playing as ``threeup join --bot`` does.  Found at a LAN party:
after r, Ann's box went on showing "Next game (r)" as if nothing had been
asked; once the host was gone ("No next game here: …") the button still
showed, and r did nothing; and the note "Asked for the next game" was
still on the status line of the next game's set-up screen.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from app_helpers import (
    lay_by_keys,
    play_by_client,
    play_to_the_end,
    screen_text,
    wait_for,
    wait_for_setup,
    words_shown,
)
from netplay_support import (
    LOOPBACK,
    ClientLog,
    make_client,
    play_bot,
    run_table,
    start_host,
    stop_runner,
)
from textual.pilot import Pilot
from textual.widgets import Button, Static

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.game_over import GameOverScreen
from threeup_tui.app.widgets.status_line import StatusLine
from threeup_tui.bots import GreedyBot
from threeup_tui.launcher import JoinSettings, Launcher
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.host import NetHost
from threeup_tui.table import Table, TableConfig


def footer_words(app: ThreeUpApp) -> str:
    return screen_text(app).splitlines()[-1]


def status_words(app: ThreeUpApp) -> str:
    """What the top screen's status line says now."""
    lines = app.screen.query(StatusLine)
    return lines.first(StatusLine).text if lines else ""


@contextlib.asynccontextmanager
async def at_the_result_box(
    tmp_path: Path, size: tuple[int, int] = (80, 24)
) -> AsyncIterator[tuple[Pilot[int], ThreeUpApp, Table, NetHost, NetClient]]:
    """Ann's app and Bo at a dedicated host's table of two (its runner
    deals the next game once both have asked), game 1 played to Ann's
    result box; Bo has not asked for the next game."""
    table = Table(TableConfig(players=2, seed=5, auto_start=True, takeover_after=600))
    host = await start_host(table)
    runner = await run_table(table)  # the pause before the next game's deal
    bo = make_client((LOOPBACK, host.address[1]), "Bo", tmp_path / "bo-seats.json")
    join = JoinSettings(f"{LOOPBACK}:{host.address[1]}", "Ann")
    app = create_app(Launcher(announce_address="off"), StartSpec(mode="join", join=join))
    try:
        async with app.run_test(size=size, notifications=True) as pilot:
            assert isinstance(app, ThreeUpApp)
            playing = asyncio.ensure_future(play_bot(bo, ClientLog("Bo"), seed=4))
            bot = GreedyBot(3)
            await lay_by_keys(pilot, bot)
            await play_to_the_end(pilot, bot, play_by_client)
            await asyncio.wait_for(playing, 20)
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), 20, "the box")
            yield pilot, app, table, host, bo
    finally:
        await bo.close()
        await host.close()
        await stop_runner(runner)


async def test_once_asked_the_box_says_so_and_with_no_next_game_offers_none(
    tmp_path: Path,
) -> None:
    async with at_the_result_box(tmp_path) as (pilot, app, table, host, _bo):
        ann = next(i for i, seat in enumerate(table.seats) if seat.name == "Ann")
        assert "Next game (r)" in screen_text(app) and "r Next game" in footer_words(app)
        await pilot.press("r")
        await wait_for(pilot, lambda: "Asked ✓" in screen_text(app), 10, "the button's word")
        assert table.rematch_votes == {ann}
        wait = app.screen.query_one("#rematch-wait", Static)
        assert "(1 of 2 asked, you too; waiting for Bo)" in words_shown(app, wait)
        button = app.screen.query_one("#rematch", Button)
        assert button.disabled and app.screen.focused is not button
        shown = screen_text(app)
        assert "Next game (r)" not in shown and "Next game" not in footer_words(app), shown
        await host.close()  # the host gone: no next game here
        await wait_for(pilot, lambda: "No next game here" in screen_text(app), 10, "closed")
        await pilot.pause()
        shown = screen_text(app)
        assert not app.screen.query("#rematch"), shown
        assert "Next game" not in shown and "Asked" not in shown, shown
        assert "Table (t)" in shown and "t Table" in footer_words(app)


async def test_the_ask_is_not_told_on_the_next_games_set_up(tmp_path: Path) -> None:
    """The note about the last game goes as the next one begins."""
    async with at_the_result_box(tmp_path) as (pilot, app, table, _host, bo):
        await pilot.press("r")
        await wait_for(pilot, lambda: "Asked for the next game" in status_words(app), 10, "note")
        bo.rematch()  # Bo asks too: game 2 is dealt at once
        await wait_for_setup(pilot)
        assert table.game_number == 2
        await pilot.pause()
        assert "Asked for the next game" not in status_words(app), status_words(app)
        assert "Asked for the next game" not in screen_text(app)
