"""Your games over a long history: how long the screen takes to open, and
to reach the oldest game.

    python benchmarks/your_games.py [--games 300,5000] [--opens N] [--size WxH] [--json]

For each count of games, a real history file of that many games (in a
temporary directory; nothing of yours is touched) is made, and the real
app (headless, ``run_test``) opens "Your games" on it:

open ms      the screen asked for (StatsRequested) to the first frame painted
             with the summary and the newest games (median of --opens)
rows shown   how many games the list holds once open
to oldest ms End pressed to the first frame with the cursor on the oldest
             game, every game read a page at a time behind it
key ms       ↓ pressed with every game in the list, to the next frame
             (median of 20)

Each game has a record (one file, named by every row), so the list looks
at it as it does at a player's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.widgets import DataTable

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.messages import StatsRequested
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.app.screens.stats import StatsScreen
from threeup_tui.history import FinishedGame, History, SeatEntry
from threeup_tui.launcher import Launcher
from threeup_tui.settings import SettingsFile


def make_history(folder: Path, games: int) -> History:
    """The first game kept as the app keeps one, the rest copied from it in
    SQL (one History.add each took minutes for thousands): won 2 of 3."""
    history = History(folder / "history.sqlite3", enabled=True)
    record = folder / "game.json"
    record.write_text("{}")
    seats = (SeatEntry("you", "you"), SeatEntry("greedy", "bot", "greedy"))
    history.add(FinishedGame(seats, 0, 1, True, False, 60, 20, record=str(record)))
    with contextlib.closing(sqlite3.connect(history.path)) as db, db:
        db.execute(
            "WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
            " INSERT INTO games (finished_at, venue, players, my_seat, place, won, stalemate,"
            " moves, turns, finish, opponents, record)"
            " SELECT finished_at, venue, players, my_seat, 1 + (i % 3 = 0), i % 3 != 0,"
            " stalemate, 60 + i % 40, turns, finish, opponents, record FROM games, n"
            " WHERE games.id = 1",
            (games,),
        )
        db.execute(
            "INSERT INTO seats SELECT g.id, s.seat, s.name, s.kind, s.bot_level"
            " FROM games g, seats s WHERE s.game_id = 1 AND g.id > 1"
        )
    return history


class Frames:
    """The app's painted frames, each checked against what is awaited."""

    def __init__(self, app: ThreeUpApp) -> None:
        self.ready: Callable[[], bool] | None = None
        self.painted: float | None = None
        display = app._display

        def painted(screen: Any, renderable: Any) -> None:
            awaited = self.ready is not None and self.painted is None
            if renderable is not None and awaited and self.ready():  # as this frame is painted
                self.painted = time.perf_counter()
            display(screen, renderable)

        app._display = painted  # type: ignore[method-assign]

    def expect(self, ready: Callable[[], bool]) -> None:
        """Look for ``ready()`` in every frame from now on (before the key)."""
        self.ready, self.painted = ready, None

    async def when(self, timeout: float = 60.0) -> float:
        """The time of the first frame painted with the expected ``ready()`` true."""
        deadline = time.perf_counter() + timeout
        while self.painted is None:
            if time.perf_counter() > deadline:
                raise TimeoutError("no frame painted as awaited")
            await asyncio.sleep(0.0005)
        self.ready = None
        return self.painted


def table_of(app: ThreeUpApp) -> DataTable[str] | None:
    screen = app.screen
    return screen.query_one(DataTable) if isinstance(screen, StatsScreen) else None


async def measure(
    history: History, games: int, opens: int, size: tuple[int, int], open_only: bool
) -> dict[str, Any]:
    app = create_app(Launcher(), StartSpec(), settings=SettingsFile.in_memory(), history=history)
    frames = Frames(app)
    open_ms: list[float] = []
    rows = 0

    def shown() -> bool:
        table = table_of(app)
        screen = app.screen
        read = isinstance(screen, StatsScreen) and screen.stats is not None
        return read and table is not None and table.row_count > 0

    async with app.run_test(size=size) as pilot:
        for _ in range(opens):
            while not isinstance(app.screen, StartScreen):
                await asyncio.sleep(0.001)
            await pilot.pause()
            frames.expect(shown)
            start = time.perf_counter()
            app.post_message(StatsRequested())
            painted = await frames.when()
            open_ms.append((painted - start) * 1000)
            table = table_of(app)
            assert table is not None
            rows = table.row_count
            await pilot.press("escape")
        if open_only:
            return {"games": games, "open ms": statistics.median(open_ms), "rows shown": rows}
        frames.expect(shown)
        app.post_message(StatsRequested())
        await frames.when()
        table = table_of(app)
        assert table is not None
        frames.expect(lambda: table.row_count == games and table.cursor_row == games - 1)
        start = time.perf_counter()
        await pilot.press("end")
        painted = await frames.when()
        to_oldest = (painted - start) * 1000
        await pilot.press("home")
        keys = []
        for _ in range(20):
            row = table.cursor_row
            frames.expect(lambda row=row: table.cursor_row == row + 1)
            start = time.perf_counter()
            await pilot.press("down")
            painted = await frames.when()
            keys.append((painted - start) * 1000)
    return {
        "games": games,
        "open ms": statistics.median(open_ms),
        "rows shown": rows,
        "to oldest ms": to_oldest,
        "key ms": statistics.median(keys),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="300,5000", help="counts of games (default 300,5000)")
    parser.add_argument("--opens", type=int, default=5, help="opens to time (default 5)")
    parser.add_argument("--size", default="80x24", help="the terminal (default 80x24)")
    parser.add_argument("--open-only", action="store_true", help="time the opening alone")
    parser.add_argument("--json", action="store_true", help="one JSON object per count")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    for games in (int(n) for n in args.games.split(",")):
        with tempfile.TemporaryDirectory(prefix="threeup-your-games-") as folder:
            made = time.perf_counter()
            history = make_history(Path(folder), games)
            made = time.perf_counter() - made
            result = asyncio.run(
                measure(history, games, args.opens, (width, height), args.open_only)
            )
        if args.json:
            print(json.dumps(result))
        else:
            line = (
                f"{games:>6} games (made in {made:.1f} s): open {result['open ms']:.0f} ms"
                f" ({result['rows shown']} rows)"
            )
            if not args.open_only:
                line += (
                    f", to the oldest {result['to oldest ms']:.0f} ms,"
                    f" a key {result['key ms']:.1f} ms"
                )
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
