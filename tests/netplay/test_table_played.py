"""The "played" message: each new session of a seat is told the seat's last
games, so that one that ended while its player was away reaches their
history.  The table keeps them (bounded, per seat), the wire carries only
what the game-over view showed everyone, and a malformed one is dropped."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from netplay_support import LOOPBACK, start_host

from threeup_tui.client.events import ChatReceived, Event, GameResult, GamesPlayed
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.wire import WireError, played_from_wire, played_to_wire
from threeup_tui.rules import Phase
from threeup_tui.table import RESULTS_KEPT, Table, TableConfig
from threeup_tui.tablefile import table_file_path


def games_told(table: Table, seat: int | None) -> list[GamesPlayed]:
    events: list[Event] = []
    table.subscribe(("test", seat), seat, events.append)
    table.unsubscribe(("test", seat))
    return [e for e in events if isinstance(e, GamesPlayed)]


def play_games_while_away(games: int, journal: Path | None = None) -> tuple[Table, int]:
    """Dan sits down and goes; the take-over bot plays his seat (D17) in
    ``games`` games against the table's bot."""
    table = Table(TableConfig(players=2, seed=11, takeover_after=0.0, journal=journal))
    table.add_bot(None, "greedy")
    seat, _token = table.seat_human("Dan", "d" * 32)
    for _ in range(games):
        table.start(None)
        if table.seats[seat].connected:
            table.disconnect(seat)
        table.check_takeovers()
        while table.step_bot():
            pass
        assert table.state is not None and table.state.phase == Phase.OVER
    return table, seat


def test_a_seat_is_told_its_last_games_when_a_session_takes_it() -> None:
    table, seat = play_games_while_away(RESULTS_KEPT + 2)
    (told,) = games_told(table, seat)
    assert [g.number for g in told.games] == list(range(3, RESULTS_KEPT + 3))
    last = told.games[-1]
    state = table.state
    assert state is not None
    assert last.names == tuple(state.names)
    assert last.winner == state.winner and last.moves == len(state.history)
    assert last.turns == state.turns and last.finish == "first_out"
    # Dan's seat is a person's, finished by the bot for him (D17).
    assert last.kinds[seat] == ("human", "greedy") and last.kinds[1 - seat] == ("bot", "greedy")
    assert games_told(table, None) == []  # a spectator played none
    assert games_told(table, 1 - seat) == []  # a bot seat keeps none
    assert games_told(table, seat) == [told]  # each session is told again: the app counts once


def test_the_message_carries_the_game_over_views_public_facts_only() -> None:
    table, seat = play_games_while_away(1)
    (told,) = games_told(table, seat)
    wire = played_to_wire(told)
    assert wire["t"] == "played"
    (game,) = wire["games"]
    assert set(game) == {"game", "names", "seats", "winner", "places", "stalemate", "moves",
                         "turns", "finish"}  # fmt: skip
    assert played_from_wire(wire) == told


GOOD: dict[str, Any] = {
    "game": 1, "names": ["Dan", "Eve"], "seats": [["human", None], ["bot", "greedy"]],
    "winner": 1, "places": [], "stalemate": False, "moves": 40, "turns": 30, "finish": "first_out",
}  # fmt: skip


@pytest.mark.parametrize(
    "change",
    [
        {"game": 0},
        {"game": "1"},
        {"names": "Dan"},
        {"names": ["Dan"]},
        {"seats": [["human", None]]},
        {"seats": [["person", None], ["bot", None]]},
        {"seats": [["human", None], ["bot", 7]]},
        {"winner": 2},
        {"winner": True},
        {"places": [0, 5]},
        {"stalemate": 0},
        {"moves": -1},
        {"finish": "last_out"},
    ],
)
def test_a_malformed_played_game_is_refused(change: dict[str, Any]) -> None:
    with pytest.raises(WireError):
        played_from_wire({"t": "played", "games": [{**GOOD, **change}]})


@pytest.mark.parametrize("games", [None, "x", [GOOD] * 17, [[1, 2]], [{}]])
def test_a_malformed_played_message_is_refused(games: Any) -> None:
    with pytest.raises(WireError):
        played_from_wire({"t": "played", "games": games})


async def test_a_client_drops_a_malformed_played_message_and_plays_on(
    tmp_path: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A one-line log, never a traceback; the session goes on, and an
    unknown message type (what "played" is to an older client) is ignored."""
    table = Table(TableConfig(players=2))
    host = await start_host(table)
    client = NetClient(LOOPBACK, host.address[1], "Dan")
    try:
        await client.start()
        (peer,) = host.peers.values()
        caplog.set_level(logging.WARNING, logger="threeup.client")
        host.server.send(peer.session_id, {"t": "played", "games": [{**GOOD, "winner": 9}]})
        host.server.send(peer.session_id, {"t": "news-from-the-future", "x": 1})
        table._system("still here")  # a table line after both

        async def heard() -> None:
            while True:
                event = await client.next_event()
                assert not isinstance(event, GamesPlayed)
                if isinstance(event, ChatReceived) and event.text == "still here":
                    return

        await asyncio.wait_for(heard(), 20)
        (line,) = [r.getMessage() for r in caplog.records if "malformed" in r.getMessage()]
        assert "\n" not in line and "played" in line
    finally:
        await client.close()
        await host.close()


def test_a_result_is_a_game_over_views_facts() -> None:
    """GameResult's fields are the view's: no field could hold a card."""
    assert set(GameResult.__dataclass_fields__) == {
        "number", "names", "kinds", "winner", "places", "stalemate", "moves", "turns", "finish"
    }  # fmt: skip


def test_a_resumed_table_still_tells_a_seat_its_last_games(tmp_path: Path) -> None:
    """The principle: a table survives a crash and a resume.  The games
    kept for Dan's next session were in memory only: a host that crashed
    (or was stopped and resumed) before he came back had forgotten them."""
    journal = tmp_path / "party.json"
    table, seat = play_games_while_away(3, journal)
    (before,) = games_told(table, seat)
    resumed = Table.resume(journal)
    assert games_told(resumed, seat) == [before]


def test_a_game_over_in_the_journal_alone_is_kept_for_the_seat_on_resume(
    tmp_path: Path,
) -> None:
    """The table writes the last move to its journal, then keeps the game
    for each seat's next session in its table file: a host killed in
    between (the table file without game 2) forgot it on resume, and Dan,
    back only after the next game began, was never told of it."""
    journal = tmp_path / "party.json"
    table, seat = play_games_while_away(2, journal)
    (before,) = games_told(table, seat)
    path = table_file_path(journal)
    data = json.loads(path.read_text())
    data["seats"][seat]["results"] = data["seats"][seat]["results"][:-1]  # as the kill left it
    path.write_text(json.dumps(data))
    resumed = Table.resume(journal)
    (told,) = games_told(resumed, seat)
    assert [g.number for g in told.games] == [1, 2]
    assert told.games[-1].winner == before.games[-1].winner
    again = json.loads(path.read_text())["seats"][seat]["results"]
    assert [r["game"] for r in again] == [1, 2]  # kept in the file too, for the next resume


def test_a_kept_game_the_table_file_garbles_is_left_out_not_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    journal = tmp_path / "party.json"
    _table, seat = play_games_while_away(2, journal)
    path = table_file_path(journal)
    data = json.loads(path.read_text())
    data["seats"][seat]["results"][0]["winner"] = "Dan"
    path.write_text(json.dumps(data))
    resumed = Table.resume(journal)
    (told,) = games_told(resumed, seat)
    assert [g.number for g in told.games] == [2]
    assert any("left out" in r.getMessage() for r in caplog.records)
