"""End-to-end sessions on real loopback UDP sockets."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from typing import Any

import pytest

from net import (
    Accept,
    Address,
    Client,
    Connected,
    ConnectTimeout,
    DisconnectCause,
    Disconnected,
    Impairment,
    ImpairmentProxy,
    Message,
    MessageTooLarge,
    NetConfig,
    Refuse,
    Refused,
    SendQueueFull,
    Server,
    SessionClosed,
    State,
    UnknownSession,
)
from net.codec import decode
from net.packets import MAX_DATAGRAM, SessionPacket
from net.testing import QUICK_CONFIG, accept_all, collect_messages, next_event_of


def other_tasks() -> set[asyncio.Task[Any]]:
    return {task for task in asyncio.all_tasks() if task is not asyncio.current_task()}


async def test_handshake_carries_hello_and_accept_payloads() -> None:
    seen: list[tuple[Address, Any]] = []

    def authorize(addr: Address, hello: Any) -> Accept | Refuse:
        seen.append((addr, hello))
        return Accept({"seat": 2, "token": b"\x01" * 16})

    async with await Server.start("127.0.0.1", 0, authorize, QUICK_CONFIG) as server:
        hello = {"name": "Ann", "room": "QX7P", "resume": None}
        async with await Client.connect(*server.address, hello, QUICK_CONFIG) as client:
            connected = await next_event_of(server.next_event, Connected)
            assert client.accept_payload == {"seat": 2, "token": b"\x01" * 16}
            assert connected.session_id == client.session_id != 0
            assert connected.hello == hello
            assert connected.address == client.local_address == seen[0][0]
            assert server.session_ids == [client.session_id]
            assert server.session_address(client.session_id) == client.local_address
            client.send("ping")
            assert (await next_event_of(server.next_event, Message)).payload == "ping"
            server.send(client.session_id, "pong")
            assert (await next_event_of(client.next_event, Message)).payload == "pong"
            assert client.rtt is not None and server.session_rtt(client.session_id) is not None
    assert not other_tasks()


async def test_refusal_reason_reaches_the_client() -> None:
    def authorize(addr: Address, hello: Any) -> Accept | Refuse:
        return Refuse("wrong room code") if hello["room"] != "QX7P" else Accept()

    async with await Server.start("127.0.0.1", 0, authorize, QUICK_CONFIG) as server:
        with pytest.raises(Refused) as refused:
            await Client.connect(*server.address, {"room": "NOPE"}, QUICK_CONFIG)
        assert refused.value.reason == "wrong room code"
        assert "wrong room code" in str(refused.value)
        assert server.stats.sessions_refused == 1
        assert server.session_ids == []
    assert not other_tasks()


async def test_authorize_errors_and_full_server_refuse_cleanly() -> None:
    def broken(addr: Address, hello: Any) -> Accept | Refuse:
        raise RuntimeError("bug in the app")

    async with await Server.start("127.0.0.1", 0, broken, QUICK_CONFIG) as server:
        with pytest.raises(Refused, match="internal server error"):
            await Client.connect(*server.address, "x", QUICK_CONFIG)
    full = NetConfig(max_sessions=1, connect_timeout=3.0)
    async with (
        await Server.start("127.0.0.1", 0, accept_all, full) as server,
        await Client.connect(*server.address, "first", full),
    ):
        with pytest.raises(Refused, match="server full"):
            await Client.connect(*server.address, "second", full)


async def test_connect_timeout_when_nobody_answers() -> None:
    async with await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG) as server:
        silent = ImpairmentProxy.start(server.address, Impairment(loss_to_server=1.0))
        async with await silent as proxy:
            config = NetConfig(connect_timeout=0.4)
            with pytest.raises(ConnectTimeout):
                await Client.connect(*proxy.address, "hello?", config)
            assert proxy.to_server.received >= 3  # HELLO was retried with back-off
    assert not other_tasks()


async def test_hello_too_large_fails_before_sending() -> None:
    with pytest.raises(ValueError, match="too large"):
        await Client.connect("127.0.0.1", 9, "x" * 2000)


async def test_ipv6_loopback() -> None:
    async with await Server.start("::1", 0, accept_all, QUICK_CONFIG) as server:
        assert server.address[0] == "::1"
        async with await Client.connect("::1", server.address[1], "six", QUICK_CONFIG) as client:
            connected = await next_event_of(server.next_event, Connected)
            assert connected.address[0] == "::1"
            client.send({"v": 6})
            assert (await next_event_of(server.next_event, Message)).payload == {"v": 6}


async def test_500_messages_each_way_survive_loss_duplication_and_reordering() -> None:
    config = NetConfig(
        idle_timeout=5.0,
        heartbeat_interval=0.2,
        rate_limit_per_second=10_000,
        rate_limit_burst=10_000,
    )
    async with (
        await Server.start("127.0.0.1", 0, accept_all, config) as server,
        await ImpairmentProxy.start(server.address, seed=7) as proxy,
    ):
        client = await Client.connect(*proxy.address, "lossy", config)
        session_id = (await next_event_of(server.next_event, Connected)).session_id
        proxy.impairment = Impairment(
            loss_to_server=0.3, loss_to_client=0.3, duplicate=0.05, reorder=0.05
        )
        expected = [{"n": n, "pad": "p" * 120} for n in range(500)]
        for message in expected:
            client.send(message)
            server.send(session_id, message)
            await asyncio.sleep(0)  # spread over many datagrams
        to_server, to_client = await asyncio.gather(
            collect_messages(server.next_event, 500, timeout=40),
            collect_messages(client.next_event, 500, timeout=40),
        )
        assert to_server == expected
        assert to_client == expected
        for direction in (proxy.to_server, proxy.to_client):
            assert direction.dropped > 50
            assert direction.duplicated > 5
            assert direction.reordered > 5
        assert server.stats.retransmissions > 0 and client.stats.retransmissions > 0
        assert server.stats.dropped["duplicate"] > 0 and client.stats.dropped["duplicate"] > 0
        # Nothing further arrives: no message was delivered twice.
        await asyncio.sleep(0.3)
        assert not any(isinstance(e, Message) for e in drain_nowait(server) + drain_nowait(client))
        await client.close()


def drain_nowait(endpoint: Server | Client) -> list[Any]:
    events = []
    while (event := endpoint.poll_event()) is not None:
        events.append(event)
    return events


async def test_one_snapshot_for_many_sessions_reaches_each_and_skips_the_gone() -> None:
    async with await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG) as server:
        clients = [
            await Client.connect(*server.address, f"watcher{i}", QUICK_CONFIG) for i in range(4)
        ]
        ids = [(await next_event_of(server.next_event, Connected)).session_id for _ in clients]
        server.set_state(ids[0], {"turn": 0})  # one session is a version ahead
        await next_event_of(clients[0].next_event, State)
        gone = clients.pop()
        await gone.close()
        await next_event_of(server.next_event, Disconnected)
        server.close_session(ids[2], "bye")  # closing: set_state would raise
        snapshot = {"turn": 1, "pile": ["x"] * 40}
        versions = server.set_state_many([*ids, 0xDEAD], snapshot)
        # The gone, the closing and the unknown are skipped, not raised for.
        assert versions == {ids[0]: 2, ids[1]: 1}
        for client, version in zip(clients[:2], (2, 1), strict=True):
            state = await next_event_of(client.next_event, State)
            assert (state.version, state.payload) == (version, snapshot)
        assert server.stats.states_sent == 3
        for client in clients:
            await client.close()


async def test_state_channel_delivers_the_newest_version() -> None:
    config = NetConfig(idle_timeout=5.0, heartbeat_interval=0.2)
    async with (
        await Server.start("127.0.0.1", 0, accept_all, config) as server,
        await ImpairmentProxy.start(
            server.address, Impairment(loss_to_server=0.3, loss_to_client=0.3, reorder=0.1), seed=3
        ) as proxy,
    ):
        config_client = NetConfig(connect_timeout=20.0, idle_timeout=5.0, heartbeat_interval=0.2)
        client = await Client.connect(*proxy.address, "viewer", config_client)
        session_id = (await next_event_of(server.next_event, Connected)).session_id
        for version in range(1, 31):
            assert server.set_state(session_id, {"turn": version, "hand": ["x"] * 50}) == version
            await asyncio.sleep(0.005)
        final = server.set_state(session_id, {"turn": "final", "blob": "b" * 5000})
        delivered: list[State] = []
        while not delivered or delivered[-1].version != final:
            delivered.append(await next_event_of(client.next_event, State, timeout=20))
        versions = [state.version for state in delivered]
        assert versions == sorted(set(versions))
        assert delivered[-1].payload == {"turn": "final", "blob": "b" * 5000}
        assert all(s.payload["turn"] == s.version for s in delivered[:-1])
        # The client can publish state too.
        client.set_state({"ready": True})
        state = await next_event_of(server.next_event, State)
        assert (state.session_id, state.version, state.payload) == (
            session_id,
            1,
            {"ready": True},
        )
        await client.close()


async def test_large_messages_are_fragmented_and_reassembled(connected: Any) -> None:
    server, client, session_id = connected
    twenty_kb = {"blob": bytes(range(256)) * 80}  # 20 KiB
    near_limit = "z" * 65_000
    client.send(twenty_kb)
    server.send(session_id, twenty_kb)
    server.send(session_id, near_limit)
    assert (await next_event_of(server.next_event, Message)).payload == twenty_kb
    assert await collect_messages(client.next_event, 2) == [twenty_kb, near_limit]
    with pytest.raises(MessageTooLarge):
        client.send("z" * 70_000)
    with pytest.raises(MessageTooLarge):
        server.set_state(session_id, b"z" * 70_000)
    with pytest.raises(TypeError):
        client.send(object())


async def test_every_datagram_the_server_sends_is_tapped_and_decodable() -> None:
    tapped: list[tuple[Address, bytes]] = []
    server = await Server.start(
        "127.0.0.1",
        0,
        accept_all,
        QUICK_CONFIG,
        on_datagram_sent=lambda a, d: tapped.append((a, d)),
    )
    async with server:
        client = await Client.connect(*server.address, "tap", QUICK_CONFIG)
        session_id = (await next_event_of(server.next_event, Connected)).session_id
        server.send(session_id, {"secret": "for this client only", "blob": "q" * 3000})
        server.set_state(session_id, {"view": [1, 2, 3]})
        await next_event_of(client.next_event, State)
        await client.close()
        await next_event_of(server.next_event, Disconnected)
        assert len(tapped) == server.stats.datagrams_sent
        assert all(addr == client.local_address for addr, _ in tapped)
        chunks = b""
        for _, data in tapped:
            assert len(data) <= MAX_DATAGRAM
            packet = decode(data)
            assert not hasattr(packet, "reason") or packet.__class__.__name__ != "Rejected"
            if isinstance(packet, SessionPacket):
                chunks += b"".join(getattr(f, "chunk", b"") for f in packet.frames)
        assert b"for this client only" in chunks


async def test_idle_timeout_disconnects_both_sides() -> None:
    config = NetConfig(idle_timeout=0.6, heartbeat_interval=0.1, close_linger=0.2)
    async with (
        await Server.start("127.0.0.1", 0, accept_all, config) as server,
        await ImpairmentProxy.start(server.address) as proxy,
    ):
        client = await Client.connect(*proxy.address, "soon gone", config)
        session_id = (await next_event_of(server.next_event, Connected)).session_id
        await asyncio.sleep(1.0)  # heartbeats keep an idle session alive
        assert client.connected and server.session_ids == [session_id]
        proxy.impairment = Impairment(loss_to_server=1.0, loss_to_client=1.0)
        server_side = await next_event_of(server.next_event, Disconnected, timeout=3)
        client_side = await next_event_of(client.next_event, Disconnected, timeout=3)
        assert server_side.cause is DisconnectCause.IDLE_TIMEOUT
        assert client_side.cause is DisconnectCause.IDLE_TIMEOUT
        assert not client.connected and server.session_ids == []
        with pytest.raises(SessionClosed):
            client.send("anyone?")
        with pytest.raises(SessionClosed):
            await client.next_event()
        with pytest.raises(UnknownSession):
            server.send(session_id, "anyone?")
        await client.close()


async def test_client_close_flushes_then_tells_the_server() -> None:
    async with await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG) as server:
        client = await Client.connect(*server.address, "leaver", QUICK_CONFIG)
        session_id = (await next_event_of(server.next_event, Connected)).session_id
        for n in range(100):
            client.send(n)
        await client.close("bye for now")
        assert await collect_messages(server.next_event, 100) == list(range(100))
        gone = await next_event_of(server.next_event, Disconnected)
        assert (gone.session_id, gone.cause, gone.reason) == (
            session_id,
            DisconnectCause.PEER_CLOSED,
            "bye for now",
        )
        await client.close()  # idempotent
        with pytest.raises(SessionClosed):
            client.send("late")
    assert not other_tasks()


async def test_server_close_session_and_shutdown_reach_clients() -> None:
    server = await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG)
    kicked = await Client.connect(*server.address, "kicked", QUICK_CONFIG)
    stays = await Client.connect(*server.address, "stays", QUICK_CONFIG)
    server.send(kicked.session_id, "last words")
    server.close_session(kicked.session_id, "game over")
    assert (await next_event_of(kicked.next_event, Message)).payload == "last words"
    kicked_event = await next_event_of(kicked.next_event, Disconnected)
    assert (kicked_event.cause, kicked_event.reason) == (DisconnectCause.PEER_CLOSED, "game over")
    local = await next_event_of(server.next_event, Disconnected)
    assert (local.session_id, local.cause) == (kicked.session_id, DisconnectCause.LOCAL_CLOSE)
    await server.close()
    shutdown = await next_event_of(stays.next_event, Disconnected)
    assert (shutdown.cause, shutdown.reason) == (DisconnectCause.PEER_CLOSED, "server shutdown")
    leftovers = [event async for event in server.events()]  # ends: the server is closed
    assert leftovers == [
        Disconnected(stays.session_id, DisconnectCause.LOCAL_CLOSE, "server shutdown")
    ]
    with pytest.raises(SessionClosed):
        await server.next_event()
    await kicked.close()
    await stays.close()
    assert not other_tasks()


async def test_a_closing_server_admits_nobody() -> None:
    """A server lingering in its close (a peer has not acked yet) once
    accepted a new handshake: that session got no CLOSE, and its client
    talked to a closed socket until its idle time-out.  A host stopped
    mid-game kept its players' reconnects away from the resumed table so."""
    server = await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG)
    silent = await Client.connect(*server.address, "silent", QUICK_CONFIG)
    await next_event_of(server.next_event, Connected)
    await silent._engine.shutdown()  # gone without a word: nothing it is sent is acked
    server.send(silent.session_id, "unacked")
    closing = asyncio.ensure_future(server.close())
    await asyncio.sleep(0.05)
    assert not closing.done()  # lingering (close_linger 0.5 s) for the ack
    late = NetConfig(connect_timeout=0.3)
    with pytest.raises(ConnectTimeout):
        await Client.connect(*server.address, "late", late)
    assert server.stats.dropped["closing"] >= 1
    assert server.stats.sessions_accepted == 1
    await closing
    await silent.close()
    assert not other_tasks()


