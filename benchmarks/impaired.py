"""Whole games through a bad network: loss, duplication, reordering, jitter.

    .venv/bin/python benchmarks/impaired.py [--seeds N] [--json]

Everything runs on 127.0.0.1 only; no host announces itself.

An in-process host (NetHost + Table, the host's own network settings) and
four NetClient bot seats, each reaching the host through its own seeded
``net.ImpairmentProxy`` (the same impairment for all).  Per row:

* every game completes, and every view each client saw equals the view the
  game record gives for its seat at that move (``check_client_against_record``
  from the tests: no move lost, none applied twice, no view wrong);
* submit -> view: from the mover's ``submit`` until all four clients have
  a view with the new move count; p50 / p99 / max;
* reconnects (a client whose session died came back with its token).

The ``cut`` row cuts every link completely for 6 s in the middle of the game
(longer than the client's 5-s idle time-out), then restores it: every client
must reconnect and the game finish.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent / "tests" / "netplay"))

from netplay_support import (  # noqa: E402
    LOOPBACK,
    ClientLog,
    check_client_against_record,
    expected_views,
    make_client,
    play_bot,
    table_record,
    verify_record,
)

from net import Impairment, ImpairmentProxy  # noqa: E402
from threeup_tui.client.events import Event, ViewChanged  # noqa: E402
from threeup_tui.netplay.host import NetHost  # noqa: E402
from threeup_tui.table import Table, TableConfig, TableRunner  # noqa: E402

SEATS = 4
ROWS: dict[str, Impairment] = {
    "clean": Impairment(),
    "loss 10%": Impairment(loss_to_server=0.1, loss_to_client=0.1),
    "loss 20%": Impairment(loss_to_server=0.2, loss_to_client=0.2),
    "loss 30%": Impairment(loss_to_server=0.3, loss_to_client=0.3),
    "dup 30%": Impairment(duplicate=0.3),
    "reorder 30%": Impairment(reorder=0.3),
    "jitter 0-100 ms": Impairment(jitter=0.1),
    "delay 20 ms + jitter 0-40 ms": Impairment(delay=0.02, jitter=0.04),
    "all: loss 20%, dup 10%, reorder 10%, jitter 0-50 ms": Impairment(
        loss_to_server=0.2, loss_to_client=0.2, duplicate=0.1, reorder=0.1, jitter=0.05
    ),
    "cut": Impairment(),
}
CUT_AFTER_MOVES = 20
CUT_SECONDS = 6.0


@dataclass
class Row:
    name: str
    moves: int
    latencies: list[float]
    reconnects: int
    seconds: float


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


async def one_game(name: str, impairment: Impairment, seed: int, work: Path) -> Row:
    table = Table(TableConfig(players=SEATS, seed=seed, auto_start=True, takeover_after=600.0))
    host = await NetHost.start(table, LOOPBACK, 0)
    runner = TableRunner(table)
    runner.start()
    proxies = [
        await ImpairmentProxy.start(host.address, impairment, seed=seed * 10 + i)
        for i in range(SEATS)
    ]
    clients = [
        make_client(p.address, f"seat{i}", work / f"{seed}-{i}.json") for i, p in enumerate(proxies)
    ]
    logs = [ClientLog(f"seat{i}") for i in range(SEATS)]
    seen_at: list[dict[int, float]] = [{} for _ in clients]

    def timing(i: int, emit: Any) -> Any:
        def on_event(event: Event) -> None:
            if isinstance(event, ViewChanged) and event.view.phase != "setup":
                seen_at[i].setdefault(event.view.moves_played, time.perf_counter())
            emit(event)

        return on_event

    for i, client in enumerate(clients):
        client._emit = timing(i, client._emit)

    async def cut_once() -> None:
        while table.state is None or len(table.state.history) < CUT_AFTER_MOVES:
            await asyncio.sleep(0.01)
        for proxy in proxies:
            proxy.impairment = Impairment(loss_to_server=1.0, loss_to_client=1.0)
        await asyncio.sleep(CUT_SECONDS)
        for proxy in proxies:
            proxy.impairment = Impairment()

    started = time.perf_counter()
    cutter = asyncio.ensure_future(cut_once()) if name == "cut" else None
    try:
        games = [
            play_bot(client, log, seed=seed + i)
            for i, (client, log) in enumerate(zip(clients, logs, strict=True))
        ]
        await asyncio.wait_for(asyncio.gather(*games), timeout=300)
    finally:
        if cutter is not None:
            cutter.cancel()
        for client in clients:
            await client.close()
        for proxy in proxies:
            await proxy.stop()
        task = runner._task
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await host.close()
    seconds = time.perf_counter() - started
    record = table_record(table)
    verify_record(record)
    expected = expected_views(record)
    for log in logs:
        check_client_against_record(log, record, expected)
    latencies = []
    for log in logs:
        for at, t0 in log.submit_times.items():
            # A view may be skipped (the state channel keeps the latest):
            # the first one showing the move counts.
            firsts = [min(t for m, t in seen.items() if m > at) for seen in seen_at]
            latencies.append(max(firsts) - t0)
    return Row(name, len(record.moves), latencies, sum(c.reconnects for c in clients), seconds)


async def amain(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, impairment in ROWS.items():
            rows = [
                await one_game(name, impairment, 1000 + s, Path(tmp)) for s in range(args.seeds)
            ]
            latencies = [x for r in rows for x in r.latencies]
            out[name] = {
                "games": len(rows),
                "moves": sum(r.moves for r in rows),
                "p50_ms": round(percentile(latencies, 50) * 1000, 1),
                "p99_ms": round(percentile(latencies, 99) * 1000, 1),
                "max_ms": round(max(latencies) * 1000, 1),
                "mean_ms": round(statistics.fmean(latencies) * 1000, 1),
                "reconnects": sum(r.reconnects for r in rows),
                "seconds": round(sum(r.seconds for r in rows), 1),
            }
            if not args.json:
                r = out[name]
                print(
                    f"{name:52} {r['games']} games {r['moves']:4} moves  "
                    f"p50 {r['p50_ms']:7.1f} ms  p99 {r['p99_ms']:7.1f} ms  "
                    f"max {r['max_ms']:7.1f} ms  reconnects {r['reconnects']}",
                    flush=True,
                )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2, help="games per row")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = asyncio.run(amain(args))
    if args.json:
        print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
