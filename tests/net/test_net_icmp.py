"""asyncio-dgram queues an ICMP error (e.g. port unreachable ->
ConnectionRefusedError) and raises it from the *next* send() before that
datagram is handed to the OS. The net layer must count it and still get
that next datagram out."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import asyncio_dgram
import pytest

from net import (
    Client,
    DisconnectCause,
    Disconnected,
    Message,
    NetConfig,
    NetStats,
    PortClosed,
    Server,
)
from net.packets import ResetPacket
from net.testing import QUICK_CONFIG, accept_all, next_event_of
from net.transport import UdpSocket


async def closed_port() -> int:
    """A loopback port that nothing listens on (just released)."""
    probe = await asyncio_dgram.bind(("127.0.0.1", 0))
    port = int(probe.sockname[1])
    probe.close()
    await asyncio.sleep(0)
    return port


async def test_datagram_after_an_icmp_error_still_goes_out_and_is_counted() -> None:
    port = await closed_port()
    stats = NetStats()
    tapped: list[bytes] = []
    sock = await UdpSocket.connect(
        "127.0.0.1", port, stats, lambda addr, data: tapped.append(data), 1 << 16
    )
    try:
        assert await sock.send(b"into the void", ("127.0.0.1", port))
        await asyncio.sleep(0.1)  # the ICMP port-unreachable comes back and is queued
        listener = await asyncio_dgram.bind(("127.0.0.1", port))
        try:
            assert await sock.send(b"second", ("127.0.0.1", port))
            data, _ = await asyncio.wait_for(listener.recv(), 2)
            assert data == b"second"
        finally:
            listener.close()
    finally:
        await sock.close()
    assert stats.send_errors["ConnectionRefusedError"] == 1
    assert stats.resent_after_error == 1
    assert stats.datagrams_sent == 2
    assert tapped == [b"into the void", b"second"]


async def test_client_handshake_survives_icmp_errors_until_the_server_appears() -> None:
    port = await closed_port()

    async def start_server_later() -> Server:
        await asyncio.sleep(0.25)  # several HELLOs bounce off the closed port first
        return await Server.start("127.0.0.1", port, accept_all, QUICK_CONFIG)

    starting = asyncio.create_task(start_server_later())
    client = await Client.connect("127.0.0.1", port, "early bird", QUICK_CONFIG)
    server = await starting
    try:
        errors = client.stats.send_errors["ConnectionRefusedError"]
        errors += client.stats.receive_errors["ConnectionRefusedError"]
        assert errors >= 1
        client.send("made it")
        assert (await next_event_of(server.next_event, Message)).payload == "made it"
    finally:
        await client.close()
        await server.close()


async def test_a_port_where_nothing_listens_is_told_without_waiting_out_the_time_out() -> None:
    """A mistyped port, or a host that is gone, reports "port unreachable" to
    every HELLO; the handshake waited out all of ``connect_timeout`` (8 s for
    `threeup join`) before "no table answers".  It now gives up once the
    reports have gone on for PORT_CLOSED_GRACE, with its own error."""
    port = await closed_port()
    patient = NetConfig(connect_timeout=20.0)
    with pytest.raises(PortClosed, match=f"nothing listens at 127.0.0.1:{port}"):
        await asyncio.wait_for(Client.connect("127.0.0.1", port, "anyone?", patient), 10)


async def test_send_errors_never_escape_the_session() -> None:
    server = await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG)
    client = await Client.connect(*server.address, "x", QUICK_CONFIG)
    stream = client._engine.sock._stream  # reach in to simulate a failing OS
    assert isinstance(stream, asyncio_dgram.aio.DatagramClient)
    original = stream.send
    failures = 3

    async def flaky_send(data: bytes) -> None:
        nonlocal failures
        if failures:
            failures -= 1
            raise OSError(105, "No buffer space available")
        await original(data)

    stream.send = flaky_send  # type: ignore[method-assign]
    try:
        client.send("through the storm")
        assert (await next_event_of(server.next_event, Message)).payload == "through the storm"
        assert client.stats.send_errors["OSError"] == 3
    finally:
        await client.close()
        await server.close()


SERVER_PROCESS = """
import asyncio, sys
from net import Server
from net.testing import accept_all

