"""A spectator sits down at an open seat without leaving (NetClient.sit_down),
over real UDP sockets on loopback: it asks as a joining player does, with
the hello a join sends, so the table makes every check it makes of a join,
and the seat belongs to the token kept for that name at this table."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from pathlib import Path

from netplay_support import make_client, make_table, start_host
from waiting import until

from threeup_tui.client.events import (
    ChatReceived,
    ConnectionChanged,
    Event,
    LobbyChanged,
    Notice,
    Welcome,
)
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.host import NetHost
from threeup_tui.netplay.tokens import TokenStore
from threeup_tui.netplay.wire import CLOSE_TAKEN_OVER
from threeup_tui.table import Table


async def next_event_that(
    client: NetClient, wanted: Callable[[Event], bool], timeout: float = 10.0
) -> Event:
    """The first event from now on that ``wanted`` accepts."""

    async def look() -> Event:
        while not wanted(event := await client.next_event()):
            pass
        return event

    return await asyncio.wait_for(look(), timeout)


def is_seated(event: Event) -> bool:
    """A Welcome with a seat (a spectator's own came with none)."""
    return isinstance(event, Welcome) and event.seat is not None


def is_refusal(event: Event) -> bool:
    """A sit refused is told as a notice (a line for this client alone)."""
    return isinstance(event, Notice)


async def test_a_spectator_sits_down_with_its_name_and_a_kept_token(tmp_path: Path) -> None:
    """Bob watches a table of three with a seat open, then sits down: the
    seat is his under his name, the spectator's session is gone (nobody
    watches), and the token is kept for Bob at this table, so joining as
    Bob from another terminal gets that very seat back (it takes it over,
    one live session per seat)."""
    table = make_table(tmp_path, players=3, seed=5)
    table.seat_human("Ann", secrets.token_hex(16))
    host = await start_host(table)
    tokens = tmp_path / "seats.json"
    bob = make_client(host.address, "Bob", tokens, watch=True)
    again: NetClient | None = None
    try:
        await bob.start()
        assert bob.seat is None
        await until(lambda: table.watching == 1, "Bob watching", 10)
        assert bob.may_sit_down

        bob.sit_down()
        welcome = await next_event_that(bob, is_seated)
        assert isinstance(welcome, Welcome) and welcome.seat == 1
        assert [(s.name, s.kind, s.connected) for s in table.seats[:2]] == [
            ("Ann", "human", True),
            ("Bob", "human", True),
        ]
        assert bob.seat == 1 and not bob.watch and not bob.may_sit_down
        await until(lambda: table.watching == 0, "the spectator's session closed", 10)
        kept = TokenStore(tokens).token_for(bob.address, "Bob")
        assert kept is not None and table.seat_of_token(kept) == 1

        # Bob's session is a seat's: it chats as seat 2, not as a watcher.
        bob.chat("hello")
        line = await next_event_that(bob, lambda e: isinstance(e, ChatReceived) and not e.old)
        assert isinstance(line, ChatReceived) and line.text == "hello"
        assert (line.seat, line.spectator) == (1, False)

        # The same identity from another terminal: the same seat, taken over.
        again = make_client(host.address, "Bob", tokens)
        await again.start()
        assert again.seat == 1
        closed = await next_event_that(
            bob, lambda e: isinstance(e, ConnectionChanged) and e.state == "closed"
        )
        assert isinstance(closed, ConnectionChanged) and closed.detail == CLOSE_TAKEN_OVER
    finally:
        await bob.close()
        if again is not None:
            await again.close()
        await host.close()


async def test_a_seat_gone_meanwhile_is_told_and_the_spectator_watches_on(
    tmp_path: Path,
) -> None:
    """The last seat went to someone else between Bob seeing it open and
    asking: the table refuses him as it refuses a join ("the table is
    full"), he is told what happened to the seat he saw, and he still
    watches (a chat line said after it reaches him, and the table still
    counts him)."""
    table = make_table(tmp_path, players=2, seed=6)
    table.seat_human("Ann", secrets.token_hex(16))
    host = await start_host(table)
    bob = make_client(host.address, "Bob", tmp_path / "seats.json", watch=True)
    try:
        await bob.start()
        await next_event_that(bob, lambda e: isinstance(e, LobbyChanged))  # a seat open
        await until(lambda: table.watching == 1, "Bob watching", 10)
        table.seat_human("Cy", secrets.token_hex(16))  # the last seat, before Bob asks
        bob.sit_down()
        refused = await next_event_that(bob, is_refusal)
        assert isinstance(refused, Notice)
        assert refused.text == "no seat for you: the last open seat was taken first; you watch on"
        assert bob.seat is None and bob.watch and bob.may_sit_down
        assert table.watching == 1 and [s.name for s in table.seats] == ["Ann", "Cy"]
        table.chat(0, "still there, Bob?")
        line = await next_event_that(bob, lambda e: isinstance(e, ChatReceived) and not e.old)
        assert isinstance(line, ChatReceived) and line.text == "still there, Bob?"
    finally:
        await bob.close()
        await host.close()


async def test_a_spectator_is_named_apart_and_needs_the_room_code_as_a_join_does(
    tmp_path: Path,
) -> None:
    """The seat comes through the table's own checks: at a table with a room
    code, the code the spectator gave goes with the request, and a name
    already seated is told apart ("Ann (2)") as for any newcomer."""
    table = make_table(tmp_path, players=3, seed=7, code="oak")
    table.seat_human("Ann", secrets.token_hex(16))
    host = await start_host(table)
    other = make_client(host.address, "ann", tmp_path / "seats.json", watch=True, code="oak")
    try:
        await other.start()
        other.sit_down()
        welcome = await next_event_that(other, is_seated)
        assert isinstance(welcome, Welcome) and welcome.seat == 1
        assert [s.name for s in table.seats[:2]] == ["Ann", "ann (2)"]
    finally:
        await other.close()
        await host.close()


async def test_a_door_guest_sits_with_its_own_identity_and_no_other(tmp_path: Path) -> None:
    """A client given its seat token by its caller (the SSH door passes the
    token of the guest's key or seat word) sits down with that token, never
    one kept for its name on this machine's account: the seat is the
    identity's, as the door would have seated it."""
    table = make_table(tmp_path, players=3, seed=8)
    host = await start_host(table)
    tokens = tmp_path / "seats.json"
    door_token = secrets.token_hex(16)
    # The host's account sat here as Dee once: that token is not the guest's.
    TokenStore(tokens).remember(
        f"{host.address[0]}:{host.address[1]}", "Dee", table.table_id, secrets.token_hex(16)
    )
    guest = NetClient(
        host.address[0], host.address[1], "Dee", watch=True, token=door_token,
        tokens=TokenStore(tokens),
    )  # fmt: skip
    try:
        await guest.start()
        guest.sit_down()
        welcome = await next_event_that(guest, is_seated)
        assert isinstance(welcome, Welcome) and welcome.seat == 0
        assert table.seat_of_token(door_token) == 0
    finally:
        await guest.close()
        await host.close()


async def watching_a_game_with_my_seat_away(
    tmp_path: Path, tokens: Path
) -> tuple[Table, NetHost, NetClient]:
    """A game of two under way (Ann and a bot), Ann's seat away: she sat
    down with a kept token and left.  She watches it now, from the same
    account (the same seats file)."""
    table = make_table(tmp_path, players=2, seed=11, bots=1)
    host = await start_host(table)
    ann = make_client(host.address, "Ann", tokens)
    await ann.start()
    await until(lambda: table.game_under_way, "the game begun", 10)
    await ann.close()
    await until(lambda: not table.seats[1].connected, "Ann away", 10)
    watcher = make_client(host.address, "Ann", tokens, watch=True)
    await watcher.start()
    await until(lambda: table.watching == 1, "Ann watching", 10)
    return table, host, watcher


async def test_a_spectator_takes_back_the_seat_kept_for_them_mid_game(tmp_path: Path) -> None:
    """Ann left her game and watches it: the client names her kept seat
    (her token is kept for Ann at this table, and Ann's seat is away), and
    sitting down under that name gives her that seat, mid-game, by the
    token: connected again, played by her and not by the bot."""
    tokens = tmp_path / "seats.json"
    table, host, watcher = await watching_a_game_with_my_seat_away(tmp_path, tokens)
    try:
        assert table.seats[1].name == "Ann"  # the bot sat first
        name = watcher.kept_seat(table.lobby())
        assert name == "Ann" and watcher.may_sit_down
        watcher.sit_down(name)
        welcome = await next_event_that(watcher, is_seated)
        assert isinstance(welcome, Welcome) and welcome.seat == 1
        await until(lambda: table.seats[1].connected, "Ann back in her seat", 10)
        await until(lambda: table.watching == 0, "Ann no longer watching", 10)
        assert watcher.seat == 1 and watcher.kept_seat(table.lobby()) is None
    finally:
        await watcher.close()
        await host.close()


async def test_a_seat_not_theirs_is_refused_in_words_though_the_name_matches(
    tmp_path: Path,
) -> None:
    """The seats file holds a token for Ann at this table that is not the
    token of Ann's seat (another Ann's, or a file copied from elsewhere):
    the name points at her seat, but the table goes by the token, refuses,
    and the spectator reads why and watches on; Ann's seat still waits."""
    tokens = tmp_path / "seats.json"
    table, host, watcher = await watching_a_game_with_my_seat_away(tmp_path, tokens)
    try:
        TokenStore(tokens).remember(watcher.address, "Ann", table.table_id, secrets.token_hex(16))
        await watcher.close()
        watcher = make_client(host.address, "Ann", tokens, watch=True)
        await watcher.start()
        lobby = table.lobby()
        assert watcher.kept_seat(lobby) == "Ann"
        watcher.sit_down("Ann")
        refused = await next_event_that(watcher, is_refusal)
        assert isinstance(refused, Notice)
        assert refused.text == "no seat for you: Ann's seat is kept for another token; you watch on"
        assert watcher.seat is None and watcher.watch and watcher.may_sit_down
        assert not table.seats[1].connected
    finally:
        await watcher.close()
        await host.close()


async def test_names_kept_for_another_table_at_that_address_point_at_no_seat(
    tmp_path: Path,
) -> None:
    """A token kept for Ann at an older table that ran at this address
    holds no seat at this one: the client offers none, though an Ann of
    this table is away."""
    tokens = tmp_path / "seats.json"
    table, host, watcher = await watching_a_game_with_my_seat_away(tmp_path, tokens)
    try:
        store = TokenStore(tokens)
        store.remember(watcher.address, "Ann", "an-older-table", secrets.token_hex(16))
        await watcher.close()
        watcher = make_client(host.address, "Ann", tokens, watch=True)
        await watcher.start()
        assert watcher.kept_seat(table.lobby()) is None
    finally:
        await watcher.close()
        await host.close()


async def two_anns_in_a_game(tmp_path: Path, tokens: Path) -> tuple[Table, NetHost, NetClient]:
    """A game of three under way: another account's Ann in seat 1, this
    account's Ann, told apart as "Ann (2)", in seat 2 (playing, from this
    account's seats file), Cy in seat 3."""
    table = make_table(tmp_path, players=3, seed=12)
    table.seat_human("Ann", secrets.token_hex(16))  # another account's Ann
    host = await start_host(table)
    mine = make_client(host.address, "Ann", tokens)
    await mine.start()
    table.seat_human("Cy", secrets.token_hex(16))  # the last seat: the game begins
    await until(lambda: table.game_under_way, "the game begun", 10)
    assert [s.name for s in table.seats] == ["Ann", "Ann (2)", "Cy"] and mine.seat == 1
    return table, host, mine


async def test_a_seat_told_apart_is_offered_back_and_another_anns_is_not(
    tmp_path: Path,
) -> None:
    """This account sat as Ann and the host seated it as "Ann (2)", another
    Ann being there.  Watching from this account, the seat offered back is
    the token's own, "Ann (2)", when it is away; never the other Ann's seat
    when she is away and "Ann (2)" is played from this account's other
    terminal (taking it, the host gave seat 2, and that terminal lost it)."""
    tokens = tmp_path / "seats.json"
    table, host, mine = await two_anns_in_a_game(tmp_path, tokens)
    watcher = make_client(host.address, "Ann", tokens, watch=True)
    try:
        table.disconnect(0)  # the other Ann is away; mine plays on
        await watcher.start()
        await until(lambda: table.watching == 1, "Ann watching", 10)
        assert watcher.kept_seat(table.lobby()) is None

        table.seat_human("Ann", table.seats[0].token)  # she is back
        await mine.close()
        await until(lambda: not table.seats[1].connected, "Ann (2) away", 10)
        name = watcher.kept_seat(table.lobby())
        assert name == "Ann"  # the name the token is kept under
        watcher.sit_down(name)
        welcome = await next_event_that(watcher, is_seated)
        assert isinstance(welcome, Welcome) and welcome.seat == 1
        await until(lambda: table.seats[1].connected, "Ann (2) back in her seat", 10)
    finally:
        await watcher.close()
        await mine.close()
        await host.close()


async def test_a_seat_taken_from_another_terminal_while_watching_is_offered_once_away(
    tmp_path: Path,
) -> None:
    """Ann watches from one terminal; from another of the same account she
    sits down (a token kept for her at this table only now), plays, and
    leaves.  The spectator offers that seat back once it is away: the names
    kept were read when it began watching, before there was any."""
    tokens = tmp_path / "seats.json"
    table = make_table(tmp_path, players=2, seed=13, bots=1)
    host = await start_host(table)
    watcher = make_client(host.address, "Ann", tokens, watch=True)
    other = make_client(host.address, "Ann", tokens)
    try:
        await watcher.start()
        await until(lambda: table.watching == 1, "Ann watching", 10)
        await other.start()
        await until(lambda: table.game_under_way, "the game begun", 10)
        assert watcher.kept_seat(table.lobby()) is None  # her seat is played from there
        await other.close()
        await until(lambda: not table.seats[1].connected, "Ann away", 10)
        await until(lambda: watcher.kept_seat(table.lobby()) == "Ann", "her seat offered", 10)
        watcher.sit_down("Ann")
        welcome = await next_event_that(watcher, is_seated)
        assert isinstance(welcome, Welcome) and welcome.seat == 1
    finally:
        await watcher.close()
        await other.close()
        await host.close()


async def test_asking_at_a_table_seen_full_is_told_in_the_tables_words(tmp_path: Path) -> None:
    """A spectator whose lobby already showed the game begun (no screen
    offers a seat then, but the request is the client's to make) is told
    the table's own words: it saw no seat open to be taken first."""
    table = make_table(tmp_path, players=2, seed=14, bots=1)
    table.seat_human("Ann", secrets.token_hex(16))  # the game begins
    host = await start_host(table)
    bob = make_client(host.address, "Bob", tmp_path / "seats.json", watch=True)
    try:
        await bob.start()
        await next_event_that(bob, lambda e: isinstance(e, LobbyChanged) and e.lobby.started)
        bob.sit_down()
        refused = await next_event_that(bob, is_refusal)
        assert isinstance(refused, Notice)
        assert refused.text == "no seat for you: the table is full; you watch on"
    finally:
        await bob.close()
        await host.close()
