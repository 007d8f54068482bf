"""Network play on loopback: latency, bandwidth, host cost.

    .venv/bin/python benchmarks/network.py [--games N] [--loss-games N]
                                       [--spectators N] [--parts LIST] [--json]

Everything runs on 127.0.0.1 only; no host announces itself.

1. Latency, clean loopback: an in-process host (NetHost + Table) and six
   NetClient bot seats.  For every move: from the mover's ``client.submit``
   until all six clients have received a view with the new move count.
   p50 / p99 / max, with the clients placed three ways:
   ``clean``: in the host's process (one core does everything, in turn);
   ``split``: all six in one second process;
   ``apart``: each in its own process, as at a real table;
   ``journal``: as ``clean``, with the host writing its journal after every
   move (a new file renamed over the old; the fsync follows in a worker
   thread) before it sends the views, as
   ``threeup host`` does.
2. Bytes per move per seat: what the host's server sent (and received)
   between the first and the last move, divided by moves and by seats.
3. ``loss``: the same at 30 % loss each way through net's ImpairmentProxy
   (seeded): every game must complete; p50 / p99 / max.
4. ``cost``: a headless host process (``threeup host --headless``, which
   writes its journal after every move) with six bot seats and N spectators
   (watch=True NetClients, in this process): the host's CPU time and peak
   RSS (from /proc and getrusage of the child), with and without spectators.
5. ``think``: a host with three thinking bots of its own (``expert``, or
   until it exists ``busy``: greedy after ``--think-ms`` of pure-Python
   busy work) and three network seats in a second process.  The other
   seats' submit -> views p50 / p99 / max while the bots think, and whether
   the host keeps serving: the longest ack round trip any seat measured,
   retransmissions, and the host loop's longest stall.  One row for each
   way of thinking in ``--thinkers`` (``process``: the host's workers;
   ``thread``; ``inline``: on the host's loop, for comparison).

Targets: p99 <= 5 ms clean; every game completes at 30 % loss with
p99 <= 1.5 s; <= 1 KB sent per seat per move; p99 <= 50 ms with three
thinking bots.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from net import Impairment, ImpairmentProxy
from threeup_tui.bots import BOT_LEVELS, make_bot
from threeup_tui.bots.busy import BusyBot
from threeup_tui.bots.pool import MODES, Mode, ThinkPool
from threeup_tui.client.events import ActionRejected, ConnectionChanged, ViewChanged
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.host import NetHost
from threeup_tui.netplay.tokens import TokenStore
from threeup_tui.table import Table, TableConfig, TableRunner

LOOPBACK = "127.0.0.1"
SEATS = 6
THINKING_BOTS = 3
THREEUP = Path(sys.executable).with_name("threeup")


@dataclass
class Seen:
    """When one client first saw each move count."""

    first_seen: dict[int, float] = field(default_factory=dict)
    submitted: dict[int, float] = field(default_factory=dict)
    top: int = -1
    join_retries: int = 0
    ack_rtt_max: float = 0.0  # the longest round trip from a datagram to its ack
    retransmissions: int = 0


def watch_acks(client: NetClient, seen: Seen) -> None:
    """Note every round trip the client's session measures (an ack that
    comes late means the other end was not serving)."""
    net_client = client._client  # the session of this connection (a benchmark may look)
    if net_client is None or net_client._session is None:
        return
    rtt = net_client._session.rtt
    sample = rtt.sample

    def noting(value: float) -> None:
        seen.ack_rtt_max = max(seen.ack_rtt_max, value)
        sample(value)

    rtt.sample = noting  # type: ignore[method-assign]


async def bot_loop(client: NetClient, seen: Seen, seed: int, play: bool = True) -> int:
    """Play (or watch) until the game is over; returns the final move count."""
    bot = make_bot("greedy", seed)
    for attempt in range(10):
        try:
            await client.start()
            break
        except ConnectionRefusedError:
            raise
        except ConnectionError:
            # "no table answers": the first handshake gave up (connect
            # timeout) -- at 30 % loss each way that happens; a player would
            # simply try again, so do that, and count it.
            if attempt == 9:
                raise
            seen.join_retries += 1
    watch_acks(client, seen)
    acted_at = -1
    chose = False
    while True:
        event = await client.next_event()
        if isinstance(event, ConnectionChanged) and event.state == "closed":
            raise RuntimeError(f"{client.name}: {event.detail}")
        if isinstance(event, ActionRejected):
            raise RuntimeError(f"{client.name}: rejected: {event.reason}")
        if not isinstance(event, ViewChanged):
            continue
        view = event.view
        now = time.perf_counter()
        if view.phase != "setup" and view.moves_played > seen.top:
            for m in range(seen.top + 1, view.moves_played + 1):
                seen.first_seen[m] = now
            seen.top = view.moves_played
        if view.phase == "over":
            if client._client is not None:
                seen.retransmissions = client._client.stats.retransmissions
            return view.moves_played
        if not play or view.seat is None:
            continue
        if view.phase == "setup" and not view.seats[view.seat].ready and not chose:
            client.choose_face_up(bot.choose_face_up(view))
            chose = True
        elif view.my_turn and acted_at != view.moves_played:
            acted_at = view.moves_played
            move = bot.choose_move(view)
            seen.submitted[view.moves_played] = time.perf_counter()
            client.submit(move)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


@dataclass
class GameResult:
    latencies: list[float]
    moves: int
    bytes_sent: int
    bytes_received: int
    datagrams_sent: int
    seconds: float
    join_retries: int = 0
    reconnects: int = 0
    ack_rtt_max: float = 0.0  # the longest ack round trip any seat measured
    retransmissions: int = 0  # by the seats' clients
    host_retransmissions: int = 0
    loop_stall_max: float = 0.0  # the host loop's longest lateness to a 5 ms timer


async def run_clients(
    address: tuple[str, int], seed: int, tokens: Path, seats: range = range(SEATS)
) -> tuple[list[int], list[Seen], int]:
    """Bot seats ``seats`` in this process; (final move counts, what each
    saw, reconnects)."""
    clients = [
        NetClient(address[0], address[1], f"seat{i}", tokens=TokenStore(tokens / f"{seed}-{i}"))
        for i in seats
    ]
    seens = [Seen() for _ in clients]
    try:
        finals = await asyncio.wait_for(
            asyncio.gather(
                *(
                    bot_loop(c, s, seed * 10 + i)
                    for i, c, s in zip(seats, clients, seens, strict=True)
                )
            ),
            timeout=300,
        )
    finally:
        for client in clients:
            await client.close()
    return finals, seens, sum(c.reconnects for c in clients)


async def clients_in_children(
    address: tuple[str, int], seed: int, tokens: Path, processes: int, seats: range = range(SEATS)
) -> Any:
    """``run_clients`` in ``processes`` child processes, the seats shared
    out between them; perf_counter is CLOCK_MONOTONIC on Linux, so their
    timestamps compare with ours."""
    per = -(-len(seats) // processes)
    procs = []
    for first in range(seats.start, seats.stop, per):
        args = [
            __file__, "--clients-only", f"{address[0]}:{address[1]}",
            "--seed", str(seed), "--tokens", str(tokens),
            "--seats", f"{first}:{min(first + per, seats.stop)}",
        ]  # fmt: skip
        procs.append(
            await asyncio.create_subprocess_exec(
                sys.executable, *args, stdout=asyncio.subprocess.PIPE
            )
        )
    finals: list[int] = []
    seens: list[Seen] = []
    reconnects = 0
    for proc in procs:
        out, _ = await proc.communicate()
        if proc.returncode != 0:
            raise RuntimeError(f"a client process failed ({proc.returncode})")
        data = json.loads(out)
        finals += data["finals"]
        reconnects += data["reconnects"]
        for entry in data["seens"]:
            seen = Seen()
            seen.first_seen = {int(k): v for k, v in entry["first_seen"].items()}
            seen.submitted = {int(k): v for k, v in entry["submitted"].items()}
            seen.join_retries = entry["join_retries"]
            seen.ack_rtt_max = entry["ack_rtt_max"]
            seen.retransmissions = entry["retransmissions"]
            seens.append(seen)
    return finals, seens, reconnects


async def loop_stalls(stalls: list[float], period: float = 0.005) -> None:
    """How late the loop comes back to a ``period`` timer, again and again."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(period)
        stalls.append(loop.time() - asked - period)


