"""A game against bots in this process: the player's seat and the start."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from threeup_tui.bots import make_bot
from threeup_tui.chatlimit import MAX_CHARS
from threeup_tui.client.botseat import BotSeat
from threeup_tui.client.events import ActionRejected, ViewChanged, Welcome
from threeup_tui.client.local import bot_game
from threeup_tui.rules import Move, seat_view
from threeup_tui.table import Table


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


@contextlib.asynccontextmanager
async def a_bot_seat() -> AsyncIterator[tuple[BotSeat, Table, list[object]]]:
    """Ann's seat of a two-player game, played by a greedy BotSeat whose
    requests (face-up choice, moves) are kept in a list, not sent."""
    client = bot_game(players=2, seed=5, name="ann", bot_delay=0.0)
    sent: list[object] = []
    client.submit = sent.append  # type: ignore[method-assign]
    client.choose_face_up = sent.append  # type: ignore[method-assign]
    await client.start()
    try:
        yield BotSeat(client, make_bot("greedy", 1)), client.table, sent
    finally:
        await client.close()


async def test_a_bot_seat_acts_once_per_view_and_again_after_a_refusal() -> None:
    """BotSeat (``threeup join --bot``'s loop): one face-up choice, one move
    per own turn however often the same view comes, and a retry after a
    refusal."""
    async with a_bot_seat() as (seat, table, sent):
        state = table.state
        assert state is not None
        setup = seat_view(state, 0)
        seat.on_view(setup)
        seat.on_view(setup)
        assert len(sent) == 1  # the face-up choice, once
        table.choose_face_up(0, sent[0])  # type: ignore[arg-type]
        while not (view := seat_view(state, 0)).my_turn:
            assert table.step_bot()
        seat.on_view(view)
        seat.on_view(view)
        assert len(sent) == 2 and isinstance(sent[1], Move)
        seat.rejected("move")
        seat.on_view(view)
        assert sent[2] == sent[1]


async def test_a_refusal_names_the_request_it_refuses() -> None:
    """In this process as across the network (a host's ``re``): the set-up
    took a chat line refused for its choice refused."""
    client = bot_game(players=2, seed=5, name="ann", bot_delay=0.0)
    await client.start()
    try:
        state = client.table.state
        assert state is not None
        client.chat("x" * (MAX_CHARS + 1))
        client.choose_face_up(["X9", "R1", "R2"])
        refused = []
        while len(refused) < 2:
            event = await asyncio.wait_for(client.next_event(), 2)
            if isinstance(event, ActionRejected):
                refused.append(event)
        assert [event.request for event in refused] == ["chat", "setup"], refused
        assert state.setup[0] is None
    finally:
        await client.close()


@pytest.mark.parametrize(
    ("refused", "chooses_again", "moves_again"),
    [
        ("chat", False, False),
        ("here", False, False),
        ("setup", True, False),
        ("move", False, True),
        (None, True, True),  # a host older than "re": it may be the bot's own
    ],
)
async def test_a_bot_seat_acts_again_only_when_its_own_request_was_refused(
    refused: str | None, chooses_again: bool, moves_again: bool
) -> None:
    """``join --bot`` took any refusal for its own: a refused ``here`` or
    chat line made it send its choice or its move a second time.  Only its
    own request refused (or one it cannot tell, as the app does) is tried
    again."""
    async with a_bot_seat() as (seat, table, sent):
        state = table.state
        assert state is not None
        setup = seat_view(state, 0)
        seat.on_view(setup)
        seat.rejected(refused)
        seat.on_view(setup)
        assert len(sent) == (2 if chooses_again else 1), sent
        table.choose_face_up(0, sent[0])  # type: ignore[arg-type]
        while not (view := seat_view(state, 0)).my_turn:
            assert table.step_bot()
        seat.on_view(view)
        before = len(sent)
        seat.rejected(refused)
        seat.on_view(view)
        assert len(sent) == before + (1 if moves_again else 0), sent
