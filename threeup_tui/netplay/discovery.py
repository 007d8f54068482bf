"""LAN discovery: hosts announce their table by UDP broadcast; joiners listen.

An announcement is one small msgpack map (well under 512 bytes), sent at
most once a second.  The address it goes to is a setting: a real LAN party
uses the limited broadcast address, while tests use 127.255.255.255 (or turn
announcing off), so nothing leaves the machine.  Listeners ignore anything
that is not a well-formed announcement and forget tables that go quiet.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import asyncio_dgram
import msgpack

from ..tasks import cancel_and_wait
from .wire import GAME, PROTOCOL

DEFAULT_ANNOUNCE_ADDRESS: Final = "255.255.255.255"
DEFAULT_ANNOUNCE_PORT: Final = 47824
ANNOUNCE_INTERVAL: Final = 1.0
FORGET_AFTER: Final = 5.0
MAX_ANNOUNCEMENT: Final = 512
# Anyone on the LAN can announce, from one machine, a "table" on each of its
# 65,535 ports: a listener keeps this many tables per IP address, and this
# many in all; a table already heard is always heard again.
MAX_TABLES_PER_HOST: Final = 16
MAX_TABLES: Final = 64


@dataclass(frozen=True)
class TableAnnouncement:
    host: str  # where the announcement came from
    port: int  # the table's game port
    name: str
    free_seats: int
    seats: int
    code_required: bool
    started: bool
    table_id: str | None = None  # None: a host that does not send one
    closed: bool = False  # the host's last word: the table is gone

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


MAX_TABLE_ID: Final = 64
MAX_NAME: Final = 40


def encode_announcement(
    name: str,
    port: int,
    free_seats: int,
    seats: int,
    code_required: bool,
    started: bool,
    table_id: str | None = None,
    closed: bool = False,
) -> bytes:
    """At most 40 characters of name (160 bytes of UTF-8) and a table id of
    at most 64: always well under MAX_ANNOUNCEMENT bytes."""
    fields: dict[str, Any] = {
        "game": GAME,
        "v": PROTOCOL,
        "name": name[:MAX_NAME],
        "port": port,
        "free": free_seats,
        "seats": seats,
        "code": code_required,
        "started": started,
    }
    if table_id is not None:
        fields["id"] = table_id[:MAX_TABLE_ID]
    if closed:
        fields["closed"] = True
    data: bytes = msgpack.packb(fields)
    return data


def decode_announcement(data: bytes, host: str) -> TableAnnouncement | None:
    """The announcement in a datagram, or None for anything else."""
    if len(data) > MAX_ANNOUNCEMENT:
        return None
    try:
        value = msgpack.unpackb(
            data, raw=False, max_str_len=200, max_bin_len=0, max_array_len=16, max_map_len=16
        )
    except Exception:  # any malformed datagram: msgpack raises many kinds
        return None
    if (
        not isinstance(value, dict)
        or value.get("game") != GAME
        or not _small_int(value.get("v"), PROTOCOL, PROTOCOL)  # not true, not 1.0
    ):
        return None
    name, port, free, seats = (value.get(k) for k in ("name", "port", "free", "seats"))
    code, started = value.get("code"), value.get("started")
    table_id, closed = value.get("id"), value.get("closed", False)
    if table_id is not None and not (
        isinstance(table_id, str) and 0 < len(table_id) <= MAX_TABLE_ID
    ):
        return None
    if not (
        isinstance(name, str)
        and len(name) <= MAX_NAME
        and _small_int(port, 1, 65535)
        and _small_int(free, 0, 6)
        and _small_int(seats, 2, 6)
        and isinstance(code, bool)
        and isinstance(started, bool)
        and isinstance(closed, bool)
    ):
        return None
    assert isinstance(port, int) and isinstance(free, int) and isinstance(seats, int)
    return TableAnnouncement(host, port, name, free, seats, code, started, table_id, closed)


def _small_int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


# The closing announcement goes out this many times: one lost datagram
# would leave a closed table in friends' lists for FORGET_AFTER seconds.
FAREWELL_COPIES: Final = 2


class Announcer:
    """Broadcasts what ``describe()`` returns, once per interval; when it
    stops, what ``farewell()`` returns (the table closed), if given."""

    def __init__(
        self,
        describe: Callable[[], bytes],
        address: str = DEFAULT_ANNOUNCE_ADDRESS,
        port: int = DEFAULT_ANNOUNCE_PORT,
        interval: float = ANNOUNCE_INTERVAL,
        farewell: Callable[[], bytes] | None = None,
    ) -> None:
        self.describe = describe
        self.farewell = farewell
        self.address = address
        self.port = port
        self.interval = max(interval, 0.2)  # rate limit, whatever the caller asks
        self.sent = 0
        self.errors = 0
        self._task: asyncio.Task[None] | None = None
        self._stream: Any = None

    async def start(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        sock.setblocking(False)
        sock.bind(("0.0.0.0", 0))
        self._stream = await asyncio_dgram.from_socket(sock)
        self._task = asyncio.get_running_loop().create_task(self._run(self._stream))

    async def _run(self, stream: Any) -> None:
        while True:
            await self._send(stream, self.describe())
            await asyncio.sleep(self.interval)

    async def _send(self, stream: Any, data: bytes) -> None:
        try:
            await stream.send(data, (self.address, self.port))
            self.sent += 1
        except OSError:
            self.errors += 1  # no route / ICMP: try again next time

    async def stop(self) -> None:
        """Stop announcing; say the table closed, so that lists drop it at
        once (a cleanly closed table stayed in friends' lists for 5 s)."""
        await cancel_and_wait(self._task)
        self._task = None
        stream, self._stream = self._stream, None
        if stream is None:
            return
        try:
            if self.farewell is not None:
                for _ in range(FAREWELL_COPIES):
                    await self._send(stream, self.farewell())
        finally:
            stream.close()


class Listener:
    """Hears announcements and keeps the tables heard recently."""

    def __init__(self, port: int = DEFAULT_ANNOUNCE_PORT, bind: str = "0.0.0.0") -> None:
        self.port = port
        self.bind = bind
        self.tables: dict[tuple[str, int], tuple[TableAnnouncement, float]] = {}
        self.ignored = 0
        self.changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stream: Any = None

    async def start(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        with contextlib.suppress(AttributeError, OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)  # several listeners
        sock.setblocking(False)
        sock.bind((self.bind, self.port))
        stream = self._stream = await asyncio_dgram.from_socket(sock)
        self._task = asyncio.get_running_loop().create_task(self._run(stream))

    async def _run(self, stream: Any) -> None:
        try:
            while True:
                data, addr = await stream.recv()
                heard = decode_announcement(data, addr[0])
                now = time.monotonic()
                if heard is not None and heard.closed:
                    if self.tables.pop((heard.host, heard.port), None) is not None:
                        self.changed.set()  # gone from the list now, not in 5 s
                    continue
                if heard is None or not self._room_for(heard, now):
                    self.ignored += 1
                    continue
                self.tables[(heard.host, heard.port)] = (heard, now)
                self.changed.set()
        finally:
            stream.close()

    def _room_for(self, heard: TableAnnouncement, now: float) -> bool:
        """Whether ``heard`` may be kept: a table already kept always is; a
        new one while its IP address and the whole list have room."""
        if (heard.host, heard.port) in self.tables:
            return True
        self._forget(now)
        same_host = sum(1 for host, _ in self.tables if host == heard.host)
        return same_host < MAX_TABLES_PER_HOST and len(self.tables) < MAX_TABLES

    def _forget(self, now: float) -> None:
        for key, (_heard, when) in list(self.tables.items()):
            if now - when > FORGET_AFTER:
                del self.tables[key]

    def current(self) -> list[TableAnnouncement]:
        """Tables heard within the last few seconds, by name."""
        self._forget(time.monotonic())
        return sorted((t for t, _ in self.tables.values()), key=lambda t: (t.name, t.address))

    async def stop(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None
        # Closed here too: a task cancelled before its first step never runs
        # its finally, and its socket was closed only when collected, once
        # the loop was gone ("Exception ignored in DatagramStream.__del__").
        stream, self._stream = self._stream, None
        if stream is not None:
            stream.close()
