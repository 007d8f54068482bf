"""Wire-level constants and the typed form of every datagram.

``net.codec`` turns these dataclasses into msgpack bytes and back; the
layout of each type is documented in docs/net.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

PROTOCOL_VERSION = 1

MAX_DATAGRAM = 1200
"""No datagram is ever sent or accepted above this size (QUIC's minimum
path MTU guarantee, so it never fragments at the IP layer)."""
MIN_HELLO_SIZE = 1200
"""HELLO and ECHO are padded to exactly this size: a peer proves it can
receive full-size datagrams, and the 3x amplification budget it earns is
enough for the server's answer."""
MAX_CHUNK = 1024
"""Largest payload slice in one frame; leaves room for the worst-case
session header and frame header inside MAX_DATAGRAM."""
MAX_MESSAGE_SIZE = 64 * 1024
MAX_FRAGMENTS = MAX_MESSAGE_SIZE // MAX_CHUNK
MAX_WINDOW = 256
MAX_SACK_BYTES = MAX_WINDOW // 8
MAX_STATE_BITS_BYTES = MAX_FRAGMENTS // 8
MAX_FRAMES_PER_DATAGRAM = 256
COOKIE_MAC_SIZE = 16
MAX_REASON_CHARS = 200
MAX_UINT64 = 2**64 - 1
MAX_SEQ = 2**62
"""Sequence numbers and versions never wrap; at a million frames a second
this limit is reached after ~146,000 years."""


class PacketType(IntEnum):
    HELLO = 1
    CHALLENGE = 2
    ECHO = 3
    ACCEPT = 4
    REFUSE = 5
    SESSION = 6
    CLOSE = 7
    RESET = 8


class FrameKind(IntEnum):
    DATA = 0
    STATE = 1


@dataclass(frozen=True)
class HelloPacket:
    """Client -> server, first datagram of a handshake (padded on the wire)."""

    nonce: int
    recv_window: int
    max_message: int
    payload: Any


@dataclass(frozen=True)
class VersionMismatch:
    """A HELLO or ECHO whose protocol version is not ours; only the fields
    whose position is fixed across versions (version, nonce) are read."""

    version: int
    nonce: int


@dataclass(frozen=True)
class ChallengePacket:
    """Server -> client: the stateless cookie to echo back."""

    nonce: int
    cookie_time: int
    cookie_mac: bytes


@dataclass(frozen=True)
class EchoPacket:
    """Client -> server: the HELLO repeated with the cookie (padded)."""

    nonce: int
    recv_window: int
    max_message: int
    payload: Any
    cookie_time: int
    cookie_mac: bytes


@dataclass(frozen=True)
class AcceptPacket:
    nonce: int
    session_id: int
    recv_window: int
    max_message: int
    payload: Any


@dataclass(frozen=True)
class RefusePacket:
    nonce: int
    reason: str


@dataclass(frozen=True)
class AckBlock:
    """What the sender of a session datagram has received so far.

    ``next_seq``: every data frame below it was delivered to the application.
    ``sack``: bit i (byte i // 8, least significant bit first) set means data
    frame ``next_seq + i`` is held by the receiver and must not be resent.
    ``state_done``: newest state version fully received (0 = none).
    ``state_version``/``state_bits``: the version being reassembled and a
    bitmap of its fragments received (same bit order).
    """

    next_seq: int
    sack: bytes
    state_done: int
    state_version: int
    state_bits: bytes


EMPTY_ACK = AckBlock(0, b"", 0, 0, b"")


@dataclass(frozen=True)
class DataFrame:
    """One slice of a reliable message; ``last`` marks its final slice."""

    seq: int
    last: bool
    chunk: bytes


@dataclass(frozen=True)
class StateFrame:
    """Fragment ``index`` of ``count`` of state snapshot ``version``."""

    version: int
    index: int
    count: int
    chunk: bytes


Frame = DataFrame | StateFrame


@dataclass(frozen=True)
class SessionPacket:
    session_id: int
    ack: AckBlock
    frames: tuple[Frame, ...]


@dataclass(frozen=True)
class ClosePacket:
    session_id: int
    reason: str


@dataclass(frozen=True)
class ResetPacket:
    """Server -> client: no live session ``session_id`` here (the server
    restarted, so it never heard of it, or it ended it): the client ends
    its session at once instead of waiting out its idle time-out."""

    session_id: int


Packet = (
    HelloPacket
    | VersionMismatch
    | ChallengePacket
    | EchoPacket
    | AcceptPacket
    | RefusePacket
    | SessionPacket
    | ClosePacket
    | ResetPacket
)
