"""A headless host stopped on purpose (Ctrl-C) between games or in the
lobby, with its table file kept and games left, is *stopped*, not closed:
it tells its players so, and their apps wait for `threeup host --resume`
and come back by themselves, as after a stop in the middle of a game.  It
once said "the host closed the table" there: every app ended its session,
each player had to join again after the resume, and the first one back
alone was dealt the next game.  The real ``threeup host --headless``
process, stopped with SIGINT and resumed; the players are real clients
over UDP on loopback."""

from __future__ import annotations

import asyncio
import signal
import subprocess
from collections.abc import Awaitable
from pathlib import Path

from netplay_support import (
    LOOPBACK,
    THREEUP,
    ClientLog,
    Proc,
    child_env,
    make_client,
    make_table,
    play_bot,
    start_host,
    start_host_process,
)

from threeup_tui.client.events import ChatReceived, ConnectionChanged, Notice
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.wire import (
    CLOSE_HOST_STOPPED_BETWEEN_GAMES,
    CLOSE_HOST_STOPPED_IN_LOBBY,
    CLOSE_RESUMABLE,
)


async def connection_change(client: NetClient, said: list[str]) -> ConnectionChanged:
    """The client's next connection change; the table's lines before it go in ``said``."""
    while True:
        event = await client.next_event()
        if isinstance(event, ChatReceived) and event.seat is None:
            said.append(event.text)
        if isinstance(event, ConnectionChanged):
            return event


async def stop(host: Proc) -> int:
    host.popen.send_signal(signal.SIGINT)  # Ctrl-C
    return await asyncio.to_thread(host.wait, 30)


async def stopped_in_its_lobby(tmp_path: Path, record: Path) -> Proc:
    """A headless host of three seats (one a bot) at ``record``, started and
    stopped with Ctrl-C before anyone came: its table kept for --resume."""
    host = await asyncio.to_thread(
        start_host_process, tmp_path, players=3, bots=1, seed=5, record=record, games=None
    )
    try:
        assert await stop(host) == 0, host.stderr()
    finally:
        host.kill()
    return host


async def start_resumed(tmp_path: Path, record: Path) -> Proc:
    """`threeup host --headless --resume RECORD`, and nothing else."""
    return await asyncio.to_thread(
        start_host_process, tmp_path, players=0, bots=0, seed=0, record=record,
        resume=record, tag="resumed",
    )  # fmt: skip


async def waits_then_comes_back(client: NetClient, reason: str, resume: Awaitable[None]) -> None:
    """``client`` is told the host stopped (``reason``), waits for it rather
    than ending its session, and is connected again once ``resume`` (a
    coroutine starting the resumed host) has run."""
    said: list[str] = []

    async def stopped() -> ConnectionChanged:
        while True:  # past the "connected" of its start, if still queued
            change = await connection_change(client, said)
            if change.state != "connected":
                return change

    change = await asyncio.wait_for(stopped(), 15)
    assert (change.state, change.detail) == ("reconnecting", reason)
    assert f"{reason}; this seat waits for it" in said
    assert client.closed_by_host is None
    await resume
    change = await asyncio.wait_for(connection_change(client, said), 30)
    assert change.state == "connected", change


async def test_a_host_stopped_between_games_is_waited_for_and_plays_on(tmp_path: Path) -> None:
    """Ann plays game 1 against a bot; the host is stopped at the game-over
    box (Ann has not asked for the next game).  Her client waits, and when
    the host is resumed it is back at its seat; she asks for the next game,
    which is game 2, and the table closes as its --games says."""
    record = tmp_path / "game.json"
    host = await asyncio.to_thread(
        start_host_process, tmp_path, players=2, bots=1, seed=51, record=record, games=2
    )
    procs = [host]
    ann = make_client((LOOPBACK, host.port), "ann", tmp_path / "ann.json")
    try:
        played = await asyncio.wait_for(play_bot(ann, ClientLog("ann")), 60)
        seat = ann.seat
        assert played.views[-1].phase == "over"
        assert await stop(host) == 0, host.stderr()
        assert f"`threeup host --headless --resume {record}` brings the table back" in (
            host.stderr()
        )
        resumed: list[Proc] = []

        async def resume() -> None:
            resumed.append(await start_resumed(tmp_path, record))
            procs.extend(resumed)

        await waits_then_comes_back(ann, CLOSE_HOST_STOPPED_BETWEEN_GAMES, resume())
        assert ann.seat == seat and resumed[0].port == host.port
        ann.rematch()  # Next game (r): the bot agrees, so it is dealt

        async def next_deal() -> None:
            while ann.view is None or ann.view.phase == "over":
                await ann.next_event()

        await asyncio.wait_for(next_deal(), 15)
        second = await asyncio.wait_for(play_bot(ann, ClientLog("ann"), started=True), 60)
        assert second.views[-1].phase == "over"
        assert await asyncio.to_thread(resumed[0].wait, 30) == 0, resumed[0].stderr()
        assert "game 2 over:" in resumed[0].stderr()
        assert (tmp_path / "game-2.json").exists()  # game 2's record, not game 1's again
    finally:
        await ann.close()
        for proc in procs:
            proc.kill()


