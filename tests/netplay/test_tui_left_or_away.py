"""Who left and who is away, as the others read it at the table.

A player who left (D17: gone, the bot plays the seat kept for them) and
one still here whose turns timed out (marked away: the bot plays until
they act) both read "◐ away, greedy bot plays": nobody could tell the
friend who went home from the one who went for a drink.  A real host on
loopback, real clients over UDP, a spectator's real app."""

from __future__ import annotations

import asyncio
from pathlib import Path

from app_helpers import screen_text, wait_for
from netplay_support import (
    LOOPBACK,
    free_udp_port,
    make_client,
    make_table,
    start_host,
    stop_runner,
)

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.launcher import JoinSettings, Launcher
from threeup_tui.table import TableRunner


def row_of(text: str, name: str) -> str:
    """The screen's line that shows ``name``'s seat."""
    rows = [line for line in text.splitlines() if f" {name} ◐" in line]
    assert len(rows) == 1, text
    return rows[0]


async def test_a_player_who_left_is_not_shown_as_one_away(tmp_path: Path) -> None:
    """Bo is here and idle (the turn timer marked him away); Dan closed his
    app (the bot took his seat, D17).  A spectator's table says which, in
    the row's longest form that fits ("Dan ◐ left, greedy bot plays", or
    "Dan ◐ left" beside his cards)."""
    table = make_table(tmp_path, players=3, seed=5, bots=1, takeover_after=0.2)
    table.config.turn_time = 0.3
    table.config.bot_delay = 0.5  # the bots play slowly: the game outlasts the looks
    host = await start_host(table)
    runner = TableRunner(table)
    runner.start()
    bo_client = make_client(host.address, "Bo", tmp_path / "bo.json")
    dan_client = make_client(host.address, "Dan", tmp_path / "dan.json")
    join = JoinSettings(f"{LOOPBACK}:{host.address[1]}", "Sam", watch=True)
    launcher = Launcher(announce_address="off", listen_port=free_udp_port())
    app = create_app(launcher, StartSpec(mode="join", join=join))
    try:
        await bo_client.start()
        await dan_client.start()
        for _ in range(400):
            if table.state is not None:
                break
            await asyncio.sleep(0.05)
        seats = {seat.name: i for i, seat in enumerate(table.seats)}
        await dan_client.close()  # gone: the bot plays his seat after 0.2 s
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(
                pilot,
                lambda: table.seats[seats["Bo"]].away and table.seats[seats["Dan"]].bot is not None,
                timeout=30,
                what="Bo marked away, Dan's seat the bot's",
            )
            table.config.turn_time = None  # no more time-outs: the marks stand still
            await wait_for(
                pilot,
                lambda: (
                    isinstance(app.screen, TableScreen)
                    and " Bo ◐" in screen_text(app)
                    and " Dan ◐" in screen_text(app)
                ),
                timeout=30,
                what="both seats shown played by the bot",
            )
            text = screen_text(app)
            bo, dan = row_of(text, "Bo"), row_of(text, "Dan")
            assert "Bo ◐ away" in bo and "left" not in bo, text
            assert "Dan ◐ left" in dan and "away" not in dan, text
    finally:
        await bo_client.close()
        await stop_runner(runner)
        await host.close()
