"""A joined player's app killed at the very end of a game: the game is in
their history once, whatever comes next (the next start, a rejoin, two).

A real table and host on loopback; Dan's app a real process that joins over
UDP and plays his seat (a greedy bot's choices, sent as the app's own
requests), killed for real (SIGKILL, from inside) at one of two moments:

* ``end``: the game-over view has reached the app, which has not yet
  handled it.  Nothing of the end is on Dan's disk: his app cannot count
  a game it never saw end.  The host keeps the seat's result, and tells
  it to the next session of the seat ("played"): his next rejoin counts it.
* ``drawn``: the first frame that shows the game over is being drawn.  The
  app keeps the game on disk before anything of the end is drawn (as the
  view arrives: pendinggames.keep_game_ending), so the next start counts
  it, with no rejoin.  (A game against bots, or the host's, is also in its
  table's journal, test_app_game_end_killed.py; a joined player's app has
  no journal: what it keeps is all there is.)

Then, in either order, a start of the app and two rejoins: one row."""

from __future__ import annotations

import asyncio
import signal
import sys

import pytest
from app_helpers import wait_for, writing
from test_tui_history import a_table, dans_app, kept_games, over

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.launcher import Launcher
from threeup_tui.netplay.host import NetHost
from threeup_tui.pendinggames import pending_games
from threeup_tui.rules import Phase
from threeup_tui.table import Table

JOIN_UNTIL_KILLED = """
import asyncio, os, signal, sys
from threeup_tui.app import app as app_module
from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.bots import GreedyBot
from threeup_tui.client.events import ViewChanged
from threeup_tui.launcher import JoinSettings, Launcher

step, address = sys.argv[1:3]

def over(app):
    session = app.session
    return session is not None and session.view is not None and session.view.phase == "over"

def kill():
    os.kill(os.getpid(), signal.SIGKILL)

message_for = app_module._message_for

def message_or_kill(event):
    if step == "end" and isinstance(event, ViewChanged) and event.view.phase == "over":
        kill()  # the end has reached the app from its client, not yet handled
    return message_for(event)

app_module._message_for = message_or_kill
display = ThreeUpApp._display

def display_then_kill(self, screen, renderable):
    if step == "drawn" and over(self):
        kill()  # the first frame with the game over on it
    return display(self, screen, renderable)

ThreeUpApp._display = display_then_kill

async def main():
    join = StartSpec("join", join=JoinSettings(address, "Dan"))
    app = create_app(Launcher(announce_address="off"), join)
    async with app.run_test(size=(100, 30)):
        bot = GreedyBot(3)
        while app.session is None or app.session.view is None:
            await asyncio.sleep(0.01)
        session = app.session
        session.client.choose_face_up(bot.choose_face_up(session.view))
        acted = -1
        for _ in range(20000):
            await asyncio.sleep(0.005)
            view = session.view
            mine = view.phase == "play" and view.my_turn
            if mine and view.moves_played > acted:
                acted = view.moves_played
                session.client.submit(bot.choose_move(view))

asyncio.run(main())
"""


async def dans_app_killed(host: NetHost, step: str) -> None:
    """Dan's app joins, plays his seat, and is killed at ``step``."""
    address = f"127.0.0.1:{host.address[1]}"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", JOIN_UNTIL_KILLED, step, address, stderr=asyncio.subprocess.PIPE
    )
    _out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode == -signal.SIGKILL, err.decode()[-2000:]


async def app_started() -> None:
    """Dan starts his app, and looks at nothing: the start's own count."""
    app = create_app(Launcher(announce_address="off"), StartSpec(name="Dan"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        await wait_for(pilot, lambda: not writing(app), timeout=20, what="the history written")


async def dan_rejoins(host: NetHost) -> None:
    """Dan's app joins the table again (his seat's token kept by the first):
    the game-over box, and the host's "played" result of the seat."""
    app = dans_app(host)
    async with app.run_test(size=(100, 30)) as pilot:
        await over(pilot, app)
        await pilot.pause(0.5)  # "played" follows the snapshot and the chat lines
        await wait_for(pilot, lambda: not writing(app), timeout=20, what="the history written")


def counted_once(table: Table) -> None:
    (game,) = kept_games()
    dan = next(i for i, seat in enumerate(table.seats) if seat.name == "Dan")
    assert (game.table_id, game.game_number, game.my_seat) == (table.table_id, 1, dan)
    assert game.venue == "join"
    state = table.state
    assert state is not None and game.moves == len(state.history)
    assert pending_games() == []


@pytest.mark.parametrize("first", ["start", "rejoin"])
async def test_a_game_drawn_over_as_the_app_is_killed_is_counted_once(first: str) -> None:
    async with a_table(games=None) as (table, host):
        await dans_app_killed(host, "drawn")
        assert table.state is not None and table.state.phase == Phase.OVER
        if first == "start":
            await app_started()  # no rejoin needed: the game was kept before it was drawn
            counted_once(table)
        await dan_rejoins(host)
        counted_once(table)
        await dan_rejoins(host)
        counted_once(table)


async def test_a_game_whose_end_the_app_never_handled_is_counted_on_rejoining_once() -> None:
    async with a_table(games=None) as (table, host):
        await dans_app_killed(host, "end")
        assert table.state is not None and table.state.phase == Phase.OVER
        await app_started()
        assert kept_games() == [] and pending_games() == []  # nothing of the end reached it
        await dan_rejoins(host)
        counted_once(table)
        await dan_rejoins(host)
        await app_started()
        counted_once(table)