async def test_a_host_stopped_in_the_lobby_is_waited_for_and_seats_come_back(
    tmp_path: Path,
) -> None:
    """Bo and Ann sit in a lobby of four (a bot in the first seat); the
    host is stopped before the table is full.  Both clients wait; resumed,
    the lobby fills as it was, each at their own seat, and the game begins."""
    record = tmp_path / "game.json"
    host = await asyncio.to_thread(
        start_host_process, tmp_path, players=4, bots=1, seed=52, record=record, games=1
    )
    procs = [host]
    bo = make_client((LOOPBACK, host.port), "bo", tmp_path / "bo.json")
    ann = make_client((LOOPBACK, host.port), "ann", tmp_path / "ann.json")
    clients = [bo, ann]
    try:
        await bo.start()
        await ann.start()
        seats = (bo.seat, ann.seat)
        assert seats == (1, 2)
        assert await stop(host) == 0, host.stderr()

        async def resume() -> None:
            procs.append(await start_resumed(tmp_path, record))

        started = asyncio.ensure_future(resume())
        await asyncio.gather(
            waits_then_comes_back(bo, CLOSE_HOST_STOPPED_IN_LOBBY, started),
            waits_then_comes_back(ann, CLOSE_HOST_STOPPED_IN_LOBBY, started),
        )
        assert (bo.seat, ann.seat) == seats
        cy = make_client((LOOPBACK, host.port), "cy", tmp_path / "cy.json")
        clients.append(cy)
        await cy.start()
        assert cy.seat == 3  # the one seat nobody held

        async def dealt(client: NetClient) -> None:
            while client.view is None or client.view.phase != "setup":
                await client.next_event()

        await asyncio.wait_for(asyncio.gather(dealt(ann), dealt(bo), dealt(cy)), 15)
        assert ann.view is not None
        assert list(ann.view.names) == ["greedy bot 1", "bo", "ann", "cy"]
    finally:
        for client in clients:
            await client.close()
        for proc in procs:
            proc.kill()


def test_every_stop_that_may_resume_says_so() -> None:
    """What a stranger's client reads: each resumable reason says it may resume."""
    assert all(reason.endswith(": it may resume the table") for reason in CLOSE_RESUMABLE)


async def test_what_is_not_sent_while_the_host_is_stopped_says_why(tmp_path: Path) -> None:
    """Bo, in the lobby of a host stopped to be resumed, says a line and
    asks for the next game.  Neither can go, and the client says so: it
    once said "not sent (not connected): try again in a moment", as for a
    blink of the link, though nothing goes until someone resumes the table,
    which may be hours.  The host in this process, on loopback, stopped as
    a headless host's Ctrl-C stops it (its CLOSE_HOST_STOPPED_IN_LOBBY)."""
    table = make_table(tmp_path, players=3, seed=53, bots=1)
    host = await start_host(table)
    bo = make_client((LOOPBACK, host.address[1]), "bo", tmp_path / "bo.json")
    try:
        await bo.start()
        await host.close(CLOSE_HOST_STOPPED_IN_LOBBY)
        change = await asyncio.wait_for(connection_change(bo, []), 15)
        assert change.state == "connected"  # its start, still queued
        change = await asyncio.wait_for(connection_change(bo, []), 15)
        assert (change.state, change.detail) == ("reconnecting", CLOSE_HOST_STOPPED_IN_LOBBY)
        bo.chat("anyone?")
        bo.rematch()

        async def notices() -> list[str]:
            said: list[str] = []
            while len(said) < 2:
                event = await bo.next_event()
                if isinstance(event, Notice):
                    said.append(event.text)
            return said

        said = await asyncio.wait_for(notices(), 15)
        assert all("in a moment" not in line for line in said), said
        assert said == ["not sent: the host stopped; try again once it is back"] * 2, said
    finally:
        await bo.close()


