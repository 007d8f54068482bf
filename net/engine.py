"""Runs the sessions of one socket: a receive task that never blocks on the
application, a send task, per-session timers and the application queue.

``Server`` and ``Client`` own an ``Engine`` and plug in how datagrams that
are not session traffic (the handshake) are handled.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable

from net.config import NetConfig
from net.errors import SessionClosed, UnknownSession
from net.eventqueue import EventQueue
from net.events import Address, DisconnectCause, Disconnected
from net.packets import ClosePacket, ResetPacket, SessionPacket
from net.ratelimit import LruTable
from net.session import SessionCore
from net.stats import NetStats
from net.transport import TransportClosed, UdpSocket

log = logging.getLogger(__name__)

MAX_CONTROL_DATAGRAMS = 1024
"""Handshake answers waiting for the send task; more are dropped (counted)."""

RECENTLY_ENDED = 1024
"""How many ended session ids are remembered for the stats."""

PORT_CLOSED_AFTER = 2
"""ICMP "port unreachable" reports, with nothing received in between, that
end a client's session (``UNREACHABLE``): its server is gone (a crash sends
no CLOSE), and the client need not wait out ``idle_timeout`` to know.  Two,
so that one stray report does not.  A forged report can do no more than
make a client reconnect (it gets its seat back by its token)."""

REFUSED_LOOK_AGAIN = 0.1
"""Seconds after a first such report to look for the next."""

DatagramHandler = Callable[[bytes, Address, float], None]


class Engine:
    def __init__(
        self, sock: UdpSocket, config: NetConfig, stats: NetStats, on_datagram: DatagramHandler
    ) -> None:
        self.sock = sock
        self.config = config
        self.stats = stats
        self._on_datagram = on_datagram
        self._loop = asyncio.get_running_loop()
        self.sessions: dict[int, SessionCore] = {}
        self.events = EventQueue(config.max_pending_events)
        self.events.on_room = self._resume_blocked
        self.on_session_end: Callable[[SessionCore], None] | None = None
        # dicts used as insertion-ordered sets
        self._dirty: dict[int, None] = {}
        self._blocked: dict[int, None] = {}
        self._control: deque[tuple[bytes, Address]] = deque()
        self._timers: dict[int, asyncio.TimerHandle] = {}
        # Late retransmissions and extra CLOSE copies for a session that just
        # ended are expected; count them apart from truly unknown ids.
        self._recently_ended: LruTable[int, bool] = LruTable(RECENTLY_ENDED)
        self._wake = asyncio.Event()
        self._session_ended = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self._stopped = False

    def now(self) -> float:
        return self._loop.time()

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._receive_loop(), name="net-receive"),
            asyncio.create_task(self._send_loop(), name="net-send"),
        ]

    # --- sessions -------------------------------------------------------------

    def session(self, session_id: int) -> SessionCore:
        session = self.sessions.get(session_id)
        if session is None:
            raise UnknownSession(f"no live session {session_id:#x}")
        return session

    def add_session(self, session: SessionCore) -> None:
        self.sessions[session.session_id] = session
        self.mark_dirty(session.session_id)

    def mark_dirty(self, session_id: int) -> None:
        self._dirty[session_id] = None
        self._wake.set()

    def end_session(self, session: SessionCore, cause: DisconnectCause, reason: str) -> None:
        session_id = session.session_id
        if self.sessions.get(session_id) is not session:
            return
        del self.sessions[session_id]
        self._recently_ended.setdefault(session_id, lambda: True)
        timer = self._timers.pop(session_id, None)
        if timer is not None:
            timer.cancel()
        self._dirty.pop(session_id, None)
        self._blocked.pop(session_id, None)
        if session.undelivered_frames:
            self.stats.drop("undelivered_at_close", session.undelivered_frames)
        self.stats.sessions_ended += 1
        self.events.put(Disconnected(session_id, cause, reason, session.heard))
        self._session_ended.set()
        if self.on_session_end is not None:
            self.on_session_end(session)

    def send_control(self, data: bytes, addr: Address) -> None:
        """Queue a handshake datagram for the send task."""
        if len(self._control) >= MAX_CONTROL_DATAGRAMS:
            self.stats.drop("control_queue_full")
            return
        self._control.append((data, addr))
        self._wake.set()

    # --- incoming session traffic -------------------------------------------

    def _matching_session(self, session_id: int, addr: Address) -> SessionCore | None:
        session = self.sessions.get(session_id)
        if session is None:
            ended = session_id in self._recently_ended
            self.stats.drop("ended_session" if ended else "unknown_session")
            return None
        if session.address != addr:
            # Another session's id from a different address: never let one
            # peer inject into (or keep alive) someone else's session.
            self.stats.drop("wrong_address")
            return None
        return session

    def handle_session_packet(self, packet: SessionPacket, addr: Address, now: float) -> None:
        session = self._matching_session(packet.session_id, addr)
        if session is None:
            return
        if not session.on_packet(packet, now, self.events):
            self.stats.drop("bad_ack")
            return
        if session.blocked:
            self._blocked[session.session_id] = None
        deadline = session.next_deadline(now)
        if deadline <= now:
            self.mark_dirty(session.session_id)
        else:
            # Nothing to send yet (an ack waits for ack_delay, say): a timer
            # is enough; waking the send task for nothing costs a loop turn.
            self._arm_timer(session, deadline)

    def handle_close_packet(self, packet: ClosePacket, addr: Address) -> None:
        session = self._matching_session(packet.session_id, addr)
        if session is not None:
            self.end_session(session, DisconnectCause.PEER_CLOSED, packet.reason)

    def handle_reset_packet(self, packet: ResetPacket, addr: Address) -> None:
        session = self._matching_session(packet.session_id, addr)
        if session is not None:
            reason = "the server does not know this session (it restarted, or ended it)"
            self.end_session(session, DisconnectCause.RESET, reason)

    def _resume_blocked(self) -> None:
        if not self._blocked:
            return
        now = self.now()
        for session_id in list(self._blocked):
            session = self.sessions.get(session_id)
            if session is not None:
                session.deliver(self.events, now)
                self.mark_dirty(session_id)
                if session.blocked:
                    return  # the queue is full again
            del self._blocked[session_id]

    # --- tasks ----------------------------------------------------------------

    async def _receive_loop(self) -> None:
        while True:
            try:
                data, addr = await self.sock.recv()
            except TransportClosed:
                return
            except OSError as exc:  # e.g. a queued ICMP error; the socket is fine
                self.stats.receive_errors[type(exc).__name__] += 1
                continue
            try:
                self._on_datagram(data, addr, self.now())
            except Exception:  # a bug here must never stop the receive loop
                log.exception("error while handling a datagram from %s", addr)
                self.stats.drop("internal_error")

    async def _send_loop(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                sent = 0
                while self._control or self._dirty:
                    if self._control:
                        data, addr = self._control.popleft()
                        await self.sock.send(data, addr)
                        sent += 1
                    else:
                        session_id = next(iter(self._dirty))
                        del self._dirty[session_id]
                        session = self.sessions.get(session_id)
                        if session is not None:
                            sent += await self._service(session)
                    if sent >= self.config.max_burst_datagrams:
                        # Let receivers (maybe in this very process) drain.
                        sent = 0
                        await asyncio.sleep(0)
        except TransportClosed:
            return

    async def _service(self, session: SessionCore) -> int:
        """Do whatever is due for one session; returns datagrams sent."""
        now = self.now()
        if self._port_closed(session):
            return 0
        if session.expired(now):
            idle = self.config.idle_timeout
            what = "received" if session.silent(now) else "acknowledged"
            reason = f"nothing {what} for {idle:g} s"
            self.end_session(session, DisconnectCause.IDLE_TIMEOUT, reason)
            return 0
        if session.ready_to_close(now):
            data = session.close_datagram()
            for _ in range(self.config.close_copies):
                await self.sock.send(data, session.address)
            self.end_session(session, DisconnectCause.LOCAL_CLOSE, session.closing_reason or "")
            return self.config.close_copies
        datagrams, more = session.poll_transmit(now, self.config.max_burst_datagrams)
        for datagram in datagrams:
            await self.sock.send(datagram, session.address)
        if self._port_closed(session):  # as these sends found out
            return len(datagrams)
        if self.sessions.get(session.session_id) is session:
            if more:
                self._dirty[session.session_id] = None
            else:
                deadline = session.next_deadline(now)
                if self.sock.refused_in_a_row:
                    # The report for the datagram just resent comes back
                    # within a round trip: look for it then, not at the
                    # next heartbeat.
                    deadline = min(deadline, now + REFUSED_LOOK_AGAIN)
                self._arm_timer(session, deadline)
        return len(datagrams)

    def _port_closed(self, session: SessionCore) -> bool:
        """End a client's session whose server's port refuses its datagrams
        (``PORT_CLOSED_AFTER``); whether it did."""
        if self.sock.peer_address is None:
            return False
        self.sock.count_queued_error()
        if self.sock.refused_in_a_row < PORT_CLOSED_AFTER:
            return False
        reason = "the server's port is closed (it refused our datagrams)"
        self.end_session(session, DisconnectCause.UNREACHABLE, reason)
        return True

    def _arm_timer(self, session: SessionCore, deadline: float) -> None:
        session_id = session.session_id
        timer = self._timers.get(session_id)
        if timer is not None:
            if timer.when() <= deadline:
                # It fires no later than needed; servicing the session then
                # arms the next one.  Re-arming on every datagram would
                # create and cancel a timer each time.
                return
            timer.cancel()
        self._timers[session_id] = self._loop.call_at(deadline, self._on_timer, session_id)

    def _on_timer(self, session_id: int) -> None:
        # Forget the fired handle so an equal deadline is armed again (asyncio
        # may fire a timer a hair early, before the work is actually due).
        self._timers.pop(session_id, None)
        self.mark_dirty(session_id)

    # --- shutdown -------------------------------------------------------------

    async def close_sessions(self, reason: str) -> None:
        """Gracefully close every session: flush (up to ``close_linger``),
        send CLOSE, and wait for that to happen.  From now on a server admits
        nobody (see ``closing``)."""
        self._closing = True
        now = self.now()
        for session in self.sessions.values():
            session.begin_close(reason, now)
            self.mark_dirty(session.session_id)
        deadline = now + self.config.close_linger + 0.5
        while self.sessions and not self._stopped:
            remaining = deadline - self.now()
            if remaining <= 0:
                break
            self._session_ended.clear()
            try:
                await asyncio.wait_for(self._session_ended.wait(), remaining)
            except TimeoutError:
                break

    async def shutdown(self) -> None:
        """Stop the tasks and close the socket (no CLOSE is sent here)."""
        if self._stopped:
            return
        self._stopped = True
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in self._tasks:
            task.cancel()
        try:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        finally:
            # Even when this wait is itself cancelled (a client closed while
            # it reconnects): _stopped is set, so no second shutdown would
            # come to close the socket, and it would outlive the loop.
            await self.sock.close()
            self.events.close()

    @property
    def closing(self) -> bool:
        """``close_sessions`` has begun: the endpoint is going away."""
        return self._closing

    @property
    def stopped(self) -> bool:
        return self._stopped

    @property
    def running(self) -> bool:
        """Not closed, and both tasks alive (a crash would show here)."""
        return not self._stopped and all(not task.done() for task in self._tasks)

    def check_open(self) -> None:
        if self._stopped:
            raise SessionClosed("endpoint is closed")
