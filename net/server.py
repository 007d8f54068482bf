"""The accepting side: handshake, admission control, many sessions."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from net.codec import Rejected, decode, encode, encode_message
from net.config import NetConfig
from net.endpoint import Endpoint
from net.engine import Engine
from net.errors import MessageTooLarge
from net.events import Address, Connected, DisconnectCause
from net.handshake import AmplificationLedger, CookieJar, ReplayGuard
from net.packets import (
    MAX_DATAGRAM,
    MAX_REASON_CHARS,
    MIN_HELLO_SIZE,
    PROTOCOL_VERSION,
    AcceptPacket,
    ChallengePacket,
    ClosePacket,
    EchoPacket,
    HelloPacket,
    RefusePacket,
    ResetPacket,
    SessionPacket,
    VersionMismatch,
)
from net.ratelimit import AddressRateLimiter
from net.session import SessionCore
from net.stats import NetStats
from net.transport import DatagramTap, UdpSocket

log = logging.getLogger(__name__)

SERVER_FULL = "server full"  # the REFUSE reason when max_sessions are open
RESET_INTERVAL = 0.25
"""Least seconds between two RESETs to one address (each answers a SESSION
datagram for no live session: a client gone on talking to a server that
restarted, or that ended its session)."""


@dataclass(frozen=True)
class Accept:
    """``authorize`` verdict: admit the client. ``payload`` (any msgpack-able
    value, e.g. the seat's secret token) travels in the ACCEPT datagram, so
    it must encode to well under 1 KiB.  ``max_send_queue_bytes``: this
    session's bound on reliable messages not yet acknowledged (None: the
    server's config), so that sessions which need little may hold little
    when their peer stops acknowledging."""

    payload: Any = None
    max_send_queue_bytes: int | None = None


@dataclass(frozen=True)
class Refuse:
    """``authorize`` verdict: turn the client away; it raises
    ``Refused(reason)``. Reasons are cut to 200 characters."""

    reason: str


Authorize = Callable[[Address, Any], Accept | Refuse]


class Server(Endpoint):
    """A UDP endpoint accepting sessions. Create it with ``await
    Server.start(...)`` (or ``async with await Server.start(...)``).

    All methods must be called from the event loop thread. ``authorize``
    runs inside the receive task: it must be quick and must not block.
    """

    _close_reason = "server shutdown"

    def __init__(self, engine: Engine, authorize: Authorize, config: NetConfig) -> None:
        self._engine = engine
        self._authorize = authorize
        self._config = config
        self._cookies = CookieJar(config.cookie_lifetime)
        self._ledger = AmplificationLedger(
            config.amplification_factor, config.max_tracked_addresses
        )
        self._replays = ReplayGuard(config.cookie_lifetime, config.max_tracked_addresses)
        self._limiter = AddressRateLimiter(
            config.rate_limit_per_second, config.rate_limit_burst, config.max_tracked_addresses
        )
        self._by_address: dict[Address, SessionCore] = {}
        # At most one RESET per RESET_INTERVAL to an address.
        self._resets = AddressRateLimiter(1 / RESET_INTERVAL, 1, config.max_tracked_addresses)
        engine.on_session_end = self._forget_session

    @classmethod
    async def start(
        cls,
        host: str,
        port: int,
        authorize: Authorize,
        config: NetConfig | None = None,
        *,
        on_datagram_sent: DatagramTap | None = None,
    ) -> Server:
        """Bind ``host:port`` (port 0 picks a free one; see ``address``) and
        start serving. ``on_datagram_sent(addr, data)`` is called for every
        datagram actually handed to the socket (a test/inspection hook)."""
        config = config or NetConfig()
        stats = NetStats()
        sock = await UdpSocket.bind(host, port, stats, on_datagram_sent, config.socket_buffer_bytes)
        server: Server | None = None

        def on_datagram(data: bytes, addr: Address, now: float) -> None:
            assert server is not None
            server._on_datagram(data, addr, now)

        engine = Engine(sock, config, stats, on_datagram)
        server = cls(engine, authorize, config)
        engine.start()
        return server

    # --- public API -------------------------------------------------------------

    @property
    def address(self) -> Address:
        """The bound (host, port)."""
        return self._engine.sock.local_address

    @property
    def config(self) -> NetConfig:
        return self._config

    @property
    def session_ids(self) -> list[int]:
        return list(self._engine.sessions)

    def session_address(self, session_id: int) -> Address:
        return self._engine.session(session_id).address

    def session_rtt(self, session_id: int) -> float | None:
        """Smoothed round-trip time in seconds, if measured yet."""
        return self._engine.session(session_id).rtt.srtt

    def session_heard(self, session_id: int) -> bool:
        """Whether a session datagram from the client has arrived since the
        ACCEPT: it got the ACCEPT.  Raises ``UnknownSession``."""
        return self._engine.session(session_id).heard

    def send(self, session_id: int, obj: Any) -> None:
        """Queue a reliable, ordered message. Raises ``UnknownSession``,
        ``SessionClosed`` (closing), ``MessageTooLarge``, ``SendQueueFull``
        or ``TypeError`` (not msgpack-able)."""
        self._engine.check_open()
        self._engine.session(session_id).send_message(obj)
        self._engine.mark_dirty(session_id)

    def set_state(self, session_id: int, obj: Any) -> int:
        """Replace the session's latest state snapshot; returns its version."""
        self._engine.check_open()
        version = self._engine.session(session_id).set_state(obj)
        self._engine.mark_dirty(session_id)
        return version

    def set_state_many(self, session_ids: Iterable[int], obj: Any) -> dict[int, int]:
        """The same snapshot for several sessions, serialised once (one view
        for every spectator, say).  Returns each live session's new version;
        a session that has ended or is closing is skipped, not raised for,
        because one gone peer must not stop the others' snapshots; so is one
        whose peer takes smaller messages than this snapshot (its handshake's
        ``max_message`` or ``recv_window``), counted as ``too_large_for_peer``.
        Raises ``MessageTooLarge`` (larger than ``config.max_message_size``)
        or ``TypeError`` as ``set_state`` does."""
        self._engine.check_open()
        data = encode_message(obj)
        if len(data) > self._config.max_message_size:
            limit = self._config.max_message_size
            raise MessageTooLarge(f"state is {len(data)} bytes, limit {limit}")
        versions: dict[int, int] = {}
        for session_id in session_ids:
            session = self._engine.sessions.get(session_id)
            if session is None or session.closing:
                continue
            if len(data) > session.max_message_size:
                self._engine.stats.drop("too_large_for_peer")
                continue
            versions[session_id] = session.set_state_encoded(data)
            self._engine.mark_dirty(session_id)
        return versions

    def close_session(self, session_id: int, reason: str = "") -> None:
        """Start a graceful close: queued data is flushed (up to
        ``close_linger``), then CLOSE is sent and a ``Disconnected`` event
        with cause LOCAL_CLOSE is queued."""
        session = self._engine.session(session_id)
        session.begin_close(reason, self._engine.now())
        self._engine.mark_dirty(session_id)

    # --- datagram handling (receive task) ---------------------------------------

    def _on_datagram(self, data: bytes, addr: Address, now: float) -> None:
        stats = self._engine.stats
        if len(data) > MAX_DATAGRAM:
            stats.drop("oversize")
            return
        if not self._limiter.allow(addr, now):
            stats.drop("rate_limited")
            return
        if addr not in self._by_address:
            self._ledger.on_received(addr, len(data))
        packet = decode(data)
        match packet:
            case Rejected():
                stats.drop(packet.reason)
            case SessionPacket():
                if packet.session_id not in self._engine.sessions:
                    self._reset(addr, packet.session_id, now)
                self._engine.handle_session_packet(packet, addr, now)
            case ClosePacket():
                self._engine.handle_close_packet(packet, addr)
            case HelloPacket() | EchoPacket() | VersionMismatch() if self._engine.closing:
                # A closing server admits nobody.  A session accepted now
                # would get no CLOSE (the close is under way for the sessions
                # it found), and its client would wait out its idle time-out
                # talking to a closed socket.  Unanswered, the client tries
                # again, and is answered by whatever listens here next (a
                # resumed table) as soon as it does.
                stats.drop("closing")
            case HelloPacket():
                if len(data) < MIN_HELLO_SIZE:
                    stats.drop("hello_too_small")
                else:
                    self._challenge(addr, packet.nonce, now)
            case EchoPacket():
                if len(data) < MIN_HELLO_SIZE:
                    stats.drop("hello_too_small")
                else:
                    self._on_echo(packet, addr, now)
            case VersionMismatch():
                if len(data) < MIN_HELLO_SIZE:
                    stats.drop("hello_too_small")
                else:
                    reason = (
                        f"unsupported protocol version {packet.version}, "
                        f"server speaks {PROTOCOL_VERSION}"
                    )
                    self._send_unvalidated(addr, encode(RefusePacket(packet.nonce, reason)))
            case _:
                stats.drop("unexpected_type")

    def _reset(self, addr: Address, session_id: int, now: float) -> None:
        """Tell a client that its session is not here (RESET), so that it
        reconnects at once rather than at its idle time-out: after a crash
        and a resume, every player sat 5 s before coming back.  Not for an
        id that lives at another address (no peer may end another's), at
        most one per RESET_INTERVAL to an address, within the
        amplification budget of an address that may be spoofed."""
        if not self._resets.allow(addr, now):
            return
        self._engine.stats.resets_sent += 1
        self._send_unvalidated(addr, encode(ResetPacket(session_id)))

    def _send_unvalidated(self, addr: Address, data: bytes) -> None:
        """Send to an address that may be spoofed: obey the amplification
        limit unless it has a live session (then it is validated)."""
        if addr in self._by_address or self._ledger.try_spend(addr, len(data)):
            self._engine.send_control(data, addr)
        else:
            self._engine.stats.drop("amplification_limit")

    def _challenge(self, addr: Address, nonce: int, now: float) -> None:
        cookie_time, cookie_mac = self._cookies.mint(addr, nonce, now)
        self._send_unvalidated(addr, encode(ChallengePacket(nonce, cookie_time, cookie_mac)))

    def _refuse(self, addr: Address, nonce: int, reason: str) -> None:
        self._engine.stats.sessions_refused += 1
        self._engine.send_control(encode(RefusePacket(nonce, reason[:MAX_REASON_CHARS])), addr)

    def _on_echo(self, echo: EchoPacket, addr: Address, now: float) -> None:
        stats = self._engine.stats
        problem = self._cookies.check(addr, echo.nonce, echo.cookie_time, echo.cookie_mac, now)
        if problem == "expired_cookie":
            stats.drop(problem)
            self._challenge(addr, echo.nonce, now)  # let a slow client retry
            return
        if problem is not None:
            stats.drop(problem)
            return
        # The cookie proves the client receives what we send to ``addr``.
        self._ledger.validate(addr)
        existing = self._by_address.get(addr)
        if existing is not None and existing.handshake_nonce == echo.nonce:
            # Our ACCEPT was lost and the client retried: repeat it.
            if existing.rtt_probe_sent_at is not None:
                existing.rtt_probe_sent_at = now
            self._engine.send_control(existing.handshake_reply, addr)
            return
        if self._replays.seen(addr, echo.nonce, now):
            stats.drop("replayed_handshake")
            return
        live = len(self._engine.sessions) - (existing is not None)
        if self._engine.stopped or live >= self._config.max_sessions:
            self._refuse(addr, echo.nonce, SERVER_FULL)
            return
        try:
            verdict = self._authorize(addr, echo.payload)
        except Exception:
            log.exception("authorize callback failed for %s", addr)
            self._refuse(addr, echo.nonce, "internal server error")
            return
        if isinstance(verdict, Refuse):
            self._refuse(addr, echo.nonce, verdict.reason)
            return
        if not isinstance(verdict, Accept):
            log.error("authorize returned %r, expected Accept or Refuse", verdict)
            self._refuse(addr, echo.nonce, "internal server error")
            return
        self._admit(echo, addr, verdict, existing, now)

    def _new_session_id(self) -> int:
        while True:
            session_id = secrets.randbits(64)
            if session_id and session_id not in self._engine.sessions:
                return session_id

    def _admit(
        self,
        echo: EchoPacket,
        addr: Address,
        verdict: Accept,
        existing: SessionCore | None,
        now: float,
    ) -> None:
        session_id = self._new_session_id()
        accept = AcceptPacket(
            echo.nonce,
            session_id,
            self._config.window_frames,
            self._config.max_message_size,
            verdict.payload,
        )
        try:
            reply = encode(accept)
        except (TypeError, ValueError, OverflowError):
            log.exception("accept payload is not msgpack-able")
            self._refuse(addr, echo.nonce, "internal server error")
            return
        if len(reply) > MAX_DATAGRAM:
            log.error("accept payload too large (%d bytes)", len(reply))
            self._refuse(addr, echo.nonce, "internal server error")
            return
        if existing is not None:
            # Same address, new handshake: the old client socket is gone.
            self._engine.end_session(
                existing, DisconnectCause.REPLACED, "new handshake from the same address"
            )
        config = self._config
        if verdict.max_send_queue_bytes is not None:
            config = replace(config, max_send_queue_bytes=verdict.max_send_queue_bytes)
        session = SessionCore(
            session_id,
            addr,
            config,
            self._engine.stats,
            now,
            peer_window=echo.recv_window,
            peer_max_message=echo.max_message,
        )
        session.handshake_nonce = echo.nonce
        session.handshake_reply = reply
        session.rtt_probe_sent_at = now
        self._by_address[addr] = session
        self._replays.remember(addr, echo.nonce, now)
        self._engine.stats.sessions_accepted += 1
        self._engine.send_control(reply, addr)
        self._engine.add_session(session)
        self._engine.events.put(Connected(session_id, addr, echo.payload))

    def _forget_session(self, session: SessionCore) -> None:
        if self._by_address.get(session.address) is session:
            del self._by_address[session.address]

    # --- test helpers -------------------------------------------------------------

    def amplification_usage(self, addr: Address) -> tuple[int, int]:
        """(bytes received from, bytes sent to) ``addr`` while unvalidated."""
        return self._ledger.usage(addr)