async def in_process_game(
    seed: int,
    loss: float,
    tokens: Path,
    client_processes: int = 0,
    journal: Path | None = None,
    bots: int = 0,
    bot_level: str = "greedy",
    think_ms: int | None = None,
    pool: ThinkPool | None = None,
) -> GameResult:
    """One game of six seats: ``bots`` of the host's own, at ``bot_level``
    (thinking in ``pool``), and network seats for the rest."""
    config = TableConfig(
        players=SEATS,
        seed=seed,
        auto_start=True,
        takeover_after=600,
        journal=journal,
        bot_level=bot_level,
        think_ms=think_ms,
    )
    table = Table(config)
    for _ in range(bots):
        table.add_bot(None, bot_level)
    seats = range(bots, SEATS)
    host = await NetHost.start(table, LOOPBACK, 0)  # the host's own network settings
    runner = TableRunner(table, pool)
    runner.start()
    stalls: list[float] = []
    stall_watch = asyncio.ensure_future(loop_stalls(stalls))
    proxy = None
    address = host.address
    if loss > 0:
        proxy = await ImpairmentProxy.start(
            host.address, Impairment(loss_to_server=loss, loss_to_client=loss), seed=seed
        )
        address = proxy.address
    stats = host.server.stats
    marks: dict[str, tuple[int, int, int]] = {}

    def mark(name: str) -> None:
        marks[name] = (stats.bytes_sent, stats.bytes_received, stats.datagrams_sent)

    async def first_move() -> None:
        while table.state is None or table.state.phase.name == "SETUP":
            await asyncio.sleep(0.001)
        mark("start")

    started = time.perf_counter()
    try:
        watcher = asyncio.ensure_future(first_move())
        if client_processes:
            finals, seens, reconnects = await clients_in_children(
                address, seed, tokens, client_processes, seats
            )
        else:
            finals, seens, reconnects = await run_clients(address, seed, tokens, seats)
        mark("end")
        watcher.cancel()
    finally:
        stall_watch.cancel()
        if proxy is not None:
            await proxy.stop()
        task = runner._task
        if task is not None:  # cancel until gone (stop() hung on 3.11 before 3f457d3)
            for _ in range(100):
                task.cancel()
                done, _ = await asyncio.wait({task}, timeout=0.05)
                if done:
                    break
        await host.close()
    seconds = time.perf_counter() - started
    moves = finals[0]
    assert all(f == moves for f in finals), finals
    latencies = []
    submitted: dict[int, float] = {}
    for s in seens:
        submitted.update(s.submitted)
    for m, t0 in submitted.items():
        done_at = max(s.first_seen[m + 1] for s in seens)
        latencies.append(done_at - t0)
    start_mark, end_mark = marks["start"], marks["end"]
    return GameResult(
        latencies,
        moves,
        end_mark[0] - start_mark[0],
        end_mark[1] - start_mark[1],
        end_mark[2] - start_mark[2],
        seconds,
        sum(s.join_retries for s in seens),
        reconnects,
        max(s.ack_rtt_max for s in seens),
        sum(s.retransmissions for s in seens),
        stats.retransmissions,
        max(stalls, default=0.0),
    )


