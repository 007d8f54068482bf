"""The stranger's session layer against net's own server, for what a game
never sends it: messages and snapshots of several pieces, on a lossy link.

The stranger acknowledges in-order frames of a message it has not yet
reassembled in ``next_seq`` (the reference receiver reports them in SACK
instead); docs/protocol.md says a sender treats both alike, and this is
where that is checked.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from typing import Any

from stranger_client import CHUNK, Session

from net import Accept, Connected, Message, NetConfig, Server

BIG_MESSAGE = {"blob": bytes(range(256)) * 20}  # 5 KiB: six data frames
BIG_STATE = {"text": "s" * 3000}  # three fragments


def receive_both(session: Session) -> dict[str, Any]:
    """Poll until one message and one snapshot have come (or 10 s)."""
    got: dict[str, Any] = {}
    deadline = time.monotonic() + 10
    while len(got) < 2 and time.monotonic() < deadline:
        for kind, value in session.poll(0.1):
            got[kind] = value
    return got


def keep_polling(session: Session, seconds: float, stop: threading.Event | None = None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not (stop and stop.is_set()):
        session.poll(0.1)


async def test_a_stranger_reassembles_pieces_and_its_acks_settle_the_sender() -> None:
    def authorize(address: Any, hello: Any) -> Accept:
        return Accept({"hello": hello})

    async with await Server.start("127.0.0.1", 0, authorize, NetConfig()) as server:
        stranger = Session("127.0.0.1", server.address[1], loss=0.2, rng=random.Random(5))
        assert await asyncio.to_thread(stranger.connect, {"n": 1}) == {"hello": {"n": 1}}
        connected = await asyncio.wait_for(server.next_event(), 5)
        assert isinstance(connected, Connected)
        sid = connected.session_id

        server.send(sid, BIG_MESSAGE)
        server.set_state(sid, BIG_STATE)
        got = await asyncio.to_thread(receive_both, stranger)
        assert got == {"message": BIG_MESSAGE, "state": BIG_STATE}
        assert len(BIG_MESSAGE["blob"]) > 4 * CHUNK

        stranger.send({"t": "thanks"})  # polling resends it if the link lost it
        replied = threading.Event()
        polling = asyncio.create_task(asyncio.to_thread(keep_polling, stranger, 5, replied))
        reply = await asyncio.wait_for(server.next_event(), 5)
        replied.set()
        await polling
        assert isinstance(reply, Message) and reply.payload == {"t": "thanks"}

        # Once everything is acknowledged the server resends nothing more:
        # an ack it misread would leave frames it retransmits every max_rto.
        settled = server.stats.retransmissions
        await asyncio.to_thread(keep_polling, stranger, 1.5)
        assert server.stats.retransmissions == settled
        assert server.stats.dropped["bad_ack"] == 0
        stranger.close("done", linger=0.5)
