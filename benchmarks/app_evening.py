"""A long evening at the app: many games against three bots, one after another.

    python benchmarks/app_evening.py [--games N] [--players P] [--size WxH]
                                     [--at 1,10,25,50,100] [--trace] [--json]

The real app (headless, ``run_test``) plays game after game against greedy
bots, as a player who stays all evening does: our seat lays its face-up
cards, moves when the table shows its turn (the move a greedy bot would
make, submitted as the Play key submits it), and at the end presses ``r``
on the game-over screen for a rematch.  Every finished game is kept in a
real history file (a temporary directory; nothing of yours is touched).

At each game in ``--at`` (after it ends) it prints:

rss MiB          the process's resident memory (VmRSS)
py objects       objects the garbage collector tracks, after a collection
screens          the app's screen stack, and widgets on all of its screens
timers, tasks    Textual timers still alive, asyncio tasks
move ms          move-to-repaint of that game: median and p95 (our move
                 submitted to the first frame painted with its view)

``--trace`` also diffs tracemalloc snapshots taken at the second checkpoint
and the last one (slower: every allocation is traced), by line.

Nothing grows game over game if rss, objects, screens, widgets, timers and
tasks are flat after the first few games.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

# Every directory the app writes to is a temporary one: the evening's games
# are not the user's.
_HOME = tempfile.mkdtemp(prefix="threeup-evening-")
for _variable in ("THREEUP_STATE_DIR", "THREEUP_CONFIG_DIR", "THREEUP_DATA_DIR"):
    os.environ[_variable] = str(Path(_HOME) / _variable.lower())

from textual.timer import Timer  # noqa: E402

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app  # noqa: E402
from threeup_tui.app.screens.game_over import REMATCH_GRACE, GameOverScreen  # noqa: E402
from threeup_tui.app.screens.table import TableScreen  # noqa: E402
from threeup_tui.bots import GreedyBot  # noqa: E402
from threeup_tui.bots.pool import close_shared_pool  # noqa: E402
from threeup_tui.history import History  # noqa: E402
from threeup_tui.launcher import Launcher  # noqa: E402
from threeup_tui.settings import SettingsFile  # noqa: E402

AT = (1, 10, 25, 50, 100)
MOVE_TIMEOUT = 10.0  # seconds: a move never painted is a failure, not a hang


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def widgets(app: ThreeUpApp) -> int:
    return sum(1 + len(list(screen.walk_children())) for screen in app.screen_stack)


def live_timers() -> int:
    return sum(1 for o in gc.get_objects() if isinstance(o, Timer) and o._task is not None)


def object_kinds() -> Counter[str]:
    """How many objects of each type the collector tracks."""
    gc.collect()
    return Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.get_objects())


def checkpoint(app: ThreeUpApp, game: int, moves: list[float]) -> dict[str, Any]:
    gc.collect()
    ordered = sorted(moves) or [float("nan")]
    return {
        "game": game,
        "rss_mib": round(rss_mib(), 1),
        "objects": len(gc.get_objects()),
        "screens": len(app.screen_stack),
        "widgets": widgets(app),
        "timers": live_timers(),
        "tasks": len(asyncio.all_tasks()),
        "move_ms_p50": round(statistics.median(ordered) * 1000, 1),
        "move_ms_p95": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 1),
        "moves": len(moves),
    }


async def evening(
    games: int, players: int, size: tuple[int, int], at: set[int], trace: bool
) -> tuple[list[dict[str, Any]], list[str]]:
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0.0
    history = History(Path(_HOME) / "history.sqlite3")
    app = create_app(
        launcher,
        StartSpec(mode="play", players=players, bot_level="greedy", seed=1),
        settings=SettingsFile.in_memory(),
        history=history,
    )
    rows: list[dict[str, Any]] = []
    snapshots: list[tracemalloc.Snapshot] = []
    kinds: list[Counter[str]] = []
    moves: list[float] = []
    waiting: list[tuple[float, int]] = []  # (submitted at, moves_played before)
    painted = asyncio.Event()
    display = app._display

    def on_display(screen: Any, renderable: Any) -> None:
        session = app.session
        view = session.view if session else None
        if renderable is not None and waiting and view is not None:
            sent, before = waiting[0]
            if view.moves_played > before:
                moves.append(time.perf_counter() - sent)
                waiting.clear()
                painted.set()
        display(screen, renderable)

    app._display = on_display  # type: ignore[method-assign]
    bot = GreedyBot(7)
    game = 1
    async with app.run_test(size=size) as pilot:
        while game <= games:
            session = app.session
            view = session.view if session else None
            if session is None or view is None:
                await asyncio.sleep(0.01)
            elif view.phase == "setup" and view.me and not view.me.ready:
                session.client.choose_face_up(bot.choose_face_up(view))
                await asyncio.sleep(0.02)
            elif view.phase == "over":
                if not isinstance(app.screen, GameOverScreen):
                    await asyncio.sleep(0.02)
                    continue
                if game in at:
                    rows.append(checkpoint(app, game, moves))
                    print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
                    if len(rows) in (2, len(at)):
                        kinds.append(object_kinds())
                        if trace:
                            snapshots.append(tracemalloc.take_snapshot())
                moves = []
                game += 1
                if game > games:
                    break
                await asyncio.sleep(REMATCH_GRACE)  # the button ignores a press that early
                await pilot.press("r")
                while session.view is not None and session.view.phase == "over":
                    await asyncio.sleep(0.01)
            elif view.my_turn and isinstance(app.screen, TableScreen):
                await pilot.pause()  # the turn is on screen: now "press" the key
                view = session.view
                if view is None or not view.my_turn:
                    continue
                painted.clear()
                waiting[:] = [(time.perf_counter(), view.moves_played)]
                session.client.submit(bot.choose_move(view))
                await asyncio.wait_for(painted.wait(), MOVE_TIMEOUT)
            else:
                await asyncio.sleep(0.005)
    close_shared_pool()
    diff: list[str] = []
    if len(kinds) == 2:
        grown = kinds[1].copy()
        grown.subtract(kinds[0])
        diff += [f"{count:+8d} {kind}" for kind, count in grown.most_common(15)]
    if len(snapshots) == 2:
        top = snapshots[1].compare_to(snapshots[0], "lineno")
        diff = [str(stat) for stat in top[:15]]
    return rows, diff


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--size", default="80x24")
    parser.add_argument("--at", default=",".join(map(str, AT)))
    parser.add_argument("--trace", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    at = {int(part) for part in args.at.split(",")} | {args.games}
    if args.trace:
        tracemalloc.start(8)
    rows, diff = asyncio.run(evening(args.games, args.players, (width, height), at, args.trace))
    if args.json:
        print(json.dumps({"rows": rows, "trace": diff}, indent=2))
        return
    print(
        f"{'game':>5} {'rss MiB':>8} {'objects':>9} {'screens':>7} {'widgets':>7} "
        f"{'timers':>6} {'tasks':>5} {'move p50':>9} {'p95 ms':>7}"
    )
    for row in rows:
        print(
            f"{row['game']:>5} {row['rss_mib']:>8} {row['objects']:>9} {row['screens']:>7} "
            f"{row['widgets']:>7} {row['timers']:>6} {row['tasks']:>5} "
            f"{row['move_ms_p50']:>9} {row['move_ms_p95']:>7}"
        )
    if diff:
        print("\nwhat grew from the second checkpoint to the last: objects by type, then")
        print("(with --trace) tracemalloc by line")
        print("\n".join(diff))


if __name__ == "__main__":
    main()
