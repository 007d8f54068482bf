"""Where a server answers from, when that is not where it was asked.

A server bound to every address of its machine (``0.0.0.0``, ``::``)
answers from whichever address its system picks for the way back, and that
need not be the one the client sent to: a second address of one interface,
an IPv6 host's temporary address, 127.0.0.2 on loopback.  The client's
socket is connected to the address it asked (the kernel then drops
everyone else's datagrams and reports ICMP errors), so it never sees such
answers, and the handshake times out against a server that heard every
HELLO.

The scout asks once more from an unconnected socket, with a HELLO of its
own nonce and no hello payload (the server keeps nothing from a HELLO),
and reports the address that answers for that nonce.  Only a CHALLENGE or
REFUSE carrying the scout's random 64-bit nonce counts, so nobody off the
path can send the client elsewhere.
"""

from __future__ import annotations

import asyncio
import secrets

from net.codec import decode, encode
from net.config import NetConfig
from net.events import Address
from net.packets import ChallengePacket, HelloPacket, RefusePacket
from net.stats import NetStats
from net.transport import DatagramTap, TransportClosed, UdpSocket


def _wildcard_for(host: str) -> str:
    return "::" if ":" in host else "0.0.0.0"


async def answering_address(
    host: str,
    port: int,
    config: NetConfig,
    stats: NetStats,
    deadline: float,
    tap: DatagramTap | None = None,
) -> Address | None:
    """The address a server asked at ``host:port`` answers a HELLO from, or
    None if none answers before ``deadline`` (the loop's clock)."""
    loop = asyncio.get_running_loop()
    nonce = secrets.randbits(64)
    hello = encode(HelloPacket(nonce, config.window_frames, config.max_message_size, None))
    sock = await UdpSocket.bind(_wildcard_for(host), 0, stats, tap, config.socket_buffer_bytes)
    retry = config.handshake_initial_retry
    try:
        while (remaining := deadline - loop.time()) > 0:
            await sock.send(hello, (host, port))
            wait_until = loop.time() + min(retry, remaining)
            retry = min(retry * 2, config.max_rto)
            while (left := wait_until - loop.time()) > 0:
                try:
                    async with asyncio.timeout(left):
                        data, addr = await sock.recv()
                except TimeoutError:
                    break
                except OSError:
                    continue  # an ICMP error for an earlier datagram: nothing answers there
                packet = decode(data)
                if isinstance(packet, ChallengePacket | RefusePacket) and packet.nonce == nonce:
                    return addr
        return None
    except TransportClosed:
        return None
    finally:
        await sock.close()
