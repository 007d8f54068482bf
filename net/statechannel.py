"""Sans-IO "latest state" channel: each ``set_state`` supersedes the last.

Only the newest version is ever (re)transmitted; fragments of older
versions are forgotten the moment a new version is set. The receiver
reassembles one version at a time and delivers only versions newer than
the last one it delivered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from net.codec import MalformedMessage, decode_message, encode_frame
from net.packets import StateFrame
from net.reliability import (
    NEVER,
    AckTally,
    BadAck,
    Outgoing,
    RttEstimator,
    iter_bits,
    make_bitmap,
    retransmission_deadline,
    retransmission_due,
    split_chunks,
)


class StateSender:
    def __init__(self, rtt: RttEstimator) -> None:
        self._rtt = rtt
        self.version = 0
        self._units: list[Outgoing] = []

    def replace(self, data: bytes) -> int:
        self.version += 1
        chunks = split_chunks(data)
        self._units = [
            Outgoing(encode_frame(StateFrame(self.version, index, len(chunks), chunk)), len(chunk))
            for index, chunk in enumerate(chunks)
        ]
        return self.version

    @property
    def unacked(self) -> bool:
        return any(not unit.acked for unit in self._units)

    def units_in_flight(self) -> Iterator[Outgoing]:
        return (unit for unit in self._units if unit.sent_at >= 0)

    def due(self, now: float) -> Iterator[Outgoing]:
        """Never-sent fragments and those due again (``retransmission_due``),
        in order; listed before any is sent, which would change the list."""
        again = {id(unit) for unit in retransmission_due(iter(self._units), now)}
        return iter([unit for unit in self._units if unit.sent_at < 0 or id(unit) in again])

    @property
    def has_unsent(self) -> bool:
        return any(unit.sent_at < 0 for unit in self._units)

    def mark_sent(self, unit: Outgoing, now: float) -> bool:
        return unit.mark_sent(now, self._rtt)

    def check_ack(self, done: int, version: int, bits: bytes) -> None:
        """Raise BadAck if the ack names a version or fragment never sent."""
        if done > self.version or version > self.version:
            raise BadAck
        offsets = list(iter_bits(bits))  # ascending
        if (
            version == self.version
            and done < version
            and offsets
            and offsets[-1] >= len(self._units)
        ):
            raise BadAck

    def on_ack(self, done: int, version: int, bits: bytes, now: float, tally: AckTally) -> None:
        """Apply an ack that passed ``check_ack``."""
        acked: Iterable[int]
        if done == self.version:
            acked = range(len(self._units))
        elif version == self.version:
            acked = iter_bits(bits)
        else:
            return  # about an older version: nothing left to learn
        for index in acked:
            unit = self._units[index]
            if not unit.acked and unit.sent_at >= 0:
                tally.add(unit, now)

    def next_deadline(self) -> float:
        return retransmission_deadline(iter(self._units))

    def oldest_unacked(self) -> float:
        """When the oldest fragment sent and not yet acknowledged was first
        sent, NEVER if none is."""
        return min((u.first_sent_at for u in self._units if not u.acked), default=NEVER)


class StateReceiver:
    def __init__(self, max_message_size: int, drop: Callable[[str], None]) -> None:
        self.max_message_size = max_message_size
        self._drop = drop
        self.done = 0
        """Newest version fully received (delivered, or given up on)."""
        self.version = 0
        self._chunks: list[bytes | None] = []
        self._size = 0

    def ack_fields(self) -> tuple[int, int, bytes]:
        bits = make_bitmap(i for i, chunk in enumerate(self._chunks) if chunk is not None)
        return self.done, self.version, bits

    def on_frame(self, frame: StateFrame) -> tuple[int, Any] | None:
        """Returns (version, value) when ``frame`` completes a new version."""
        if frame.version <= self.done or frame.version < self.version:
            self._drop("stale_state")
            return None
        if frame.version > self.version:
            self.version = frame.version
            self._chunks = [None] * frame.count
            self._size = 0
        elif frame.count != len(self._chunks):
            self._drop("inconsistent_state")
            return None
        if self._chunks[frame.index] is not None:
            self._drop("duplicate")
            return None
        self._chunks[frame.index] = frame.chunk
        self._size += len(frame.chunk)
        if self._size > self.max_message_size:
            # Mark it done anyway so the sender stops resending a version we
            # will never accept.
            self._drop("message_too_large")
            self._finish()
            return None
        if any(chunk is None for chunk in self._chunks):
            return None
        data = b"".join(chunk for chunk in self._chunks if chunk is not None)
        version = self._finish()
        try:
            return version, decode_message(data)
        except MalformedMessage:
            self._drop("malformed_message")
            return None

    def _finish(self) -> int:
        self.done = self.version
        self._chunks = []
        self._size = 0
        return self.done
