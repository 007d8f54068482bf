"""Numbers from a hostile host: finite, but beyond anything a threeup host
sends (a rematch wait of 1e300 s, a game number of 10**18).

The app drew them whole: 301 digits of seconds in the game-over box, a
game "1000000000000000000 of 1000000000000000000" in the lobby.  Every
number a host's snapshot or message carries is bounded as protocol.md
says: beyond it the snapshot or message is dropped as malformed (the
client counts it), and the next good one still comes through.

A real ``net.Server`` on loopback plays the hostile host; the client is
the real ``NetClient``, watching.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from net import Server
from threeup_tui.client.events import (
    ChatReceived,
    GameResult,
    GamesPlayed,
    LobbyChanged,
    Notice,
    TurnClock,
    ViewChanged,
)
from threeup_tui.client.results import result_to_map
from threeup_tui.limits import MAX_GAMES, MAX_TURN_SECONDS, MAX_WAIT_SECONDS
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.wire import (
    MAX_CLOCK_MS,
    MAX_WATCHING,
    ViewDecoder,
    WireError,
    clock_from_wire,
    lobby_from_wire,
    lobby_to_wire,
    played_from_wire,
    view_to_wire,
)
from threeup_tui.rules import GameState, seat_view
from threeup_tui.rules.state import MAX_MOVES, TURN_LIMIT
from threeup_tui.table import Table, TableConfig

HUGE = 10**18

# (key, a value no threeup host sends): each lobby is dropped whole.
HOSTILE_LOBBY: list[tuple[str, Any]] = [
    ("rematch_after", 1e300),
    ("rematch_after", -1.0),
    ("rematch_after", MAX_WAIT_SECONDS + 1.0),
    ("turn_time", 1e300),
    ("turn_time", MAX_TURN_SECONDS + 0.5),
    ("game", HUGE),
    ("game", MAX_GAMES + 1),
    ("games", HUGE),
    ("games", 0),
    ("watching", HUGE),
    ("host_seat", HUGE),
    ("votes", [HUGE]),
    ("options", {"first": HUGE}),
    ("seats", [["x", "bot", False, "greedy"]] * 7),
]

# (a view's key, a value no threeup host sends): each snapshot is dropped.
HOSTILE_VIEW: list[tuple[str, Any]] = [
    ("moves", HUGE),
    ("moves", MAX_MOVES + 1),
    ("turn", HUGE),
    ("turn", TURN_LIMIT + 1),
    ("draw", HUGE),
    ("extra", HUGE),
    ("legal", [HUGE]),
    ("pile", [0] * 75),
]


def good_lobby(marker: str) -> dict[str, Any]:
    """A lobby as our host sends it, told apart by its table's name."""
    return {**lobby_to_wire(Table(TableConfig(players=2)).lobby()), "table": marker}


def good_view(turn: int) -> dict[str, Any]:
    """A spectator's view in play, after ``turn`` turns' worth of the log."""
    state = GameState.new(["ann", "bob"], seed=7)
    for seat in range(2):
        state.choose_face_up(seat, state.setup_hand(seat)[:3])
    return {**view_to_wire(seat_view(state, None)), "turn": turn}


def played_map(**changes: Any) -> dict[str, Any]:
    result = GameResult(
        1, ("ann", "bob"), (("human", None),) * 2, 0, (), False, 40, 12, "first_out"
    )
    return {**result_to_map(result), **changes}


async def dropped(client: NetClient, count: int) -> None:
    """Until the client has dropped ``count`` malformed messages in all."""
    for _ in range(500):
        if client.malformed >= count:
            assert client.malformed == count
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"dropped {client.malformed} malformed messages, not {count}")


async def next_of(client: NetClient, kind: type) -> Any:
    async def first() -> Any:
        while True:
            event = await client.next_event()
            if isinstance(event, kind):
                return event

    return await asyncio.wait_for(first(), 5)


