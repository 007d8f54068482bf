"""A seated player who repeats its requests thousands of times a second.

    .venv/bin/python benchmarks/flood.py [--rates 0,1000,20000] [--think 0.03]

Everything runs on 127.0.0.1 only; no host announces itself.

``threeup host --headless`` (4 seats, one game) in its own process; the
flooder seat in a second process (a raw ``net.Client`` seat that plays its
turns, and sends every request it made again ``rate`` times a second: its
set-up, then each move, which the host counts as stale); three NetClient
bot seats in this process, each waiting ``--think`` seconds before a move
so that the game lasts a while.  Per rate: the others' submit -> all
their views p50 / p99 / max, the game's length, and the host's own count
line (stale moves, refusals, datagrams dropped by its rate limit).

Measured (2 busy cores): repeats 0/s p50 2.2 ms, p99 2.9 ms; 1,000/s p50
2.1 ms, p99 2.9 ms (1,750 stale moves counted); 20,000/s p50 2.6 ms, p99
5.2 ms (228,677 stale moves, 3,406 datagrams over the host's per-address
rate limit).  At 20,000/s the game lasts 44 s, not 2: the flooder's own
moves wait behind its repeats in its own send queue; the others do not.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent / "tests" / "netplay"))

from netplay_support import LOOPBACK, RawSeat, start_host_process  # noqa: E402

from net import SendQueueFull  # noqa: E402
from threeup_tui.bots import make_bot  # noqa: E402
from threeup_tui.client.events import ViewChanged  # noqa: E402
from threeup_tui.netplay.client import NetClient  # noqa: E402
from threeup_tui.netplay.tokens import TokenStore  # noqa: E402


async def flooder(port: int, rate: float) -> None:
    seat = await RawSeat.join(SimpleNamespace(address=(LOOPBACK, port)), "flooder")  # type: ignore[arg-type]
    last: list[object] = []
    send = seat.client.send

    def remember(obj: object) -> None:
        last[:] = [obj]
        send(obj)

    seat.client.send = remember  # type: ignore[method-assign]

    async def repeat() -> None:
        per = max(1, int(rate / 100))
        while True:
            if last and rate > 0:
                for _ in range(per):
                    try:
                        send(last[0])
                    except SendQueueFull:
                        break
            await asyncio.sleep(0.01)

    repeating = asyncio.ensure_future(repeat())
    await seat.pump(lambda v: False, timeout=600)
    repeating.cancel()
    await seat.client.close()


async def player(
    port: int, i: int, think: float, work: Path
) -> tuple[dict[int, float], dict[int, float]]:
    """(submitted at, first seen at) by move count."""
    client = NetClient(LOOPBACK, port, f"p{i}", tokens=TokenStore(work / f"t{i}"))
    bot = make_bot("greedy", i)
    submitted: dict[int, float] = {}
    seen: dict[int, float] = {}
    await client.start()
    acted, chose = -1, False
    while True:
        event = await client.next_event()
        if not isinstance(event, ViewChanged):
            continue
        view = event.view
        if view.phase != "setup":
            seen.setdefault(view.moves_played, time.perf_counter())
        if view.phase == "over":
            await client.close()
            return submitted, seen
        if view.seat is None:
            continue
        if view.phase == "setup" and not view.seats[view.seat].ready and not chose:
            client.choose_face_up(bot.choose_face_up(view))
            chose = True
        elif view.my_turn and acted != view.moves_played:
            acted = view.moves_played
            await asyncio.sleep(think)
            if client.view is None or client.view.moves_played != acted:
                continue
            submitted[acted] = time.perf_counter()
            client.submit(bot.choose_move(view))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


async def one_rate(rate: float, think: float, work: Path) -> str:
    proc = start_host_process(work, players=4, bots=0, seed=8, record=work / "r.json", games=1)
    child = subprocess.Popen([sys.executable, __file__, "--flooder", str(proc.port), str(rate)])
    try:
        await asyncio.sleep(0.5)
        started = time.perf_counter()
        results = await asyncio.wait_for(
            asyncio.gather(*(player(proc.port, i, think, work) for i in range(3))), 600
        )
        seconds = time.perf_counter() - started
        child.wait(60)
        proc.wait(30)
    finally:
        child.kill()
        proc.kill()
    latencies = []
    for submitted, _ in results:
        for at, t0 in submitted.items():
            firsts = [min(t for m, t in seen.items() if m > at) for _, seen in results]
            latencies.append(max(firsts) - t0)
    counted = proc.stderr().splitlines()[-1].split("threeup: ", 1)[-1]
    return (
        f"repeat {rate:>7,.0f}/s  game {seconds:5.1f} s  others' submit -> views "
        f"p50 {percentile(latencies, 50) * 1e3:5.1f} ms  p99 {percentile(latencies, 99) * 1e3:5.1f}"
        f" ms  max {max(latencies) * 1e3:5.1f} ms\n    host: {counted}"
    )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--flooder":
        asyncio.run(flooder(int(sys.argv[2]), float(sys.argv[3])))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="0,1000,20000")
    parser.add_argument("--think", type=float, default=0.03)
    args = parser.parse_args()
    for rate in (float(r) for r in args.rates.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            print(asyncio.run(one_rate(rate, args.think, Path(tmp))), flush=True)


if __name__ == "__main__":
    main()