def summarize(results: list[GameResult]) -> dict[str, Any] | None:
    latencies = [x for r in results for x in r.latencies]
    moves = sum(r.moves for r in results)
    if not latencies or not moves:
        return None  # no games of this kind were asked for
    sent = sum(r.bytes_sent for r in results)
    received = sum(r.bytes_received for r in results)
    return {
        "games": len(results),
        "moves": moves,
        "samples": len(latencies),
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "max_ms": max(latencies) * 1000,
        "mean_ms": statistics.fmean(latencies) * 1000,
        "sent_bytes_per_move_per_seat": sent / moves / SEATS,
        "received_bytes_per_move_per_seat": received / moves / SEATS,
        "datagrams_per_move_per_seat": sum(r.datagrams_sent for r in results) / moves / SEATS,
        "seconds": sum(r.seconds for r in results),
        "join_retries": sum(r.join_retries for r in results),
        "reconnects": sum(r.reconnects for r in results),
        "ack_rtt_max_ms": max(r.ack_rtt_max for r in results) * 1000,
        "client_retransmissions": sum(r.retransmissions for r in results),
        "host_retransmissions": sum(r.host_retransmissions for r in results),
        "host_loop_stall_max_ms": max(r.loop_stall_max for r in results) * 1000,
    }


# ----------------------------------------------------------------------------- host cost


def proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def proc_peak_rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


async def host_cost(spectators: int, seed: int, workdir: Path) -> dict[str, Any]:
    record = workdir / f"cost-{spectators}.json"
    err = workdir / f"host-{spectators}.stderr"
    env = dict(os.environ, THREEUP_STATE_DIR=str(workdir / "host-state"))
    args = [
        str(THREEUP), "host", "--headless", "--bind", LOOPBACK, "--port", "0",
        "--players", str(SEATS), "--bots", "0", "--seed", str(seed),
        "--record", str(record), "--announce", "off", "--takeover-after", "600", "--games", "1",
    ]  # fmt: skip
    usage_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with err.open("wb") as err_file:
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err_file, env=env)
    marker = f"threeup host listening on {LOOPBACK}:"
    port = None
    for _ in range(1000):
        for line in err.read_text().splitlines():
            if line.startswith(marker):
                port = int(line[len(marker) :])
        if port is not None or proc.poll() is not None:
            break
        await asyncio.sleep(0.01)
    if port is None:
        proc.kill()
        raise RuntimeError(f"host did not start:\n{err.read_text()}")
    tokens = workdir / f"tokens-{spectators}"
    watchers = [
        NetClient(LOOPBACK, port, f"watcher{i}", watch=True, tokens=TokenStore(tokens / f"w{i}"))
        for i in range(spectators)
    ]
    seats = [
        NetClient(LOOPBACK, port, f"seat{i}", tokens=TokenStore(tokens / f"s{i}"))
        for i in range(SEATS)
    ]
    watch_seen = [Seen() for _ in watchers]
    seat_seen = [Seen() for _ in seats]
    tasks = [
        asyncio.ensure_future(bot_loop(w, s, 0, play=False))
        for w, s in zip(watchers, watch_seen, strict=True)
    ]
    # Wait until every spectator is connected before the game can start.
    for _ in range(2000):
        if all(w.view is not None or w._client is not None for w in watchers):
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.2)
    cpu0 = proc_cpu_seconds(proc.pid)
    t0 = time.perf_counter()
    tasks += [
        asyncio.ensure_future(bot_loop(c, s, seed * 10 + i))
        for i, (c, s) in enumerate(zip(seats, seat_seen, strict=True))
    ]
    finals = await asyncio.wait_for(asyncio.gather(*tasks), timeout=300)
    cpu1 = proc_cpu_seconds(proc.pid)
    wall = time.perf_counter() - t0
    rss_kib = proc_peak_rss_kib(proc.pid)
    for client in watchers + seats:
        await client.close()
    code = proc.wait(60)
    usage_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    moves = max(finals)
    assert all(f == moves for f in finals), finals
    assert code == 0, err.read_text()
    return {
        "spectators": spectators,
        "moves": moves,
        "host_cpu_s_during_game": cpu1 - cpu0,
        "host_cpu_ms_per_move": (cpu1 - cpu0) / moves * 1000,
        "host_cpu_s_whole_process": (usage_after.ru_utime + usage_after.ru_stime)
        - (usage_before.ru_utime + usage_before.ru_stime),
        "host_peak_rss_mib": rss_kib / 1024,
        "host_ru_maxrss_mib": usage_after.ru_maxrss / 1024,
        "game_wall_s": wall,
    }


# ----------------------------------------------------------------------------- main


