"""``threeup host --headless`` and ``threeup join --bot`` while their bots
think, as real processes on loopback: the network is served all the while
(views, acks), and Ctrl-C ends the process and its thinking workers
cleanly, with no traceback.

The processes run the real command line with one addition: the ``gated``
bot level (thinking_bots.py), whose decisions wait for this test.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from thinking_bots import Gate, alive
from waiting import until

from threeup_tui.bots import GreedyBot
from threeup_tui.client.events import ChatReceived, Event, ViewChanged
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.host import NetHost
from threeup_tui.netplay.tokens import TokenStore
from threeup_tui.rules import View
from threeup_tui.table import Table, TableConfig, TableRunner

HERE = Path(__file__).resolve().parent
LOOPBACK = "127.0.0.1"

# `threeup ARGS...`, with the gated bots known to it.  Ctrl-C is set back to
# its default first, as in a terminal's job: a test run started in the
# background of a shell without job control (`.ci/run &`) ignores SIGINT, its
# children inherit that, and Python keeps it (so `threeup join --bot` would
# never hear the Ctrl-C this test sends).
THREEUP_WITH_GATED_BOTS = f"""
import signal
import sys
signal.signal(signal.SIGINT, signal.default_int_handler)
from pathlib import Path
sys.path.insert(0, {str(HERE)!r})
from thinking_bots import GatedBot
from threeup_tui.bots import BOT_LEVELS
BOT_LEVELS["gated"] = GatedBot
GatedBot.gate_dir = Path(sys.argv.pop(1))
from threeup_tui.cli import main
sys.exit(main(sys.argv[1:]))
"""


def threeup(gate: Gate, *args: str, stderr: Path) -> subprocess.Popen[bytes]:
    """A threeup process in a process group of its own (as a terminal's job)."""
    with stderr.open("wb") as err:
        return subprocess.Popen(
            [sys.executable, "-c", THREEUP_WITH_GATED_BOTS, str(gate.path), *args],
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
            env=dict(os.environ, THREEUP_ANNOUNCE="off"),
        )


async def next_event(client: NetClient, wanted: Callable[[Event], bool], what: str) -> Event:
    async def wait() -> Event:
        while True:
            event = await client.next_event()
            if wanted(event):
                return event

    return await asyncio.wait_for(wait(), 20)


async def next_view(client: NetClient, wanted: Callable[[View], bool], what: str) -> View:
    event = await next_event(client, lambda e: isinstance(e, ViewChanged) and wanted(e.view), what)
    assert isinstance(event, ViewChanged)
    return event.view


async def ctrl_c(process: subprocess.Popen[bytes], stderr: Path) -> str:
    """Ctrl-C as a terminal sends it, to the whole process group; the process's stderr."""
    os.killpg(process.pid, signal.SIGINT)
    for _ in range(1000):
        if process.poll() is not None:
            break
        await asyncio.sleep(0.01)
    else:
        process.kill()
        raise AssertionError("the process did not end on Ctrl-C")
    return stderr.read_text()


async def ctrl_c_ends_it_and_its_worker(
    process: subprocess.Popen[bytes], stderr: Path, worker: int
) -> None:
    """Ctrl-C ends ``process`` as an interrupt (130, no traceback), and its
    thinking ``worker`` goes with it."""
    errors = await ctrl_c(process, stderr)
    assert process.returncode == 130, errors
    assert "Traceback" not in errors, errors
    await until(
        lambda: not alive(worker), "the thinking worker to go", 15, lambda: described(worker)
    )


def gated_host(
    gate: Gate, tmp_path: Path, players: int, bots: int, stderr: Path
) -> subprocess.Popen[bytes]:
    """A headless host whose ``bots`` seats are gated bots (they think until told)."""
    return threeup(
        gate,
        "host", "--headless", "--bind", LOOPBACK, "--port", "0", "--players", str(players),
        "--bots", str(bots), "--bot-level", "gated", "--takeover-after", "600",
        "--record", str(tmp_path / "game.json"), "--announce", "off",
        stderr=stderr,
    )  # fmt: skip


async def listening_port(host: subprocess.Popen[bytes], stderr: Path) -> int:
    """The port the host's log says it listens on."""
    marker = f"threeup host listening on {LOOPBACK}:"
    await until(lambda: marker in stderr.read_text() or host.poll() is not None, "the host")
    return int(stderr.read_text().split(marker)[1].split()[0])


async def test_a_headless_host_serves_its_players_while_its_bots_think(
    gate: Gate, tmp_path: Path
) -> None:
    stderr = tmp_path / "host.stderr"
    host = gated_host(gate, tmp_path, players=3, bots=2, stderr=stderr)
    ann: NetClient | None = None
    try:
        port = await listening_port(host, stderr)
        ann = NetClient(LOOPBACK, port, "ann", tokens=TokenStore(tmp_path / "tokens"))
        await ann.start()  # the last seat: the game starts, and the bots think
        view = await next_view(ann, lambda v: v.phase == "setup", "the deal")
        await gate.until_thinking("0-setup")
        ann.choose_face_up(GreedyBot(0).choose_face_up(view))
        me = await next_view(ann, lambda v: v.me is not None and v.me.ready, "our choice taken")
        ann.chat("still there?")
        await next_event(
            ann, lambda e: isinstance(e, ChatReceived) and e.text == "still there?", "our chat"
        )
        assert not gate.decided("0-setup")  # all of that while the first bot still thinks
        assert me.seats[0].ready is False
        worker = gate.pid("0-setup")
        assert worker != host.pid and alive(worker)
        await ctrl_c_ends_it_and_its_worker(host, stderr, worker)
    finally:
        if ann is not None:
            await ann.close()
        if host.poll() is None:
            host.kill()
            host.wait()


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux /proc)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def described(pid: int) -> str:
    """A process as a failure message should name it: pid, state, command line."""
    try:
        state = Path(f"/proc/{pid}/status").read_text().split("State:")[1].split("\n")[0].strip()
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (FileNotFoundError, IndexError):
        return f"{pid} (gone)"
    return f"{pid} {state} {command[-80:]}"


