"""A game against bots in this process: the player's seat and the start."""

from __future__ import annotations

import asyncio

from threeup_tui.client.events import ViewChanged, Welcome
from threeup_tui.client.local import bot_game


async def test_the_player_sits_in_seat_one_and_the_bots_after() -> None:
    client = bot_game(players=4, seed=3, name="ann", bot_delay=0.0)
    await client.start()
    try:
        welcome = await asyncio.wait_for(client.next_event(), 2)
        assert isinstance(welcome, Welcome) and welcome.seat == 0
        seats = client.table.seats
        assert [s.kind for s in seats] == ["human", "bot", "bot", "bot"]
        assert seats[0].name == "ann"
        while True:  # the game starts by itself once everyone is seated
            event = await asyncio.wait_for(client.next_event(), 2)
            if isinstance(event, ViewChanged):
                assert event.view.seat == 0 and event.view.names[0] == "ann"
                assert len(event.view.hand) == 6  # set-up: the six cards to choose from
                break
    finally:
        await client.close()