async def amain(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"python": platform.python_version(), "seats": SEATS}
    out["load_average_before"] = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="threeup-netbench-") as tmp:
        workdir = Path(tmp)
        os.environ["THREEUP_STATE_DIR"] = str(workdir / "state")
        parts = set(args.parts.split(","))
        games = args.games
        out["clean"] = summarize(
            [await in_process_game(1000 + g, 0.0, workdir) for g in range(games)]
            if "clean" in parts else []
        )  # fmt: skip
        out["clean_split"] = summarize(
            [
                await in_process_game(1000 + g, 0.0, workdir, client_processes=1)
                for g in range(games)
            ]
            if "split" in parts else []
        )  # fmt: skip
        out["clean_apart"] = summarize(
            [
                await in_process_game(1000 + g, 0.0, workdir, client_processes=SEATS)
                for g in range(games)
            ]
            if "apart" in parts else []
        )  # fmt: skip
        out["clean_journal"] = summarize(
            [
                await in_process_game(1000 + g, 0.0, workdir, journal=workdir / f"j{g}.json")
                for g in range(games)
            ]
            if "journal" in parts else []
        )  # fmt: skip
        out["loss_30"] = summarize(
            [await in_process_game(2000 + g, 0.30, workdir) for g in range(args.loss_games)]
            if "loss" in parts else []
        )  # fmt: skip
        out["host_cost"] = (
            [await host_cost(0, 3000, workdir), await host_cost(args.spectators, 3000, workdir)]
            if "cost" in parts else []
        )  # fmt: skip
        out["think"] = (
            await thinking_rows(args, workdir) if "think" in parts else None
        )  # fmt: skip
    return out


def thinking_level() -> str:
    """The real search bot once it exists, else the stand-in for its cost."""
    if "expert" in BOT_LEVELS:
        return "expert"
    BOT_LEVELS.setdefault("busy", BusyBot)
    return "busy"


