"""Handshake protection, anti-amplification, rate limiting and fuzzing of a
live server. The server must survive everything, count every drop, and
keep its legitimate sessions working."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import asyncio_dgram
import msgpack
import pytest

from net import (
    Address,
    Client,
    Connected,
    ConnectTimeout,
    DisconnectCause,
    Disconnected,
    Message,
    NetConfig,
    Server,
)
from net.codec import decode, encode, encode_message
from net.packets import (
    EMPTY_ACK,
    AcceptPacket,
    AckBlock,
    ChallengePacket,
    ClosePacket,
    DataFrame,
    EchoPacket,
    HelloPacket,
    RefusePacket,
    ResetPacket,
    SessionPacket,
    VersionMismatch,
)
from net.testing import (
    QUICK_CONFIG,
    RawPeer,
    accept_all,
    collect_messages,
    next_event_of,
    open_raw_peer,
)

RawFactory = Callable[[], Awaitable[RawPeer]]


def hello(nonce: int, payload: Any = "raw") -> bytes:
    return encode(HelloPacket(nonce, 128, 65536, payload))


def echo(nonce: int, challenge: ChallengePacket, payload: Any = "raw") -> bytes:
    return encode(
        EchoPacket(nonce, 128, 65536, payload, challenge.cookie_time, challenge.cookie_mac)
    )


async def challenge_for(peer: RawPeer, nonce: int) -> ChallengePacket:
    await peer.send(hello(nonce))
    reply = await peer.recv()
    assert reply is not None
    packet = decode(reply)
    assert isinstance(packet, ChallengePacket) and packet.nonce == nonce
    return packet


async def test_unvalidated_address_never_gets_more_than_three_times_its_bytes() -> None:
    sent_to: Counter[Address] = Counter()

    def tap(addr: Address, data: bytes) -> None:
        sent_to[addr] += len(data)

    server = await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG, on_datagram_sent=tap)
    async with server, open_raw_peer(server.address) as peer:
        received = 0
        silent = [
            b"junk",
            hello(1)[:600],  # truncated: undecodable
            msgpack.packb([1, 1, 2, 128, 65536, "unpadded", b""]),  # valid but < 1200 bytes
        ]
        for data in silent:
            await peer.send(data)
            received += len(data)
        assert await peer.recv_all(0.2) == []
        assert server.stats.dropped["hello_too_small"] == 1
        # A session's traffic for no live session is answered (RESET), once.
        for _ in range(3):
            stray = encode(SessionPacket(12345, EMPTY_ACK, ()))
            await peer.send(stray)
            received += len(stray)
        (reset,) = await peer.recv_all(0.2)
        assert decode(reset) == ResetPacket(12345)
        for nonce in range(20):
            await peer.send(hello(nonce))
            received += 1200
        replies = await peer.recv_all(0.3)
        assert len(replies) == 20
        assert all(isinstance(decode(reply), ChallengePacket) for reply in replies)
        assert sent_to[peer.address] == len(reset) + sum(map(len, replies)) <= 3 * received
        assert server.amplification_usage(peer.address) == (received, sent_to[peer.address])


async def test_amplification_limit_is_enforced_and_counted() -> None:
    stingy = NetConfig(amplification_factor=0.01, connect_timeout=0.3)
    async with await Server.start("127.0.0.1", 0, accept_all, stingy) as server:
        with pytest.raises(ConnectTimeout):
            await Client.connect(*server.address, "me", stingy)
        assert server.stats.dropped["amplification_limit"] >= 2
        assert server.stats.datagrams_sent == 0


async def test_version_mismatch_is_refused_with_a_reason(raw_peer_factory: RawFactory) -> None:
    peer = await raw_peer_factory()
    await peer.send(encode(VersionMismatch(9, 77)))
    reply = await peer.recv()
    assert reply is not None
    refusal = decode(reply)
    assert isinstance(refusal, RefusePacket) and refusal.nonce == 77
    assert "version 9" in refusal.reason


async def test_cookies_are_checked_and_handshakes_cannot_be_replayed(
    server: Server, raw_peer_factory: RawFactory
) -> None:
    peer, thief = await raw_peer_factory(), await raw_peer_factory()
    challenge = await challenge_for(peer, 5)
    forged = ChallengePacket(5, challenge.cookie_time, bytes(16))
    await peer.send(echo(5, forged))
    await thief.send(echo(5, challenge))  # a cookie only works from its own address
    assert await peer.recv_all(0.2) == [] and await thief.recv_all(0.01) == []
    assert server.stats.dropped["bad_cookie"] == 2
    assert server.session_ids == []

    await peer.send(echo(5, challenge))
    accept = decode(await peer.recv() or b"")
    assert isinstance(accept, AcceptPacket) and accept.nonce == 5
    assert accept.payload == {"token": "seat-token-'raw'"}
    assert (await next_event_of(server.next_event, Connected)).session_id == accept.session_id
    # A repeated ECHO (our ACCEPT was lost) gets the same ACCEPT, no new session.
    await peer.send(echo(5, challenge))
    assert decode(await peer.recv() or b"") == accept
    assert server.session_ids == [accept.session_id]

    await peer.send(encode(ClosePacket(accept.session_id, "done")))
    gone = await next_event_of(server.next_event, Disconnected)
    assert (gone.cause, gone.reason) == (DisconnectCause.PEER_CLOSED, "done")
    await peer.send(echo(5, challenge))  # replay after the session ended
    assert await peer.recv_all(0.2) == []
    assert server.stats.dropped["replayed_handshake"] == 1
    assert server.session_ids == []


async def test_a_new_handshake_from_the_same_address_replaces_the_session(
    server: Server, raw_peer_factory: RawFactory
) -> None:
    peer = await raw_peer_factory()  # one socket = one address, like a restarted client
    sessions = []
    for nonce in (1, 2):
        await peer.send(echo(nonce, await challenge_for(peer, nonce)))
        accept = decode(await peer.recv() or b"")
        assert isinstance(accept, AcceptPacket)
        sessions.append(accept.session_id)
    first = await next_event_of(server.next_event, Disconnected)
    assert (first.session_id, first.cause) == (sessions[0], DisconnectCause.REPLACED)
    assert server.session_ids == [sessions[1]]


async def test_an_expired_cookie_gets_a_fresh_challenge() -> None:
    config = NetConfig(cookie_lifetime=0.1)
    async with (
        await Server.start("127.0.0.1", 0, accept_all, config) as server,
        open_raw_peer(server.address) as peer,
    ):
        old = await challenge_for(peer, 3)
        await asyncio.sleep(2.2)  # cookie times are whole seconds, +1 s of slack
        await peer.send(echo(3, old))
        fresh = decode(await peer.recv() or b"")
        assert isinstance(fresh, ChallengePacket) and fresh.cookie_time > old.cookie_time
        assert server.stats.dropped["expired_cookie"] == 1
        await peer.send(echo(3, fresh))
        assert isinstance(decode(await peer.recv() or b""), AcceptPacket)


async def test_another_sessions_id_from_another_address_is_dropped(
    connected: tuple[Server, Client, int], raw_peer_factory: RawFactory
) -> None:
    server, client, session_id = connected
    attacker = await raw_peer_factory()
    evil = DataFrame(0, True, encode_message("evil"))
    await attacker.send(encode(SessionPacket(session_id, EMPTY_ACK, (evil,))))
    await attacker.send(encode(SessionPacket(session_id, AckBlock(0, b"", 0, 0, b""), ())))
    await attacker.send(encode(ClosePacket(session_id, "hijack")))
    for _ in range(1000):  # up to 10 s: the server reads one datagram a turn of its loop
        if server.stats.dropped["wrong_address"] >= 3:
            break
        await asyncio.sleep(0.01)
    assert server.stats.dropped["wrong_address"] == 3
    client.send("genuine")
    assert (await next_event_of(server.next_event, Message)).payload == "genuine"
    assert server.session_ids == [session_id]
    assert await attacker.recv_all(0.05) == []


async def test_rate_limit_drops_and_counts_floods_per_address() -> None:
    # One a second after a burst of 20: the bucket is counted as the server
    # reads, so a slower refill keeps 150 of 200 over it on a busy machine too.
    strict = NetConfig(rate_limit_per_second=1, rate_limit_burst=20, connect_timeout=3.0)
    async with (
        await Server.start("127.0.0.1", 0, accept_all, strict) as server,
        open_raw_peer(server.address) as flooder,
    ):
        for index in range(200):
            await flooder.send(b"\x00flood")
            if index % 50 == 49:
                await asyncio.sleep(0.001)  # no kernel buffer overflow: every datagram counts
        for _ in range(1000):  # up to 10 s: every datagram read (each is counted one way)
            if server.stats.dropped["undecodable"] + server.stats.dropped["rate_limited"] >= 200:
                break
            await asyncio.sleep(0.01)
        assert server.stats.dropped["rate_limited"] >= 150
        limited = server.stats.dropped["rate_limited"]
        assert server.stats.dropped["undecodable"] + limited == 200
        # Other addresses are unaffected.
        async with await Client.connect(*server.address, "polite", strict) as client:
            client.send("hi")
            assert (await next_event_of(server.next_event, Message)).payload == "hi"


async def test_fuzzing_a_live_server_never_breaks_it() -> None:
    rng = random.Random(1234)
    config = NetConfig(rate_limit_per_second=100_000, rate_limit_burst=100_000)
    captured: list[bytes] = []
    server = await Server.start(
        "127.0.0.1", 0, accept_all, config, on_datagram_sent=lambda a, d: captured.append(d)
    )
    async with server:
        client = await Client.connect(
            *server.address, "victim", config, on_datagram_sent=lambda a, d: captured.append(d)
        )
        session_id = (await next_event_of(server.next_event, Connected)).session_id
        for n in range(30):
            client.send({"n": n, "blob": "b" * 50 * n})
            server.send(session_id, n)
        server.set_state(session_id, {"view": "x" * 3000})
        assert len(await collect_messages(server.next_event, 30)) == 30
        assert await collect_messages(client.next_event, 30) == list(range(30))
        assert len(captured) > 20

        attack: list[bytes] = []
        attack += [rng.randbytes(rng.randint(0, 1400)) for _ in range(300)]
        for _ in range(400):
            raw = bytearray(rng.choice(captured))
            for _ in range(rng.randint(1, 6)):
                raw[rng.randrange(len(raw))] = rng.randrange(256)
            attack.append(
                bytes(raw[: rng.randint(0, len(raw))]) if rng.random() < 0.5 else bytes(raw)
            )
        attack += captured  # replays, from the wrong address
        attack += [
            b"\xdd\x7f\xff\xff\xff",
            b"\xdf\xff\xff\xff\xff",
            b"\x94\x06\x01\x95\x00\xc6\x7f\xff\xff\xff",
            b"\x91" * 1100 + b"\x01",
            b"\x00" * 1300,
            msgpack.packb([6, session_id, [0, b"", 0, 0, b""], [[0, 0, True, b"\xc1"]]]),
            msgpack.packb([6, session_id + 1, [0, b"", 0, 0, b""], []]),
            msgpack.packb([6, "sid", {}, None]),
            msgpack.packb([7, session_id, 12]),
            msgpack.packb({"type": "hello"}),
            msgpack.packb([3, 1, 1, 128, 65536, "x", 0, bytes(16), b"\x00" * 1100]),
            msgpack.packb([2, 1, 2, bytes(16)]),  # server-bound CHALLENGE makes no sense
            msgpack.packb([4, 1, 2, 128, 65536, None]),
            msgpack.packb([5, 1, "refused?"]),
            msgpack.packb(msgpack.ExtType(1, b"x")),
        ]
        async with open_raw_peer(server.address) as attacker:
            for index, data in enumerate(attack):
                await attacker.send(data)
                if index % 50 == 0:
                    await asyncio.sleep(0.001)  # let the kernel buffer drain
            await asyncio.sleep(0.3)

        # Still alive, and the victim's session is untouched.
        assert server.running
        assert server.session_ids == [session_id]
        client.send("still here")
        server.send(session_id, "me too")
        assert (await next_event_of(server.next_event, Message)).payload == "still here"
        assert (await next_event_of(client.next_event, Message)).payload == "me too"
        dropped = server.stats.dropped
        assert dropped["internal_error"] == 0
        for reason in ("undecodable", "malformed", "wrong_address", "unknown_session", "oversize"):
            assert dropped[reason] > 0, reason
        assert dropped["unexpected_type"] >= 3
        assert not any(isinstance(e, Disconnected) for e in _drain(server))
        await client.close()


def _drain(server: Server) -> list[Any]:
    events = []
    while (event := server.poll_event()) is not None:
        events.append(event)
    return events


async def test_client_survives_a_garbage_spewing_server() -> None:
    fake = await asyncio_dgram.bind(("127.0.0.1", 0))
    rng = random.Random(5)

    async def spew() -> None:
        while True:
            _, addr = await fake.recv()
            for _ in range(20):
                await fake.send(rng.randbytes(rng.randint(0, 1300)), addr)
            await fake.send(encode(AcceptPacket(999, 1, 128, 65536, None)), addr)  # wrong nonce

    task = asyncio.create_task(spew())
    try:
        config = NetConfig(connect_timeout=0.5)
        with pytest.raises(ConnectTimeout):
            await Client.connect("127.0.0.1", fake.sockname[1], "hi", config)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        fake.close()
        await asyncio.sleep(0)


async def test_a_peer_that_acknowledges_nothing_is_not_served_for_ever(
    server: Server, raw_peer_factory: RawFactory
) -> None:
    """A peer that keeps its session alive with heartbeats but acknowledges
    nothing had every frame it was sent resent every max_rto for as long as
    it liked: 20 such spectators of a threeup table, each sending 9 bytes a
    second, drew 1.3 MB/s from the host.  Nothing acknowledged for
    idle_timeout ends the session as silence does (IDLE_TIMEOUT), while one
    with nothing waiting for an acknowledgement lives on its heartbeats."""
    idle = QUICK_CONFIG.idle_timeout
    deaf, quiet = await raw_peer_factory(), await raw_peer_factory()
    ids = []
    for nonce, peer in enumerate((deaf, quiet), 1):
        await peer.send(echo(nonce, await challenge_for(peer, nonce)))
        accept = decode(await peer.recv() or b"")
        assert isinstance(accept, AcceptPacket)
        ids.append(accept.session_id)
    deaf_id, quiet_id = ids
    server.send(deaf_id, "x" * 3000)  # three frames, never acknowledged
    server.set_state(deaf_id, {"view": "y" * 100})

    async def heartbeats(peer: RawPeer, session_id: int) -> None:
        while True:
            await peer.send(encode(SessionPacket(session_id, EMPTY_ACK, ())))
            await asyncio.sleep(QUICK_CONFIG.heartbeat_interval)

    tasks = [asyncio.create_task(heartbeats(p, i)) for p, i in ((deaf, deaf_id), (quiet, quiet_id))]
    try:
        started = asyncio.get_running_loop().time()
        gone = await next_event_of(server.next_event, Disconnected, timeout=idle + 2)
        waited = asyncio.get_running_loop().time() - started
        assert (gone.session_id, gone.cause) == (deaf_id, DisconnectCause.IDLE_TIMEOUT)
        assert gone.reason == f"nothing acknowledged for {idle:g} s"
        assert idle - 0.5 < waited < idle + 1
        assert server.stats.retransmissions > 0
        await asyncio.sleep(0.3)
        resent = server.stats.retransmissions
        await asyncio.sleep(1.0)
        assert server.stats.retransmissions == resent  # nothing more for it
        assert server.session_ids == [quiet_id]
    finally:
        for task in tasks:
            task.cancel()


async def test_the_server_knows_which_clients_got_their_accept() -> None:
    """A client whose every ACCEPT was lost never sends a session datagram;
    one that got it acknowledges.  The application must tell them apart
    (threeup counts a seat's claim only for a session that got its ACCEPT),
    and the server knew it only from the first RTT sample."""
    async with (
        await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG) as server,
        open_raw_peer(server.address) as lost,
    ):
        await lost.send(echo(7, await challenge_for(lost, 7)))
        accepted = await next_event_of(server.next_event, Connected)
        heard = await Client.connect(*server.address, "me", QUICK_CONFIG)
        for _ in range(1000):  # up to 10 s: the client's first datagram after its ACCEPT
            if server.session_heard(heard.session_id):
                break
            await asyncio.sleep(0.01)
        assert server.session_heard(heard.session_id)
        assert not server.session_heard(accepted.session_id)
        ended = await next_event_of(server.next_event, Disconnected, timeout=5)
        assert (ended.session_id, ended.cause) == (
            accepted.session_id,
            DisconnectCause.IDLE_TIMEOUT,
        )
        assert ended.heard is False
        await heard.close()
        left = await next_event_of(server.next_event, Disconnected)
        assert (left.session_id, left.heard) == (heard.session_id, True)
