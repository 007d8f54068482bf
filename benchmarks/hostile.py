"""What a bad actor gets out of a real host: amplification, memory, floods.

    .venv/bin/python benchmarks/hostile.py [--parts amp,memory] [--json]

Everything runs on 127.0.0.1 only; no host announces itself.

1. ``amp``: for every kind of datagram a sender without a session can send
   (so one that may spoof its source address), the bytes the host sends
   back to that address, divided by the bytes received from it.  Each kind
   from its own fresh socket, 50 times (the RESETs are paced at one per
   0.25 s, so they are sent 0.3 s apart).  Then the worst mix: an address
   that first earns credit with 1200-byte HELLOs and then sends what draws
   the largest answer per byte.
2. ``memory``: ``threeup host --headless`` in its own process, two raw
   seats playing; meanwhile handshakes from many loopback ports with
   distinct names: HELLO only (half-open, no ECHO), complete spectator
   handshakes that then fall silent, and newcomers after the game has begun
   (refused: the table is full).  The host's RSS (VmRSS, VmHWM) at each
   step, and whether the game went on and a spectator is admitted again
   once the silent ones have timed out.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import signal
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent / "tests" / "netplay"))

import asyncio_dgram  # noqa: E402
from netplay_support import (  # noqa: E402
    LOOPBACK,
    RawSeat,
    Tap,
    make_table,
    start_host,
    start_host_process,
)

from net import Client, NetConfig  # noqa: E402
from net.codec import decode, encode  # noqa: E402
from net.packets import (  # noqa: E402
    EMPTY_ACK,
    AckBlock,
    ChallengePacket,
    ClosePacket,
    EchoPacket,
    HelloPacket,
    ResetPacket,
    SessionPacket,
    VersionMismatch,
)
from threeup_tui.netplay.wire import make_hello  # noqa: E402

# No rate limit in the way of the counting (it only ever lowers what is sent).
AMP_NET = NetConfig(rate_limit_per_second=1e6, rate_limit_burst=1e6, max_rto=0.4, ack_delay=0.01)


def _hello(nonce: int) -> bytes:
    return encode(HelloPacket(nonce, 128, 65536, make_hello("x", None, "t" * 32, False)))


def amp_kinds() -> dict[str, Any]:
    """kind -> a function of i giving the i-th datagram of that kind."""
    big = 2**64 - 1
    return {
        "HELLO (1200 B)": _hello,
        "HELLO, another version": lambda i: encode(VersionMismatch(2, i + 1)),
        "HELLO, version 2**64-1": lambda i: encode(VersionMismatch(big, big - i)),
        "ECHO, bad cookie": lambda i: encode(
            EchoPacket(i, 128, 65536, None, int(time.monotonic()), bytes(16))
        ),
        "SESSION, unknown id 1": lambda i: encode(SessionPacket(1, EMPTY_ACK, ())),
        "SESSION, unknown id 2**64-1": lambda i: encode(SessionPacket(big, EMPTY_ACK, ())),
        "SESSION, unknown id, big ack": lambda i: encode(
            SessionPacket(big, AckBlock(2**62, b"\xff" * 32, 2**62, 2**62, b"\xff" * 8), ())
        ),
        "CLOSE, unknown id": lambda i: encode(ClosePacket(big, "x" * 200)),
        "RESET (to the server)": lambda i: encode(ResetPacket(big)),
        "CHALLENGE (to the server)": lambda i: encode(ChallengePacket(i, i, bytes(16))),
        "junk": lambda i: bytes([0xC1]) * 10,
    }


async def amplification() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        table = make_table(Path(tmp), players=2, seed=3)
        tap = Tap()
        host = await start_host(table, AMP_NET, tap=tap)
        rows: dict[str, Any] = {}
        try:
            for kind, make in amp_kinds().items():
                sock = await asyncio_dgram.connect(host.address)
                addr = sock.sockname[:2]
                sent_in = 0
                for i in range(50):
                    data = make(i)
                    await sock.send(data)
                    sent_in += len(data)
                    await asyncio.sleep(0.3 if kind.startswith("SESSION") else 0.002)
                await asyncio.sleep(0.1)
                out = [d for a, d in tap.sent if a[:2] == addr]
                answered = sorted({type(decode(d)).__name__ for d in out})
                sent_out = sum(len(d) for d in out)
                rows[kind] = {
                    "in": sent_in,
                    "out": sent_out,
                    "ratio": round(sent_out / sent_in, 3),
                    "answers": len(out),
                    "answered_with": answered,
                }
                sock.close()
            # The worst mix: credit first, then what draws most per byte.
            sock = await asyncio_dgram.connect(host.address)
            addr = sock.sockname[:2]
            sent_in = 0
            for i in range(20):
                data = _hello(i)
                await sock.send(data)
                sent_in += len(data)
            worst = min((k for k in rows if rows[k]["answers"]), key=lambda k: -rows[k]["ratio"])
            make = amp_kinds()[worst]
            for i in range(200):
                data = make(i)
                await sock.send(data)
                sent_in += len(data)
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.1)
            out = [d for a, d in tap.sent if a[:2] == addr]
            rows[f"mix: 20 HELLOs, then 200 x {worst}"] = {
                "in": sent_in,
                "out": sum(len(d) for d in out),
                "ratio": round(sum(len(d) for d in out) / sent_in, 3),
                "answers": len(out),
            }
            sock.close()
            rows["dropped"] = dict(host.server.stats.dropped)
        finally:
            await host.close()
    return rows


def rss_kib(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of process ``pid`` in KiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields["VmRSS"], fields["VmHWM"]


async def memory(ports: int) -> dict[str, Any]:
    """Against ``threeup host --headless`` in its own process (its RSS is
    the host's alone); the sessions it keeps come from its own log line of
    counts at the end, and from the spectators it admitted and refused."""
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        proc = start_host_process(
            work, players=3, bots=0, seed=9, record=work / "r.json", games=None,
            takeover_after=600.0,
        )  # fmt: skip
        pid = proc.popen.pid
        host = SimpleNamespace(address=(LOOPBACK, proc.port))
        try:
            seats = [await RawSeat.join(host, f"p{i}") for i in range(2)]
            play = [asyncio.ensure_future(s.pump(lambda v: False, timeout=600)) for s in seats]
            await asyncio.sleep(0.5)
            out["rss_start_kib"] = rss_kib(pid)

            # 1. Half-open: HELLO only, from many ports (the host keeps nothing).
            for first in range(0, ports, 500):
                socks = [await asyncio_dgram.connect(host.address) for _ in range(500)]
                for i, sock in enumerate(socks):
                    await sock.send(_hello(first + i))
                    if i % 64 == 63:
                        await asyncio.sleep(0.01)
                await asyncio.sleep(0.2)
                for sock in socks:
                    sock.close()
            out["after_hellos"] = {"ports": ports, "rss_kib": rss_kib(pid)}

            # 2. Spectators that complete the handshake and fall silent, each
            #    from its own port with its own name (the host admits 256).
            silent: list[Client] = []
            refused = 0
            for i in range(300):
                name = f"w{i}-{secrets.token_hex(4)}"
                hello = make_hello(name, None, secrets.token_hex(16), True)
                try:
                    client = await Client.connect(*host.address, hello, NetConfig())
                except Exception:
                    refused += 1
                    continue
                client._engine._tasks[1].cancel()  # stop its sending: it falls silent
                silent.append(client)
            out["silent_spectators"] = {
                "tried": 300, "admitted": len(silent), "refused": refused,
                "rss_kib": rss_kib(pid),
            }  # fmt: skip
            # The third seat joins now: the game begins amid the flood.
            seats.append(await RawSeat.join(host, "p2"))
            play.append(asyncio.ensure_future(seats[2].pump(lambda v: False, timeout=600)))

            # 3. Newcomers once the game has begun: refused, nothing kept.
            await asyncio.sleep(0.5)
            late = 0
            for i in range(200):
                hello = make_hello(f"late{i}", None, secrets.token_hex(16), False)
                try:
                    client = await Client.connect(*host.address, hello, NetConfig())
                    await client.close()
                except Exception:
                    late += 1
            await asyncio.sleep(NetConfig().idle_timeout + 1.5)
            out["after_idle_timeout"] = {"late_refused": late, "rss_kib": rss_kib(pid)}
            # Every silent spectator's session has ended: a new one is admitted.
            hello = make_hello("again", None, secrets.token_hex(16), True)
            again = await Client.connect(*host.address, hello, NetConfig())
            await again.close()
            out["spectator_admitted_after"] = True
            for client in silent:
                await client.close()
            finals = await asyncio.wait_for(asyncio.gather(*play), 120)
            out["game_over"] = all(v.phase == "over" for v in finals)
            out["moves"] = finals[0].moves_played
            for seat in seats:
                await seat.client.close()
            proc.popen.send_signal(signal.SIGINT)  # its counts, logged as it stops
            proc.wait(30)
        finally:
            proc.kill()
        out["host_log_tail"] = proc.stderr().splitlines()[-3:]
    return out


async def amain(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    parts = args.parts.split(",")
    if "amp" in parts:
        out["amp"] = await amplification()
    if "memory" in parts:
        out["memory"] = await memory(args.ports)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="amp,memory")
    parser.add_argument("--ports", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = asyncio.run(amain(args))
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