async def test_a_slow_application_applies_backpressure_without_loss() -> None:
    config = NetConfig(max_pending_events=8, connect_timeout=3.0)
    async with (
        await Server.start("127.0.0.1", 0, accept_all, config) as server,
        await Client.connect(*server.address, "fast talker", config) as client,
    ):
        await next_event_of(server.next_event, Connected)
        for n in range(400):
            client.send({"n": n, "pad": "x" * 200})
        # The application is busy elsewhere until the ninth message waits for
        # room in its queue (up to 10 s: the datagrams cross one loop turn each).
        for _ in range(1000):
            if server._engine._blocked:
                break
            await asyncio.sleep(0.01)
        assert server._engine._blocked, "no message ever waited for room in the queue"
        # Only 8 messages were accepted into the queue; the rest wait unacked.
        assert server.stats.messages_delivered == 8
        received: list[int] = []
        while len(received) < 400:
            event = await asyncio.wait_for(server.next_event(), 5)
            assert isinstance(event, Message)
            received.append(event.payload["n"])
            if len(received) % 50 == 0:
                await asyncio.sleep(0.02)
        assert received == list(range(400))
        assert server.stats.dropped["undelivered_at_close"] == 0


async def test_send_queue_limit_pushes_back_on_the_sender(connected: Any) -> None:
    _, client, _ = connected
    with pytest.raises(SendQueueFull):
        for _ in range(100):
            client.send("m" * 60_000)


