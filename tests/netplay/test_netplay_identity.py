"""A seat belongs to its token: one live session per seat, over real UDP
sockets on loopback.  A token arriving in a new session takes the seat over
and the old session is told why; it does not come back by itself."""

from __future__ import annotations

import asyncio
import secrets
import socket
from pathlib import Path
from typing import Any

import asyncio_dgram
import pytest
from netplay_support import (
    ClientLog,
    RawSeat,
    fingerprint,
    make_client,
    make_table,
    play_bot,
    run_table,
    start_host,
    stop_runner,
    table_record,
    verify_record,
)

from net import Accept, Client, NetConfig, Refuse, Refused
from net.codec import decode, encode
from net.errors import NetError
from net.events import Connected, DisconnectCause, Disconnected, Message
from net.packets import AcceptPacket, ChallengePacket, EchoPacket, HelloPacket, RefusePacket
from threeup_tui.client.events import ConnectionChanged, Notice
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.discovery import decode_announcement
from threeup_tui.netplay.host import WRONG_CODES_ALLOWED, WRONG_CODES_AT_TABLE, NetHost
from threeup_tui.netplay.run import describe_table
from threeup_tui.netplay.wire import (
    CLOSE_REMOVED,
    CLOSE_TAKEN_OVER,
    TABLE_GUESSED,
    TOO_MANY_WRONG_CODES,
    make_hello,
)
from threeup_tui.rules import Move
from threeup_tui.table import Table, TableConfig

TAKEN_OVER = "your seat was taken over from another terminal"


async def _closed_reason(client: Client, timeout: float = 5.0) -> Disconnected:
    async def run() -> Disconnected:
        while True:
            event = await client.next_event()
            if isinstance(event, Disconnected):
                return event

    return await asyncio.wait_for(run(), timeout)


async def _next_notice(client: NetClient, timeout: float = 5.0) -> str:
    """The text of the next notice the client hands its app."""
    while not isinstance(event := await asyncio.wait_for(client.next_event(), timeout), Notice):
        pass
    return event.text


def _seat_sessions(host: NetHost, seat: int) -> list[int]:
    return [p.session_id for p in host.peers.values() if p.seat == seat]


async def test_one_token_from_two_addresses_the_newer_session_takes_the_seat(
    tmp_path: Path,
) -> None:
    table = make_table(tmp_path, players=2, seed=91, bots=1)
    host = await start_host(table, NetConfig())
    runner = await run_table(table)
    token = secrets.token_hex(16)
    first = await RawSeat.join(host, "tia", token)
    second: RawSeat | None = None
    try:
        await first.pump(lambda v: v.moves_played >= 2)
        seat = first.seat
        before = fingerprint(table)
        # The same token in a new hello: its authorisation alone (no await
        # in between, so nothing else can run) stops serving the old
        # session, whose requests are ignored from that moment...
        verdict = host._authorize(("127.0.0.1", 9), make_hello("tia", None, token, False))
        assert isinstance(verdict, Accept) and verdict.payload["seat"] == seat
        assert _seat_sessions(host, seat) == []
        lines = len(table.chat_log)
        host._handle(Message(first.client.session_id, {"t": "chat", "text": "still me"}))
        assert len(table.chat_log) == lines
        # ...and closes it with a reason its player sees.
        gone = await _closed_reason(first.client)
        assert (gone.cause, gone.reason) == (DisconnectCause.PEER_CLOSED, TAKEN_OVER)
        # A real session from another socket (another address) takes the
        # seat from that one in turn (it never finished connecting).
        second = await RawSeat.join(host, "tia", token)
        assert second.seat == seat
        assert _seat_sessions(host, seat) == [second.client.session_id]
        # Whatever the old client still tries to send changes nothing.
        view = first.view
        assert view is not None and view.my_turn
        move = first.bot.choose_move(view)
        with pytest.raises(NetError):
            first.client.send({"t": "move", "at": view.moves_played, "move": move.to_json()})
        await asyncio.sleep(0.2)
        assert fingerprint(table) == before
        assert table.seats[seat].connected and table.seats[seat].bot is None
        # The newer session plays the seat to the end.
        final = await second.pump(lambda v: False, timeout=30)
        assert final.phase == "over"
        verify_record(table_record(table))
    finally:
        await first.client.close()
        if second is not None:
            await second.client.close()
        await stop_runner(runner)
        await host.close()


