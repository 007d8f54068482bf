"""A seat belongs to its token, in the lobby too: a player who steps out
before the game and comes back with the same token sits where they sat,
while that seat is still open.  They were sat at the first open seat, a
seat someone else had left, and the one they had went to the next comer.
Real UDP sockets on loopback, a real table file for the resume."""

from __future__ import annotations

import asyncio
from pathlib import Path

from netplay_support import make_client, start_host

from threeup_tui.client.events import LobbyChanged
from threeup_tui.netplay.client import NetClient
from threeup_tui.table import Table, TableConfig, open_table

ANN, BO, CY = "a" * 32, "b" * 32, "c" * 32


def four_seats(tmp_path: Path) -> Table:
    """A lobby of four seats, Ann, Bo and Cy in the first three."""
    table = open_table(TableConfig(players=4, journal=tmp_path / "t.json"))
    for name, token in (("Ann", ANN), ("Bo", BO), ("Cy", CY)):
        table.seat_human(name, token)
    return table


def test_a_player_back_in_the_lobby_gets_the_seat_they_left() -> None:
    table = Table(TableConfig(players=4))
    for name, token in (("Ann", ANN), ("Bo", BO), ("Cy", CY)):
        table.seat_human(name, token)
    table.disconnect(1)  # Bo steps out
    table.disconnect(0)  # then Ann
    assert table.seat_human("Bo", BO) == (1, BO)  # not seat 1 of the two open
    assert table.seat_human("Ann", ANN) == (0, ANN)


def test_a_seat_taken_meanwhile_is_not_given_back() -> None:
    """Only while it is open: a newcomer who took it keeps it, and the one
    back sits at the first open seat."""
    table = Table(TableConfig(players=4))
    for name, token in (("Ann", ANN), ("Bo", BO), ("Cy", CY)):
        table.seat_human(name, token)
    table.disconnect(0)  # Ann steps out
    assert table.seat_human("Dee", "d" * 32)[0] == 0  # Dee takes her seat
    assert table.seat_human("Ann", ANN)[0] == 3


def test_after_a_lobby_resume_each_player_back_gets_their_seat(tmp_path: Path) -> None:
    """The host stopped in the lobby: the table file kept the seats' tokens,
    and the resumed lobby opens them again; each player coming back by
    themselves sits where they sat, whoever is back first."""
    table = four_seats(tmp_path)
    back = Table.resume(tmp_path / "t.json")
    assert [s.kind for s in back.seats] == ["open"] * 4
    assert back.seat_human("Cy", CY)[0] == 2
    assert back.seat_human("Bo", BO)[0] == 1
    assert back.seat_human("Ann", ANN)[0] == 0
    assert table.table_id == back.table_id


async def lobby_seen(client: NetClient) -> None:
    while not isinstance(await client.next_event(), LobbyChanged):
        pass


async def test_a_player_who_runs_join_again_in_the_lobby_sits_where_they_sat(
    tmp_path: Path,
) -> None:
    """Over the network, as a player does it: Bo and then Ann leave the
    lobby (q, or their terminal closed), and Bo runs `threeup join` again
    with the token his account keeps.  He sat at Ann's seat, 1, not his, 2."""
    table = Table(TableConfig(players=4, seed=3, auto_start=True))
    host = await start_host(table)
    tokens = {name: tmp_path / f"{name}.json" for name in ("Ann", "Bo", "Cy")}
    clients = {name: make_client(host.address, name, path) for name, path in tokens.items()}
    again: NetClient | None = None
    try:
        for client in clients.values():
            await client.start()
        assert [c.seat for c in clients.values()] == [0, 1, 2]
        await clients["Bo"].close()
        await clients["Ann"].close()
        for _ in range(200):  # the host hears each goodbye
            if [s.kind for s in table.seats] == ["open", "open", "human", "open"]:
                break
            await asyncio.sleep(0.05)
        assert [s.kind for s in table.seats] == ["open", "open", "human", "open"]
        again = make_client(host.address, "Bo", tokens["Bo"])
        await again.start()
        await asyncio.wait_for(lobby_seen(again), 10)
        assert again.seat == 1
        assert table.seats[1].name == "Bo" and table.seats[0].kind == "open"
    finally:
        for client in [*clients.values(), again]:
            if client is not None:
                await client.close()
        await host.close()


def table_lines(table: Table) -> list[str]:
    return [line.text for line in table.chat_log if line.seat is None]


def test_a_player_back_at_their_lobby_seat_is_told_back_not_new() -> None:
    """Bo back at the seat the table kept for his token was announced as a
    newcomer: "Bo sat down at seat 2".  A newcomer at the seat one left
    still sits down."""
    table = Table(TableConfig(players=4))
    for name, token in (("Ann", ANN), ("Bo", BO), ("Cy", CY)):
        table.seat_human(name, token)
    table.disconnect(1)  # Bo steps out
    table.disconnect(2)  # and Cy
    table.seat_human("Bo", BO)
    table.seat_human("Dee", "d" * 32)  # Cy's seat, to a newcomer
    lines = table_lines(table)
    assert lines[-2:] == ["Bo came back to seat 2", "Dee sat down at seat 3"], lines
    assert lines.count("Bo sat down at seat 2") == 1, lines  # his first coming only
