"""Sessions ending and tables stopping while the table keeps changing.

These pin down two races found while writing the network tests (both
failed at ad1733b and are fixed by 3f457d3):

* ``TableRunner.stop()`` must return even when the table changed at the very
  moment it is stopped (its loop waits with ``asyncio.wait_for``, which on
  Python 3.11 swallows a cancellation that coincides with the wait ending);
* a session that has ended in ``net`` but whose ``Disconnected`` event the
  host has not handled yet must not break what the table tells everyone
  else (``NetHost`` sends to it and ``net`` raises ``UnknownSession``).
"""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

from netplay_support import make_client, make_table, start_host

from net import Client, NetConfig
from threeup_tui.client.events import ChatReceived, LobbyChanged
from threeup_tui.client.local import LocalClient
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.wire import make_hello
from threeup_tui.table import Table, TableConfig, TableRunner


async def _next(client: NetClient, kind: type, predicate, timeout: float = 2.0):  # type: ignore[no-untyped-def]
    async def run():  # type: ignore[no-untyped-def]
        while True:
            event = await client.next_event()
            if isinstance(event, kind) and predicate(event):
                return event

    return await asyncio.wait_for(run(), timeout)


async def test_table_runner_stops_even_when_the_table_just_changed() -> None:
    table = Table(TableConfig(players=3))
    runner = TableRunner(table)
    runner.start()
    await asyncio.sleep(0.05)  # the runner now waits for a change
    task = runner._task
    assert task is not None

    async def change_then_stop() -> None:
        table.add_bot(None, "greedy")  # any change: sets table.changed
        await runner.stop()

    stopper = asyncio.ensure_future(change_then_stop())
    done, _ = await asyncio.wait({stopper}, timeout=3.0)
    hung = stopper not in done
    if hung:  # clean up before failing: cancel the runner again
        for _ in range(50):
            task.cancel()
            finished, _ = await asyncio.wait({task}, timeout=0.05)
            if finished:
                break
        await asyncio.wait({stopper}, timeout=1.0)
    assert not hung, "TableRunner.stop() never returned: the runner swallowed its cancellation"
    assert task.done()


async def test_a_table_change_as_a_spectator_leaves_still_reaches_the_seats(
    tmp_path: Path,
) -> None:
    """A spectator's session ends in net's send loop (here the host closes
    it; an idle timeout ends it the same way) in the same loop iteration as a
    table change.  The host's coalesced snapshot flush must still reach
    every other session: a seat that misses its snapshot may be the one to
    act, and then the game waits for ever."""
    table = make_table(tmp_path, players=4, seed=71)
    host = await start_host(table, NetConfig())
    hello = make_hello("spectator", None, secrets.token_hex(16), True)
    spectator = await Client.connect(*host.address, hello, NetConfig())
    player = make_client(host.address, "player", tmp_path / "p.json")
    await player.start()
    try:
        await asyncio.sleep(0.3)  # everything sent is acknowledged by now
        spectator_id = spectator.session_id
        assert host.peers[spectator_id].seat is None
        # Both in one step, as a timer-driven session end and a bot move may be.
        host.server.close_session(spectator_id, "bye")
        table.add_bot(None, "greedy")
        # The player must learn about the new bot seat.
        try:
            await _next(player, LobbyChanged, lambda e: any(s.kind == "bot" for s in e.lobby.seats))
        except TimeoutError:
            raise AssertionError(
                "the player never got the snapshot with the new bot: NetHost._flush raised "
                "UnknownSession at the ended spectator session and skipped the others"
            ) from None
    finally:
        await player.close()
        await spectator.close()
        await host.close()


async def test_the_host_players_chat_as_a_session_ends_does_not_raise(tmp_path: Path) -> None:
    """The host's own seat (an in-process LocalClient, as in the TUI host)
    chats just as a remote player's session has ended but before the host
    handled its Disconnected event."""
    table = make_table(tmp_path, players=4, seed=72)
    host = await start_host(table, NetConfig())
    local = LocalClient(table, "hostplayer", as_host=True, owns_runner=False)
    await local.start()
    leaving = make_client(host.address, "leaving", tmp_path / "l.json")
    staying = make_client(host.address, "staying", tmp_path / "s.json")
    await leaving.start()
    await staying.start()
    try:
        await asyncio.sleep(0.3)
        leaving_id = next(k for k, p in host.peers.items() if p.seat == leaving.seat)
        closing = asyncio.ensure_future(leaving.close())
        error: BaseException | None = None
        for _ in range(10_000):
            await asyncio.sleep(0)
            if leaving_id not in host.server.session_ids:
                if leaving_id in host.peers:  # ended, not yet handled by the host
                    try:
                        local.chat("hello everyone")
                    except Exception as err:
                        error = err
                break
        await closing
        assert error is None, f"LocalClient.chat raised {error!r}"
        await _next(staying, ChatReceived, lambda e: e.text == "hello everyone")
    finally:
        await staying.close()
        await local.close()
        await host.close()


async def test_a_network_client_reports_its_round_trip_and_a_local_one_none(
    tmp_path: Path,
) -> None:
    # The app turns its card animation off over a slow link: it reads the
    # client's round trip, which only a client across the network has.
    table = make_table(tmp_path, 2, seed=5)
    host = await start_host(table)
    client = make_client(host.address, "ann", tmp_path / "tokens.json")
    try:
        assert client.rtt is None  # nothing measured before the handshake
        await client.start()
        rtt = client.rtt
        assert isinstance(rtt, float) and 0 < rtt < 1.0  # loopback
        local = LocalClient(Table(TableConfig(players=2)), "bob")
        assert local.rtt is None
    finally:
        await client.close()
        await host.close()


async def test_a_host_that_closes_just_after_a_change_sends_nothing_after(tmp_path: Path) -> None:
    """Closing, the host stops watching the table for each session; a
    spectator's going changes the lobby (one fewer watching) for the
    others, whose snapshot, held back as they had one a moment before,
    was sent by a timer after the server had closed: "SessionClosed:
    endpoint is closed" and a traceback in the host's log (a door's
    watchers at a host stopped with SIGTERM)."""
    table = make_table(tmp_path, players=4, seed=73)
    host = await start_host(table, NetConfig())
    watchers = [
        make_client(host.address, f"w{i}", tmp_path / f"w{i}.json", watch=True) for i in range(2)
    ]
    for watcher in watchers:
        await watcher.start()
    failures: list[dict[str, object]] = []  # what the loop's callbacks raised
    asyncio.get_running_loop().set_exception_handler(lambda _, context: failures.append(context))
    try:
        await asyncio.sleep(0.6)  # both watch, and no snapshot is held back
        table.add_bot(None, "greedy")  # a change: every session's snapshot goes now
        await asyncio.sleep(0)
        await host.close()
        await asyncio.sleep(0.5)  # longer than any snapshot is held back
    finally:
        for watcher in watchers:
            await watcher.close()
    assert not failures, failures