async def test_a_taken_over_client_says_why_and_does_not_come_back(tmp_path: Path) -> None:
    """Two terminals of one account join as Tia: one token (the account's
    state directory), one seat; the older app shows the reason and stays
    closed (no ping-pong between the two)."""
    table = make_table(tmp_path, players=2, seed=92, bots=1)
    host = await start_host(table, NetConfig())
    runner = await run_table(table)
    store = tmp_path / "account-seats.json"
    older = make_client(host.address, "Tia", store)
    newer = make_client(host.address, "Tia", store)
    log = ClientLog("Tia, newer terminal")
    try:
        await older.start()
        seat = older.seat
        assert seat is not None
        await newer.start()
        assert newer.seat == seat and newer.table_id == older.table_id == table.table_id

        async def closed() -> str:
            while True:
                event = await older.next_event()
                if isinstance(event, ConnectionChanged) and event.state == "closed":
                    return event.detail

        assert await asyncio.wait_for(closed(), 5) == TAKEN_OVER
        await asyncio.sleep(1.5)  # time enough for a reconnect, were there one
        assert older.reconnects == 0

        # Nor does the older promise what it cannot do: a move or a chat line
        # typed there is not sent, and the player is told why (not that it
        # "goes as soon as it can", or to "try again in a moment").
        older.submit(Move.pickup(seat))
        assert await _next_notice(older) == f"not sent: {TAKEN_OVER}"
        older.chat("still here?")
        assert await _next_notice(older) == f"not sent: {TAKEN_OVER}"
        assert len(_seat_sessions(host, seat)) == 1
        await asyncio.wait_for(play_bot(newer, log, started=True), 30)
        assert log.submitted and newer.reconnects == 0
        verify_record(table_record(table))
    finally:
        await older.close()
        await newer.close()
        await stop_runner(runner)
        await host.close()


async def test_a_player_removed_in_the_lobby_loses_the_session_too(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3, seed=93)
    host = await start_host(table, NetConfig())
    raw = await RawSeat.join(host, "gone")
    try:
        table.remove_seat(None, raw.seat)
        gone = await _closed_reason(raw.client)
        assert gone.reason == CLOSE_REMOVED
        assert not _seat_sessions(host, raw.seat)
        late = await RawSeat.join(host, "late")  # the seat is open again for another
        assert late.seat == raw.seat and table.seats[raw.seat].name == "late"
        await late.client.close()
    finally:
        await raw.client.close()
        await host.close()


async def test_guessing_the_room_code_locks_the_address_out(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=2, seed=94, code="sesame")
    host = await start_host(table, NetConfig())
    try:
        for _ in range(WRONG_CODES_ALLOWED):
            hello = make_hello("guesser", secrets.token_hex(4), secrets.token_hex(16), False)
            with pytest.raises(Refused, match="wrong room code"):
                await Client.connect(*host.address, hello)
        right = make_hello("knower", "sesame", secrets.token_hex(16), False)
        with pytest.raises(Refused) as refused:
            await Client.connect(*host.address, right)
        assert refused.value.reason == TOO_MANY_WRONG_CODES
        assert all(seat.kind == "open" for seat in table.seats)
    finally:
        await host.close()


