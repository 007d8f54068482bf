"""Sans-IO reliability for the ordered message stream: RTT estimation,
the sending side (sequence numbers, window, retransmission timers) and the
receiving side (duplicate suppression, in-order reassembly, back-pressure).

Nothing here touches sockets or clocks: callers pass ``now``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from net.codec import MalformedMessage, decode_message, encode_frame
from net.packets import MAX_CHUNK, DataFrame

NEVER = math.inf


def split_chunks(data: bytes) -> list[bytes]:
    return [data[i : i + MAX_CHUNK] for i in range(0, len(data), MAX_CHUNK)] or [b""]


def iter_bits(bitmap: bytes) -> Iterator[int]:
    """Offsets of the set bits, least significant bit of byte 0 first."""
    for byte_index, byte in enumerate(bitmap):
        while byte:
            low = byte & -byte
            yield byte_index * 8 + low.bit_length() - 1
            byte ^= low


def make_bitmap(offsets: Iterable[int]) -> bytes:
    bits = bytearray()
    for offset in offsets:
        index = offset // 8
        if index >= len(bits):
            bits.extend(bytes(index + 1 - len(bits)))
        bits[index] |= 1 << (offset % 8)
    return bytes(bits)


class RttEstimator:
    """Smoothed RTT and retransmission timeout (RFC 6298 style)."""

    def __init__(
        self, initial_rto: float, min_rto: float, max_rto: float, ack_delay: float
    ) -> None:
        self._initial_rto = initial_rto
        self._min_rto = min_rto
        self._max_rto = max_rto
        # The peer may hold an ack back this long; the timeout must allow it.
        self._ack_delay = ack_delay
        self.srtt: float | None = None
        self.rttvar = 0.0
        self.latest = 0.0

    def sample(self, rtt: float) -> None:
        rtt = max(rtt, 0.0)
        self.latest = rtt
        if self.srtt is None:
            self.srtt = rtt
            self.rttvar = rtt / 2
        else:
            self.rttvar = 0.75 * self.rttvar + 0.25 * abs(self.srtt - rtt)
            self.srtt = 0.875 * self.srtt + 0.125 * rtt

    def rto(self) -> float:
        if self.srtt is None:
            base = self._initial_rto
        else:
            base = self.srtt + max(4 * self.rttvar, 0.001) + self._ack_delay
        return min(self._max_rto, max(self._min_rto, base))

    def backoff(self, retries: int) -> float:
        """Timeout for a unit already retransmitted ``retries`` times."""
        return min(self._max_rto, self.rto() * 2.0 ** min(retries, 16))

    def loss_delay(self) -> float:
        """A unit sent this long before a unit that got acknowledged is
        declared lost without waiting for its timeout (QUIC's time
        threshold), so a single loss costs about one RTT, not one RTO."""
        if self.srtt is None:
            return self.rto()
        return 1.125 * max(self.srtt, self.latest) + 0.002


@dataclass(slots=True)
class Outgoing:
    """One encoded frame awaiting acknowledgement."""

    encoded: bytes
    size: int
    sent_at: float = -1.0
    """Time of the latest transmission; negative if never sent."""
    retries: int = 0
    deadline: float = NEVER
    acked: bool = False
    first_sent_at: float = NEVER
    """Time of the first transmission; NEVER if never sent."""
    lost: bool = False
    """Declared lost because something sent after it was acknowledged; only
    such a unit (and a channel's probe, see ``resendable``) is resent when
    its deadline comes."""

    def mark_sent(self, now: float, rtt: RttEstimator) -> bool:
        """Record a transmission; True if it was a retransmission."""
        again = self.sent_at >= 0
        if again:
            self.retries += 1
        else:
            self.first_sent_at = now
        self.sent_at = now
        self.lost = False
        self.deadline = now + rtt.backoff(self.retries)
        return again


def resendable(units: Iterator[Outgoing]) -> Iterator[Outgoing]:
    """The units sent and not acknowledged that may be resent when their
    deadline comes: the oldest one (the probe) and those declared lost.

    A timeout says nothing about which frames were lost, only that the peer
    has acknowledged nothing for a while: it may be gone, or deaf. So it
    resends one frame, not the whole flight (QUIC's probe timeout); when
    the probe is acknowledged, every frame sent before it is declared lost
    and resent at once. A lost flight costs one round trip more, and a peer
    that acknowledges nothing gets one frame per back-off, not all of them.
    """
    probe = True
    for unit in units:
        if unit.acked or unit.sent_at < 0:
            continue
        if probe or unit.lost:
            yield unit
        probe = False


def retransmission_due(units: Iterator[Outgoing], now: float) -> Iterator[Outgoing]:
    return (unit for unit in resendable(units) if unit.deadline <= now)


def retransmission_deadline(units: Iterator[Outgoing]) -> float:
    """When ``retransmission_due`` will next have something to give."""
    return min((unit.deadline for unit in resendable(units)), default=NEVER)


class AckTally:
    """What one incoming acknowledgement newly confirmed."""

    def __init__(self) -> None:
        self.newest_sent_at = -NEVER
        self.rtt_sample: float | None = None
        self._sample_sent_at = -NEVER

    def add(self, unit: Outgoing, now: float) -> None:
        unit.acked = True
        unit.deadline = NEVER
        self.newest_sent_at = max(self.newest_sent_at, unit.sent_at)
        # Karn: a retransmitted unit's ack is ambiguous, never sample it.
        if unit.retries == 0 and unit.sent_at > self._sample_sent_at:
            self._sample_sent_at = unit.sent_at
            self.rtt_sample = now - unit.sent_at


def mark_late_units_lost(
    units: Iterator[Outgoing], newest_acked_sent_at: float, loss_delay: float
) -> None:
    """Pull in the retransmission deadline of every unacknowledged unit that
    was sent before something the peer has already acknowledged."""
    for unit in units:
        if not unit.acked and 0 <= unit.sent_at < newest_acked_sent_at:
            unit.deadline = min(unit.deadline, unit.sent_at + loss_delay)
            unit.lost = True


class Transmitter(Protocol):
    def mark_sent(self, unit: Outgoing, now: float) -> bool: ...


class BadAck(Exception):
    """The peer acknowledged something that was never sent."""


class ReliableSender:
    """Sending half of the ordered stream.

    Every message is cut into frames with consecutive sequence numbers; the
    last frame of a message carries ``last=True``. Frames are sent in
    sequence order the first time, at most ``window`` beyond the peer's
    cumulative acknowledgement, and retransmitted with exponential back-off
    until acknowledged: see ``resendable`` for which ones.
    """

    def __init__(self, rtt: RttEstimator, window: int) -> None:
        self._rtt = rtt
        self.window = window
        self.acked_below = 0
        self.next_unsent = 0
        self.next_seq = 0
        self._frames: dict[int, Outgoing] = {}
        self.queued_bytes = 0

    def push(self, data: bytes) -> None:
        chunks = split_chunks(data)
        for index, chunk in enumerate(chunks):
            frame = DataFrame(self.next_seq, index == len(chunks) - 1, chunk)
            self._frames[self.next_seq] = Outgoing(encode_frame(frame), len(chunk))
            self.next_seq += 1
        self.queued_bytes += len(data)

    @property
    def unacked(self) -> bool:
        return bool(self._frames)

    def units_in_flight(self) -> Iterator[Outgoing]:
        for seq in range(self.acked_below, self.next_unsent):
            unit = self._frames.get(seq)
            if unit is not None:
                yield unit

    def due_retransmissions(self, now: float) -> Iterator[Outgoing]:
        return retransmission_due(self.units_in_flight(), now)

    def new_frames(self) -> Iterator[Outgoing]:
        """Never-sent frames inside the window, in order. The caller must
        ``mark_sent`` each one it takes before asking for the next."""
        while self.next_unsent < min(self.next_seq, self.acked_below + self.window):
            yield self._frames[self.next_unsent]

    def mark_sent(self, unit: Outgoing, now: float) -> bool:
        if unit.sent_at < 0:
            self.next_unsent += 1
        return unit.mark_sent(now, self._rtt)

    @property
    def has_sendable(self) -> bool:
        return self.next_unsent < min(self.next_seq, self.acked_below + self.window)

    def check_ack(self, next_seq: int, sack: bytes) -> None:
        """Raise BadAck if the ack names a frame that was never sent."""
        offsets = list(iter_bits(sack))  # ascending
        if next_seq > self.next_unsent or (offsets and next_seq + offsets[-1] >= self.next_unsent):
            raise BadAck

    def on_ack(self, next_seq: int, sack: bytes, now: float, tally: AckTally) -> None:
        """Apply an ack that passed ``check_ack``."""
        while self.acked_below < next_seq:
            unit = self._frames.pop(self.acked_below)
            self.queued_bytes -= unit.size
            if not unit.acked:
                tally.add(unit, now)
            self.acked_below += 1
        # A reordered, older ack has a smaller next_seq; its SACK bits are
        # relative to it and may name frames already released above.
        for offset in iter_bits(sack):
            held = self._frames.get(next_seq + offset)
            if held is not None and not held.acked:
                tally.add(held, now)

    def next_deadline(self) -> float:
        return retransmission_deadline(self.units_in_flight())

    def oldest_unacked(self) -> float:
        """When the oldest frame not yet acknowledged was first sent (frames
        go out in order), NEVER if none is."""
        for unit in self.units_in_flight():
            if not unit.acked:
                return unit.first_sent_at
        return NEVER


@dataclass(slots=True)
class _Ready:
    """A reassembled, decoded message waiting for room in the app queue."""

    value: Any
    end_seq: int


class ReliableReceiver:
    """Receiving half of the ordered stream.

    Frames inside the window are held until every frame of a message is
    present, then the message is decoded and offered to the application.
    Only a message the application queue accepted advances ``next_seq`` (the
    cumulative acknowledgement), so a full queue stalls the sender instead of
    losing data. Held frames are reported in the SACK bitmap and are never
    discarded, which lets the sender stop retransmitting them.
    """

    def __init__(self, window: int, max_message_size: int, drop: Callable[[str], None]) -> None:
        self.window = window
        self.max_message_size = max_message_size
        self._drop = drop
        self.next_seq = 0
        self._held: dict[int, DataFrame] = {}
        self._ready: _Ready | None = None
        self._discarding = False

    def on_frame(self, frame: DataFrame) -> None:
        if frame.seq < self.next_seq or frame.seq in self._held:
            self._drop("duplicate")
        elif frame.seq >= self.next_seq + self.window:
            self._drop("out_of_window")
        else:
            self._held[frame.seq] = frame

    @property
    def held_count(self) -> int:
        return len(self._held)

    def sack(self) -> bytes:
        return make_bitmap(seq - self.next_seq for seq in self._held)

    def _consume_through(self, end_seq: int) -> None:
        for seq in range(self.next_seq, end_seq + 1):
            del self._held[seq]
        self.next_seq = end_seq + 1

    def _next_message_end(self) -> int | None:
        """Sequence number of the last frame of the next message if all its
        frames are here. Starts discarding a message that is too large."""
        size = 0
        seq = self.next_seq
        while (frame := self._held.get(seq)) is not None:
            size += len(frame.chunk)
            if size > self.max_message_size:
                self._drop("message_too_large")
                self._consume_through(seq)
                self._discarding = not frame.last
                return None
            if frame.last:
                return seq
            seq += 1
        return None

    def deliver(self, offer: Callable[[Any], bool]) -> tuple[bool, bool]:
        """Hand complete messages to ``offer`` in order until it refuses one.
        Returns (progress made, blocked by a refusal)."""
        progress = False
        while True:
            if self._discarding:
                frame = self._held.get(self.next_seq)
                if frame is None:
                    return progress, False
                self._consume_through(self.next_seq)
                self._discarding = not frame.last
                progress = True
                continue
            if self._ready is None:
                start = self.next_seq
                end = self._next_message_end()
                if end is None:
                    if self.next_seq != start:  # an oversized message was cut
                        progress = True
                        continue
                    return progress, False
                data = b"".join(self._held[s].chunk for s in range(start, end + 1))
                try:
                    self._ready = _Ready(decode_message(data), end)
                except MalformedMessage:
                    self._drop("malformed_message")
                    self._consume_through(end)
                    progress = True
                    continue
            if not offer(self._ready.value):
                return progress, True
            self._consume_through(self._ready.end_seq)
            self._ready = None
            progress = True