async def test_a_host_killed_outright_leaves_no_thinking_worker_behind(
    gate: Gate, tmp_path: Path
) -> None:
    """SIGKILL gives the host no chance to stop its workers: they notice."""
    stderr = tmp_path / "host.stderr"
    host = gated_host(gate, tmp_path, players=2, bots=1, stderr=stderr)
    ann: NetClient | None = None
    left: list[int] = []
    try:
        port = await listening_port(host, stderr)
        ann = NetClient(LOOPBACK, port, "ann", tokens=TokenStore(tmp_path / "tokens"))
        await ann.start()
        await gate.until_thinking("0-setup")
        left = children(host.pid)  # the thinking workers and multiprocessing's tracker
        assert gate.pid("0-setup") in left
        host.kill()
        host.wait()
        # They notice within milliseconds when the machine is idle; the
        # bound is generous because a CI machine may be busy with anything.
        await until(
            lambda: not any(alive(pid) for pid in left),
            "the host's children to go",
            15,
            lambda: "still there: " + "; ".join(described(pid) for pid in left if alive(pid)),
        )
    finally:
        if ann is not None:
            await ann.close()
        if host.poll() is None:
            host.kill()
            host.wait()
        for pid in left:  # a failed test leaves nothing behind either
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


@contextlib.asynccontextmanager
async def a_joined_gated_bot(
    gate: Gate, stderr: Path
) -> AsyncIterator[tuple[Table, NetHost, subprocess.Popen[bytes]]]:
    """A table of two on loopback, a greedy bot in seat 1, and a real
    `threeup join --bot gated` process in seat 2 (its stderr to ``stderr``);
    the table's runner plays; everything is stopped afterwards."""
    table = Table(TableConfig(players=2, seed=4, auto_start=True, takeover_after=600))
    table.add_bot(None, "greedy")  # seat 1; the joining bot takes seat 2
    net_host = await NetHost.start(table, LOOPBACK, 0)
    runner = TableRunner(table)
    runner.start()
    bot = threeup(
        gate, "join", f"{LOOPBACK}:{net_host.address[1]}", "--bot", "gated", "--name", "robo",
        stderr=stderr,
    )  # fmt: skip
    try:
        yield table, net_host, bot
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
        await runner.stop()
        await net_host.close()


