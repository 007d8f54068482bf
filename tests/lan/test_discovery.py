"""LAN discovery on loopback only: announcements go to 127.255.255.255."""

from __future__ import annotations

import asyncio
import socket

import msgpack
import pytest

from threeup_tui.launcher import HostSettings, Launcher
from threeup_tui.netplay.discovery import (
    MAX_TABLES,
    MAX_TABLES_PER_HOST,
    Announcer,
    Listener,
    decode_announcement,
    encode_announcement,
)

LOOPBACK_BROADCAST = "127.255.255.255"


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_announcement_is_small_and_round_trips() -> None:
    data = encode_announcement("Ann's table", 47823, 2, 4, True, False)
    assert len(data) < 200
    heard = decode_announcement(data, "127.0.0.1")
    assert heard is not None
    assert (heard.name, heard.port, heard.free_seats, heard.seats) == ("Ann's table", 47823, 2, 4)
    assert heard.code_required and not heard.started
    assert heard.address == "127.0.0.1:47823"


# A well-formed announcement; each malformed one below changes one field.
VALID = {
    "game": "threeup",
    "v": 1,
    "name": "x",
    "port": 1,
    "free": 1,
    "seats": 2,
    "code": False,
    "started": False,
}


def test_the_valid_announcement_used_below_is_heard() -> None:
    assert decode_announcement(msgpack.packb(VALID), "127.0.0.1") is not None


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xff\x00garbage",
        msgpack.packb({"game": "other", "v": 1}),
        msgpack.packb({**VALID, "v": 2}),
        msgpack.packb({**VALID, "port": 70000}),
        msgpack.packb({**VALID, "name": 5}),
        msgpack.packb({**VALID, "name": "x" * 41}),  # longer than any host sends
        msgpack.packb({**VALID, "v": True}),  # not an integer
        msgpack.packb({**VALID, "v": 1.0}),
        msgpack.packb({**VALID, "closed": 1}),  # not a bool
        msgpack.packb([1, 2, 3]),
        b"\xdd\xff\xff\xff\xff",  # an array header declaring 4 billion items
        b"\x00" * 600,  # too large
    ],
)
def test_malformed_announcements_are_ignored(data: bytes) -> None:
    assert decode_announcement(data, "127.0.0.1") is None


async def test_a_listener_hears_an_announcer_and_ignores_noise() -> None:
    port = free_udp_port()
    listener = Listener(port)  # binds the wildcard: broadcasts reach it; nothing is sent
    await listener.start()
    announcer = Announcer(
        lambda: encode_announcement("t1", 40000, 3, 4, False, False),
        LOOPBACK_BROADCAST,
        port,
        interval=0.2,
    )
    await announcer.start()
    noise = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        noise.sendto(b"not an announcement", ("127.0.0.1", port))
        for _ in range(50):
            if listener.current() and listener.ignored:
                break
            await asyncio.sleep(0.05)
        tables = listener.current()
        assert [t.name for t in tables] == ["t1"]
        assert tables[0].port == 40000 and tables[0].free_seats == 3
        assert listener.ignored >= 1
    finally:
        noise.close()
        await announcer.stop()
        await listener.stop()


async def test_announcements_are_rate_limited() -> None:
    port = free_udp_port()
    listener = Listener(port)  # binds the wildcard: broadcasts reach it; nothing is sent
    await listener.start()
    # Asking for 100 announcements a second still gives at most 5.
    announcer = Announcer(
        lambda: encode_announcement("t", 1, 1, 2, False, False),
        LOOPBACK_BROADCAST,
        port,
        interval=0.01,
    )
    await announcer.start()
    await asyncio.sleep(1.0)
    await announcer.stop()
    await listener.stop()
    assert 1 <= announcer.sent <= 6


async def test_a_hosted_table_is_announced_and_its_seats_counted() -> None:
    port = free_udp_port()
    launcher = Launcher(announce_address=LOOPBACK_BROADCAST, announce_port=port, listen_port=port)
    launcher.bot_delay = 0
    client = await launcher.host(
        HostSettings(players=3, bots=1, name="Ann", port=0, bind="127.0.0.1")
    )
    try:
        seen = None
        async for tables in launcher.discover():
            if tables:
                seen = tables
                break
        assert seen is not None
        (table,) = seen
        assert table.name == "Ann's table"
        assert table.free_seats == 1 and table.seats == 3
        assert table.port == client.address[1]  # type: ignore[attr-defined]
    finally:
        await client.close()


