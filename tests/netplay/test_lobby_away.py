"""Who is away is the table's word, carried in LOBBY ``away``, never read
off a bot on a person's seat.

Three seats a bot plays look alike in LOBBY ``seats``: a bot seat, a gone
player's (D17) and one whose turns timed out (marked away: its player is
here, and only a key of theirs gives it back).  The app told "You are away"
from a bot on its own seat; a seat given back to a player who came back
with the bot still on it for a moment would have read as away, and a
stranger's client had only that guess to go on.  A real host on loopback,
real clients over UDP: the player marked away, a spectator."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from netplay_support import make_client, make_table, start_host, stop_runner
from waiting import until

from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.wire import WireError, lobby_from_wire, lobby_to_wire
from threeup_tui.table import Table, TableConfig, TableRunner


def raw_lobby(client: NetClient) -> dict[str, Any]:
    """The LOBBY map this client last received, as the wire carried it."""
    raw = client._lobby_raw
    assert isinstance(raw, dict)
    return raw


async def test_the_lobby_names_the_seat_marked_away_and_not_a_gone_players(
    tmp_path: Path,
) -> None:
    """Bo is here and idle (marked away by the turn timer); Dan left (the
    bot took his seat, D17); seat 1 is a bot.  Bo's own client and a
    spectator's both hear from the host that Bo, and Bo alone, is away."""
    table = make_table(tmp_path, players=3, seed=5, bots=1, takeover_after=0.2)
    table.config.turn_time = 0.3
    table.config.bot_delay = 0.3  # the bots play slowly: the game outlasts the looks
    host = await start_host(table)
    runner = TableRunner(table)
    runner.start()
    tokens = tmp_path / "tokens.json"
    bo = make_client(host.address, "Bo", tokens)
    dan = make_client(host.address, "Dan", tmp_path / "dan-tokens.json")
    spectator = make_client(host.address, "Sam", tmp_path / "sam-tokens.json", watch=True)
    try:
        await bo.start()
        await dan.start()
        await until(lambda: table.state is not None, "the game dealt", 30)
        seats = {seat.name: i for i, seat in enumerate(table.seats)}
        await dan.close()  # gone: the bot plays his seat after 0.2 s
        await spectator.start()
        bo_seat, dan_seat = seats["Bo"], seats["Dan"]
        await until(lambda: table.seats[bo_seat].away, "Bo marked away", 30)
        await until(lambda: table.seats[dan_seat].bot is not None, "Dan's seat the bot's", 30)
        table.config.turn_time = None  # no more time-outs: the marks stand still

        for client in (bo, spectator):
            await until(
                lambda c=client: raw_lobby(c).get("away") == [bo_seat], "the lobby heard", 30
            )
            lobby = client._lobby
            assert lobby is not None
            slots = lobby.seats
            assert slots[bo_seat].away and slots[bo_seat].connected
            # Gone, its seat played by the bot: not away in the table's sense.
            assert slots[dan_seat].bot_level is not None and not slots[dan_seat].connected
            assert not slots[dan_seat].away
            assert not slots[0].away and slots[0].kind == "bot"
    finally:
        for client in (bo, dan, spectator):
            await client.close()
        await stop_runner(runner)
        await host.close()


def test_the_tables_own_lobby_says_who_is_away() -> None:
    """The in-process table (the host's own seat, the SSH door's guests)
    gives the app the same fact, and the wire carries exactly it."""
    now = [1000.0]
    table = Table(TableConfig(players=3, seed=2, turn_time=20.0), lambda: now[0])
    table.seat_human("Ann")  # here, and never acts
    table.seat_human("Bo")
    table.add_bot(None, "greedy")
    table.start(None)
    table.disconnect(1)  # Bo gone: the bot plays his seat (D17), he is not away
    for _ in range(200):
        if table.seats[0].away:
            break
        now[0] += 21
        table.check_timers()
        while table.bot_turn() is not None:
            table.step_bot()
    lobby = table.lobby()
    assert table.seats[1].bot is not None and lobby.seats[1].bot_level is not None
    assert [s.away for s in lobby.seats] == [True, False, False]
    assert lobby_to_wire(lobby)["away"] == [0]
    assert lobby_from_wire(lobby_to_wire(lobby)) == lobby


def wire_lobby(**changes: Any) -> dict[str, Any]:
    """A LOBBY map: Ann here, Bo here with a bot on his seat, a bot seat."""
    table = Table(TableConfig(players=3, seed=2))
    table.seat_human("Ann")
    table.seat_human("Bo")
    table.add_bot(None, "greedy")
    raw = lobby_to_wire(table.lobby())
    raw["seats"][1][3] = "greedy"
    return {**raw, **changes}


def test_a_client_takes_away_from_the_lobby_not_from_a_bot_on_the_seat() -> None:
    assert [s.away for s in lobby_from_wire(wire_lobby(away=[])).seats] == [False] * 3
    assert [s.away for s in lobby_from_wire(wire_lobby(away=[1])).seats] == [False, True, False]
    # A bot seat is never away, whatever a host says.
    assert [s.away for s in lobby_from_wire(wire_lobby(away=[2])).seats] == [False] * 3


def test_a_host_that_sends_no_away_is_read_as_before() -> None:
    """An older host marked an away seat only by a bot on a connected
    person's seat: read so there, and only there."""
    old = wire_lobby()
    del old["away"]
    assert [s.away for s in lobby_from_wire(old).seats] == [False, True, False]


@pytest.mark.parametrize("away", ["1", [3], [-1], [True], [0, 1, 2, 0], {"1": 1}])
def test_a_malformed_away_is_refused(away: Any) -> None:
    with pytest.raises(WireError):
        lobby_from_wire(wire_lobby(away=away))
