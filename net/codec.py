"""msgpack encoding of datagrams and application messages.

Decoding is the trust boundary: ``decode`` unpacks a datagram with a single
``msgpack.unpackb`` call under tight limits, then checks every field's type
and range by hand. It never raises; anything unexpected comes back as
``Rejected(reason)`` so the caller can count it and move on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import msgpack  # type: ignore[import-untyped, unused-ignore]

from net.packets import (
    COOKIE_MAC_SIZE,
    MAX_CHUNK,
    MAX_DATAGRAM,
    MAX_FRAGMENTS,
    MAX_FRAMES_PER_DATAGRAM,
    MAX_MESSAGE_SIZE,
    MAX_REASON_CHARS,
    MAX_SACK_BYTES,
    MAX_SEQ,
    MAX_STATE_BITS_BYTES,
    MAX_UINT64,
    MAX_WINDOW,
    MIN_HELLO_SIZE,
    PROTOCOL_VERSION,
    AcceptPacket,
    AckBlock,
    ChallengePacket,
    ClosePacket,
    DataFrame,
    EchoPacket,
    Frame,
    FrameKind,
    HelloPacket,
    Packet,
    PacketType,
    RefusePacket,
    ResetPacket,
    SessionPacket,
    StateFrame,
    VersionMismatch,
)

# A 1200-byte datagram cannot hold more than this many items anyway; the
# explicit limits make msgpack reject absurd declared lengths (2**31
# elements) before allocating anything.
_MAX_MAP_ITEMS = 64


def _reject_ext(code: int, data: bytes) -> NoReturn:
    raise ValueError(f"msgpack extension type {code} is not allowed")


_DATAGRAM_LIMITS: dict[str, Any] = {
    "raw": False,
    "strict_map_key": True,
    "use_list": True,
    "max_str_len": MAX_DATAGRAM,
    "max_bin_len": MAX_DATAGRAM,
    "max_array_len": MAX_FRAMES_PER_DATAGRAM,
    "max_map_len": _MAX_MAP_ITEMS,
    "max_ext_len": 0,
    "ext_hook": _reject_ext,
}


@dataclass(frozen=True)
class Rejected:
    """Why a datagram was not accepted; ``reason`` is a ``NetStats.dropped``
    key."""

    reason: str


class MalformedMessage(ValueError):
    """A reassembled application message is not valid msgpack."""


class _Malformed(Exception):
    """Internal: a field failed validation."""


def _fail() -> NoReturn:
    raise _Malformed


# --- application messages ---------------------------------------------------


def encode_message(obj: Any) -> bytes:
    """Serialise an application object; raises TypeError for objects msgpack
    cannot represent. Map keys must be str or bytes to survive decoding."""
    data: bytes = msgpack.packb(obj, use_bin_type=True)
    return data


def decode_message(data: bytes) -> Any:
    """Unpack one reassembled application message (at most MAX_MESSAGE_SIZE
    bytes), once. Raises MalformedMessage."""
    limit = min(len(data), MAX_MESSAGE_SIZE)
    try:
        return msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_str_len=limit,
            max_bin_len=limit,
            max_array_len=limit,
            max_map_len=limit,
            max_ext_len=0,
            ext_hook=_reject_ext,
        )
    except Exception as exc:  # msgpack raises a zoo of types; all mean "bad"
        raise MalformedMessage(str(exc)) from None


# --- encoding -----------------------------------------------------------------


def _pack(obj: Any) -> bytes:
    data: bytes = msgpack.packb(obj, use_bin_type=True)
    return data


def array_header(length: int) -> bytes:
    if length < 16:
        return bytes([0x90 | length])
    if length < 1 << 16:
        return b"\xdc" + length.to_bytes(2, "big")
    return b"\xdd" + length.to_bytes(4, "big")


def _padded(fields: Sequence[Any]) -> bytes:
    """Encode ``fields`` plus a final bin padding field so that the datagram
    is exactly MIN_HELLO_SIZE bytes. The padding always uses the 3-byte bin16
    header (valid, if not minimal, msgpack) so every total size is reachable."""
    prefix = array_header(len(fields) + 1) + b"".join(_pack(f) for f in fields)
    pad = MIN_HELLO_SIZE - len(prefix) - 3
    if pad < 0:
        raise ValueError(f"hello payload too large: {len(prefix)} bytes before padding")
    return prefix + b"\xc5" + pad.to_bytes(2, "big") + bytes(pad)


def encode_ack(ack: AckBlock) -> bytes:
    return _pack([ack.next_seq, ack.sack, ack.state_done, ack.state_version, ack.state_bits])


def encode_frame(frame: Frame) -> bytes:
    if isinstance(frame, DataFrame):
        return _pack([FrameKind.DATA, frame.seq, frame.last, frame.chunk])
    return _pack([FrameKind.STATE, frame.version, frame.index, frame.count, frame.chunk])


def session_header(session_id: int, ack_bytes: bytes) -> bytes:
    """Everything of a SESSION datagram before its frame array."""
    return b"\x94" + _pack(PacketType.SESSION) + _pack(session_id) + ack_bytes


def assemble_session(header: bytes, frames: Sequence[bytes]) -> bytes:
    """Concatenate pre-encoded parts; identical to packing the whole list."""
    return header + array_header(len(frames)) + b"".join(frames)


def encode(packet: Packet) -> bytes:
    """Encode any packet. HELLO and ECHO come out padded to MIN_HELLO_SIZE."""
    match packet:
        case HelloPacket():
            return _padded(
                [
                    PacketType.HELLO,
                    PROTOCOL_VERSION,
                    packet.nonce,
                    packet.recv_window,
                    packet.max_message,
                    packet.payload,
                ]
            )
        case VersionMismatch():
            return _padded([PacketType.HELLO, packet.version, packet.nonce])
        case EchoPacket():
            return _padded(
                [
                    PacketType.ECHO,
                    PROTOCOL_VERSION,
                    packet.nonce,
                    packet.recv_window,
                    packet.max_message,
                    packet.payload,
                    packet.cookie_time,
                    packet.cookie_mac,
                ]
            )
        case ChallengePacket():
            return _pack(
                [PacketType.CHALLENGE, packet.nonce, packet.cookie_time, packet.cookie_mac]
            )
        case AcceptPacket():
            return _pack(
                [
                    PacketType.ACCEPT,
                    packet.nonce,
                    packet.session_id,
                    packet.recv_window,
                    packet.max_message,
                    packet.payload,
                ]
            )
        case RefusePacket():
            return _pack([PacketType.REFUSE, packet.nonce, packet.reason])
        case SessionPacket():
            header = session_header(packet.session_id, encode_ack(packet.ack))
            return assemble_session(header, [encode_frame(f) for f in packet.frames])
        case ClosePacket():
            return _pack([PacketType.CLOSE, packet.session_id, packet.reason])
        case ResetPacket():
            return _pack([PacketType.RESET, packet.session_id])
    raise TypeError(f"not a packet: {packet!r}")  # pragma: no cover


# --- decoding -----------------------------------------------------------------


def _uint(value: Any, low: int = 0, high: int = MAX_UINT64) -> int:
    # bool is an int subclass; a True where a number belongs is malformed.
    if type(value) is not int or not low <= value <= high:
        _fail()
    return value


def _bin(value: Any, low: int, high: int) -> bytes:
    if type(value) is not bytes or not low <= len(value) <= high:
        _fail()
    return value


def _str(value: Any, high: int) -> str:
    if type(value) is not str or len(value) > high:
        _fail()
    return value


def _bool(value: Any) -> bool:
    if type(value) is not bool:
        _fail()
    return value


def _fields(items: list[Any], count: int) -> list[Any]:
    if len(items) != count:
        _fail()
    return items


def _session_id(value: Any) -> int:
    return _uint(value, 1)


def _decode_hello(items: list[Any]) -> Packet:
    if len(items) < 3:
        _fail()
    version = _uint(items[1])
    nonce = _uint(items[2])
    if version != PROTOCOL_VERSION:
        return VersionMismatch(version, nonce)
    _, _, _, window, max_message, payload, padding = _fields(items, 7)
    _bin(padding, 0, MAX_DATAGRAM)
    return HelloPacket(
        nonce, _uint(window, 1, MAX_WINDOW), _uint(max_message, 1, MAX_MESSAGE_SIZE), payload
    )


def _decode_echo(items: list[Any]) -> Packet:
    if len(items) < 3:
        _fail()
    version = _uint(items[1])
    nonce = _uint(items[2])
    if version != PROTOCOL_VERSION:
        return VersionMismatch(version, nonce)
    _, _, _, window, max_message, payload, cookie_time, cookie_mac, padding = _fields(items, 9)
    _bin(padding, 0, MAX_DATAGRAM)
    return EchoPacket(
        nonce,
        _uint(window, 1, MAX_WINDOW),
        _uint(max_message, 1, MAX_MESSAGE_SIZE),
        payload,
        _uint(cookie_time),
        _bin(cookie_mac, COOKIE_MAC_SIZE, COOKIE_MAC_SIZE),
    )


def _decode_ack(value: Any) -> AckBlock:
    if type(value) is not list:
        _fail()
    next_seq, sack, state_done, state_version, state_bits = _fields(value, 5)
    return AckBlock(
        _uint(next_seq, 0, MAX_SEQ),
        _bin(sack, 0, MAX_SACK_BYTES),
        _uint(state_done, 0, MAX_SEQ),
        _uint(state_version, 0, MAX_SEQ),
        _bin(state_bits, 0, MAX_STATE_BITS_BYTES),
    )


def _decode_frame(value: Any) -> Frame:
    if type(value) is not list or not value:
        _fail()
    kind = value[0]
    if type(kind) is not int:
        _fail()
    if kind == FrameKind.DATA:
        _, seq, last, chunk = _fields(value, 4)
        return DataFrame(_uint(seq, 0, MAX_SEQ), _bool(last), _bin(chunk, 1, MAX_CHUNK))
    if kind == FrameKind.STATE:
        _, version, index, count, chunk = _fields(value, 5)
        count = _uint(count, 1, MAX_FRAGMENTS)
        return StateFrame(
            _uint(version, 1, MAX_SEQ), _uint(index, 0, count - 1), count, _bin(chunk, 1, MAX_CHUNK)
        )
    _fail()


def _decode_items(items: list[Any]) -> Packet:
    kind = items[0]
    if kind == PacketType.HELLO:
        return _decode_hello(items)
    if kind == PacketType.ECHO:
        return _decode_echo(items)
    if kind == PacketType.CHALLENGE:
        _, nonce, cookie_time, cookie_mac = _fields(items, 4)
        return ChallengePacket(
            _uint(nonce), _uint(cookie_time), _bin(cookie_mac, COOKIE_MAC_SIZE, COOKIE_MAC_SIZE)
        )
    if kind == PacketType.ACCEPT:
        _, nonce, session_id, window, max_message, payload = _fields(items, 6)
        return AcceptPacket(
            _uint(nonce),
            _session_id(session_id),
            _uint(window, 1, MAX_WINDOW),
            _uint(max_message, 1, MAX_MESSAGE_SIZE),
            payload,
        )
    if kind == PacketType.REFUSE:
        _, nonce, reason = _fields(items, 3)
        return RefusePacket(_uint(nonce), _str(reason, MAX_REASON_CHARS))
    if kind == PacketType.SESSION:
        _, session_id, ack, frames = _fields(items, 4)
        if type(frames) is not list:
            _fail()
        return SessionPacket(
            _session_id(session_id), _decode_ack(ack), tuple(_decode_frame(f) for f in frames)
        )
    if kind == PacketType.CLOSE:
        _, session_id, reason = _fields(items, 3)
        return ClosePacket(_session_id(session_id), _str(reason, MAX_REASON_CHARS))
    if kind == PacketType.RESET:
        _, session_id = _fields(items, 2)
        return ResetPacket(_session_id(session_id))
    raise _UnknownType


class _UnknownType(Exception):
    pass


def decode(data: bytes) -> Packet | Rejected:
    """Decode one datagram. Never raises."""
    if len(data) > MAX_DATAGRAM:
        return Rejected("oversize")
    try:
        items = msgpack.unpackb(data, **_DATAGRAM_LIMITS)
    except Exception:  # truncated, extra data, limits, bad UTF-8, deep nesting...
        return Rejected("undecodable")
    if type(items) is not list or not items or type(items[0]) is not int:
        return Rejected("malformed")
    try:
        return _decode_items(items)
    except _UnknownType:
        return Rejected("unknown_type")
    except _Malformed:
        return Rejected("malformed")
    except Exception:  # defensive: a validation bug must not kill the receive loop
        return Rejected("malformed")
