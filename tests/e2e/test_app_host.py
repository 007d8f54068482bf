"""The app that hosts a table, as a real process in a tmux pane at 80x24."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from threeup_tui.client.events import ConnectionChanged, LobbyChanged, ViewChanged
from threeup_tui.netplay.client import NetClient

from .conftest import Tmux, free_port


def test_sigterm_to_an_app_that_hosts_a_table_tells_its_players(tmp_path: Path, tmux: Tmux) -> None:
    """`kill` quits the app as its quit key does: the table is stopped
    while the app still runs, so its players hear that it may be resumed
    (a player is seated: the lobby is kept for them; it once closed).  The
    stop was once cut off with the loop: the players found the host
    silent, and the host's terminal got a traceback."""
    port = free_port(socket.SOCK_DGRAM)
    app = f"{sys.executable} -m threeup_tui host --bind 127.0.0.1 --port {port} --players 3"
    shell = f"{app} --name Nora; echo EXIT=$?; sleep 60"
    tmux.new("host", shell, env={"TERM": "xterm-256color", "LANG": "C.UTF-8"})
    tmux.wait_for("host", "Seats: 1 of 3 taken")

    pane = tmux.flag("host", "#{pane_pid}")
    children = subprocess.run(["pgrep", "-P", pane], capture_output=True, text=True)
    (app_pid,) = children.stdout.split()
    stopped: list[str] = []

    async def guest() -> list[tuple[str, str]]:
        client = NetClient("127.0.0.1", port, "gus", tokens=None)
        await client.start()
        told: list[tuple[str, str]] = []
        try:
            async with asyncio.timeout(15):
                while not told:
                    event = await client.next_event()
                    if isinstance(event, ConnectionChanged) and event.state != "connected":
                        told.append((event.state, event.detail))
                    elif isinstance(event, LobbyChanged) and not stopped:
                        stopped.append(app_pid)  # gus is seated: stop the app, once
                        os.kill(int(app_pid), signal.SIGTERM)
        finally:
            await client.close()
        return told

    waits = "the host stopped before the game began: it may resume the table"
    assert asyncio.run(guest()) == [("reconnecting", waits)]
    # The app's terminal after it ends: its exit status, and no traceback.
    shown = tmux.wait_for("host", "EXIT=")
    assert "EXIT=0" in shown
    assert "Traceback" not in shown and "Exception ignored" not in shown, shown


def test_a_hang_up_of_an_app_that_hosts_a_game_tells_its_players_and_ends_it(
    tmp_path: Path, tmux: Tmux
) -> None:
    """The host's terminal closes (its window, or the SSH session it ran in,
    drops): the app stops the table as Ctrl-C stops a headless host, and its
    players are told at once that it may resume.  It once died on the spot
    (its players heard nothing until their idle time-out); and handling the
    hang-up like SIGTERM hung the app for ever in Textual's shutdown."""
    port = free_port(socket.SOCK_DGRAM)
    app = f"{sys.executable} -m threeup_tui host --bind 127.0.0.1 --port {port} --players 2"
    tmux.new("host", f"{app} --name Nora", env={"TERM": "xterm-256color", "LANG": "C.UTF-8"})
    tmux.wait_for("host", "Seats: 1 of 2 taken")
    app_pid = int(tmux.flag("host", "#{pane_pid}"))
    ended: list[float] = []

    async def guest() -> list[tuple[str, str]]:
        client = NetClient("127.0.0.1", port, "gus", tokens=None)
        await client.start()
        told: list[tuple[str, str]] = []
        started = False
        try:
            async with asyncio.timeout(20):
                while not told:
                    event = await client.next_event()
                    if isinstance(event, ConnectionChanged) and event.state != "connected":
                        told.append((event.state, event.detail))
                    elif isinstance(event, LobbyChanged) and not started:
                        started = True
                        tmux.keys("host", "s")  # Nora starts the game
                    elif isinstance(event, ViewChanged) and not ended:
                        ended.append(time.monotonic())
                        tmux.run("kill-session", "-t", "host")  # SIGHUP
        finally:
            await client.close()
        return told

    told = asyncio.run(guest())
    stopped = "the host stopped in the middle of the game: it may resume the table"
    assert told == [("reconnecting", stopped)]
    while time.monotonic() < ended[0] + 10 and _alive(app_pid):
        time.sleep(0.05)
    assert not _alive(app_pid), "the app is still running after its terminal hung up"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