async def test_guessing_from_many_loopback_addresses_is_one_guesser(tmp_path: Path) -> None:
    """Anyone on the host's machine may send from any of 127.0.0.0/8: a
    guesser moving to a new loopback address after every 9 wrong codes
    tried 200 four-digit codes in a fraction of a second and sat down.  The
    loopback addresses share one lock-out."""
    table = make_table(tmp_path, players=2, seed=96, code="4821")
    host = await start_host(table, NetConfig())

    async def join_from(ip: str, code: str) -> str:
        """The REFUSE reason, or "accepted", for a hello sent from ``ip``."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind((ip, 0))
        sock.connect(host.address)
        stream = await asyncio_dgram.from_socket(sock)
        hello = make_hello("guesser", code, secrets.token_hex(16), False)
        try:
            await stream.send(encode(HelloPacket(7, 128, 65536, hello)))
            challenge = decode((await asyncio.wait_for(stream.recv(), 3))[0])
            assert isinstance(challenge, ChallengePacket)
            mac = challenge.cookie_mac
            await stream.send(encode(EchoPacket(7, 128, 65536, hello, challenge.cookie_time, mac)))
            reply = decode((await asyncio.wait_for(stream.recv(), 3))[0])
            assert isinstance(reply, RefusePacket | AcceptPacket)
            return reply.reason if isinstance(reply, RefusePacket) else "accepted"
        finally:
            stream.close()

    try:
        for i in range(WRONG_CODES_ALLOWED):
            assert await join_from(f"127.0.0.{i + 2}", f"{i:04d}") == "wrong room code"
        assert await join_from("127.0.1.1", "4821") == TOO_MANY_WRONG_CODES
        assert all(seat.kind == "open" for seat in table.seats)
    finally:
        await host.close()


async def test_guessing_from_the_addresses_of_one_ipv6_network_is_one_guesser(
    tmp_path: Path,
) -> None:
    """A machine on IPv6 is given a /64: 2**64 addresses to send from.  Each
    counted alone, a guesser moving to a new one after every 9 wrong codes
    tried every four-digit code and sat down.  A global address counts as
    its /64; another /64 is someone else, and on link-local (one /64 for
    the whole LAN) each address is its own.  The host is asked as the
    session layer asks it, so no datagram leaves loopback."""
    table = make_table(tmp_path, players=2, seed=97, code="4821")
    host = await start_host(table, NetConfig())

    def join_from(ip: str, code: str) -> str:
        hello = make_hello("guesser", code, secrets.token_hex(16), False)
        reply = host._authorize((ip, 40000), hello)
        return reply.reason if isinstance(reply, Refuse) else "accepted"

    try:
        for i in range(WRONG_CODES_ALLOWED):
            assert join_from(f"2001:db8:7:1::{i + 1:x}", f"{i:04d}") == "wrong room code"
        assert join_from("2001:db8:7:1:9e:1:2:3", "4821") == TOO_MANY_WRONG_CODES
        for i in range(WRONG_CODES_ALLOWED):
            assert join_from(f"fe80::{i + 1:x}%eth0", f"{i:04d}") == "wrong room code"
        assert join_from("fe80::99%eth0", "4821") == "accepted"  # a neighbour on the LAN
        assert join_from("2001:db8:7:2::1", "4821") == "accepted"  # the next /64
        assert all(seat.kind == "human" for seat in table.seats)
    finally:
        await host.close()


async def test_guessing_from_many_networks_meets_the_tables_own_bound(tmp_path: Path) -> None:
    """Each /64 may give 9 wrong codes a minute, and an IPv6 /48 holds 65,536
    of them (a botnet, more addresses still): counted per sender alone, such
    a guesser tried codes without end (and once 4,096 senders were counted
    the oldest was forgotten).  30 wrong codes a minute from anywhere, and
    only a returning player's token gets past; the room code is still asked
    of them.  Asked as the session layer asks, so no datagram leaves loopback."""
    table = make_table(tmp_path, players=3, seed=98, code="4821")
    host = await start_host(table, NetConfig())

    def join_from(ip: str, code: str, token: str | None = None) -> str:
        hello = make_hello("guesser", code, token or secrets.token_hex(16), False)
        reply = host._authorize((ip, 40000), hello)
        return reply.reason if isinstance(reply, Refuse) else "accepted"

    try:
        ann = secrets.token_hex(16)
        assert join_from("2001:db8:1:1::1", "4821", ann) == "accepted"
        for i in range(WRONG_CODES_AT_TABLE):
            network = f"2001:db8:7:{i // 3:x}"  # 3 wrong codes from each /64
            assert join_from(f"{network}::{i + 1:x}", f"{i:04d}") == "wrong room code"
        assert join_from("2001:db8:7:ff::1", "4821") == TABLE_GUESSED
        assert join_from("192.0.2.7", "4821") == TABLE_GUESSED  # a newcomer waits too
        assert join_from("2001:db8:1:1::1", "0000", ann) == "wrong room code"
        assert join_from("2001:db8:1:1::1", "4821", ann) == "accepted"  # ann comes back
        assert [seat.kind for seat in table.seats] == ["human", "open", "open"]
    finally:
        await host.close()


async def test_the_table_id_travels_in_the_accept_and_the_announcement(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=2, seed=95)
    host = await start_host(table, NetConfig())
    client = make_client(host.address, "ann", tmp_path / "t.json")
    try:
        await client.start()
        assert client.table_id == table.table_id
        heard = decode_announcement(describe_table(table, host.address[1]), "127.0.0.1")
        assert heard is not None and heard.table_id == table.table_id
    finally:
        await client.close()
        await host.close()


async def test_a_different_table_at_the_same_address_is_not_rejoined(tmp_path: Path) -> None:
    """The host is gone and a new table (not a resume) listens on its port:
    the client's seat went with the old table, and it says so."""
    first = Table(TableConfig(players=3, seed=96))
    host = await start_host(first, NetConfig())
    port = host.address[1]
    fast = NetConfig(idle_timeout=1.0, heartbeat_interval=0.2, connect_timeout=1.0)
    client = make_client(host.address, "ann", tmp_path / "t.json", config=fast)
    again: NetHost | None = None
    try:
        await client.start()
        await host.server._engine.shutdown()  # a crash: no CLOSE
        await host.close()
        again = await NetHost.start(Table(TableConfig(players=3)), "127.0.0.1", port)

        async def closed() -> str:
            while True:
                event = await client.next_event()
                if isinstance(event, ConnectionChanged) and event.state == "closed":
                    return event.detail

        reason = await asyncio.wait_for(closed(), 15)
        assert reason.startswith("another table now runs at")
        # Closed for good: a line typed now is not promised for later.
        client.chat("anyone?")
        assert await _next_notice(client) == f"not sent: {reason}"
    finally:
        await client.close()
        if again is not None:
            await again.close()


