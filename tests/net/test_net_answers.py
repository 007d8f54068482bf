"""protocol.md promises more than the 3x rule: every answer the server
gives an address without a session is smaller than the datagram it
answers, so a sender forging a victim's address gets nothing amplified,
even with credit earned before.  Real sockets on loopback, each kind of
datagram from a fresh address."""

from __future__ import annotations

import asyncio
import contextlib

import asyncio_dgram
import pytest

from net import Server
from net.codec import decode, encode
from net.packets import (
    EMPTY_ACK,
    AckBlock,
    ChallengePacket,
    HelloPacket,
    RefusePacket,
    ResetPacket,
    SessionPacket,
    VersionMismatch,
)
from net.testing import QUICK_CONFIG, accept_all

BIG = 2**64 - 1
FULL_ACK = AckBlock(2**62, b"\xff" * 32, 2**62, 2**62, b"\xff" * 8)

ANSWERED = {
    "hello": (encode(HelloPacket(BIG, 128, 65536, "x")), ChallengePacket),
    "another version": (encode(VersionMismatch(BIG, BIG)), RefusePacket),
    "unknown session, id 1": (encode(SessionPacket(1, EMPTY_ACK, ())), ResetPacket),
    "unknown session, id 2**64-1": (encode(SessionPacket(BIG, EMPTY_ACK, ())), ResetPacket),
    "unknown session, full ack": (encode(SessionPacket(BIG, FULL_ACK, ())), ResetPacket),
}


@pytest.mark.parametrize("kind", sorted(ANSWERED))
async def test_every_answer_to_an_address_without_a_session_is_smaller(kind: str) -> None:
    datagram, answer_type = ANSWERED[kind]
    server = await Server.start("127.0.0.1", 0, accept_all, QUICK_CONFIG)
    sock = await asyncio_dgram.connect(server.address)
    try:
        await sock.send(datagram)
        answers = [(await asyncio.wait_for(sock.recv(), 3))[0]]
        with contextlib.suppress(TimeoutError):  # and anything else it sends
            while True:
                answers.append((await asyncio.wait_for(sock.recv(), 0.3))[0])
        assert isinstance(decode(answers[0]), answer_type)
        sent_back = sum(len(answer) for answer in answers)
        assert sent_back < len(datagram), (kind, sent_back, len(datagram))
    finally:
        sock.close()
        await server.close()