async def thinking_rows(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """Games with three thinking bots at the host, the other seats in a
    second process, once for each way of thinking asked for."""
    level = args.think_level or thinking_level()
    if level == "busy":
        BOT_LEVELS.setdefault("busy", BusyBot)
    rows: dict[str, Any] = {}
    for mode in args.thinkers.split(","):
        if mode not in MODES:
            raise SystemExit(f"--thinkers: unknown way of thinking {mode!r}")
        pool = ThinkPool(mode=cast(Mode, mode))
        pool.warm()
        try:
            rows[mode] = summarize(
                [
                    await in_process_game(
                        4000 + g, 0.0, workdir, client_processes=1, bots=THINKING_BOTS,
                        bot_level=level, think_ms=args.think_ms, pool=pool,
                    )
                    for g in range(args.think_games)
                ]
            )  # fmt: skip
        finally:
            await pool.aclose()
    return {"level": level, "think_ms": args.think_ms, "bots": THINKING_BOTS, "rows": rows}


def report(out: dict[str, Any]) -> None:
    def ok(flag: bool) -> str:
        return "ok" if flag else "MISSED"

    print(f"net benchmark, Python {out['python']}, loopback, {out['seats']} seats")
    before, after = out["load_average_before"], out["load_average_after"]
    print(f"machine load average (1 min) before {before[0]:.2f}, after {after[0]:.2f}")
    for key, title, target in (
        ("clean", "clean loopback, host and the 6 clients in one process", 5.0),
        ("clean_split", "clean loopback, host here, the 6 clients in a second process", 5.0),
        ("clean_apart", "clean loopback, host here, each client in its own process", 5.0),
        (
            "clean_journal",
            "clean loopback, one process, the host writing its journal every move",
            5.0,
        ),
        ("loss_30", "30% loss each way (ImpairmentProxy)", 1500.0),
    ):
        r = out[key]
        if r is None:
            print(f"\n{title}: not run")
            continue
        print(
            f"\n{title}: {r['games']} games, {r['moves']} moves, {r['seconds']:.1f} s, "
            f"all completed; joins retried {r['join_retries']}, reconnects {r['reconnects']}"
        )
        print(
            f"  submit -> all {out['seats']} views updated: p50 {r['p50_ms']:.2f} ms, "
            f"p99 {r['p99_ms']:.2f} ms, max {r['max_ms']:.2f} ms, mean {r['mean_ms']:.2f} ms "
            f"[target p99 <= {target:g} ms: {ok(r['p99_ms'] <= target)}]"
        )
        print(
            f"  host sent {r['sent_bytes_per_move_per_seat']:.0f} B per move per seat "
            f"({r['datagrams_per_move_per_seat']:.2f} datagrams), received "
            f"{r['received_bytes_per_move_per_seat']:.0f} B "
            f"[target <= 1024 B: {ok(r['sent_bytes_per_move_per_seat'] <= 1024)}]"
        )
    think = out.get("think")
    for mode, r in (think or {}).get("rows", {}).items():
        assert think is not None
        where = {"process": "in worker processes", "thread": "in a worker thread"}.get(
            mode, "inline, on the host's loop"
        )
        print(
            f"\n{think['bots']} {think['level']} bots at the host ({think['think_ms']} ms a "
            f"decision) thinking {where}; {SEATS - think['bots']} network seats in a second "
            f"process: {r['games']} games, {r['moves']} moves, {r['seconds']:.1f} s"
        )
        print(
            f"  other seats' submit -> all their views: p50 {r['p50_ms']:.2f} ms, "
            f"p99 {r['p99_ms']:.2f} ms, max {r['max_ms']:.2f} ms "
            f"[target p99 <= 50 ms: {ok(r['p99_ms'] <= 50)}]"
        )
        print(
            f"  acks: longest round trip a seat measured {r['ack_rtt_max_ms']:.1f} ms; "
            f"retransmissions: seats {r['client_retransmissions']}, host "
            f"{r['host_retransmissions']}; host loop's longest stall "
            f"{r['host_loop_stall_max_ms']:.1f} ms"
        )
    if out["host_cost"]:
        print("\nheadless host process, 6 bot seats (clients in the benchmark process):")
    for r in out["host_cost"]:
        print(
            f"  {r['spectators']:>3} spectators: {r['moves']} moves in {r['game_wall_s']:.2f} s; "
            f"host CPU {r['host_cpu_s_during_game'] * 1000:.0f} ms during the game "
            f"({r['host_cpu_ms_per_move']:.2f} ms/move), whole process "
            f"{r['host_cpu_s_whole_process']:.2f} s; peak RSS {r['host_peak_rss_mib']:.1f} MiB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=8, help="clean games (default 8)")
    parser.add_argument("--loss-games", type=int, default=5, help="games at 30%% loss")
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--parts",
        default="clean,split,apart,journal,loss,cost,think",
        help="which measurements, comma-separated (default: all of "
        "clean,split,apart,journal,loss,cost,think)",
    )
    parser.add_argument("--think-games", type=int, default=2, help="games per way of thinking")
    parser.add_argument(
        "--think-level", default=None, help="the thinking bots (default expert, else busy)"
    )
    parser.add_argument("--think-ms", type=int, default=250, help="their budget (default 250)")
    parser.add_argument(
        "--thinkers",
        default="process",
        help=f"ways of thinking to compare, comma-separated: {','.join(MODES)} (default process)",
    )
    parser.add_argument("--clients-only", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--seats", default=f"0:{SEATS}", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--tokens", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.clients_only is not None:
        host, port = args.clients_only.rsplit(":", 1)
        first, last = (int(x) for x in args.seats.split(":"))
        finals, seens, reconnects = asyncio.run(
            run_clients((host, int(port)), args.seed, args.tokens, range(first, last))
        )
        seen_json = [
            {
                "first_seen": s.first_seen,
                "submitted": s.submitted,
                "join_retries": s.join_retries,
                "ack_rtt_max": s.ack_rtt_max,
                "retransmissions": s.retransmissions,
            }
            for s in seens
        ]
        print(json.dumps({"finals": finals, "seens": seen_json, "reconnects": reconnects}))
        return
    out = asyncio.run(amain(args))
    out["load_average_after"] = os.getloadavg()
    if args.json:
        print(json.dumps(out))
    else:
        report(out)


if __name__ == "__main__":
    main()