async def test_a_table_closed_by_its_host_leaves_the_list_at_once() -> None:
    """A host that closed its table cleanly stayed in friends' join lists
    for FORGET_AFTER (5 s), a table that would refuse them; its announcer
    now says the table closed as it stops."""
    port = free_udp_port()
    listener = Listener(port)  # binds the wildcard: broadcasts reach it; nothing is sent
    await listener.start()
    launcher = Launcher(announce_address=LOOPBACK_BROADCAST, announce_port=port)
    client = await launcher.host(HostSettings(players=2, name="Ann", port=0, bind="127.0.0.1"))
    try:
        async with asyncio.timeout(5):
            while not listener.current():
                await asyncio.sleep(0.02)
        await client.close()
        closed_at = loop_time = asyncio.get_running_loop().time()
        async with asyncio.timeout(5):
            while listener.current():
                await asyncio.sleep(0.02)
                loop_time = asyncio.get_running_loop().time()
        assert loop_time - closed_at < 1.0
        assert listener.ignored == 0  # the farewell is understood, not counted as noise
    finally:
        await client.close()
        await listener.stop()


async def test_a_host_with_announcing_off_sends_nothing() -> None:
    port = free_udp_port()
    listener = Listener(port)  # binds the wildcard: broadcasts reach it; nothing is sent
    await listener.start()
    launcher = Launcher(announce_address="off", announce_port=port)
    client = await launcher.host(HostSettings(players=2, name="Q", port=0, bind="127.0.0.1"))
    try:
        await asyncio.sleep(1.5)
        assert listener.current() == []
        assert client.announcer is None  # type: ignore[attr-defined]
    finally:
        await client.close()
        await listener.stop()


async def test_the_list_of_tables_is_bounded_per_address_and_in_all() -> None:
    """Anyone on the LAN may announce a "table" on each of its ports: one
    machine filled the list with 65,535 (and the join screen redrew them
    all each time).  A listener keeps MAX_TABLES_PER_HOST per IP address and
    MAX_TABLES in all; a table it keeps is still heard, and the rest is
    counted as ignored.  Everything is sent to 127.0.0.1 from 127.0.0.x."""
    port = free_udp_port()
    listener = Listener(port, bind="127.0.0.1")
    await listener.start()
    hosts = [f"127.0.0.{i}" for i in range(1, MAX_TABLES // MAX_TABLES_PER_HOST + 2)]
    socks = []
    for host in hosts:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind((host, 0))
        socks.append(sock)
    sent = 0

    async def announce(sock: socket.socket, game_port: int, name: str = "t") -> None:
        nonlocal sent
        sock.sendto(encode_announcement(name, game_port, 1, 2, False, False), ("127.0.0.1", port))
        sent += 1
        for _ in range(500):  # one at a time: the socket buffer drops nothing
            if len(listener.tables) + listener.ignored == sent:
                break
            await asyncio.sleep(0.002)

    try:
        for game_port in range(1, MAX_TABLES_PER_HOST + 11):
            await announce(socks[0], game_port)
        assert len(listener.current()) == MAX_TABLES_PER_HOST
        for sock in socks[1:]:
            for game_port in range(1, MAX_TABLES_PER_HOST + 1):
                await announce(sock, game_port)
        tables = listener.current()
        assert len(tables) == MAX_TABLES
        assert {t.host for t in tables} == set(hosts[: MAX_TABLES // MAX_TABLES_PER_HOST])
        assert listener.ignored == sent - MAX_TABLES
        socks[0].sendto(  # a table kept is heard again
            encode_announcement("renamed", 1, 1, 2, False, False), ("127.0.0.1", port)
        )
        for _ in range(500):
            if "renamed" in [t.name for t in listener.current()]:
                break
            await asyncio.sleep(0.002)
        assert "renamed" in [t.name for t in listener.current()]
        assert len(listener.current()) == MAX_TABLES
    finally:
        for sock in socks:
            sock.close()
        await listener.stop()


async def test_a_listener_stopped_before_it_ran_closes_its_socket() -> None:
    """Stopped at once (a join form left as soon as it opened), the task that
    closed the listener's socket in its finally was cancelled before its
    first step, never ran that finally, and the socket stayed open until it
    was collected, once the loop was gone ("Exception ignored in
    DatagramStream.__del__", seen in CI).  The stop closes it itself."""
    listener = Listener(free_udp_port())
    await listener.start()
    stream = listener._stream
    assert stream is not None
    await listener.stop()  # before the listening task has run a step
    assert stream._transport.is_closing()