async def test_authorize_may_give_a_session_a_smaller_send_queue() -> None:
    """A session that needs little holds little when its peer stops
    acknowledging (a game's spectators); the others keep the config's bound."""

    def authorize(address: Any, hello: Any) -> Accept:
        return Accept(hello, max_send_queue_bytes=4096 if hello == "small" else None)

    async with await Server.start("127.0.0.1", 0, authorize, QUICK_CONFIG) as server:
        port = server.address[1]
        small = await Client.connect("127.0.0.1", port, "small", QUICK_CONFIG)
        large = await Client.connect("127.0.0.1", port, "large", QUICK_CONFIG)
        ids = {}
        for _ in range(2):
            event = await next_event_of(server.next_event, Connected)
            ids[event.hello] = event.session_id
        try:
            # No await between sends: no acknowledgement can come meanwhile.
            with pytest.raises(SendQueueFull):
                for _ in range(10):
                    server.send(ids["small"], "m" * 1000)
            for _ in range(10):
                server.send(ids["large"], "m" * 1000)
        finally:
            await small.close()
            await large.close()


async def test_a_close_that_is_itself_cancelled_still_closes_the_socket() -> None:
    """A client closed while it is being closed (an app that quits while its
    client gives up a reconnect) once kept its socket open past the loop's
    end: "Exception ignored in DatagramStream.__del__: Event loop is closed"."""
    async with await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG) as server:
        client = await Client.connect("127.0.0.1", server.address[1], "hi", QUICK_CONFIG)
        # Its session already over (the host's CLOSE came), a close goes
        # straight to stopping the engine's tasks; it is cancelled there.
        closing = asyncio.ensure_future(client._engine.shutdown())
        await asyncio.sleep(0)
        closing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await closing
        assert client._engine.sock._stream._transport.is_closing()
        await client.close()  # and a later close has nothing left to do


