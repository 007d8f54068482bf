"""Who may sit where and do what: room codes, seat tokens, hijack attempts,
moves for another seat, and rejections that carry the engine's reason."""

from __future__ import annotations

import asyncio
import copy
import logging
import secrets
from pathlib import Path

import asyncio_dgram
import pytest
from netplay_support import (
    ClientLog,
    RawSeat,
    check_client_against_record,
    expected_views,
    fingerprint,
    make_client,
    make_table,
    play_bot,
    pump_until_one_is_to_act,
    run_table,
    start_host,
    stop_runner,
    table_record,
    verify_record,
)

from net import Accept, Client, NetConfig, Refuse, Refused
from net.codec import decode, encode, encode_message
from net.packets import (
    EMPTY_ACK,
    ChallengePacket,
    ClosePacket,
    DataFrame,
    RefusePacket,
    SessionPacket,
)
from net.testing import QUICK_CONFIG
from threeup_tui.client.events import ActionRejected, ConnectionChanged, Lobby, LobbyChanged
from threeup_tui.netplay import host as netplay_host
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.host import MAX_WATCHERS_PER_IP, WATCHER_QUEUE_BYTES
from threeup_tui.netplay.wire import (
    TOO_MANY_WATCHERS,
    TOO_MANY_WATCHERS_HERE,
    WireError,
    make_hello,
    parse_hello,
)
from threeup_tui.rules import Move, RulesError
from threeup_tui.table import Table


async def _rejection(client: NetClient, timeout: float = 3.0) -> str:
    async def run() -> str:
        while True:
            event = await client.next_event()
            if isinstance(event, ActionRejected):
                return event.reason

    return await asyncio.wait_for(run(), timeout)


async def _lobby(client: NetClient) -> Lobby:
    while True:
        event = await client.next_event()
        if isinstance(event, LobbyChanged):
            return event.lobby


async def _closed(client: NetClient, timeout: float = 5.0) -> str:
    async def run() -> str:
        while True:
            event = await client.next_event()
            if isinstance(event, ConnectionChanged) and event.state == "closed":
                return event.detail

    return await asyncio.wait_for(run(), timeout)


def _engine_reason(table: Table, move: Move) -> str:
    state = copy.deepcopy(table.state)
    assert state is not None
    with pytest.raises(RulesError) as info:
        state.apply_move(move)
    return str(info.value)


GOOD_HELLO = {"game": "threeup", "v": 1, "name": "ann", "code": None, "token": "t" * 32,
              "watch": False}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"game": "chess"}, "not a threeup client"),
        ({"v": 2}, "this table speaks protocol 1, not 2"),
        ({"v": 1.0}, "this table speaks protocol 1, not 1.0"),  # not an integer
        ({"v": True}, "this table speaks protocol 1, not True"),  # bool is not an integer
        ({"name": 5}, "a name is a short string"),
        ({"code": "x" * 401}, "a room code is a short string"),
        ({"token": "t" * 15}, "a seat token is a string of 16 to 128 characters"),
        ({"watch": 1}, "watch is true or false"),
        ({"bot": 5}, "a bot level is a string of 1 to 32 characters"),
        ({"bot": "x" * 33}, "a bot level is a string of 1 to 32 characters"),
        ({"bot": ""}, "a bot level is a string of 1 to 32 characters"),
        ({"claim": -1}, "a claim is a whole number, 0 or more"),
        ({"claim": True}, "a claim is a whole number, 0 or more"),
        ({"claim": "3"}, "a claim is a whole number, 0 or more"),
    ],
)
def test_a_malformed_hello_is_refused_with_the_documented_reason(
    change: dict[str, object], reason: str
) -> None:
    """docs/protocol.md, "Joining: the order of checks and the refusals"."""
    with pytest.raises(WireError) as info:
        parse_hello({**GOOD_HELLO, **change})
    assert str(info.value) == reason
    assert parse_hello(GOOD_HELLO) == ("ann", None, "t" * 32, False)
    assert parse_hello({**GOOD_HELLO, "bot": "expert"}) == ("ann", None, "t" * 32, False)
    assert parse_hello({**GOOD_HELLO, "claim": 3}) == ("ann", None, "t" * 32, False)


