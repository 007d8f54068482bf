"""The connecting side: one session to one server."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import secrets
import socket
from dataclasses import dataclass
from typing import Any

from net.codec import Rejected, decode, encode
from net.config import NetConfig
from net.endpoint import Endpoint
from net.engine import PORT_CLOSED_AFTER, Engine
from net.errors import ConnectTimeout, NetError, PortClosed, Refused, SessionClosed
from net.events import Address
from net.packets import (
    AcceptPacket,
    ChallengePacket,
    ClosePacket,
    EchoPacket,
    HelloPacket,
    RefusePacket,
    ResetPacket,
    SessionPacket,
)
from net.scout import answering_address
from net.session import SessionCore
from net.stats import NetStats
from net.transport import DatagramTap, UdpSocket


def _shown(address: Address) -> str:
    host, port = address
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class _AnswersElsewhere(NetError):
    """The server answers from ``address``, not from where it was asked."""

    def __init__(self, address: Address) -> None:
        super().__init__(f"the server answers from {_shown(address)}")
        self.address = address


PORT_CLOSED_GRACE = 1.0
"""Seconds a handshake keeps knocking at a port that reports nothing
listens there (``PORT_CLOSED_AFTER`` reports in a row) before it gives up
with ``PortClosed``: a server started a moment after its client (a script,
a host being resumed) is still met, and a mistyped port is told in about a
second rather than at ``connect_timeout``."""


async def _addresses_of(host: str, port: int) -> list[Address]:
    """``(host, port)`` for an address; every address a host name resolves
    to, in the resolver's order, without repeats."""
    try:
        ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        pass
    else:
        return [(host, port)]
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_DGRAM)
    found: list[Address] = []
    for *_, sockaddr in infos:
        address, resolved_port, *rest = sockaddr
        if len(rest) == 2 and rest[1]:
            address = f"{address}%{rest[1]}"  # a link-local IPv6 address needs its interface
        found.append((str(address), int(resolved_port)))
    return list(dict.fromkeys(found)) or [(host, port)]


@dataclass
class _Handshake:
    """Client handshake state, advanced by the receive task."""

    nonce: int
    hello: Any
    outgoing: bytes
    """HELLO until a CHALLENGE arrives, then the ECHO."""
    last_sent_at: float = 0.0
    rtt: float | None = None
    progress: asyncio.Event | None = None
    result: SessionCore | NetError | None = None


