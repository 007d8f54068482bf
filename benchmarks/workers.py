"""The thinking workers' lifetimes and footprint (bots/pool.py).

    .venv/bin/python benchmarks/workers.py [--orphans N] [--games N]
                                           [--players P] [--think-ms MS] [--json]

orphan exit      a process whose shared pool has a worker thinking (a busy
                 bot, five seconds a decision) is killed outright
                 (SIGKILL, so it stops nothing itself): the time until its
                 worker and multiprocessing's resource tracker are gone,
                 as they notice on their own; N times
RSS over games   N games of P expert bots (MS a decision) through a real
                 TableRunner and this process's shared pool: the resident
                 memory of this process and of each worker after each game;
                 the first and last figures and the growth per game after the
                 first ten (a leak in the pool, the bots or their caches shows
                 as a steady growth)
idle CPU         the workers' CPU seconds in the two seconds after the last
                 game (a worker left spinning shows here)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from threeup_tui.bots.pool import close_shared_pool, shared_pool
from threeup_tui.table import Table, TableConfig, TableRunner

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

# The doomed parent: a busy bot thinks in a worker; the parent prints the
# pids of its children (the worker and the resource tracker), then waits.
DOOMED = """
import asyncio, os, sys, time
from pathlib import Path
from threeup_tui.bots.busy import BusyBot
from threeup_tui.bots.pool import shared_pool
from threeup_tui.rules import GameState, Options, seat_view

def children():
    found = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        found += (task / "children").read_text().split()
    return found

async def main():
    view = seat_view(GameState.new(["a", "b"], Options(), 1), 0)
    thinking = asyncio.ensure_future(shared_pool().decide(BusyBot(1, think_ms=5000), view))
    while len(shared_pool().worker_pids()) < 1:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.3)  # the worker is up and burning
    print(" ".join(children()), flush=True)
    await thinking

if __name__ == "__main__":
    asyncio.run(main())
"""


def alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "State:\tZ" not in status


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except FileNotFoundError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def orphan_exit_once() -> float:
    """Seconds from SIGKILL of a thinking worker's parent until every child is gone."""
    # Its stderr is let go: the orphaned resource tracker warns there of the
    # "leaked" semaphores it cleans up (the parent could not).
    parent = subprocess.Popen(
        [sys.executable, "-c", DOOMED],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    assert parent.stdout is not None
    left = [int(pid) for pid in parent.stdout.readline().split()]
    start = time.perf_counter()
    parent.kill()
    parent.wait()
    while any(alive(pid) for pid in left):
        if time.perf_counter() - start > 30:
            for pid in left:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
            return float("inf")
        time.sleep(0.001)
    return time.perf_counter() - start


async def rss_over_games(games: int, players: int, think_ms: int) -> dict[str, Any]:
    pool = shared_pool()
    own: list[int] = []
    workers: list[list[int]] = []
    moves = 0
    for game in range(games):
        table = Table(TableConfig(players=players, seed=game, auto_start=True, think_ms=think_ms))
        for _ in range(players):
            table.add_bot(None, "expert")
        runner = TableRunner(table, pool)
        runner.start()
        try:
            while table.state is None or not table.state.over:
                await asyncio.sleep(0.01)
        finally:
            await runner.stop()
        moves += len(table.state.history)
        own.append(rss_kib(os.getpid()))
        workers.append([rss_kib(pid) for pid in sorted(pool.worker_pids())])
    pids = pool.worker_pids()
    before = sum(cpu_seconds(pid) for pid in pids)
    await asyncio.sleep(2.0)
    idle_cpu = sum(cpu_seconds(pid) for pid in pids) - before
    return {
        "games": games,
        "moves": moves,
        "own_rss_kib": own,
        "worker_rss_kib": workers,
        "idle_worker_cpu_s": idle_cpu,
    }


def growth_per_game(series: list[int]) -> float:
    """KiB per game from the tenth game on (the first games warm caches up)."""
    tail = series[10:] if len(series) > 12 else series
    if len(tail) < 2:
        return 0.0
    return (tail[-1] - tail[0]) / (len(tail) - 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orphans", type=int, default=5, help="SIGKILLed parents (default 5)")
    parser.add_argument("--games", type=int, default=40, help="bot games (default 40)")
    parser.add_argument("--players", type=int, default=4, help="expert bots a game (default 4)")
    parser.add_argument("--think-ms", type=int, default=20, help="their budget (default 20)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    orphans = [orphan_exit_once() for _ in range(args.orphans)]
    try:
        games = asyncio.run(rss_over_games(args.games, args.players, args.think_ms))
    finally:
        close_shared_pool()
    result = {"orphan_exit_s": orphans, **games, "load_average": os.getloadavg()}
    if args.json:
        print(json.dumps(result))
        return 0
    if orphans:
        print(
            f"orphan exit after SIGKILL of its parent: median {statistics.median(orphans):.3f} s"
            f", max {max(orphans):.3f} s   (n={len(orphans)})"
        )
    own = games["own_rss_kib"]
    print(
        f"{games['games']} games of {args.players} experts ({args.think_ms} ms), "
        f"{games['moves']} moves"
    )
    if own:
        print(
            f"  this process RSS   first {own[0] / 1024:6.1f} MiB   last {own[-1] / 1024:6.1f} MiB"
            f"   growth {growth_per_game(own):+.1f} KiB/game"
        )
    by_worker = [list(column) for column in zip(*games["worker_rss_kib"], strict=False)]
    for i, series in enumerate(by_worker, start=1):
        print(
            f"  worker {i} RSS       first {series[0] / 1024:6.1f} MiB   last "
            f"{series[-1] / 1024:6.1f} MiB   growth {growth_per_game(series):+.1f} KiB/game"
        )
    print(f"  workers' CPU in the 2 s after the last game: {games['idle_worker_cpu_s']:.2f} s")
    load = result["load_average"]
    print(f"machine load average (1, 5, 15 min): {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