async def test_a_player_back_from_another_computer_is_told_why_their_seat_does_not_take_them(
    tmp_path: Path,
) -> None:
    """Bob's seat is kept for the token his first computer holds.  Bob
    coming back from another computer (or account), same name, no token,
    read only "the table is full", though the lobby showed his seat waiting
    for him.  The refusal says why and what to do, naming no seat or
    player; a lobby full before its game begins (seats still open as their
    players leave) says only that it is full."""
    table = Table(TableConfig(players=2, seed=97))
    host = await start_host(table, NetConfig())
    bob = make_client(host.address, "Bob", tmp_path / "bob-laptop.json")
    ann = make_client(host.address, "Ann", tmp_path / "ann.json")
    try:
        for client in (bob, ann):
            await client.start()
        early = make_client(host.address, "Cy", tmp_path / "cy.json")
        with pytest.raises(ConnectionRefusedError) as refused:
            await early.start()
        assert str(refused.value) == "the table refused: the table is full"
        table.start(None)
        await bob.close()  # Bob's laptop is gone; his seat waits for him (D17)
        desktop = make_client(host.address, "Bob", tmp_path / "bob-desktop.json")
        with pytest.raises(ConnectionRefusedError) as refused:
            await desktop.start()
        said = str(refused.value)
        assert said == (
            "the table refused: the table is full: a seat waits for the computer that took it"
        )
        assert "Bob" not in said and "seat 1" not in said  # nothing the lobby does not show
        back = make_client(host.address, "Bob", tmp_path / "bob-laptop.json")
        await back.start()  # from the laptop, Bob is back in his seat
        assert back.seat == 0
        await back.close()
    finally:
        for client in (bob, ann):
            await client.close()
        await host.close()


async def test_a_player_back_under_another_name_is_told_which_name_holds_the_seat(
    tmp_path: Path,
) -> None:
    """A seat is kept per table and name: the same account joining a full
    table under a new name (or a typo) is a newcomer, refused, and told the
    name its seat is kept under."""
    table = Table(TableConfig(players=2, seed=97, auto_start=True))  # full once both sit
    host = await start_host(table, NetConfig())
    bobs = tmp_path / "bob-tokens.json"  # one account, every terminal of it
    clients = [
        make_client(host.address, "Bob", bobs),
        make_client(host.address, "Ann", tmp_path / "a"),
    ]
    try:
        for client in clients:
            await client.start()
        await clients[0].close()  # Bob leaves; his seat waits for him (D17)
        robert = make_client(host.address, "Robert", bobs)
        with pytest.raises(ConnectionRefusedError) as refused:
            await robert.start()
        assert str(refused.value) == (
            "the table refused: the table is full"
            " (you sat at this table as Bob: join as Bob for that seat)"
        )
        back = make_client(host.address, "bob", bobs)
        await back.start()
        assert back.seat == 0
        await back.close()
    finally:
        for client in clients:
            await client.close()
        await host.close()


