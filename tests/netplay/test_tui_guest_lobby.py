"""A guest's app (``threeup join``) in the lobby of a real ``threeup host
--headless`` on loopback, the host killed (kill -9), resumed, then closed:
the lobby itself says what became of the link, not only a note on the
status line that is gone a few seconds later."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from netplay_support import LOOPBACK, Proc, start_host_process
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.launcher import JoinSettings, Launcher

# A dedicated host starts the game itself once every seat is taken: its
# guests read "Waiting for the host to start the game…" before, and waited
# for a start nobody would give (ann is alone at three seats).
WAITING = "The game starts once every seat is taken (2 seats open)."


def lobby_text(app: App[Any]) -> str:
    """The words the lobby's own column shows, as one line (not the status
    line's, whose note runs out in seconds, nor the chat's)."""
    if not isinstance(app.screen, LobbyScreen):
        return ""
    region = app.screen.query_one("#lobby-main", Widget).region
    strips = app.screen._compositor.render_strips()
    rows = [strip.text[region.x : region.right] for strip in strips[region.y : region.bottom]]
    return " ".join(" ".join(rows).split())


async def until(pilot: Pilot[int], shown: Callable[[], bool], what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not shown():
        assert time.monotonic() < deadline, f"never shown: {what}\n{lobby_text(pilot.app)}"
        await asyncio.sleep(0.02)
    await pilot.pause()


async def test_a_guests_lobby_says_the_host_is_gone_back_and_stopped(tmp_path: Path) -> None:
    """The host killed: the lobby said nothing (a five-second note, then "●
    here" and "Waiting for the host" as if all were well).  Now it says the
    link is lost and shows nobody here until the table is back; and once
    the host is stopped, it says so, and comes back when the host does."""
    record = tmp_path / "lobby.json"
    host = start_host_process(tmp_path, players=3, bots=0, seed=41, record=record, games=None)
    procs: list[Proc] = [host]
    join = JoinSettings(f"{LOOPBACK}:{host.port}", "ann")
    app = create_app(Launcher(announce_address="off"), StartSpec(mode="join", join=join))
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await until(pilot, lambda: "ann ● here" in lobby_text(app), "ann here", 20)
            assert WAITING in lobby_text(app)

            host.kill()
            # Its port refuses the client's heartbeats (2 s), or nothing is
            # heard for the client's idle timeout (5 s): reconnecting.
            await until(pilot, lambda: "reconnecting" in lobby_text(app), "reconnecting", 20)
            shown = lobby_text(app)
            assert "Lost the link to the host" in shown
            assert "●" not in shown and "here" not in shown and WAITING not in shown
            # ...and counts how long it has been lost.
            lost = "Lost the link to the host: reconnecting for 2 s… (lost: the host is gone"
            await until(pilot, lambda: lost in lobby_text(app), "the outage counted", 5)

            resumed = await asyncio.to_thread(
                start_host_process, tmp_path, players=3, bots=0, seed=41, record=record,
                resume=record, tag="host-resumed",
            )  # fmt: skip
            procs.append(resumed)
            await until(pilot, lambda: "ann ● here" in lobby_text(app), "ann back", 20)
            assert WAITING in lobby_text(app) and "reconnecting" not in lobby_text(app)

            # In the lobby, its table file kept: stopped, not closed.  The
            # lobby said "the host closed the table", and the app waited for
            # nothing: after the next resume ann had to join again.
            resumed.popen.send_signal(signal.SIGTERM)
            await until(pilot, lambda: "The host stopped" in lobby_text(app), "waiting", 20)
            assert await asyncio.to_thread(resumed.wait, 10) == 0, resumed.stderr()
            shown = " ".join(lobby_text(app).split())
            assert "the host stopped before the game began: it may resume the table" in shown
            # Said as a stop, not as a link lost ("lost: the host stopped…").
            assert "The host stopped the table: waiting for it to come back" in shown
            assert "Lost the link" not in shown and "lost:" not in shown
            assert "closed" not in shown and "●" not in shown and WAITING not in shown
            again = await asyncio.to_thread(
                start_host_process, tmp_path, players=3, bots=0, seed=41, record=record,
                resume=record, tag="host-resumed-again",
            )  # fmt: skip
            procs.append(again)
            await until(pilot, lambda: "ann ● here" in lobby_text(app), "ann back again", 20)
            assert WAITING in lobby_text(app)
    finally:
        for proc in procs:
            proc.kill()
