"""Bo's app at a table on loopback, when Bo takes his seat over from another
terminal (``threeup join`` again, the same account): the first app's screen
says what happened to it, and no word of it says the table closed, for
the table plays on with Bo in it."""

from __future__ import annotations

from pathlib import Path

from app_helpers import screen_text, wait_for, words_shown
from netplay_support import LOOPBACK, free_udp_port, make_table, start_host

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.widgets.chat import ChatPane
from threeup_tui.launcher import JoinSettings, Launcher
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.tokens import TokenStore


async def test_a_seat_taken_over_is_not_said_to_be_a_closed_table(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=2, seed=21, bots=1)
    host = await start_host(table)
    join = JoinSettings(f"{LOOPBACK}:{host.address[1]}", "Bo")
    app = create_app(
        Launcher(announce_address="off", listen_port=free_udp_port()),
        StartSpec(mode="join", join=join),
    )
    newer: NetClient | None = None
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            assert isinstance(app, ThreeUpApp)
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, SetupScreen),
                timeout=20,
                what="Bo seated, the game begun",
            )
            # The same account joins again from another terminal: its token.
            newer = NetClient(LOOPBACK, host.address[1], "Bo", tokens=TokenStore())
            await newer.start()
            await wait_for(
                pilot,
                lambda: app.session is not None and app.session.connection == "closed",
                timeout=20,
                what="the first app's connection closed",
            )

            def chat_box() -> str:
                return words_shown(app, app.screen.query_one(ChatPane))

            await wait_for(
                pilot,
                lambda: "connection is closed" in chat_box(),
                what="the chat box saying why nothing can be sent",
            )
            assert "taken over" in screen_text(app)  # the reason, as the host gave it
            assert "table is closed" not in screen_text(app), screen_text(app)
            bo = next(seat for seat in table.seats if seat.name == "Bo")
            assert bo.connected  # the table plays on, Bo in his seat
    finally:
        if newer is not None:
            await newer.close()
        await host.close()
