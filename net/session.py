"""Sans-IO session: one peer's reliable stream, state channel, acks,
heartbeats, idle timeout and graceful close, packed into datagrams."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from typing import Any, Protocol

from net.codec import assemble_session, encode, encode_ack, encode_message, session_header
from net.config import NetConfig
from net.errors import MessageTooLarge, SendQueueFull, SessionClosed
from net.events import Address
from net.packets import (
    MAX_CHUNK,
    MAX_DATAGRAM,
    MAX_REASON_CHARS,
    AckBlock,
    ClosePacket,
    DataFrame,
    SessionPacket,
)
from net.reliability import (
    NEVER,
    AckTally,
    BadAck,
    Outgoing,
    ReliableReceiver,
    ReliableSender,
    RttEstimator,
    Transmitter,
    mark_late_units_lost,
)
from net.statechannel import StateReceiver, StateSender
from net.stats import NetStats

ACK_EVERY = 4
"""Acknowledge at once after this many frame-carrying datagrams instead of
waiting for ``ack_delay`` (keeps the sender's window moving in bulk)."""
IDLE_GRACE = 0.05
"""Seconds a session found silent past its idle time-out is still given to
read what waits for it (see SessionCore.expired)."""


class DeliverySink(Protocol):
    def offer_message(self, session_id: int, value: Any) -> bool:
        """Accept a message for the application, or refuse when full."""

    def put_state(self, session_id: int, version: int, value: Any) -> None:
        """Always accepts; may replace an undelivered older state."""


class SessionCore:
    """Everything one side keeps about one session, without any I/O.

    The engine feeds it datagrams (``on_packet``), asks it what to send
    (``poll_transmit``) and when to look again (``next_deadline``).
    """

    def __init__(
        self,
        session_id: int,
        address: Address,
        config: NetConfig,
        stats: NetStats,
        now: float,
        *,
        peer_window: int,
        peer_max_message: int,
        initial_rtt: float | None = None,
        ack_now: bool = False,
    ) -> None:
        self.session_id = session_id
        self.address = address
        self._config = config
        self._stats = stats
        self.rtt = RttEstimator(
            config.initial_rto, config.min_rto, config.max_rto, config.ack_delay
        )
        if initial_rtt is not None:
            self.rtt.sample(initial_rtt)
        # Never send what the peer said it would not accept or buffer.
        self.max_message_size = min(
            config.max_message_size, peer_max_message, peer_window * MAX_CHUNK
        )
        self._sender = ReliableSender(self.rtt, min(config.window_frames, peer_window))
        self._receiver = ReliableReceiver(config.window_frames, config.max_message_size, stats.drop)
        self._state_out = StateSender(self.rtt)
        self._state_in = StateReceiver(config.max_message_size, stats.drop)
        self.last_received = now
        self.heard = False  # a session datagram from the peer has arrived
        self._acked_at = now  # the peer's latest acknowledgement of something new
        self._silence_seen: float | None = None  # when expired() first found it silent
        self.last_sent = now
        self._ack_deadline: float | None = now if ack_now else None
        self._arrivals_unacked = 0
        self.closing_reason: str | None = None
        self._close_deadline = NEVER
        self.blocked = False
        """Set while a complete message waits for room in the app queue."""
        self.rtt_probe_sent_at: float | None = None
        """Server: when ACCEPT was (last) sent; the first session datagram
        from the client gives the initial RTT sample."""
        self.handshake_nonce = 0
        self.handshake_reply = b""

    # --- application side ---------------------------------------------------

    @property
    def closing(self) -> bool:
        return self.closing_reason is not None

    def send_message(self, obj: Any) -> None:
        if self.closing:
            raise SessionClosed("session is closing")
        data = encode_message(obj)
        if len(data) > self.max_message_size:
            raise MessageTooLarge(f"message is {len(data)} bytes, limit {self.max_message_size}")
        if self._sender.queued_bytes + len(data) > self._config.max_send_queue_bytes:
            raise SendQueueFull(f"{self._sender.queued_bytes} bytes still unacknowledged")
        self._sender.push(data)
        self._stats.messages_sent += 1

    def set_state(self, obj: Any) -> int:
        return self.set_state_encoded(encode_message(obj))

    def set_state_encoded(self, data: bytes) -> int:
        """``set_state`` for a value already serialised by ``encode_message``
        (one encoding shared by many sessions)."""
        if self.closing:
            raise SessionClosed("session is closing")
        if len(data) > self.max_message_size:
            raise MessageTooLarge(f"state is {len(data)} bytes, limit {self.max_message_size}")
        self._stats.states_sent += 1
        return self._state_out.replace(data)

    def begin_close(self, reason: str, now: float) -> None:
        if self.closing_reason is None:
            self.closing_reason = reason[:MAX_REASON_CHARS]
            self._close_deadline = now + self._config.close_linger

    # --- network side -------------------------------------------------------

    def on_packet(self, packet: SessionPacket, now: float, sink: DeliverySink) -> bool:
        """Process a datagram already matched to this session by id and
        address. False means it carried an impossible ack and was ignored."""
        ack = packet.ack
        tally = AckTally()
        try:
            self._sender.check_ack(ack.next_seq, ack.sack)
            self._state_out.check_ack(ack.state_done, ack.state_version, ack.state_bits)
        except BadAck:
            return False
        self._sender.on_ack(ack.next_seq, ack.sack, now, tally)
        self._state_out.on_ack(ack.state_done, ack.state_version, ack.state_bits, now, tally)
        self.last_received = now
        self.heard = True
        if tally.newest_sent_at >= 0:
            self._acked_at = now
        if self.rtt_probe_sent_at is not None:
            self.rtt.sample(now - self.rtt_probe_sent_at)
            self.rtt_probe_sent_at = None
        if tally.rtt_sample is not None:
            self.rtt.sample(tally.rtt_sample)
        if tally.newest_sent_at >= 0:
            units = chain(self._sender.units_in_flight(), self._state_out.units_in_flight())
            mark_late_units_lost(units, tally.newest_sent_at, self.rtt.loss_delay())
        if packet.frames:
            for frame in packet.frames:
                if isinstance(frame, DataFrame):
                    self._receiver.on_frame(frame)
                else:
                    completed = self._state_in.on_frame(frame)
                    if completed is not None:
                        sink.put_state(self.session_id, *completed)
                        self._stats.states_delivered += 1
            self._arrivals_unacked += 1
            if self._ack_deadline is None:
                self._ack_deadline = now + self._config.ack_delay
            if self._arrivals_unacked >= ACK_EVERY:
                self._ack_deadline = now
            self.deliver(sink, now)
        return True

    def deliver(self, sink: DeliverySink, now: float) -> None:
        """Move complete messages to the application while it has room."""
        was_blocked = self.blocked

        def offer(value: Any) -> bool:
            accepted = sink.offer_message(self.session_id, value)
            if accepted:
                self._stats.messages_delivered += 1
            return accepted

        progress, self.blocked = self._receiver.deliver(offer)
        if progress and was_blocked:
            # The sender is stalled on our window: tell it at once.
            self._ack_deadline = now

    def _ack_block(self) -> AckBlock:
        done, version, bits = self._state_in.ack_fields()
        return AckBlock(self._receiver.next_seq, self._receiver.sack(), done, version, bits)

    def poll_transmit(self, now: float, max_datagrams: int) -> tuple[list[bytes], bool]:
        """Datagrams to send now, and whether more are waiting (the caller
        should poll again soon)."""
        if self.next_deadline(now) > now:
            return [], False  # the common case after an ack: nothing to say
        ack_due = self._ack_deadline is not None and now >= self._ack_deadline
        # The same sum as next_deadline's: a difference can round below it.
        heartbeat_due = now >= self.last_sent + self._config.heartbeat_interval
        header = session_header(self.session_id, encode_ack(self._ack_block()))
        room = MAX_DATAGRAM - len(header) - 3  # 3: largest frame-array header
        datagrams: list[bytes] = []
        frames: list[bytes] = []
        used = 0
        full = False
        channels: tuple[tuple[Transmitter, Iterator[Outgoing]], ...] = (
            (self._state_out, self._state_out.due(now)),
            (self._sender, self._sender.due_retransmissions(now)),
            (self._sender, self._sender.new_frames()),
        )
        for channel, units in channels:
            for unit in units:
                if frames and used + len(unit.encoded) > room:
                    datagrams.append(assemble_session(header, frames))
                    frames, used = [], 0
                    if len(datagrams) >= max_datagrams:
                        full = True
                        break
                frames.append(unit.encoded)
                used += len(unit.encoded)
                if channel.mark_sent(unit, now):
                    self._stats.retransmissions += 1
            if full:
                break
        if frames:
            datagrams.append(assemble_session(header, frames))
        if not datagrams and (ack_due or heartbeat_due):
            datagrams.append(assemble_session(header, []))
        if datagrams:
            self.last_sent = now
            self._ack_deadline = None
            self._arrivals_unacked = 0
        return datagrams, full

    def next_deadline(self, now: float) -> float:
        if self._sender.has_sendable or self._state_out.has_unsent:
            return now
        silent = self._silence_seen
        deadline = min(
            self.last_received + self._config.idle_timeout
            if silent is None
            else silent + IDLE_GRACE,
            self.last_sent + self._config.heartbeat_interval,
            self._sender.next_deadline(),
            self._state_out.next_deadline(),
            self._close_deadline,
        )
        if self._ack_deadline is not None:
            deadline = min(deadline, self._ack_deadline)
        return deadline

    def silent(self, now: float) -> bool:
        """Nothing received from the peer for ``idle_timeout``."""
        return now - self.last_received >= self._config.idle_timeout

    def deaf(self, now: float) -> bool:
        """Something sent has waited ``idle_timeout`` for its acknowledgement
        and the peer has acknowledged nothing new in that time: it does not
        read what it is sent (or says so while its heartbeats keep the
        session alive, to be sent every frame again and again)."""
        limit = now - self._config.idle_timeout
        if self._acked_at > limit:
            return False
        return min(self._sender.oldest_unacked(), self._state_out.oldest_unacked()) <= limit

    def expired(self, now: float) -> bool:
        """Nothing received (or, see ``deaf``, nothing acknowledged) for
        ``idle_timeout``, and still so ``IDLE_GRACE`` after that was first
        seen.  A process that was stopped (SIGSTOP, a suspended laptop)
        wakes to its overdue timers before it reads what arrived while it
        slept; it must read that first: the peer was not silent, and a CLOSE
        among it is final (a client taken over while stopped once
        reconnected instead, and took its seat back from the player's newer
        terminal)."""
        if not self.silent(now) and not self.deaf(now):
            self._silence_seen = None
            return False
        if self._silence_seen is None:
            self._silence_seen = now
        return now - self._silence_seen >= IDLE_GRACE

    @property
    def flushed(self) -> bool:
        """Nothing sent is still waiting for the peer's acknowledgement."""
        return not self._sender.unacked and not self._state_out.unacked

    def ready_to_close(self, now: float) -> bool:
        return self.closing and (self.flushed or now >= self._close_deadline)

    def close_datagram(self) -> bytes:
        return encode(ClosePacket(self.session_id, self.closing_reason or ""))

    @property
    def undelivered_frames(self) -> int:
        return self._receiver.held_count