async def test_a_lobby_with_a_number_no_host_sends_is_dropped(
    hostile_host: tuple[Server, int, NetClient],
) -> None:
    server, session_id, client = hostile_host
    for n, (key, bad) in enumerate(HOSTILE_LOBBY, 1):
        server.set_state(session_id, {"lobby": {**good_lobby("bad"), key: bad}, "view": None})
        await dropped(client, n)
        server.set_state(session_id, {"lobby": good_lobby(f"good {n}"), "view": None})
        lobby = (await next_of(client, LobbyChanged)).lobby
        assert lobby.table_name == f"good {n}", (key, bad)  # the bad one never came out


async def test_a_view_clock_chat_or_played_game_no_host_sends_is_dropped(
    hostile_host: tuple[Server, int, NetClient],
) -> None:
    server, session_id, client = hostile_host
    lobby = good_lobby("t")
    n = 0
    for key, bad in HOSTILE_VIEW:
        n += 1
        server.set_state(session_id, {"lobby": lobby, "view": {**good_view(n), key: bad}})
        await dropped(client, n)
        server.set_state(session_id, {"lobby": lobby, "view": good_view(n)})
        assert (await next_of(client, ViewChanged)).view.turn == n, (key, bad)
    for bad_clock in ([0, HUGE], [0, MAX_CLOCK_MS + 1], [HUGE, 1000]):
        n += 1
        server.set_state(session_id, {"lobby": lobby, "view": None, "clock": bad_clock})
        await dropped(client, n)
        server.set_state(session_id, {"lobby": lobby, "view": None, "clock": [1, n]})
        assert (await next_of(client, TurnClock)).remaining == n / 1000, bad_clock
    hostile_messages: list[dict[str, Any]] = [
        {"t": "chat", "seat": HUGE, "name": "x", "text": "bad", "n": 1},
        {"t": "chat", "seat": None, "name": "x", "text": "bad", "n": 2**64 - 1},
        {"t": "played", "games": [played_map(game=HUGE)]},
        {"t": "played", "games": [played_map(moves=HUGE)]},
        {"t": "played", "games": [played_map(turns=TURN_LIMIT + 1)]},
    ]
    for message in hostile_messages:
        n += 1
        server.send(session_id, message)
        await dropped(client, n)
    server.send(session_id, {"t": "played", "games": [played_map(game=MAX_GAMES)]})
    assert (await next_of(client, GamesPlayed)).games[0].number == MAX_GAMES
    server.send(session_id, {"t": "chat", "seat": 1, "name": "bob", "text": "hi", "n": 3})
    line = await next_of(client, ChatReceived)
    assert (line.text, line.seat) == ("hi", 1)  # neither bad line came out before it
    server.send(session_id, {"t": "notice", "text": "still here"})
    assert (await next_of(client, Notice)).text == "still here"


def test_each_bound_is_taken_and_one_beyond_it_is_not() -> None:
    """The bounds protocol.md gives, at their edge: what a threeup host can
    send is taken whole."""
    lobby = good_lobby("t")
    for key, most, beyond in [
        ("rematch_after", MAX_WAIT_SECONDS, MAX_WAIT_SECONDS + 0.001),
        ("turn_time", MAX_TURN_SECONDS, MAX_TURN_SECONDS + 0.001),
        ("game", MAX_GAMES, MAX_GAMES + 1),
        ("games", MAX_GAMES, MAX_GAMES + 1),
        ("watching", MAX_WATCHING, MAX_WATCHING + 1),
    ]:
        lobby_from_wire({**lobby, key: most})
        with pytest.raises(WireError):
            lobby_from_wire({**lobby, key: beyond})
    for key, most, beyond in [("moves", MAX_MOVES, MAX_MOVES + 1), ("turn", 1000, 1001)]:
        ViewDecoder().decode({**good_view(0), key: most})
        with pytest.raises(WireError):
            ViewDecoder().decode({**good_view(0), key: beyond})
    assert clock_from_wire([5, MAX_CLOCK_MS]) == (5, MAX_CLOCK_MS / 1000)
    for clock in ([6, 0], [0, MAX_CLOCK_MS + 1]):
        with pytest.raises(WireError):
            clock_from_wire(clock)
    played = {"t": "played", "games": [played_map(moves=MAX_MOVES, turns=TURN_LIMIT)]}
    assert played_from_wire(played).games[0].moves == MAX_MOVES
