"""App speed, headless: time to the first frame, and from a move to the repaint.

    python benchmarks/tui.py [--starts N] [--moves N] [--size WxH] [--json]
                             [--thinking-moves N] [--think-level LEVEL] [--think-ms MS]
                             [--thinkers process,thread,inline]

first frame (warm)   create_app() to the start screen's first painted frame,
                     in a process that has already imported Textual
first frame (cold)   a fresh interpreter: imports + create_app + first frame
move to repaint      client.submit() of our move (as the Play key does) to the
                     first frame painted with the view that move produced
view to repaint      any new view (bots' moves too) arriving at the app to the
                     frame that shows it

While a bot thinks (two players, against a thinking bot: ``expert``, or until
it exists ``busy``, a stand-in that burns ``--think-ms`` of pure Python per
decision, holding the GIL as a search does):
move to repaint      as above; the bot starts thinking as our move lands, so
                     the repaint happens while it thinks
key to repaint       a cursor key, posted from another thread (as the
                     terminal driver's input thread does) 100 ms after our
                     move, while the bot thinks, to the next frame after
                     the key was handled
for each way of thinking in ``--thinkers``: ``process`` (the app's: worker
processes), ``thread`` (a worker thread) and ``inline`` (on the app's loop,
the freeze the workers prevent).  Last, how long the bots that still decide
on the loop (random, greedy) take per decision.

"Painted" is App._display being handed a compositor update: in headless mode
that is the frame a terminal would be sent.  Targets: first frame <= 0.6 s,
<= 30 ms per move (median), also while a bot thinks.  Prints median and p95
of each.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from textual import events

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.messages import ViewUpdated
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.session import Session
from threeup_tui.bots import BOT_LEVELS, Bot, GreedyBot
from threeup_tui.bots.busy import BusyBot
from threeup_tui.bots.pool import MODES, ThinkPool, decide, set_shared_pool, thinks
from threeup_tui.history import History
from threeup_tui.launcher import Launcher
from threeup_tui.rules import GameState, Options, View, seat_view
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
            elif done := await set_up_or_rematch(session, view, bot):
                games += done == "rematch"
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


async def set_up_or_rematch(session: Session, view: View, bot: Bot) -> str:
    """Our seat's part between turns, when one is due: lay its face-up
    cards ("setup") or ask for the next game ("rematch"); "" for neither."""
    if view.phase == "setup" and view.me and not view.me.ready:
        session.client.choose_face_up(bot.choose_face_up(view))
        await asyncio.sleep(0.05)
        return "setup"
    if view.phase == "over":
        session.client.rematch()
        await asyncio.sleep(0.2)
        return "rematch"
    return ""


def thinking_level() -> str:
    """The real search bot once it exists, else the stand-in for its cost."""
    if "expert" in BOT_LEVELS:
        return "expert"
    BOT_LEVELS.setdefault("busy", BusyBot)
    return "busy"


KEY_AFTER = 0.1  # seconds after our move that the cursor key comes: mid-thought


async def thinking_latencies(
    moves: int, level: str, think_ms: int, seed: int
) -> tuple[list[float], list[float]]:
    """(our move -> repaint, key -> repaint), in seconds, against one bot
    that starts thinking as our move lands (two players, no bot delay).

    The key comes ``KEY_AFTER`` after our move, posted from another thread
    as a terminal driver's input thread posts it: if the loop is busy, the
    key waits, as a person's would.
    """
    launcher = Launcher(announce_address="off", think_ms=think_ms)
    launcher.bot_delay = 0
    app = create_app(
        launcher,
        StartSpec(mode="play", players=2, bot_level=level, seed=seed),
        settings=SettingsFile.in_memory(),
        history=History.disabled(),
    )
    move_times: list[float] = []
    key_times: list[float] = []
    pending_move: list[tuple[float, int]] = []  # (sent at, moves_played before)
    key_posted: list[float] = []
    key_handled = threading.Event()
    move_painted = asyncio.Event()
    key_painted = asyncio.Event()

    def on_frame(t: float) -> None:
        session = app.session
        view = session.view if session else None
        if pending_move and view is not None and view.moves_played > pending_move[0][1]:
            move_times.append(t - pending_move.pop()[0])
            move_painted.set()
        if key_handled.is_set() and key_posted:
            key_times.append(t - key_posted.pop())
            key_handled.clear()
            key_painted.set()

    def press_right_soon() -> None:
        time.sleep(KEY_AFTER)
        key_posted.append(time.perf_counter())
        app.post_message(events.Key("right", None))

    hook_frames(app, on_frame)
    bot = GreedyBot(seed)
    hooked: set[int] = set()
    games = 0
    async with app.run_test(size=SIZE) as pilot:
        while len(move_times) < moves and games < 20:
            session = app.session
            view = session.view if session else None
            screen = app.screen
            if session is None or view is None:
                await asyncio.sleep(0.01)
            elif done := await set_up_or_rematch(session, view, bot):
                games += done == "rematch"
            elif view.my_turn and isinstance(screen, TableScreen):
                if id(screen) not in hooked:  # note when a cursor key has been handled
                    hooked.add(id(screen))
                    cursor = screen.action_cursor

                    def handled(step: int, cursor: Any = cursor) -> None:
                        cursor(step)
                        key_handled.set()

                    screen.action_cursor = handled  # type: ignore[method-assign]
                await asyncio.sleep(0.05)  # the turn is on screen; now "press" the key
                view = session.view
                assert view is not None
                move_painted.clear()
                key_painted.clear()
                key_handled.clear()
                pending_move.append((time.perf_counter(), view.moves_played))
                session.client.submit(bot.choose_move(view))
                threading.Thread(target=press_right_soon, daemon=True).start()
                await asyncio.wait_for(move_painted.wait(), 5)
                with contextlib.suppress(TimeoutError):  # no repaint: a one-card hand
                    await asyncio.wait_for(key_painted.wait(), 2)
                key_posted.clear()
            else:
                await asyncio.sleep(0.01)
        await pilot.pause()
    return move_times, key_times


def thinking_rows(
    moves: int, level: str, think_ms: int, thinkers: list[str]
) -> dict[str, dict[str, Any]]:
    """One row per way of thinking, and a ``baseline`` row: the same game
    against greedy, which does not think."""
    rows: dict[str, dict[str, Any]] = {}
    move_times, key_times = asyncio.run(thinking_latencies(moves, "greedy", think_ms, 5))
    rows["baseline"] = {
        "move_to_repaint": summary(move_times),
        "key_to_repaint": summary(key_times) if key_times else None,
    }
    for mode in thinkers:
        pool = ThinkPool(mode=mode)  # type: ignore[arg-type]
        old = set_shared_pool(pool)
        try:
            move_times, key_times = asyncio.run(thinking_latencies(moves, level, think_ms, 5))
        finally:
            pool.close()
            set_shared_pool(old)
        rows[mode] = {
            "move_to_repaint": summary(move_times),
            "key_to_repaint": summary(key_times) if key_times else None,
        }
    return rows


def loop_decision_times(games: int = 20) -> dict[str, dict[str, float]]:
    """How long the bots that decide on the loop itself (``thinks`` False)
    take per decision, over the views of ``games`` four-player games."""
    views = []
    for seed in range(games):
        state = GameState.new(["a", "b", "c", "d"], Options(), seed)
        for seat in range(4):
            cards = GreedyBot(seed).choose_face_up(seat_view(state, seat, log_length=0))
            state.choose_face_up_codes(seat, list(cards))
        while not state.over:
            view = seat_view(state, state.seat, log_length=0)
            views.append(view)
            state.apply_move(GreedyBot(seed).choose_move(view))
    times: dict[str, dict[str, float]] = {}
    for level, cls in BOT_LEVELS.items():
        bot = cls(1)
        if thinks(bot):
            continue
        samples = []
        for view in views:
            start = time.perf_counter()
            decide(bot, view)
            samples.append(time.perf_counter() - start)
        ordered = sorted(samples)
        times[level] = {
            "n": len(samples),
            "median_us": round(statistics.median(samples) * 1e6, 1),
            "p99_us": round(ordered[round(0.99 * (len(ordered) - 1))] * 1e6, 1),
        }
    return times


def summary(values: list[float]) -> dict[str, float] | None:
    if not values:  # a part left out (--cold 0, say)
        return None
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
    parser.add_argument(
        "--size", default="80x24", help="terminal size WxH (120x40: the cards drawn as cards)"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--thinking-moves", type=int, default=40, help="our moves against a thinking bot"
    )
    parser.add_argument(
        "--think-level", default=None, help="the thinking bot (default expert, else busy)"
    )
    parser.add_argument("--think-ms", type=int, default=250, help="its budget (default 250)")
    parser.add_argument(
        "--thinkers",
        default="process",
        help=f"ways of thinking to compare, comma-separated: {','.join(MODES)} (default process)",
    )
    args = parser.parse_args()
    level = args.think_level or thinking_level()
    if level == "busy":
        BOT_LEVELS.setdefault("busy", BusyBot)
    thinkers = [mode for mode in args.thinkers.split(",") if mode]
    global SIZE
    width, height = (int(n) for n in args.size.lower().split("x"))
    SIZE = (width, height)

    warm = [asyncio.run(first_frame_once()) for _ in range(args.starts)]
    cold = [first_frame_cold() for _ in range(args.cold)]
    moves, views = asyncio.run(move_latencies(args.moves, args.players, seed=3))
    thinking = (
        thinking_rows(args.thinking_moves, level, args.think_ms, thinkers)
        if args.thinking_moves
        else {}
    )
    result = {
        "size": f"{SIZE[0]}x{SIZE[1]}",
        "players": args.players,
        "first_frame_warm": summary(warm),
        "first_frame_cold": summary(cold),
        "move_to_repaint": summary(moves),
        "view_to_repaint": summary(views),
        "thinking": {"level": level, "think_ms": args.think_ms, "by_thinker": thinking},
        "loop_decisions": loop_decision_times(),
        "targets": {"first_frame_ms": 600, "move_ms": 30},
        "load_average": os.getloadavg(),
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
        if s is None:
            print(f"{label:<34} not measured")
            continue
        assert isinstance(s, dict)
        print(
            f"{label:<34} median {s['median_ms']:>7.1f} ms   p95 {s['p95_ms']:>7.1f} ms"
            f"   (n={s['n']})"
        )
    against = f"against a thinking bot ({level}, {args.think_ms} ms a decision)"
    for mode, row in thinking.items():
        print(
            {
                "baseline": "the same game against greedy (no thinking), for comparison:",
                "inline": f"{against}, thinking inline on the app's loop:",
            }.get(mode, f"{against}, thinking in a {mode}:")
        )
        for key, label in (
            ("move_to_repaint", "  our move to repaint"),
            ("key_to_repaint", "  a key to repaint, bot thinking"),
        ):
            s = row[key]
            if s is None:
                print(f"{label:<34} no samples")
                continue
            print(
                f"{label:<34} median {s['median_ms']:>7.1f} ms   p95 {s['p95_ms']:>7.1f} ms"
                f"   (n={s['n']})"
            )
    loop_decisions = result["loop_decisions"]
    assert isinstance(loop_decisions, dict)
    for name, t in loop_decisions.items():
        print(
            f"{name} decides on the loop: median {t['median_us']:.1f} us, p99 {t['p99_us']:.1f} us"
            f"   (n={t['n']})"
        )
    load = result["load_average"]
    assert isinstance(load, tuple)
    print("targets: first frame <= 600 ms, move to repaint <= 30 ms (also while a bot thinks)")
    print(f"machine load average (1, 5, 15 min): {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