class Client(Endpoint):
    """A session to one server. Create it with ``await Client.connect(...)``
    (or ``async with await Client.connect(...)``). All methods must be called
    from the event loop thread."""

    def __init__(self, engine: Engine, config: NetConfig) -> None:
        self._engine = engine
        self._config = config
        self._handshake: _Handshake | None = None
        self._session: SessionCore | None = None
        self.session_id = 0
        self.accept_payload: Any = None
        engine.on_session_end = self._on_session_end

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        hello: Any,
        config: NetConfig | None = None,
        *,
        on_datagram_sent: DatagramTap | None = None,
    ) -> Client:
        """Handshake with the server at ``host:port``, offering ``hello``
        (any msgpack-able value, encoded below ~1 KiB) to its ``authorize``.

        A host name is tried at each address it resolves to, in the
        resolver's order, while those report that nothing listens there
        (``PortClosed``): ``localhost`` is ``::1`` first on many systems, and
        a server may listen on IPv4 alone.  A server that answers from
        another address than the one asked (one bound to every address of
        its machine: ``net/scout.py``) is followed there once.  All of it
        within one ``connect_timeout``.

        Raises ``Refused(reason)``, ``ConnectTimeout``, ``PortClosed``,
        ``OSError`` for a name that does not resolve, or ValueError /
        TypeError when ``hello`` is too large / not msgpack-able."""
        config = config or NetConfig()
        # Encode first: a bad hello fails before any name is looked up or
        # any socket exists.
        encode(HelloPacket(0, config.window_frames, config.max_message_size, hello))
        encode(EchoPacket(0, config.window_frames, config.max_message_size, hello, 0, bytes(16)))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + config.connect_timeout
        *others, last = await _addresses_of(host, port)
        tap = on_datagram_sent
        for address in others:
            with contextlib.suppress(PortClosed):
                return await cls._connect_following(address, hello, config, tap, deadline)
        return await cls._connect_following(last, hello, config, tap, deadline)

    @classmethod
    async def _connect_following(
        cls,
        address: Address,
        hello: Any,
        config: NetConfig,
        on_datagram_sent: DatagramTap | None,
        deadline: float,
    ) -> Client:
        """Connect to ``address``, or to where it answers from."""
        host, port = address
        try:
            return await cls._connect_once(
                host, port, hello, config, on_datagram_sent, deadline, scout=True
            )
        except _AnswersElsewhere as moved:
            host, port = moved.address
            return await cls._connect_once(
                host, port, hello, config, on_datagram_sent, deadline, scout=False
            )

    @classmethod
    async def _connect_once(
        cls,
        host: str,
        port: int,
        hello: Any,
        config: NetConfig,
        on_datagram_sent: DatagramTap | None,
        deadline: float,
        scout: bool,
    ) -> Client:
        stats = NetStats()
        nonce = secrets.randbits(64)
        hello_datagram = encode(
            HelloPacket(nonce, config.window_frames, config.max_message_size, hello)
        )
        sock = await UdpSocket.connect(
            host, port, stats, on_datagram_sent, config.socket_buffer_bytes
        )
        client: Client | None = None

        def on_datagram(data: bytes, addr: Address, now: float) -> None:
            assert client is not None
            client._on_datagram(data, addr, now)

        engine = Engine(sock, config, stats, on_datagram)
        client = cls(engine, config)
        engine.start()
        try:
            handshake = _Handshake(nonce, hello, hello_datagram)
            await client._run_handshake(handshake, deadline, scout, on_datagram_sent)
        except BaseException:
            await engine.shutdown()
            raise
        return client

    async def _run_handshake(
        self, handshake: _Handshake, deadline: float, scout: bool, tap: DatagramTap | None
    ) -> None:
        handshake.progress = asyncio.Event()
        self._handshake = handshake
        engine = self._engine
        peer = engine.sock.peer_address
        assert peer is not None
        retry = self._config.handshake_initial_retry
        started = engine.now()
        scouting: asyncio.Task[None] | None = None
        try:
            while handshake.result is None:
                remaining = deadline - engine.now()
                if remaining <= 0:
                    raise ConnectTimeout(
                        f"no handshake answer within {self._config.connect_timeout:g} s"
                    )
                handshake.last_sent_at = engine.now()
                await engine.sock.send(handshake.outgoing, peer)
                handshake.progress.clear()
                try:
                    await asyncio.wait_for(handshake.progress.wait(), min(retry, remaining))
                    retry = self._config.handshake_initial_retry  # next phase
                except TimeoutError:
                    retry = min(retry * 2, self._config.max_rto)
                    engine.sock.count_queued_error()
                    refused = engine.sock.refused_in_a_row >= PORT_CLOSED_AFTER
                    if refused and engine.now() - started >= PORT_CLOSED_GRACE:
                        # Reports since anything was heard from the server:
                        # nothing listens there (a typed port, a host gone).
                        raise PortClosed(f"nothing listens at {_shown(peer)}") from None
                    if scout and scouting is None and handshake.rtt is None:
                        # No answer to the first HELLO: lost, or sent from
                        # an address this connected socket cannot hear.
                        scouting = asyncio.create_task(self._scout(handshake, peer, deadline, tap))
        finally:
            if scouting is not None:
                scouting.cancel()
                await asyncio.wait([scouting])  # its socket closed; our own cancel still raises
        if isinstance(handshake.result, NetError):
            raise handshake.result
        self._session = handshake.result
        self.session_id = handshake.result.session_id

    async def _scout(
        self, handshake: _Handshake, peer: Address, deadline: float, tap: DatagramTap | None
    ) -> None:
        engine = self._engine
        try:
            found = await answering_address(*peer, self._config, engine.stats, deadline, tap)
        except OSError:  # no socket for the scout (no IPv6 here, no ports left): ask as before
            return
        heard_nothing = handshake.rtt is None and handshake.result is None
        if found is not None and found != peer and heard_nothing:
            handshake.result = _AnswersElsewhere(found)
            assert handshake.progress is not None
            handshake.progress.set()

    # --- public API -------------------------------------------------------------

    @property
    def local_address(self) -> Address:
        return self._engine.sock.local_address

    @property
    def server_address(self) -> Address:
        peer = self._engine.sock.peer_address
        assert peer is not None
        return peer

    @property
    def connected(self) -> bool:
        """True until the session ends (either side) or ``close``."""
        return self._session is not None and not self._engine.stopped

    @property
    def rtt(self) -> float | None:
        """Smoothed round-trip time in seconds, if measured yet."""
        return None if self._session is None else self._session.rtt.srtt

    def _live_session(self) -> SessionCore:
        if self._session is None or self._engine.stopped:
            raise SessionClosed("not connected")
        return self._session

    def send(self, obj: Any) -> None:
        """Queue a reliable, ordered message. Raises ``SessionClosed``,
        ``MessageTooLarge``, ``SendQueueFull`` or ``TypeError``."""
        self._live_session().send_message(obj)
        self._engine.mark_dirty(self.session_id)

    def set_state(self, obj: Any) -> int:
        """Replace this side's latest state snapshot; returns its version."""
        version = self._live_session().set_state(obj)
        self._engine.mark_dirty(self.session_id)
        return version

    # --- datagram handling (receive task) ---------------------------------------

    def _on_session_end(self, session: SessionCore) -> None:
        self._session = None
        self._engine.events.close()  # Disconnected is the last event

    def _on_datagram(self, data: bytes, addr: Address, now: float) -> None:
        stats = self._engine.stats
        packet = decode(data)
        match packet:
            case Rejected():
                stats.drop(packet.reason)
            case SessionPacket():
                self._engine.handle_session_packet(packet, addr, now)
            case ClosePacket():
                self._engine.handle_close_packet(packet, addr)
            case ResetPacket():
                self._engine.handle_reset_packet(packet, addr)
            case ChallengePacket() | AcceptPacket() | RefusePacket():
                self._on_handshake_reply(packet, addr, now)
            case _:
                stats.drop("unexpected_type")

    def _on_handshake_reply(
        self, packet: ChallengePacket | AcceptPacket | RefusePacket, addr: Address, now: float
    ) -> None:
        handshake = self._handshake
        if handshake is None or handshake.result is not None or packet.nonce != handshake.nonce:
            self._engine.stats.drop("stray_handshake")
            return
        if handshake.rtt is None:
            handshake.rtt = now - handshake.last_sent_at
        config = self._config
        match packet:
            case ChallengePacket():
                handshake.outgoing = encode(
                    EchoPacket(
                        handshake.nonce,
                        config.window_frames,
                        config.max_message_size,
                        handshake.hello,
                        packet.cookie_time,
                        packet.cookie_mac,
                    )
                )
            case RefusePacket():
                handshake.result = Refused(packet.reason)
            case AcceptPacket():
                session = SessionCore(
                    packet.session_id,
                    addr,
                    config,
                    self._engine.stats,
                    now,
                    peer_window=packet.recv_window,
                    peer_max_message=packet.max_message,
                    initial_rtt=handshake.rtt,
                    ack_now=True,  # confirms the session and gives the server an RTT sample
                )
                self.accept_payload = packet.payload
                handshake.result = session
                self._engine.add_session(session)
        assert handshake.progress is not None
        handshake.progress.set()