async def test_a_wrong_room_code_is_not_blamed_on_the_name(tmp_path: Path) -> None:
    """The words about the name a seat is kept under go with a full table
    only: after a wrong room code they sent Bob, now "Robert", to join as Bob
    again, which the same wrong code refused once more."""
    table = make_table(tmp_path, players=3, seed=98, code="pizza")
    host = await start_host(table, NetConfig())
    bobs = tmp_path / "bob-tokens.json"
    bob = make_client(host.address, "Bob", bobs, code="pizza")
    try:
        await bob.start()
        await bob.close()
        robert = make_client(host.address, "Robert", bobs, code="pasta")
        with pytest.raises(ConnectionRefusedError) as refused:
            await robert.start()
        assert str(refused.value) == "the table refused: wrong room code"
    finally:
        await bob.close()
        await host.close()


async def test_a_session_superseded_before_it_connected_never_acts(tmp_path: Path) -> None:
    """Two hellos with one token, both accepted before either session is
    connected (two terminals at once): only the later one gets the seat."""
    table = make_table(tmp_path, players=2, seed=97)
    host = await start_host(table, NetConfig())
    token = secrets.token_hex(16)
    hello = make_hello("tia", None, token, False)
    try:
        early, late = ("127.0.0.1", 40001), ("127.0.0.1", 40002)
        assert isinstance(host._authorize(early, hello), Accept)
        assert isinstance(host._authorize(late, hello), Accept)
        host._handle(Connected(111, early, hello))  # the earlier one connects last
        host._handle(Connected(222, late, hello))
        assert _seat_sessions(host, 0) == [222]
    finally:
        await host.close()


async def _closed(client: NetClient, timeout: float) -> str:
    """Why the client closed for good (waits for it)."""

    async def wait() -> str:
        while True:
            event = await client.next_event()
            if isinstance(event, ConnectionChanged) and event.state == "closed":
                return event.detail

    return await asyncio.wait_for(wait(), timeout)


async def test_after_a_host_crash_the_old_terminal_leaves_the_seat_to_the_newer_one(
    tmp_path: Path,
) -> None:
    """The host crashed in the middle of a game and came back (--resume).
    Bob's app was still waiting to notice; meanwhile he joined from another
    terminal of his account, and sat down.  Then the old app reconnected by
    itself with the same token and took the seat back: the terminal he was
    using read "your seat was taken over from another terminal" and stopped
    for good.  The newer terminal keeps the seat; the old one is told."""
    table = make_table(tmp_path, players=2, seed=98)  # starts once both sit
    host = await start_host(table, NetConfig())
    port = host.address[1]
    bobs = tmp_path / "bob-tokens.json"  # one account, both terminals
    noticing = NetConfig(idle_timeout=1.5, heartbeat_interval=0.2, connect_timeout=3.0)
    old = make_client(host.address, "Bob", bobs, config=noticing)
    ann = make_client(host.address, "Ann", tmp_path / "ann.json")
    clients = [old, ann]
    again: NetHost | None = None
    try:
        await old.start()
        await ann.start()
        assert table.state is not None  # the game is dealt: seats wait for their players
        await host.server._engine.shutdown()  # a crash: no CLOSE
        await host.close()
        journal = table.config.journal
        assert journal is not None
        again = await NetHost.start(Table.resume(journal), "127.0.0.1", port)
        new = make_client(("127.0.0.1", port), "Bob", bobs)
        clients.append(new)
        await new.start()  # before the old app notices the crash (1.5 s)
        assert new.seat == old.seat == 0
        reason = await _closed(old, 15)
        assert reason == f"the table refused: {CLOSE_TAKEN_OVER}"
        await asyncio.sleep(0.5)
        holders = [p.address for p in again.peers.values() if p.seat == 0]
        assert len(holders) == 1
        assert new.closed_by_host is None and new._ended is None
        assert again.table.seats[0].connected
    finally:
        for client in clients:
            await client.close()
        if again is not None:
            await again.close()


