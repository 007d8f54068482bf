"""The table under stress: a chat flood, and the turn timer's accuracy.

    .venv/bin/python benchmarks/table.py [--flood-seconds S] [--timer-seconds S]
                                         [--parts flood,timer] [--json]

Everything runs on 127.0.0.1 only; no host announces itself.  The host is a
real ``threeup host --headless`` process, as at a LAN party.

1. ``flood``: a 3-seat table (the measuring seat, a flooding seat, a table
   bot, and a 1-s turn timer: see bench_flood), then a 2-seat table flooded
   by a spectator.  Both clients are network bots (``bot`` in the hello, so the host
   plays game after game), in their own processes' event loops: the
   flooder in a child process sends chat as fast as its session's send
   queue allows for S seconds while playing its seat.  The measuring seat
   (this process) plays too and records, for each of its moves, the time
   from ``submit`` until the view with the new move count arrives, with no
   flood (a baseline of the same length) and during the flood; and it
   counts the flooder's chat lines it received.  Figures: lines sent and
   received, the bytes the flood carried in, view latency p50 / p99 / max
   with and without the flood.
2. ``timer``: ``--turn-time 1`` with a seat whose player never plays (it
   only says "back" in chat when it is marked away).  For each of its
   actions: the TurnClock it was given (received at t0 with R s left) and
   the view with the bot's action for it (received at t1).  Error =
   t1 - (t0 + R): how late the turn timer fires, as a player sees it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from threeup_tui.bots import make_bot
from threeup_tui.client.events import (
    ChatReceived,
    Notice,
    TurnClock,
    ViewChanged,
)
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.tokens import TokenStore

LOOPBACK = "127.0.0.1"
THREEUP = Path(sys.executable).with_name("threeup")

FLOODER = r"""
import asyncio, secrets, sys, time
from net import Client, NetConfig, Message, State
from net.errors import NetError
from threeup_tui.bots import make_bot
from threeup_tui.netplay.wire import make_hello, view_from_wire

async def main(port, seconds, delay, watch):
    hello = make_hello("flooder", None, secrets.token_hex(16), watch)
    hello["bot"] = "greedy"
    client = await Client.connect("127.0.0.1", port, hello, NetConfig(idle_timeout=30))
    seat = client.accept_payload["seat"]
    bot = make_bot("greedy", 9)
    sent = refused = 0
    acted = None
    start = time.monotonic() + delay
    end = start + seconds

    async def play():
        nonlocal acted, refused
        while True:
            event = await client.next_event()
            if isinstance(event, Message):
                if event.payload.get("t") == "rejected":
                    refused += 1
                continue
            if not isinstance(event, State) or event.payload.get("view") is None:
                continue
            view = view_from_wire(event.payload["view"])
            if seat is None:
                continue
            if view.phase == "setup" and not view.seats[seat].ready and acted != ("s", view.turn):
                acted = ("s", view.turn)
                client.send({"t": "setup", "cards": list(bot.choose_face_up(view))})
            elif view.phase == "play" and view.my_turn and acted != view.moves_played:
                acted = view.moves_played
                move = bot.choose_move(view)
                client.send({"t": "move", "at": view.moves_played, "move": move.to_json()})
            elif view.phase != "setup":
                acted = acted if isinstance(acted, int) else None

    player = asyncio.ensure_future(play())
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    n = 0
    while time.monotonic() < end:
        try:
            client.send({"t": "chat", "text": f"spam {n:08d} " + "x" * 40})
            sent += 1
            n += 1
        except NetError:
            await asyncio.sleep(0.001)
            continue
        if n % 16 == 0:
            await asyncio.sleep(0)
    await asyncio.sleep(3.0)  # the host works through what is still queued
    player.cancel()
    print(f"sent {sent} refused {refused}", flush=True)
    await client.close()

asyncio.run(main(int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4] == "1"))
"""


def start_host(workdir: Path, *extra: str) -> tuple[subprocess.Popen[bytes], int, Path]:
    err = workdir / "host.stderr"
    env = dict(os.environ, THREEUP_STATE_DIR=str(workdir / "host-state"), PYTHONUNBUFFERED="1")
    args = [
        str(THREEUP), "host", "--headless", "--bind", LOOPBACK, "--port", "0",
        "--announce", "off", "--record", str(workdir / "party.json"), *extra,
    ]  # fmt: skip
    with err.open("wb") as f:
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=f, stderr=f, env=env)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", err.read_text())
        if found:
            return proc, int(found.group(1)), err
        if proc.poll() is not None:
            raise SystemExit(f"host exited:\n{err.read_text()}")
        time.sleep(0.02)
    proc.kill()
    raise SystemExit("host did not start")


def stop_host(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency_summary(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    ms = [v * 1000 for v in values]
    return {
        "n": len(ms),
        "p50_ms": round(statistics.median(ms), 2),
        "p99_ms": round(pct(ms, 0.99), 2),
        "max_ms": round(max(ms), 2),
    }


async def play_and_measure(
    client: NetClient, seconds: float, flood_from: float, flood_until: float
) -> dict[str, Any]:
    """Play the client's seat with a greedy bot for ``seconds``; view latency
    before the flood and during it, and the flooder's lines received."""
    bot = make_bot("greedy", 5)
    acted: Any = None
    sent_at: dict[int, float] = {}
    quiet: list[float] = []
    flooded: list[float] = []
    lines: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            event = await asyncio.wait_for(client.next_event(), max(0.01, end - time.monotonic()))
        except TimeoutError:
            break
        now = time.monotonic()
        if isinstance(event, ChatReceived) and event.name == "flooder":
            lines.append(now)
        if not isinstance(event, ViewChanged):
            continue
        view = event.view
        if view.phase == "play":
            for at in [a for a in sent_at if view.moves_played > a]:
                took = now - sent_at.pop(at)
                (flooded if flood_from <= now <= flood_until else quiet).append(took)
        if view.seat is None:
            continue
        if view.phase == "setup" and not view.seats[view.seat].ready and acted != "setup":
            acted = "setup"
            client.choose_face_up(bot.choose_face_up(view))
        elif view.phase == "play" and view.my_turn and acted != view.moves_played:
            acted = view.moves_played
            sent_at = {view.moves_played: time.monotonic()}
            client.submit(bot.choose_move(view))
        elif view.phase == "over":
            acted = None
            sent_at = {}
    return {"quiet": quiet, "flooded": flooded, "lines": lines}


