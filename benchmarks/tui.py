"""App speed, headless: time to the first frame, and from a move to the repaint.

    python benchmarks/tui.py [--starts N] [--moves N] [--json]

first frame (warm)   create_app() to the start screen's first painted frame,
                     in a process that has already imported Textual
first frame (cold)   a fresh interpreter: imports + create_app + first frame
move to repaint      client.submit() of our move (as the Play key does) to the
                     first frame painted with the view that move produced
view to repaint      any new view (bots' moves too) arriving at the app to the
                     frame that shows it

"Painted" is App._display being handed a compositor update: in headless mode
that is the frame a terminal would be sent.  Targets: first frame <= 0.6 s,
<= 30 ms per move.  Prints median and p95 of each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.messages import ViewUpdated
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.bots import GreedyBot
from threeup_tui.history import History
from threeup_tui.launcher import Launcher
from threeup_tui.settings import SettingsFile

SIZE = (80, 24)


def hook_frames(app: ThreeUpApp, on_frame: Callable[[float], None]) -> None:
    """Call ``on_frame(t)`` whenever the app paints a frame."""
    display = app._display

    def painted(screen: Any, renderable: Any) -> None:
        if renderable is not None:
            on_frame(time.perf_counter())
        display(screen, renderable)

    app._display = painted  # type: ignore[method-assign]


async def first_frame_once() -> float:
    start = time.perf_counter()
    app = create_app(Launcher())
    first: list[float] = []

    def on_frame(t: float) -> None:
        if not first and isinstance(app.screen, StartScreen):
            first.append(t)

    hook_frames(app, on_frame)
    async with app.run_test(size=SIZE) as pilot:
        while not first:
            await asyncio.sleep(0.001)
        await pilot.pause()
    return first[0] - start


COLD = """
import asyncio, time
t0 = time.perf_counter()
from threeup_tui.app.app import create_app
from threeup_tui.app.screens.start import StartScreen
app = create_app()
seen = []
display = app._display
def painted(screen, renderable):
    if renderable is not None and not seen and isinstance(app.screen, StartScreen):
        seen.append(time.perf_counter())
    display(screen, renderable)
app._display = painted
async def main():
    async with app.run_test(size=(80, 24)):
        while not seen:
            await asyncio.sleep(0.001)
asyncio.run(main())
print(seen[0] - t0)
"""


def first_frame_cold() -> float:
    out = subprocess.run(
        [sys.executable, "-c", COLD], capture_output=True, text=True, check=True
    ).stdout
    return float(out.strip().splitlines()[-1])


async def move_latencies(moves: int, players: int, seed: int) -> tuple[list[float], list[float]]:
    """(our move -> repaint, any view -> repaint), in seconds.

    Like a person, we move once the screen has shown our turn (a short
    pause), and bots wait a moment too, so each move is timed on its own.
    """
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0.15
    # The benchmark's games are not the user's: no settings read, no history kept.
    app = create_app(
        launcher,
        StartSpec(mode="play", players=players, seed=seed),
        settings=SettingsFile.in_memory(),
        history=History.disabled(),
    )
    move_times: list[float] = []
    view_times: list[float] = []
    pending_move: list[tuple[float, int]] = []  # (sent at, moves_played before)
    pending_views: list[float] = []
    painted = asyncio.Event()
    post = app.post_message

    def posted(message: Any) -> bool:
        # The event worker hands each new view to the app here.
        if isinstance(message, ViewUpdated):
            pending_views.append(time.perf_counter())
        return post(message)

    app.post_message = posted  # type: ignore[method-assign]

    def on_frame(t: float) -> None:
        session = app.session
        view = session.view if session else None
        if pending_views:
            view_times.extend(t - v for v in pending_views)
            pending_views.clear()
        if pending_move and view is not None and view.moves_played > pending_move[0][1]:
            move_times.append(t - pending_move[0][0])
            pending_move.clear()
            painted.set()

    hook_frames(app, on_frame)
    bot = GreedyBot(seed)
    games = 0
    async with app.run_test(size=SIZE) as pilot:
        while len(move_times) < moves and games < 20:
            session = app.session
            view = session.view if session else None
            if session is None or view is None:
                await asyncio.sleep(0.01)
            elif view.phase == "setup" and view.me and not view.me.ready:
                session.client.choose_face_up(bot.choose_face_up(view))
                await asyncio.sleep(0.05)
            elif view.phase == "over":
                games += 1
                session.client.rematch()
                await asyncio.sleep(0.2)
            elif view.my_turn and isinstance(app.screen, TableScreen):
                await asyncio.sleep(0.05)  # the turn is on screen; now "press" the key
                view = session.view
                assert view is not None
                painted.clear()
                pending_move.append((time.perf_counter(), view.moves_played))
                session.client.submit(bot.choose_move(view))
                await asyncio.wait_for(painted.wait(), 5)
            else:
                await asyncio.sleep(0.01)
        await pilot.pause()
    return move_times, view_times


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "n": len(values),
        "median_ms": round(statistics.median(values) * 1000, 1),
        "p95_ms": round(p95 * 1000, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--cold", type=int, default=3)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    warm = [asyncio.run(first_frame_once()) for _ in range(args.starts)]
    cold = [first_frame_cold() for _ in range(args.cold)]
    moves, views = asyncio.run(move_latencies(args.moves, args.players, seed=3))
    result = {
        "size": f"{SIZE[0]}x{SIZE[1]}",
        "players": args.players,
        "first_frame_warm": summary(warm),
        "first_frame_cold": summary(cold),
        "move_to_repaint": summary(moves),
        "view_to_repaint": summary(views),
        "targets": {"first_frame_ms": 600, "move_ms": 30},
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"threeup app, headless, {result['size']}, {args.players} players")
    for key, label in (
        ("first_frame_warm", "first frame (warm)"),
        ("first_frame_cold", "first frame (cold, with imports)"),
        ("move_to_repaint", "our move to repaint"),
        ("view_to_repaint", "any view to repaint"),
    ):
        s = result[key]
        assert isinstance(s, dict)
        print(
            f"{label:<34} median {s['median_ms']:>7.1f} ms   p95 {s['p95_ms']:>7.1f} ms"
            f"   (n={s['n']})"
        )
    print("targets: first frame <= 600 ms, move to repaint <= 30 ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