async def test_hellos_of_other_protocols_are_counted_and_logged_as_one_reason(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A hello chooses its ``v``, and the reason quotes it: keyed by the
    reason, 1,500 hellos with a different kilobyte-long ``v`` each kept
    1.3 MB of counts for good and logged 1,500 lines of 900 characters."""
    table = make_table(tmp_path, players=2, seed=82)
    host = await start_host(table, NetConfig())
    try:
        with caplog.at_level(logging.INFO, logger="threeup.host"):
            for v in (2, 3, "x" * 700, [1] * 50):
                hello = {**GOOD_HELLO, "v": v}
                with pytest.raises(Refused) as info:
                    await Client.connect(*host.address, hello, QUICK_CONFIG)
                assert info.value.reason.startswith("this table speaks protocol 1, not ")
                assert len(info.value.reason) <= 80
        assert host.stats.refused_hellos == {"this table speaks protocol 1, not V": 4}
        logged = [r.getMessage() for r in caplog.records if "refused a join" in r.getMessage()]
        assert len(logged) == 1, logged
        assert logged[0].endswith("this table speaks protocol 1, not 2")
    finally:
        await host.close()


async def test_a_hello_nested_too_deep_to_show_is_refused_as_another_protocol(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """msgpack unpacks values nested up to 1,024 deep, and a hello's `v`
    fits 1,000 in its ECHO: quoting it in the refusal (its repr) raised
    RecursionError inside authorize, so each such ECHO, sent again and
    again, was refused with `internal server error` and logged a traceback
    (18 lines), around the host's one line a minute per refusal."""
    table = make_table(tmp_path, players=2, seed=82)
    host = await start_host(table, NetConfig())
    deep = b"\x91" * 1000 + b"\xc0"  # [[[...[nil]...]]]
    hello = b"\x82" + encode_message("game") + encode_message("threeup")
    hello += encode_message("v") + deep
    nonce = encode_message(77) + encode_message(128) + encode_message(65536)

    def padded(head: bytes, fields: int) -> bytes:
        head = bytes([0x90 | fields]) + head
        pad = 1200 - len(head) - 3
        return head + b"\xc5" + pad.to_bytes(2, "big") + bytes(pad)

    peer = await asyncio_dgram.connect(host.address)
    try:
        with caplog.at_level(logging.INFO):
            await peer.send(padded(b"\x01\x01" + nonce + hello, 7))
            challenge = decode((await asyncio.wait_for(peer.recv(), 3))[0])
            assert isinstance(challenge, ChallengePacket)
            cookie = encode_message(challenge.cookie_time) + encode_message(challenge.cookie_mac)
            echo = padded(b"\x03\x01" + nonce + hello + cookie, 9)
            for _ in range(3):
                await peer.send(echo)
                refusal = decode((await asyncio.wait_for(peer.recv(), 3))[0])
                assert isinstance(refusal, RefusePacket)
                assert refusal.reason == (
                    "this table speaks protocol 1, not a list nested too deep to show"
                )
        assert host.stats.refused_hellos == {"this table speaks protocol 1, not V": 3}
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        peer.close()
        await host.close()


async def test_a_wrong_room_code_is_refused_with_a_clear_reason(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=2, seed=81, code="sesame")
    host = await start_host(table, NetConfig())
    try:
        for code in ("wrong", None, "SESAME", "sesame "):
            client = make_client(host.address, "guesser", tmp_path / "g.json", code=code)
            # (the table's reason is the same; to one who gave no code the
            # client says what is missing, not that it was wrong)
            said = "wrong room code" if code else "asks for a room code, and none was given"
            with pytest.raises(ConnectionRefusedError, match=said):
                await client.start()
        assert host.stats.refused_hellos == {"wrong room code": 4}
        assert all(seat.kind == "open" for seat in table.seats)
        right = make_client(host.address, "knower", tmp_path / "k.json", code="sesame")
        await right.start()
        assert right.seat == 0
        await right.close()
    finally:
        await host.close()


async def test_a_rejected_action_comes_back_with_the_engines_reason(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=2, seed=82, bots=1)
    host = await start_host(table, NetConfig())
    runner = await run_table(table)
    client = make_client(host.address, "player", tmp_path / "p.json")
    log = ClientLog("player")
    try:
        await asyncio.wait_for(
            play_bot(
                client, log, until=lambda v: v.moves_played >= 3 and v.draw_reason is not None
            ),
            20,
        )
        view = client.view
        assert view is not None and view.my_turn
        seat = view.seat
        assert seat is not None
        before = fingerprint(table)
        held = set(view.hand) | set(view.seats[seat].face_up)
        missing = next(c for c in ("R1", "G1", "B1", "R2", "G2", "B2", "R3", "G3") if c not in held)
        illegal = [
            Move.play(seat, (missing,)),
            Move.draw(seat),
            Move.play(seat, ()),
        ]
        if view.can_pickup():
            illegal.append(Move.flip(seat, 0))
        else:
            illegal.append(Move.pickup(seat))
        for move in illegal:
            expected = _engine_reason(table, move)
            client.submit(move)
            assert await _rejection(client) == expected
        assert fingerprint(table) == before
        assert host.stats.rejected_requests == len(illegal)
        # The game goes on after the rejections and ends normally.
        await asyncio.wait_for(play_bot(client, log, started=True), 30)
        record = table_record(table)
        verify_record(record)
        # Only the legal moves the client sent are in the record.
        legal_sent = [(at, m) for at, m in log.submitted]
        assert [i for i, m in enumerate(record.moves) if m.seat == seat] == [
            at for at, _ in legal_sent
        ]
    finally:
        await client.close()
        await stop_runner(runner)
        await host.close()


async def test_no_seat_without_its_token(tmp_path: Path) -> None:
    """A client without a seat's token never gets that seat: it gets another
    open seat, or is refused once the game has started."""
    table = make_table(tmp_path, players=3, seed=83)
    host = await start_host(table, NetConfig())
    runner = await run_table(table)
    alice = make_client(host.address, "alice", tmp_path / "alice.json")
    impostor = make_client(host.address, "alice", tmp_path / "impostor.json")
    bob = make_client(host.address, "bob", tmp_path / "bob.json")
    clients = [alice, impostor, bob]
    logs = [ClientLog("alice"), ClientLog("impostor"), ClientLog("bob")]
    tasks: list[asyncio.Task[ClientLog]] = []
    try:
        await alice.start()
        alice_token = table.seats[alice.seat].token  # type: ignore[index]
        await impostor.start()  # same name, different token
        assert impostor.seat is not None and impostor.seat != alice.seat
        assert table.seats[alice.seat].token == alice_token  # type: ignore[index]
        # Two players, one name: told apart, never merged.
        assert table.seats[impostor.seat].name == "alice (2)"
        await bob.start()  # the table is full: the game starts
        assert table.state is not None
        for name in ("alice", "eve"):
            late = make_client(host.address, name, tmp_path / f"late-{name}.json")
            with pytest.raises(ConnectionRefusedError, match="the table is full"):
                await late.start()
        # The same token again (alice's own token store, another terminal)
        # is alice's seat, and takes it over: the first session is told.
        again = make_client(host.address, "alice", tmp_path / "alice.json")
        clients.append(again)  # closed at the end with the others
        await again.start()
        assert again.seat == alice.seat
        closed = await _closed(alice)
        assert closed == "your seat was taken over from another terminal"
        playing = [again, impostor, bob]
        tasks = [
            asyncio.ensure_future(play_bot(c, log, seed=i, started=True))
            for i, (c, log) in enumerate(zip(playing, logs, strict=True))
        ]
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
        record = table_record(table)
        verify_record(record)
        expected = expected_views(record)
        for log in logs:
            check_client_against_record(log, record, expected)
    finally:
        for task in tasks:
            task.cancel()
        for client in clients:
            await client.close()
        await stop_runner(runner)
        await host.close()


async def test_spoofed_datagrams_and_moves_for_another_seat_do_nothing(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=2, seed=84)
    host = await start_host(table, NetConfig())
    first = await RawSeat.join(host, "first")
    second = await RawSeat.join(host, "second")
    spectator = make_client(host.address, "watcher", tmp_path / "w.json", watch=True)
    await spectator.start()
    sock = await asyncio_dgram.connect(host.address)
    try:
        mover, other = await pump_until_one_is_to_act(first, second, lambda v: v.moves_played >= 6)
        view = mover.view
        assert view is not None and view.my_turn
        m = view.moves_played
        legal = mover.bot.choose_move(view)
        request = {"t": "move", "at": m, "move": legal.to_json()}
        before = fingerprint(table)
        stats = host.server.stats
        wrong_address = stats.dropped["wrong_address"]

        # The other seat sends the mover's legal move, in its own session.
        other.client.send(request)
        rejected = await other.wait_message("rejected")
        assert rejected["reason"] == "you can only move for your own seat"
        # A spectator tries the same.
        spectator.submit(legal)
        assert await _rejection(spectator) == "spectators watch; they do not play"
        # A third socket sends it inside datagrams carrying the mover's
        # session id, for every plausible sequence number, then a CLOSE.
        mover_id = mover.client.session_id
        chunk = encode_message(request)
        spoofed = [
            encode(SessionPacket(mover_id, EMPTY_ACK, (DataFrame(seq, True, chunk),)))
            for seq in range(64)
        ]
        spoofed.append(encode(ClosePacket(mover_id, "spoofed close")))
        for data in spoofed:
            await sock.send(data)
            await asyncio.sleep(0.001)
        for _ in range(200):
            if stats.dropped["wrong_address"] >= wrong_address + len(spoofed):
                break
            await asyncio.sleep(0.01)
        assert stats.dropped["wrong_address"] == wrong_address + len(spoofed)
        await asyncio.sleep(0.1)
        assert fingerprint(table) == before
        assert mover_id in host.server.session_ids
        assert all(seat.connected for seat in table.seats)

        # The rightful player moves; the game goes on to its end.
        final = await asyncio.wait_for(
            asyncio.gather(mover.pump(lambda v: False), other.pump(lambda v: False)), 30
        )
        assert all(v.phase == "over" for v in final)
        record = table_record(table)
        verify_record(record)
        assert record.moves[m].seat == mover.seat
        assert host.stats.rejected_requests == 2
    finally:
        sock.close()
        await spectator.close()
        await first.client.close()
        await second.client.close()
        await host.close()


async def test_a_spectator_is_told_the_table_keeps_its_chat_to_the_players(
    tmp_path: Path,
) -> None:
    """--no-spectator-chat reaches a spectator in the lobby (so its app
    offers no chat box it cannot use), and its line is still refused."""
    for allowed in (True, False):
        table = make_table(tmp_path / str(allowed), players=2, seed=85, bots=1)
        table.config.spectator_chat = allowed
        host = await start_host(table, NetConfig())
        spectator = make_client(host.address, "watcher", tmp_path / f"w{allowed}.json", watch=True)
        try:
            await spectator.start()

            assert (await asyncio.wait_for(_lobby(spectator), 3)).spectator_chat is allowed
            if not allowed:
                spectator.chat("hello?")
                assert await _rejection(spectator) == "spectators cannot chat at this table"
        finally:
            await spectator.close()
            await host.close()


async def test_spectators_from_one_address_cannot_crowd_out_the_players(tmp_path: Path) -> None:
    """Spectators need no token.  1,024 of them, from one machine's ports,
    filled the session layer: every later hello got `server full`, a seated
    player's reconnect too (and its client gave the seat up for good).  One
    address other than this machine's may hold MAX_WATCHERS_PER_IP: the host
    is asked as the session layer asks it, and no datagram leaves loopback."""
    table = make_table(tmp_path, players=2, seed=87, bots=1)
    host = await start_host(table, NetConfig())

    def watch(address: tuple[str, int]) -> object:
        return host._authorize(address, make_hello("w", None, secrets.token_hex(16), True))

    try:
        lan = [("192.0.2.7", 40000 + i) for i in range(MAX_WATCHERS_PER_IP + 1)]
        assert all(isinstance(watch(a), Accept) for a in lan[:-1])
        refused = watch(lan[-1])
        assert isinstance(refused, Refuse) and refused.reason == TOO_MANY_WATCHERS_HERE
        assert isinstance(watch(lan[0]), Accept)  # the same port again: it replaces its session
        assert isinstance(watch(("192.0.2.8", 40000)), Accept)  # another machine
        assert isinstance(watch(("::ffff:192.0.2.8", 40001)), Accept)
        # An IPv6 machine sends from any address of its /64: that is one address.
        v6 = [(f"2001:db8:5:6::{i + 1:x}", 40000) for i in range(MAX_WATCHERS_PER_IP + 1)]
        assert all(isinstance(watch(a), Accept) for a in v6[:-1])
        refused = watch(v6[-1])
        assert isinstance(refused, Refuse) and refused.reason == TOO_MANY_WATCHERS_HERE
        assert isinstance(watch(("2001:db8:5:7::1", 40000)), Accept)  # the next /64
        player = make_client(host.address, "ann", tmp_path / "a.json")
        await player.start()
        assert player.seat == 1
        await player.close()
    finally:
        await host.close()


async def test_a_spectator_holds_a_small_send_queue_and_a_player_the_whole(
    tmp_path: Path,
) -> None:
    """256 spectators that never acknowledge could pin a MiB of chat each: a
    spectator's session gets WATCHER_QUEUE_BYTES, a seat's the config's."""
    table = make_table(tmp_path, players=2, seed=84, bots=1)
    host = await start_host(table, NetConfig())
    try:
        watcher = host._authorize(("127.0.0.1", 40001), make_hello("w", None, "t" * 32, True))
        player = host._authorize(("127.0.0.1", 40002), make_hello("p", None, "u" * 32, False))
        assert isinstance(watcher, Accept) and isinstance(player, Accept)
        assert watcher.payload["seat"] is None and player.payload["seat"] == 1
        assert (
            watcher.max_send_queue_bytes == WATCHER_QUEUE_BYTES < NetConfig().max_send_queue_bytes
        )
        assert player.max_send_queue_bytes is None
    finally:
        await host.close()


async def test_everyone_on_this_machine_may_watch_up_to_the_bound_in_all(
    tmp_path: Path,
) -> None:
    """Every account logged in to the host's machine, and every guest of its
    SSH door, comes from loopback: one address for the many people of a
    one-machine party, so only the bound in all holds there."""
    table = make_table(tmp_path, players=2, seed=86, bots=1)
    host = await start_host(table, NetConfig())
    watchers = [
        make_client(host.address, f"w{i}", tmp_path / f"w{i}.json", watch=True)
        for i in range(MAX_WATCHERS_PER_IP + 2)
    ]
    try:
        for watcher in watchers:
            await watcher.start()  # ConnectionRefusedError if refused
        assert all(watcher.seat is None for watcher in watchers)
    finally:
        for watcher in watchers:
            await watcher.close()
        await host.close()


async def test_spectators_are_bounded_in_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(netplay_host, "MAX_WATCHERS", 3)
    table = make_table(tmp_path, players=2, seed=88, bots=1)
    host = await start_host(table, NetConfig())
    watchers = [
        make_client(host.address, f"w{i}", tmp_path / f"w{i}.json", watch=True) for i in range(4)
    ]
    try:
        for watcher in watchers[:3]:
            await watcher.start()
        with pytest.raises(ConnectionRefusedError, match=TOO_MANY_WATCHERS):
            await watchers[3].start()
        assert host.stats.refused_hellos == {TOO_MANY_WATCHERS: 1}
    finally:
        for client in watchers:
            await client.close()
        await host.close()


async def test_every_seat_is_told_how_many_watch(tmp_path: Path) -> None:
    """Players can trust the table: a spectator's arrival and leaving reach
    every seat's lobby (LOBBY `watching`), as they reach the host's log."""
    table = make_table(tmp_path, players=2, seed=86, bots=1)
    host = await start_host(table, NetConfig())
    player = make_client(host.address, "ann", tmp_path / "a.json")
    watchers = [
        make_client(host.address, f"w{i}", tmp_path / f"w{i}.json", watch=True) for i in range(2)
    ]
    try:
        await player.start()

        async def watching(count: int) -> None:
            while (await _lobby(player)).watching != count:
                pass

        await asyncio.wait_for(watching(0), 3)
        for count, watcher in enumerate(watchers, 1):
            await watcher.start()
            await asyncio.wait_for(watching(count), 3)
            assert (await asyncio.wait_for(_lobby(watcher), 3)).watching >= 1
        await watchers[0].close()
        await asyncio.wait_for(watching(1), 3)
    finally:
        for client in (player, *watchers):
            await client.close()
        await host.close()


async def test_a_peer_that_takes_only_tiny_messages_holds_nobody_up(tmp_path: Path) -> None:
    """A handshake may ask for messages of 1 byte (`max_message` 1..65536;
    `recv_window` 1 means 1,024).  A spectator asking for 64 bytes made its
    every snapshot and chat line raise MessageTooLarge: the lobby snapshot
    killed the host's event task, a player sitting down was refused with
    `internal server error` (the "sat down" line failed in authorize), and
    the table served nobody.  That peer now goes without; the others play."""
    table = make_table(tmp_path, players=2, seed=89, bots=1)
    host = await start_host(table)
    runner = await run_table(table)
    hello = make_hello("tiny", None, secrets.token_hex(16), True)
    tiny = await Client.connect(*host.address, hello, NetConfig(max_message_size=64))
    player = make_client(host.address, "ann", tmp_path / "a.json")
    try:
        while not host.peers:  # the spectator is served before the player comes
            await asyncio.sleep(0.01)
        log = await asyncio.wait_for(play_bot(player, ClientLog("ann")), 30)
        assert log.views[-1].phase == "over"
        assert host.server.stats.dropped["too_large_for_peer"] > 0
        assert host.stats.messages_dropped > 0
        assert host._task is not None and not host._task.done()
    finally:
        await player.close()
        await tiny.close()
        await stop_runner(runner)
        await host.close()
