"""The expert's worker starts while the start screen shows expert bots, not
with the first decision of the first expert bot (which waited seconds for a
new interpreter); it stops when another level is chosen, and with the app.

Real apps (``run_test``), the real launcher and real worker processes of a
pool of the test's own (the ``pool`` fixture).
"""

from __future__ import annotations

import asyncio

from textual.pilot import Pilot
from thinking_bots import alive
from waiting import until

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.bots.pool import ThinkPool
from threeup_tui.launcher import Launcher
from threeup_tui.settings import SettingsFile


def settings_at(level: str) -> SettingsFile:
    settings = SettingsFile()
    settings.change(bot_level=level)
    return settings


async def on_start_screen(pilot: Pilot[int]) -> StartScreen:
    app = pilot.app
    await until(lambda: isinstance(app.screen, StartScreen), "the start screen")
    screen = app.screen
    assert isinstance(screen, StartScreen)
    return screen


async def test_expert_bots_shown_on_the_start_screen_start_their_worker(pool: ThinkPool) -> None:
    app = create_app(Launcher(), StartSpec(name="me"), settings=settings_at("expert"))
    async with app.run_test(size=(80, 24)) as pilot:
        await on_start_screen(pilot)
        await until(pool.worker_pids, "a worker, before any Enter")
        woken = pool.worker_pids()
        # Another level: the worker goes (expert -> random).
        await pilot.press("b")
        await until(lambda: not any(alive(pid) for pid in woken), "the worker stopped")
        assert not pool.worker_pids()
        # Greedy bots think in no worker; expert again wakes one.
        await pilot.press("b")
        await asyncio.sleep(0.3)
        assert not pool.worker_pids()
        await pilot.press("b")
        await until(pool.worker_pids, "a worker for expert bots again")
        woken = pool.worker_pids()
        await app.action_quit()
    # The app gone, so is the worker it woke.
    await until(lambda: not any(alive(pid) for pid in woken), "the worker gone with the app")