async def main():
    server = await Server.start("127.0.0.1", int(sys.argv[1]), accept_all)
    print(server.address[1], flush=True)
    while True:
        await server.next_event()

asyncio.run(main())
"""


async def server_process(port: int) -> tuple[asyncio.subprocess.Process, int]:
    """A server in its own process on ``port`` (0: any), and its port."""
    root = str(Path(__file__).resolve().parents[2])
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", SERVER_PROCESS, str(port), stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": root},
    )  # fmt: skip
    assert proc.stdout is not None
    return proc, int(await asyncio.wait_for(proc.stdout.readline(), 10))


async def test_a_client_knows_its_server_is_gone_before_its_idle_timeout() -> None:
    """A server killed outright sends no CLOSE: its clients learned it only
    at their idle time-out (5 s for threeup's), while the kernel was
    telling them at once that nothing listened at the port any more."""
    proc, port = await server_process(0)
    config = NetConfig(idle_timeout=5.0, heartbeat_interval=1.0)  # threeup's client's
    client = await Client.connect("127.0.0.1", port, "still here?", config)
    try:
        proc.kill()
        await proc.wait()
        killed = time.monotonic()
        gone = await next_event_of(client.next_event, Disconnected, timeout=10)
        took = time.monotonic() - killed
    finally:
        await client.close()
    assert gone.cause is DisconnectCause.UNREACHABLE, gone
    assert took < 2.7, took  # two heartbeats and a look: 2.1 s, not the 5 s time-out


async def test_one_stray_port_unreachable_ends_no_session() -> None:
    server = await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG)
    client = await Client.connect(*server.address, "x", QUICK_CONFIG)
    try:
        client._engine.sock._count_error(ConnectionRefusedError())  # as one report counts
        client.send("after a stray report")
        assert (await next_event_of(server.next_event, Message)).payload == ("after a stray report")
        await asyncio.sleep(QUICK_CONFIG.heartbeat_interval * 3)
        assert client.connected
    finally:
        await client.close()
        await server.close()


async def test_a_client_of_a_server_that_came_back_reconnects_at_once() -> None:
    """A server killed and started again on its port at once (a host
    resumed): the new process knows no session of before, and dropped the
    clients' datagrams unanswered, so each waited out its idle time-out
    (5 s for threeup's) before coming back.  It now answers RESET, and the
    client's session ends at its next heartbeat."""
    first, port = await server_process(0)
    # Heartbeats 3 s apart: the port is closed for a moment while the new
    # process starts, and two refused heartbeats would end it as UNREACHABLE.
    config = NetConfig(idle_timeout=10.0, heartbeat_interval=3.0)
    client = await Client.connect("127.0.0.1", port, "still here?", config)
    again: asyncio.subprocess.Process | None = None
    try:
        first.kill()
        await first.wait()
        again, _ = await server_process(port)
        listening = time.monotonic()
        gone = await next_event_of(client.next_event, Disconnected, timeout=10)
        took = time.monotonic() - listening
    finally:
        await client.close()
        if again is not None:
            again.kill()
            await again.wait()
    assert gone.cause is DisconnectCause.RESET, gone
    assert took < 4.5, took  # the next heartbeat, not the 10 s idle time-out


async def test_a_reset_for_another_session_ends_nothing() -> None:
    server = await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG)
    client = await Client.connect(*server.address, "x", QUICK_CONFIG)
    try:
        (session_id,) = client._engine.sessions
        client._engine.handle_reset_packet(ResetPacket(session_id ^ 1), server.address)
        await asyncio.sleep(QUICK_CONFIG.heartbeat_interval * 2)
        assert client.connected
        client._engine.handle_reset_packet(ResetPacket(session_id), server.address)
        gone = await next_event_of(client.next_event, Disconnected)
        assert gone.cause is DisconnectCause.RESET
    finally:
        await client.close()
        await server.close()