async def test_a_bot_joined_over_the_network_acks_while_it_thinks(
    gate: Gate, tmp_path: Path
) -> None:
    stderr = tmp_path / "bot.stderr"
    async with a_joined_gated_bot(gate, stderr) as (table, net_host, bot):
        await gate.until_thinking("1-setup")  # the game is on, and the joined bot thinks
        (session_id,) = net_host.server.session_ids
        session = net_host.server._engine.session(session_id)  # to see the bot's acks
        table.chat(0, "are you thinking?")
        assert not session.flushed  # our chat line is on its way...
        await until(lambda: session.flushed, "the bot's ack")  # ...and acknowledged
        assert not gate.decided("1-setup")  # while its bot still thinks
        worker = gate.pid("1-setup")
        assert worker != bot.pid and alive(worker)
        await ctrl_c_ends_it_and_its_worker(bot, stderr, worker)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["sigterm", "sighup"])
async def test_sigterm_ends_a_joined_bot_as_ctrl_c_does(
    gate: Gate, tmp_path: Path, sig: signal.Signals
) -> None:
    """`kill` (or a service manager) stops `threeup join --bot` while its bot
    thinks, and so does a hang-up (its terminal closed, its SSH session
    dropped): it leaves the table at once, as on Ctrl-C, rather than dying
    silent and leaving the host to wait out the idle time-out for the seat."""
    stderr = tmp_path / "bot.stderr"
    async with a_joined_gated_bot(gate, stderr) as (table, _, bot):
        await gate.until_thinking("1-setup")
        worker = gate.pid("1-setup")
        assert table.seats[1].connected
        bot.send_signal(sig)
        await until(lambda: bot.poll() is not None, "the bot to end", 15)
        errors = stderr.read_text()
        assert bot.returncode == 128 + sig and "Traceback" not in errors, (bot.returncode, errors)
        await until(lambda: not table.seats[1].connected, "the host to see the seat left", 5)
        await until(lambda: not alive(worker), "the thinking worker to go", 15)


async def test_a_simulation_killed_outright_leaves_no_worker_behind(tmp_path: Path) -> None:
    """`threeup simulate --jobs 2` killed outright (SIGKILL; also what
    SIGTERM does to it): its game workers notice and go at once, rather
    than playing their games out and then dying on the broken pipe with a
    traceback each on the terminal."""
    stderr = tmp_path / "simulate.stderr"
    with stderr.open("wb") as err:
        simulate = subprocess.Popen(
            [
                sys.executable, "-m", "threeup_tui", "simulate", "--games", "40",
                "--players", "4", "--bots", "expert", "--jobs", "2",
            ],
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
        )  # fmt: skip
    workers: list[int] = []
    try:
        await until(
            lambda: len([pid for pid in children(simulate.pid) if busy(pid)]) >= 2,
            "two workers playing",
        )
        workers = children(simulate.pid)
        simulate.kill()
        simulate.wait()
        await until(
            lambda: not any(alive(pid) for pid in workers),
            "the workers to go",
            5,  # a game of four experts lasts some 20 s: without the watch they play on
            lambda: "; ".join(described(pid) for pid in workers if alive(pid)),
        )
        assert "Traceback" not in stderr.read_text()
    finally:
        if simulate.poll() is None:
            simulate.kill()
            simulate.wait()
        for pid in workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def busy(pid: int) -> bool:
    """Whether process ``pid`` has spent a second of CPU (a game worker at work)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return False
    return int(fields[11]) + int(fields[12]) >= os.sysconf("SC_CLK_TCK")
