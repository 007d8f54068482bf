"""The datagram codec: round trips, exact sizes, and a decoder that never
raises whatever bytes it is fed."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.codec import MalformedMessage, Rejected, decode, decode_message, encode, encode_message
from net.packets import (
    MAX_DATAGRAM,
    MIN_HELLO_SIZE,
    PROTOCOL_VERSION,
    AcceptPacket,
    AckBlock,
    ChallengePacket,
    ClosePacket,
    DataFrame,
    EchoPacket,
    HelloPacket,
    Packet,
    RefusePacket,
    ResetPacket,
    SessionPacket,
    StateFrame,
    VersionMismatch,
)

uint64 = st.integers(0, 2**64 - 1)
session_ids = st.integers(1, 2**64 - 1)
seqs = st.integers(0, 2**62)
windows = st.integers(1, 256)
message_limits = st.integers(1, 65536)

leaves = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=16)
    | st.binary(max_size=16)
)
payloads = st.recursive(
    leaves,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)

ack_blocks = st.builds(
    AckBlock,
    seqs,
    st.binary(max_size=32),
    seqs,
    seqs,
    st.binary(max_size=8),
)
data_frames = st.builds(DataFrame, seqs, st.booleans(), st.binary(min_size=1, max_size=120))


@st.composite
def state_frames(draw: st.DrawFn) -> StateFrame:
    count = draw(st.integers(1, 64))
    return StateFrame(
        draw(st.integers(1, 2**62)),
        draw(st.integers(0, count - 1)),
        count,
        draw(st.binary(min_size=1, max_size=120)),
    )


packets = st.one_of(
    st.builds(HelloPacket, uint64, windows, message_limits, payloads),
    st.builds(VersionMismatch, uint64.filter(lambda v: v != PROTOCOL_VERSION), uint64),
    st.builds(ChallengePacket, uint64, uint64, st.binary(min_size=16, max_size=16)),
    st.builds(
        EchoPacket,
        uint64,
        windows,
        message_limits,
        payloads,
        uint64,
        st.binary(min_size=16, max_size=16),
    ),
    st.builds(AcceptPacket, uint64, session_ids, windows, message_limits, payloads),
    st.builds(RefusePacket, uint64, st.text(max_size=200)),
    st.builds(
        SessionPacket,
        session_ids,
        ack_blocks,
        st.lists(data_frames | state_frames(), max_size=6).map(tuple),
    ),
    st.builds(ClosePacket, session_ids, st.text(max_size=200)),
    st.builds(ResetPacket, session_ids),
)


@settings(deadline=None)
@given(packets)
def test_every_packet_round_trips_within_the_size_limit(packet: Packet) -> None:
    data = encode(packet)
    assert len(data) <= MAX_DATAGRAM
    assert decode(data) == packet
    if isinstance(packet, HelloPacket | EchoPacket | VersionMismatch):
        assert len(data) == MIN_HELLO_SIZE


@given(packets)
def test_session_datagrams_equal_plain_msgpack(packet: Packet) -> None:
    # The pre-encoded fast path must produce exactly what packb would.
    if isinstance(packet, SessionPacket):
        items = [
            6,
            packet.session_id,
            [
                packet.ack.next_seq,
                packet.ack.sack,
                packet.ack.state_done,
                packet.ack.state_version,
                packet.ack.state_bits,
            ],
            [
                [0, f.seq, f.last, f.chunk]
                if isinstance(f, DataFrame)
                else [1, f.version, f.index, f.count, f.chunk]
                for f in packet.frames
            ],
        ]
        assert encode(packet) == msgpack.packb(items)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=1500))
def test_decode_never_raises_on_arbitrary_bytes(data: bytes) -> None:
    result = decode(data)
    assert isinstance(result, Rejected) or len(data) <= MAX_DATAGRAM


@settings(max_examples=300, deadline=None)
@given(packets, st.data())
def test_decode_never_raises_on_mutated_datagrams(packet: Packet, data: st.DataObject) -> None:
    raw = bytearray(encode(packet))
    for _ in range(data.draw(st.integers(1, 8))):
        index = data.draw(st.integers(0, len(raw) - 1))
        raw[index] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(raw)))
    decode(bytes(raw))
    decode(bytes(raw[:cut]))


@given(payloads)
def test_application_messages_round_trip(value: Any) -> None:
    assert decode_message(encode_message(value)) == value


@pytest.mark.parametrize(
    "data",
    [
        b"\xdd\x7f\xff\xff\xff",  # array32 declaring 2**31 - 1 elements
        b"\xdd\xff\xff\xff\xff" + b"\x00" * 20,
        b"\xdf\x7f\xff\xff\xff",  # map32 declaring 2**31 - 1 pairs
        b"\x94\x06\x01\x95\x00\xc6\x7f\xff\xff\xff",  # bin32 of 2 GiB inside an ack
        b"\x93\x05\x00\xdb\x80\x00\x00\x00abc",  # str32 of 2 GiB
        b"\x92\x07\xc9\x00\x00\x10\x00\x01",  # ext32 of 4 KiB
        b"\xd4\x01\x00",  # fixext
        b"\x91" * 2000,  # too large and absurdly nested
        b"\x91" * 1100 + b"\x01",  # deeply nested
    ],
)
def test_huge_declared_lengths_and_nesting_are_rejected(data: bytes) -> None:
    assert isinstance(decode(data), Rejected)
    with pytest.raises(MalformedMessage):
        decode_message(data)


@pytest.mark.parametrize(
    ("items", "reason"),
    [
        ({"type": 6}, "malformed"),
        ([], "malformed"),
        ([True, 1, 2], "malformed"),
        ([99, 1], "unknown_type"),
        ([-1], "unknown_type"),
        ([6, "session", [0, b"", 0, 0, b""], []], "malformed"),
        ([6, 0, [0, b"", 0, 0, b""], []], "malformed"),  # session id 0
        ([6, 1.5, [0, b"", 0, 0, b""], []], "malformed"),
        ([6, True, [0, b"", 0, 0, b""], []], "malformed"),
        ([6, 7, [0, b"", 0, 0], []], "malformed"),  # short ack
        ([6, 7, [0, b"x" * 33, 0, 0, b""], []], "malformed"),  # sack too long
        ([6, 7, [-1, b"", 0, 0, b""], []], "malformed"),
        ([6, 7, [0, b"", 0, 0, b""], [[0, 1, 1, b"x"]]], "malformed"),  # last not bool
        ([6, 7, [0, b"", 0, 0, b""], [[0, 1, True, b""]]], "malformed"),  # empty chunk
        ([6, 7, [0, b"", 0, 0, b""], [[0, 1, True, "text"]]], "malformed"),
        ([6, 7, [0, b"", 0, 0, b""], [[1, 1, 5, 5, b"x"]]], "malformed"),  # index >= count
        ([6, 7, [0, b"", 0, 0, b""], [[1, 0, 0, 1, b"x"]]], "malformed"),  # version 0
        ([6, 7, [0, b"", 0, 0, b""], [[1, 1, 0, 65, b"x"]]], "malformed"),  # too many fragments
        ([6, 7, [0, b"", 0, 0, b""], [[2, 1]]], "malformed"),  # unknown frame kind
        ([6, 7, [0, b"", 0, 0, b""], {}], "malformed"),
        ([7, 7, b"bytes, not text"], "malformed"),
        ([7, 7, "x" * 201], "malformed"),
        ([8, 0], "malformed"),  # RESET of session 0
        ([8, 7, "extra"], "malformed"),
        ([8, True], "malformed"),
        ([9, 7], "unknown_type"),
        ([5, 1], "malformed"),
        ([2, 1, 2, b"short"], "malformed"),
        ([4, 1, 2, 0, 10, None], "malformed"),  # window 0
        ([4, 1, 2, 257, 10, None], "malformed"),  # window too large
        ([1], "malformed"),
    ],
)
def test_wrong_shapes_and_types_are_rejected_with_a_reason(items: Any, reason: str) -> None:
    assert decode(msgpack.packb(items)) == Rejected(reason)


def test_trailing_bytes_and_oversize_are_rejected() -> None:
    valid = encode(ClosePacket(5, "bye"))
    assert decode(valid + b"\x00") == Rejected("undecodable")
    assert decode(valid[:-1]) == Rejected("undecodable")
    assert decode(b"\x00" * (MAX_DATAGRAM + 1)) == Rejected("oversize")


def test_hello_is_padded_to_exactly_1200_bytes_for_every_payload_size() -> None:
    # Sizes around the bin8/bin16 header boundary included.
    for size in range(0, 1150, 7):
        data = encode(HelloPacket(1, 128, 65536, "x" * size))
        assert len(data) == MIN_HELLO_SIZE
        assert decode(data) == HelloPacket(1, 128, 65536, "x" * size)
    with pytest.raises(ValueError):
        encode(HelloPacket(1, 128, 65536, "x" * 1200))


def test_a_future_version_hello_is_read_as_a_version_mismatch() -> None:
    future = msgpack.packb([1, 2, 42, "whatever", {"new": "fields"}, b"\x00" * 1100])
    assert decode(future) == VersionMismatch(2, 42)


def test_floats_and_ext_types_in_payloads() -> None:
    assert decode_message(encode_message({"f": 1.5, "b": b"\x00"})) == {"f": 1.5, "b": b"\x00"}
    ext = msgpack.packb(msgpack.ExtType(5, b"abc"))
    with pytest.raises(MalformedMessage):
        decode_message(ext)
    hello_with_ext = b"\x97\x01\x01\x01\x01\x01" + ext + b"\xc4\x00"
    assert decode(hello_with_ext) == Rejected("undecodable")
