"""Fuzzing a live host on loopback, mid-game.

A real seat (a bare ``net.Client`` whose outgoing datagrams are captured
with ``on_datagram_sent``) plays until it is its turn; then the host is fed
random bytes, truncated and bit-mutated copies of the captured datagrams,
wrong msgpack types, huge declared lengths, replays (from another socket and
from the seat's own socket), and datagrams carrying the seat's session id
from another socket.  The host survives, the game state is untouched, every
fuzz datagram is counted in ``server.stats.dropped``, and the game then
finishes normally.  Malformed and illegal game requests inside the valid
session are counted in ``NetHost.stats`` and change nothing.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections import Counter
from pathlib import Path
from typing import Any

import asyncio_dgram
import msgpack
from netplay_support import (
    LOOPBACK,
    RawSeat,
    fingerprint,
    make_table,
    pump_until_one_is_to_act,
    run_table,
    start_host,
    stop_runner,
    table_record,
    verify_record,
)

from net import Client, NetConfig, Server
from net.codec import Rejected, decode, encode, encode_message
from net.packets import (
    EMPTY_ACK,
    MIN_HELLO_SIZE,
    AckBlock,
    ChallengePacket,
    ClosePacket,
    DataFrame,
    EchoPacket,
    HelloPacket,
    SessionPacket,
    StateFrame,
    VersionMismatch,
)
from threeup_tui.client.events import Lobby, LobbyChanged, Notice
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.host import NetHost
from threeup_tui.netplay.wire import (
    REQUESTS,
    WireError,
    lobby_to_wire,
    make_hello,
    parse_request,
)
from threeup_tui.table import Table, TableConfig

# The fuzzing would trip the per-address rate limiter otherwise; it is
# exercised on its own below.
FUZZ_NET = NetConfig(rate_limit_per_second=1e6, rate_limit_burst=1e6, idle_timeout=30.0)
SEAT_NET = NetConfig(idle_timeout=30.0)


def expect_counted(data: bytes) -> bool:
    """Whether the server must count ``data`` (sent from an address without
    a session) as a drop: everything except a well-formed, full-size HELLO,
    which is answered with a challenge (or a version refusal) instead."""
    packet = decode(data)
    return not (isinstance(packet, HelloPacket | VersionMismatch) and len(data) >= MIN_HELLO_SIZE)


def expected_reason(data: bytes, live_session: int) -> str | None:
    """The drop reason the server should count for ``data`` arriving from
    an address without a session (None: it is answered, not dropped)."""
    if len(data) > 1200:
        return "oversize"
    packet = decode(data)
    if isinstance(packet, Rejected):
        return packet.reason
    if isinstance(packet, SessionPacket | ClosePacket):
        return "wrong_address" if packet.session_id == live_session else "unknown_session"
    small = len(data) < MIN_HELLO_SIZE
    if isinstance(packet, HelloPacket | VersionMismatch | EchoPacket) and small:
        return "hello_too_small"
    if isinstance(packet, EchoPacket):
        return "bad_cookie"
    if isinstance(packet, HelloPacket | VersionMismatch):
        return None
    return "unexpected_type"


def mutate(rng: random.Random, data: bytes) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(buf))
        buf[i] ^= 1 << rng.randrange(8)
    return bytes(buf)


HUGE_HEADERS = [
    b"\xdd\x7f\xff\xff\xff",  # array32, 2**31 - 1 elements
    b"\xdd\x80\x00\x00\x00",  # array32, 2**31 elements
    b"\xdf\x80\x00\x00\x00",  # map32
    b"\xdb\x80\x00\x00\x00",  # str32
    b"\xc6\x80\x00\x00\x00",  # bin32
    b"\xc9\x80\x00\x00\x00\x01",  # ext32
    b"\xdc\xff\xff",  # array16, 65535 elements
    b"\xde\xff\xff",  # map16
]


def wrong_types(session_id: int) -> list[bytes]:
    ack = [0, b"", 0, 0, b""]
    objects: list[Any] = [
        None, True, 1.5, "hello", b"\x06", {}, {"type": 6}, [], [None], ["6"], [6.0],
        [True, session_id, ack, []],
        [6, str(session_id), ack, []],
        [6, session_id, "ack", []],
        [6, session_id, ack, "frames"],
        [6, session_id, ack, [[0, "seq", True, b"x"]]],
        [6, session_id, ack, [[0, 0, 1, b"x"]]],
        [6, session_id, ack, [[0, 0, True, "chunk"]]],
        [6, session_id, ack, [[1, 1, 5, 2, b"x"]]],
        [6, session_id, ack, [[7, 0]]],
        [6, session_id, [-1, b"", 0, 0, b""], []],
        [6, session_id, [0, b"", 0, 0], []],
        [6, 0, ack, []],
        [6, -1, ack, []],
        [6, float(session_id), ack, []],
        [6, -(2**63), ack, []],
        [6, session_id, ack, [], "extra"],
        [7, session_id, 42],
        [7, session_id],
        [99, 1, 2, 3],
        [-1, 1],
        [2, 1, 2, b"short-mac"],
        [4, 1, session_id, 128, 65536, None],  # an ACCEPT, sent to the server
        [5, 1, "refused"],
    ]  # fmt: skip
    out = [msgpack.packb(o, use_bin_type=True) for o in objects]
    # Nested far too deep, an extension type, a map with a non-str key.
    out.append(b"\x91" * 2000 + b"\x00")
    out.append(msgpack.packb([6, session_id, ack, [msgpack.ExtType(5, b"x")]]))
    out.append(b"\x81\x01\x02")
    # HELLO padded too little (an amplification attempt).
    out.append(msgpack.packb([1, 1, 7, 128, 65536, None, b""], use_bin_type=True))
    return out


async def _send_all(
    host: NetHost, sock: asyncio_dgram.aio.DatagramClient, datagrams: list[bytes]
) -> None:
    stats = host.server.stats
    for i, data in enumerate(datagrams):
        await sock.send(data)
        if i % 32 == 31:
            # Let the host drain its socket: nothing may be lost in the kernel.
            target = stats.datagrams_received
            await asyncio.sleep(0.002)
            for _ in range(100):
                if stats.datagrams_received > target:
                    break
                await asyncio.sleep(0.002)


async def _wait_drops(host: NetHost, at_least: int, timeout: float = 20.0) -> int:
    stats = host.server.stats
    deadline = asyncio.get_running_loop().time() + timeout
    while stats.total_dropped < at_least and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)
    return stats.total_dropped


async def test_fuzzing_a_live_host_changes_nothing_and_is_counted(tmp_path: Path) -> None:
    rng = random.Random(20240601)
    table = make_table(tmp_path, players=2, seed=61, bots=1)
    host = await start_host(table, FUZZ_NET)
    runner = await run_table(table)
    seat = await RawSeat.join(host, "target")
    sockets: list[asyncio_dgram.aio.DatagramClient] = []
    try:
        await seat.pump(lambda v: v.moves_played >= 8)
        session_id = seat.client.session_id
        assert session_id in host.server.session_ids
        before = fingerprint(table)
        stats = host.server.stats
        dropped_before = stats.total_dropped
        reasons_before = dict(stats.dropped)
        captured = list(seat.captured)
        assert len(captured) >= 8
        # Captured datagrams decode as the real protocol.
        assert any(isinstance(decode(d), EchoPacket) for d in captured)
        assert any(isinstance(decode(d), SessionPacket) for d in captured)

        fuzz: list[bytes] = []
        fuzz += [rng.randbytes(rng.randint(1, 1400)) for _ in range(300)]
        # (asyncio does not send empty datagrams at all)
        fuzz += [rng.randbytes(1201), rng.randbytes(9000)]  # oversize
        fuzz += [d[: rng.randrange(1, len(d))] for d in captured for _ in range(3)]
        fuzz += [mutate(rng, d) for d in captured for _ in range(6)]
        fuzz += wrong_types(session_id)
        fuzz += HUGE_HEADERS
        fuzz += [
            encode(SessionPacket(session_id, EMPTY_ACK, ())),
            encode(SessionPacket(session_id, EMPTY_ACK, (DataFrame(0, True, b"\xc0"),))),
        ]
        fuzz += [
            encode(SessionPacket(session_id, EMPTY_ACK, (DataFrame(seq, True, encode_message(
                {"t": "move", "at": before[0], "move": {"seat": seat.seat, "pickup": True}}
            )),)))
            for seq in range(0, 40)
        ]  # fmt: skip
        fuzz += [
            encode(SessionPacket(session_id, EMPTY_ACK, (StateFrame(v, 0, 1, b"\x90"),)))
            for v in range(1, 6)
        ]
        fuzz += [encode(ClosePacket(session_id, "hijacked"))]
        fuzz += [encode(SessionPacket(rng.randrange(1, 2**64), EMPTY_ACK, ())) for _ in range(5)]
        fuzz += [encode(ClosePacket(rng.randrange(1, 2**64), "nobody")) for _ in range(3)]
        fuzz += [encode(ChallengePacket(1, 2, bytes(16)))]
        fuzz += captured  # replays, from another address
        rng.shuffle(fuzz)
        counted = sum(expect_counted(d) for d in fuzz)
        assert counted >= len(fuzz) - 20  # only (mutated) HELLOs are answered

        for _ in range(3):
            sock = await asyncio_dgram.connect(host.address)
            sockets.append(sock)
        for i, sock in enumerate(sockets):
            await _send_all(host, sock, fuzz[i::3])
        dropped = await _wait_drops(host, dropped_before + counted)
        expected = Counter(r for r in (expected_reason(d, session_id) for d in fuzz) if r)
        delta = Counter(stats.dropped)
        delta.subtract(reasons_before)
        assert dropped - dropped_before >= counted, (counted, expected, delta)
        for reason, count in expected.items():
            assert delta[reason] >= count, (reason, expected, delta)

        # Replays and a mutated ack from the seat's own address: old frames
        # are duplicates, an impossible ack is ignored as a whole.
        own = seat.client._engine.sock  # the seat's real socket
        server_address = host.address
        replays = [d for d in captured if isinstance(decode(d), SessionPacket)]
        for data in replays:
            await own.send(data, server_address)
        bad_ack = AckBlock(2**40, b"", 0, 0, b"")
        await own.send(encode(SessionPacket(session_id, bad_ack, ())), server_address)
        # The mutated ack goes last from the same socket: once it is counted,
        # every replay before it has been read (up to 20 s on a busy machine).
        for _ in range(2000):
            if stats.dropped["bad_ack"] > reasons_before.get("bad_ack", 0):
                break
            await asyncio.sleep(0.01)

        for reason in (
            "undecodable", "malformed", "oversize", "unknown_type", "unexpected_type",
            "wrong_address", "unknown_session", "bad_cookie", "hello_too_small",
            "duplicate", "bad_ack",
        ):  # fmt: skip
            assert stats.dropped[reason] > reasons_before.get(reason, 0), (reason, stats.dropped)
        assert stats.dropped["internal_error"] == 0
        # Untouched: the game, the seat's session, the host's tasks.
        assert fingerprint(table) == before
        assert session_id in host.server.session_ids
        assert table.seats[seat.seat].connected
        assert host._task is not None and not host._task.done()
        assert host.stats.malformed_requests == 0 and host.stats.rejected_requests == 0

        # The game goes on and ends normally.
        final = await seat.pump(lambda v: False, timeout=30)
        assert final.phase == "over"
        verify_record(table_record(table))
    finally:
        for sock in sockets:
            sock.close()
        await seat.client.close()
        await stop_runner(runner)
        await host.close()


MALFORMED_REQUESTS: list[Any] = [
    42, None, "move", b"\x00\x01", [1, 2], 1.5, {}, {"t": "bogus"}, {"t": 5}, {"t": None},
    {"t": ["move"]}, {"t": {"chat": 1}},  # not hashable: no set can be asked about them
    {"t": "move"},
    {"t": "move", "at": "3", "move": {"seat": 0, "draw": True}},
    {"t": "move", "at": -1, "move": {"seat": 0, "draw": True}},
    {"t": "move", "at": True, "move": {"seat": 0, "draw": True}},
    {"t": "move", "at": 1.0, "move": {"seat": 0, "draw": True}},
    {"t": "move", "at": 0, "move": None},
    {"t": "move", "at": 0, "move": [[[[[]]]]]},
    {"t": "move", "at": 0, "move": {"seat": 0}},
    {"t": "move", "at": 0, "move": {"seat": "0", "draw": True}},
    {"t": "move", "at": 0, "move": {"seat": True, "draw": True}},
    {"t": "move", "at": 0, "move": {"seat": 0, "play": "R1"}},
    {"t": "move", "at": 0, "move": {"seat": 0, "play": ["XX"]}},
    {"t": "move", "at": 0, "move": {"seat": 0, "play": [5]}},
    {"t": "move", "at": 0, "move": {"seat": 0, "flip": 1.5}},
    {"t": "move", "at": 0, "move": {"seat": 0, "flip": True}},
    {"t": "move", "at": 0, "move": {"seat": 0, "draw": 1}},
    {"t": "move", "at": 0, "move": {"seat": 0, "draw": True, "pickup": True}},
    {"t": "move", "at": 0, "move": {"seat": 0, "draw": True, "extra": 1}},
    {"t": "setup", "cards": "R1 R2 R3"},
    {"t": "setup", "cards": [1, 2, 3]},
    {"t": "setup", "cards": ["R1"]},
    {"t": "setup", "cards": ["R1", "R2", "R3", "R4"]},
    {"t": "setup", "cards": ["R1", "R2", "RRRRR"]},
    {"t": "chat", "text": 5},
    {"t": "add_bot", "level": 5},
    {"t": "add_bot", "level": "x" * 40},
    {"t": "remove", "seat": "1"},
    {"t": "remove", "seat": True},
    {"t": "options", "options": "nope"},
    {"t": "options", "options": {"bogus": 1}},
    {"t": "options", "options": {"first": "third"}},
]  # fmt: skip


async def test_malformed_and_illegal_requests_in_a_valid_session(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=2, seed=62, bots=1)
    host = await start_host(table, NetConfig())
    runner = await run_table(table)
    seat = await RawSeat.join(host, "rude")
    try:
        view = await seat.pump(lambda v: v.moves_played >= 4)
        before = fingerprint(table)
        m = view.moves_played
        for payload in MALFORMED_REQUESTS:
            seat.client.send(payload)
        # The state channel is the host's: a client's snapshot, even one
        # shaped like a request, is nothing it may ask (it went uncounted).
        seat.client.set_state({"t": "move", "at": m, "move": seat.bot.choose_move(view).to_json()})
        for _ in range(300):
            if host.stats.malformed_requests >= len(MALFORMED_REQUESTS) + 1:
                break
            await asyncio.sleep(0.01)
        assert host.stats.malformed_requests == len(MALFORMED_REQUESTS) + 1
        assert host.stats.rejected_requests == 0
        assert fingerprint(table) == before

        # Well-formed but not allowed: each is rejected with a reason.
        other = 1 - seat.seat
        legal = seat.bot.choose_move(view).to_json()
        held = set(view.hand) | set(view.seats[seat.seat].face_up)
        missing = next(c for c in ("R1", "G1", "B1", "R2", "G2", "B2", "R3") if c not in held)
        rejected = [
            ({"t": "move", "at": m, "move": {**legal, "seat": other}},
             "you can only move for your own seat"),
            ({"t": "move", "at": m, "move": {"seat": seat.seat, "play": [missing]}}, None),
            ({"t": "move", "at": m, "move": {"seat": seat.seat, "flip": 7}}, None),
            ({"t": "setup", "cards": ["R1", "R2", "R3"]}, None),
            ({"t": "add_bot", "level": "greedy"}, "only the host can change the table"),
            ({"t": "remove", "seat": other}, "only the host can change the table"),
            ({"t": "options", "options": {}}, "only the host can change the table"),
            ({"t": "start"}, "only the host can change the table"),
            # A dedicated host's seats each ask for the next game, after this one.
            ({"t": "rematch"}, "a rematch follows a finished game"),
            ({"t": "save"}, "the host keeps the game record"),
        ]  # fmt: skip
        for payload, reason in rejected:
            seat.client.send(payload)
            message = await seat.wait_message("rejected")
            assert isinstance(message.get("reason"), str) and message["reason"]
            if reason is not None:
                assert message["reason"] == reason
        assert host.stats.rejected_requests == len(rejected)
        # A chat line over the limit is refused with the limit, not cut.
        seat.client.send({"t": "chat", "text": "x" * 401})
        message = await seat.wait_message("rejected")
        assert message["reason"] == (
            "a chat line is at most 400 characters and 1,000 bytes of UTF-8"
        )
        assert host.stats.chat_refused == 1
        # A move made on an older view is ignored (stale), not applied.
        seat.client.send({"t": "move", "at": m - 1, "move": legal})
        seat.client.send({"t": "move", "at": m + 5, "move": legal})
        for _ in range(300):
            if host.stats.stale_moves >= 2:
                break
            await asyncio.sleep(0.01)
        assert host.stats.stale_moves == 2
        assert fingerprint(table) == before
        assert host.stats.malformed_requests == len(MALFORMED_REQUESTS) + 1

        final = await seat.pump(lambda v: False, timeout=30)
        assert final.phase == "over"
        verify_record(table_record(table))
    finally:
        await seat.client.close()
        await stop_runner(runner)
        await host.close()


async def test_a_flood_from_one_address_is_rate_limited_and_counted(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=2, seed=63)
    host = await start_host(table, NetConfig(rate_limit_per_second=50.0, rate_limit_burst=100.0))
    sock = await asyncio_dgram.connect(host.address)
    try:
        junk = [bytes([0xC1]) * 10] * 600  # 0xc1 is never valid msgpack
        await _send_all(host, sock, junk)
        await _wait_drops(host, 600)
        stats = host.server.stats
        assert stats.dropped["rate_limited"] >= 400
        assert stats.dropped["rate_limited"] + stats.dropped["undecodable"] == 600
        # A well-behaved client from another address is unaffected.
        hello = make_hello("polite", None, secrets.token_hex(16), False)
        client = await Client.connect(LOOPBACK, host.address[1], hello, SEAT_NET)
        assert client.accept_payload["seat"] == 0
        await client.close()
    finally:
        sock.close()
        await host.close()


def random_request(rng: random.Random, seat: int, at: int) -> Any:
    """A request-ish value: mostly the right shapes with wrong details."""
    codes = ["R1", "G7", "BC", "GC2", "RC1", "X9", "", "R10", 7, None]

    def anything(depth: int = 0) -> Any:
        choice = rng.randrange(9 if depth < 2 else 6)
        if choice == 0:
            return rng.randint(-(2**40), 2**40)
        if choice == 1:
            return rng.choice([True, False, None, 0.5])
        if choice == 2:
            return rng.choice(["", "move", "R1", "x" * rng.randint(0, 500)])
        if choice == 3:
            return rng.randbytes(rng.randint(0, 8))
        if choice == 4:
            return rng.choice(codes)
        if choice == 5:
            return rng.randint(-2, 8)
        if choice == 6:
            return [anything(depth + 1) for _ in range(rng.randint(0, 4))]
        return {
            rng.choice(["t", "at", "move", "seat", "cards", "text", "x"]): anything(depth + 1)
            for _ in range(rng.randint(0, 4))
        }

    kind = rng.choice([*sorted(REQUESTS), "bogus", None])
    request: dict[str, Any] = {"t": kind}
    if kind == "move" or rng.random() < 0.2:
        move: dict[str, Any] = {"seat": rng.choice([seat, 1 - seat, seat, -1, 9, "0"])}
        which = rng.choice(["play", "flip", "pickup", "draw", "none", "two"])
        if which == "play":
            move["play"] = [rng.choice(codes) for _ in range(rng.randint(0, 4))]
        elif which == "flip":
            move["flip"] = rng.choice([0, 1, 2, 3, -1, True, "1"])
        elif which in ("pickup", "draw"):
            move[which] = rng.choice([True, True, 1, False])
        elif which == "two":
            move["pickup"] = move["draw"] = True
        request["at"] = rng.choice([at, at, at - 1, at + 1, -1, "x", True])
        request["move"] = move if rng.random() < 0.9 else anything()
    for key in rng.sample(["cards", "text", "level", "seat", "options", "extra"], 2):
        if rng.random() < 0.5:
            request[key] = anything()
    if rng.random() < 0.1:
        return anything()
    return request


def expected_outcome(payload: Any, table: Table, seat: int) -> str:
    """How NetHost must answer ``payload`` from ``seat`` (not to act now)."""
    try:
        kind, arg = parse_request(payload)
    except WireError:
        return "malformed"
    if kind in ("chat", "here"):
        return kind  # relayed, or (here) the player acting: nothing to answer
    if kind == "move":
        assert table.state is not None
        if arg[0] != len(table.state.history):
            return "stale"
    return "rejected"


async def test_random_requests_from_the_seat_not_to_act_change_nothing(tmp_path: Path) -> None:
    rng = random.Random(99)
    table = make_table(tmp_path, players=2, seed=64)
    host = await start_host(table, NetConfig())
    first = await RawSeat.join(host, "first")
    second = await RawSeat.join(host, "second")
    try:
        mover, idle = await pump_until_one_is_to_act(first, second, lambda v: v.moves_played >= 5)
        m = len(table.state.history)  # type: ignore[union-attr]
        before = fingerprint(table)
        outcomes: Counter[str] = Counter()
        for _ in range(400):
            payload = random_request(rng, idle.seat, m)
            outcomes[expected_outcome(payload, table, idle.seat)] += 1
            idle.client.send(payload)
        stats = host.stats
        for _ in range(2000):  # up to 20 s
            handled = stats.malformed_requests + stats.rejected_requests + stats.stale_moves
            if handled >= outcomes.total() - outcomes["chat"] - outcomes["here"]:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        assert stats.malformed_requests == outcomes["malformed"], outcomes
        assert stats.rejected_requests == outcomes["rejected"], outcomes
        assert stats.stale_moves == outcomes["stale"], outcomes
        assert min(outcomes["malformed"], outcomes["rejected"], outcomes["stale"]) > 0, outcomes
        assert fingerprint(table) == before
        final = await asyncio.wait_for(
            asyncio.gather(mover.pump(lambda v: False), idle.pump(lambda v: False)), 30
        )
        assert all(v.phase == "over" for v in final)
        verify_record(table_record(table))
    finally:
        await first.client.close()
        await second.client.close()
        await host.close()


async def test_a_hosts_value_nested_too_deep_is_dropped_and_the_client_goes_on(
    hostile_host: tuple[Server, int, NetClient],
) -> None:
    """msgpack unpacks values nested up to 1,024 deep.  A hostile host's
    message or snapshot holding one (a `rejected` reason, a lobby field)
    raised RecursionError where the client made it a string: not a
    WireError, so the client's receiving task died and the player's table
    froze, with nothing said.  It is dropped as malformed, and the next
    message still comes through."""

    server, session_id, client = hostile_host
    deep = b"\x91" * 1000 + b"\xc0"  # [[[...[nil]...]]], which msgpack.packb refuses
    rejected = b"\x82" + encode_message("t") + encode_message("rejected")
    server._engine.session(session_id)._sender.push(rejected + encode_message("reason") + deep)
    server.send(session_id, {"t": "notice", "text": "still here"})

    async def notice() -> str:
        while True:
            event = await client.next_event()
            if isinstance(event, Notice):
                return event.text

    assert await asyncio.wait_for(notice(), 5) == "still here"


async def test_a_hosts_infinite_seconds_are_dropped_and_the_client_goes_on(
    hostile_host: tuple[Server, int, NetClient],
) -> None:
    """msgpack carries infinity and NaN.  A hostile host's lobby with an
    infinite turn time (or rematch wait) passed as a number of seconds, and
    the app ended in an OverflowError as it drew them ("∞ s").  Such a lobby
    is dropped as malformed; the next good one still comes through."""

    server, session_id, client = hostile_host
    good = lobby_to_wire(Table(TableConfig(players=2)).lobby())
    for key, bad in [("turn_time", float("inf")), ("rematch_after", float("nan"))]:
        server.set_state(session_id, {"lobby": {**good, key: bad}, "view": None})
        await asyncio.sleep(0.2)
    server.set_state(session_id, {"lobby": {**good, "turn_time": 30.0}, "view": None})

    async def lobby() -> Lobby:
        while True:
            event = await client.next_event()
            if isinstance(event, LobbyChanged):
                return event.lobby

    assert (await asyncio.wait_for(lobby(), 5)).turn_time == 30.0