async def test_the_stopped_hosts_resume_command_runs_as_pasted(tmp_path: Path) -> None:
    """The headless host's goodbye line ends in the command that brings the
    table back.  Its journal's path went in as it was: a folder named with
    spaces or a `$` made the pasted command another file's, or several
    words.  It is quoted for the shell: pasted into one as it is, it brings
    this very table back."""
    folder = tmp_path / "our tables $HOME (Friday's)"
    folder.mkdir()
    record = folder / "game night.json"
    host = await stopped_in_its_lobby(tmp_path, record)
    (line,) = [line for line in host.stderr().splitlines() if "brings the table back" in line]
    command = line.split("`")[1]
    assert command.startswith("threeup host --headless --resume ")
    # A shell, as the host's operator pastes the command into one.
    # exec: the Ctrl-C below reaches the host, not the shell that ran it.
    script = f'threeup() {{ exec "$THREEUP" "$@"; }}; {command}'
    err = tmp_path / "pasted.stderr"
    env = {**child_env(tmp_path / "pasted-state"), "THREEUP": str(THREEUP)}
    with err.open("wb") as out:
        pasted = subprocess.Popen(
            ["sh", "-c", script], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=out, env=env, cwd=tmp_path,
        )  # fmt: skip
    resumed = Proc(pasted, err)
    try:
        for _ in range(1000):  # up to 20 s
            if f"listening on {LOOPBACK}:{host.port}" in resumed.stderr():
                break
            assert pasted.poll() is None, resumed.stderr()
            await asyncio.sleep(0.02)
        else:
            raise AssertionError(f"the pasted command hosts nothing:\n{resumed.stderr()}")
        assert await stop(resumed) == 0, resumed.stderr()
    finally:
        resumed.kill()


async def test_a_journal_whose_path_holds_a_line_break_is_refused_before_the_table(
    tmp_path: Path,
) -> None:
    """A line break in the journal's path made every command shown to
    resume the table (the goodbye, the host's log, a refusal quoting it)
    two lines: pasted, the first line ran `threeup host --resume '.../night`
    and the second a command of its own.  No quoting in sh keeps a line
    break on one line, so such a path is refused on the command line,
    before anything is written; a table already kept at one is refused
    too, untouched, and moved (with its table file) it comes back."""
    folder = tmp_path / "night\none"
    folder.mkdir()

    def threeup(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(THREEUP), "host", *args], capture_output=True, text=True, timeout=60,
            stdin=subprocess.DEVNULL, env=child_env(tmp_path / "state"), cwd=tmp_path,
        )  # fmt: skip

    for headless in (("--headless",), ()):  # a dedicated host, and the app
        refused = threeup(*headless, "--players", "2", "--bots", "1", "--bind", LOOPBACK,
                          "--port", "0", "--record", str(folder / "game.json"))  # fmt: skip
        assert refused.returncode == 2, refused.stderr
        (line,) = refused.stderr.splitlines()  # one line, no traceback
        assert line.startswith("threeup host: --record ") and "a line break" in line, line
        assert "choose a path without it" in line, line
        assert list(folder.iterdir()) == []  # nothing written there
    # A headless host's own journal, in a working directory named so.
    refused = subprocess.run(
        [str(THREEUP), "host", "--headless", "--players", "2", "--bots", "1", "--bind", LOOPBACK,
         "--port", "0"], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        env=child_env(tmp_path / "state"), cwd=folder,
    )  # fmt: skip
    assert refused.returncode == 2, refused.stderr
    (line,) = refused.stderr.splitlines()
    assert "threeup-game.json (a headless host's journal" in line and "--record FILE" in line
    assert list(folder.iterdir()) == []

    # A table kept before (its files made elsewhere, then moved there).
    kept = tmp_path / "kept" / "game.json"
    kept.parent.mkdir()
    host = await stopped_in_its_lobby(tmp_path, kept)
    journal = folder / "game.json"
    for file in kept.parent.iterdir():  # the table file (no game yet: no journal)
        file.rename(folder / file.name)
    before = {file.name: file.read_bytes() for file in folder.iterdir()}
    refused = threeup("--headless", "--resume", str(journal))
    assert refused.returncode == 2, refused.stderr
    (line,) = refused.stderr.splitlines()
    assert "a line break" in line and "move it, and 'game.json.table' beside it" in line, line
    assert {file.name: file.read_bytes() for file in folder.iterdir()} == before  # untouched

    moved = tmp_path / "moved"
    moved.mkdir()
    for file in folder.iterdir():
        file.rename(moved / file.name)
    resumed = await start_resumed(tmp_path, moved / "game.json")
    try:
        assert resumed.port == host.port  # the table, back where it was
        assert await stop(resumed) == 0, resumed.stderr()
    finally:
        resumed.kill()
    (said,) = [line for line in resumed.stderr().splitlines() if "brings the table back" in line]
    assert f"--resume {moved / 'game.json'}`" in said, said