async def bench_flood(seconds: float, from_seat: bool) -> dict[str, Any]:
    """``from_seat``: the flooder holds the third seat; otherwise it is a
    spectator and the measuring seat plays a table bot.  A flooding seat's
    own moves wait behind its queued chat, so the game would wait at its
    turns and the other seat would make no move to measure during the
    flood: that table has a 1-s turn timer, whose bot plays the flooder's
    turn when its move is late (as it would for any player)."""
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        players = "3" if from_seat else "2"
        timer = ("--turn-time", "1") if from_seat else ()
        host, port, _err = start_host(
            workdir, "--players", players, "--bots", "1", "--seed", "7", *timer
        )
        try:
            client = NetClient(
                LOOPBACK, port, "measurer", tokens=TokenStore(workdir / "m.json"), bot="greedy"
            )
            await client.start()
            baseline = seconds  # a quiet stretch of the same length first
            flooder = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    FLOODER,
                    str(port),
                    str(seconds),
                    str(baseline),
                    "0" if from_seat else "1",
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=dict(os.environ, THREEUP_STATE_DIR=str(workdir / "f-state")),
            )
            t0 = time.monotonic()
            # the flooder connects at once (the game starts) and floods after ``baseline``
            measured = await play_and_measure(
                client, baseline + seconds + 4.0, t0 + baseline + 0.5, t0 + baseline + seconds
            )
            out, err = flooder.communicate(timeout=60)
            await client.close()
        finally:
            stop_host(host)
        found = re.search(rb"sent (\d+) refused (\d+)", out)
        if not found:
            raise SystemExit(f"flooder failed: {err.decode()}")
        sent, refused = int(found.group(1)), int(found.group(2))
        lines = measured["lines"]
        return {
            "flooder": "a seat" if from_seat else "a spectator",
            "flood_seconds": seconds,
            "lines_sent": sent,
            "bytes_of_chat_sent": sent * len("spam 00000000 " + "x" * 40),
            "rejected_received_by_flooder": refused,
            "lines_received_by_other_seat": len(lines),
            "received_span_s": round(lines[-1] - lines[0], 2) if lines else 0.0,
            "max_lines_in_any_10s": max(
                (len([t for t in lines if s <= t < s + 10]) for s in lines), default=0
            ),
            "view_latency_quiet": latency_summary(measured["quiet"]),
            "view_latency_flood": latency_summary(measured["flooded"]),
        }


async def bench_timer(seconds: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        host, port, _err = start_host(
            workdir, "--players", "2", "--bots", "1", "--seed", "8", "--turn-time", "1"
        )
        errors: list[float] = []
        try:
            client = NetClient(LOOPBACK, port, "absent", tokens=TokenStore(workdir / "a.json"))
            await client.start()
            seat = client.seat
            clock: tuple[float, float] | None = None  # (received at, remaining)
            moves = 0
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                try:
                    event = await asyncio.wait_for(client.next_event(), 2.0)
                except TimeoutError:
                    continue
                now = time.monotonic()
                if isinstance(event, TurnClock):
                    mine = event.seat == seat and event.remaining is not None
                    clock = (now, event.remaining) if mine else None  # type: ignore[assignment]
                elif isinstance(event, Notice) and "you are away" in event.text:
                    client.chat("back")  # any request: the seat is ours again
                elif isinstance(event, ViewChanged):
                    view = event.view
                    ready = view.seats[seat].ready if seat is not None else False
                    acted = (view.phase == "play" and view.log and view.log[-1].seat == seat) or (
                        view.phase == "setup" and ready
                    )
                    progressed = view.moves_played != moves or view.phase == "setup"
                    if clock is not None and acted and progressed:
                        errors.append(now - (clock[0] + clock[1]))
                        clock = None
                    moves = view.moves_played
                    if view.phase == "over":
                        client.rematch()
            await client.close()
        finally:
            stop_host(host)
        ms = [e * 1000 for e in errors]
        return {
            "turn_time_s": 1.0,
            "samples": len(ms),
            "late_ms_p50": round(statistics.median(ms), 2) if ms else None,
            "late_ms_p99": round(pct(ms, 0.99), 2) if ms else None,
            "late_ms_min": round(min(ms), 2) if ms else None,
            "late_ms_max": round(max(ms), 2) if ms else None,
        }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flood-seconds", type=float, default=10.0)
    parser.add_argument("--timer-seconds", type=float, default=40.0)
    parser.add_argument("--parts", default="flood,timer")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    result: dict[str, Any] = {"cpus": os.cpu_count()}
    if "flood" in parts:
        result["flood_from_a_spectator"] = await bench_flood(args.flood_seconds, False)
        result["flood_from_a_seat"] = await bench_flood(args.flood_seconds, True)
    if "timer" in parts:
        result["timer"] = await bench_timer(args.timer_seconds)
    if args.json:
        print(json.dumps(result))
        return
    for part, figures in result.items():
        if isinstance(figures, dict):
            print(f"== {part}")
            for key, value in figures.items():
                print(f"  {key}: {value}")


if __name__ == "__main__":
    asyncio.run(main())