async def test_a_close_cancelled_while_it_lingers_still_closes_the_socket() -> None:
    """A close cut short while it lingers for its last message's ack (a
    spectator who sat down closes its watching session so, and the app quit
    then) once skipped stopping the engine: the socket outlived the loop
    ("Exception ignored in DatagramStream.__del__: Event loop is closed")."""
    lingering = replace(QUICK_CONFIG, close_linger=30.0)
    async with await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG) as server:
        client = await Client.connect("127.0.0.1", server.address[1], "hi", lingering)
        await server._engine.shutdown()  # the host falls silent: nothing is acked
        client.send("bye for now")
        closing = asyncio.ensure_future(client.close())
        await asyncio.sleep(0)  # the close runs up to its linger
        assert client.running  # lingering, not stopped
        closing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await closing
        assert not client.running
        assert client._engine.sock._stream._transport.is_closing()


async def test_one_snapshot_skips_a_peer_that_takes_smaller_messages() -> None:
    """A peer's handshake may ask for messages of a few bytes: the snapshot
    for many sessions goes to the others, not raised for the one."""
    async with await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG) as server:
        tiny = await Client.connect(
            *server.address, "tiny", replace(QUICK_CONFIG, max_message_size=64)
        )
        tiny_id = (await next_event_of(server.next_event, Connected)).session_id
        big = await Client.connect(*server.address, "big", QUICK_CONFIG)
        big_id = (await next_event_of(server.next_event, Connected)).session_id
        snapshot = {"pile": ["x"] * 100}
        assert server.set_state_many([tiny_id, big_id], snapshot) == {big_id: 1}
        assert (await next_event_of(big.next_event, State)).payload == snapshot
        assert server.stats.dropped["too_large_for_peer"] == 1
        with pytest.raises(MessageTooLarge):
            server.set_state(tiny_id, snapshot)
        with pytest.raises(MessageTooLarge):
            server.set_state_many([big_id], "x" * (QUICK_CONFIG.max_message_size + 1))
        for client in (tiny, big):
            await client.close()