async def _accept_never_acknowledged(address: tuple[str, int], hello: dict[str, Any]) -> int:
    """A handshake whose ACCEPT the client never got: the host accepts it,
    and hears nothing more from that socket.  Returns the ACCEPT's claim."""
    stream = await asyncio_dgram.connect(address)
    try:
        await stream.send(encode(HelloPacket(7, 128, 65536, hello)))
        # (15 s: a loaded host answers late, and nothing here sends again)
        challenge = decode((await asyncio.wait_for(stream.recv(), 15))[0])
        assert isinstance(challenge, ChallengePacket)
        cookie = (challenge.cookie_time, challenge.cookie_mac)
        await stream.send(encode(EchoPacket(7, 128, 65536, hello, *cookie)))
        accept = decode((await asyncio.wait_for(stream.recv(), 15))[0])
        assert isinstance(accept, AcceptPacket)
        return int(accept.payload["claim"])
    finally:
        stream.close()


async def test_a_reconnect_whose_accept_was_lost_is_not_refused_as_taken_over(
    tmp_path: Path,
) -> None:
    """Tia's app comes back by itself with the claim it held (1).  The host
    accepts that attempt (claim 2) but every ACCEPT is lost, so her app
    tries again with claim 1: it was refused as "taken over from another
    terminal", for good, by a host that counted the lost attempt as a newer
    terminal from its ACCEPT on.  A claim counts once the host has heard
    from its session: before, while the lost attempt's session waits for
    its idle time-out, and after it ended unheard.  A session that was
    heard from (a real client, which acknowledges) does count."""
    quick = NetConfig(idle_timeout=1.0, heartbeat_interval=0.2)
    table = make_table(tmp_path, players=2, seed=99, bots=1)  # starts when Tia sits
    host = await start_host(table, quick)
    hello = make_hello("tia", None, secrets.token_hex(16), False)
    clients: list[Client] = []

    async def come_back(claim: int) -> Client:
        client = await Client.connect(*host.address, {**hello, "claim": claim}, quick)
        clients.append(client)
        return client

    try:
        clients.append(await Client.connect(*host.address, hello, quick))
        assert clients[0].accept_payload["claim"] == 1
        assert await _accept_never_acknowledged(host.address, {**hello, "claim": 1}) == 2
        back = await come_back(1)  # the lost attempt's session is still live
        assert back.accept_payload["claim"] == 3
        earlier = set(host.server.session_ids)
        assert await _accept_never_acknowledged(host.address, {**hello, "claim": 3}) == 4
        (lost,) = set(host.server.session_ids) - earlier
        for _ in range(1000):  # up to 10 s: that one ends (idle 1 s), never heard from
            if lost not in host.server.session_ids:
                break
            await asyncio.sleep(0.01)
        assert lost not in host.server.session_ids, "the unheard session never ended"
        again = await come_back(3)
        assert again.accept_payload["claim"] == 5
        for _ in range(1000):  # up to 10 s: the host hears from it
            if host.server.session_heard(again.session_id):
                break
            await asyncio.sleep(0.01)
        with pytest.raises(Refused) as refused:
            await come_back(3)
        assert refused.value.reason == CLOSE_TAKEN_OVER
        assert table.seats[1].connected
    finally:
        for client in clients:
            await client.close()
        await host.close()


async def test_a_seats_file_that_could_not_be_read_is_told_once_seated(tmp_path: Path) -> None:
    """seats.json, damaged, is moved aside when the next token is kept: its
    player's seats at other tables are then not taken back by themselves.
    That went only to a log the app never shows."""
    table = make_table(tmp_path, players=2, seed=93, bots=1)
    host = await start_host(table, NetConfig())
    seats = tmp_path / "seats.json"
    seats.write_text('{"format": "threeup-seats/1", "tables": {')
    client = make_client(host.address, "tia", seats)
    try:
        await client.start()
        text = await _next_notice(client)
    finally:
        await client.close()
        await host.close()
    assert f"{seats} could not be read; it is kept as seats.json.bad" in text
    assert (tmp_path / "seats.json.bad").read_text().endswith('"tables": {')
