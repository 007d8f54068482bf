"""Whole in-process games whose clients reach the host through the seeded
impairment proxy (loss, duplication, reordering): every game completes, and
the host's record matches what every client saw and did."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from pathlib import Path

import pytest
from netplay_support import (
    ClientLog,
    check_client_against_record,
    expected_views,
    make_client,
    make_table,
    play_bot,
    run_table,
    start_host,
    stop_runner,
    table_record,
    verify_record,
)

from net import Impairment, ImpairmentProxy, NetConfig
from threeup_tui.client.events import ChatReceived
from threeup_tui.rules import View

# Quick retransmissions and heartbeats; generous idle timeouts so a bad
# streak of losses does not end a session.
HOST_NET = NetConfig(
    idle_timeout=8.0, heartbeat_interval=0.5, initial_rto=0.05, min_rto=0.03, max_rto=0.4
)
CLIENT_NET = NetConfig(
    idle_timeout=8.0,
    heartbeat_interval=0.5,
    initial_rto=0.05,
    min_rto=0.03,
    max_rto=0.4,
    connect_timeout=10.0,
    handshake_initial_retry=0.05,
)


async def _impaired_game(
    tmp_path: Path, loss: float, seed: int, clients: int, bots: int, spectators: int = 1
) -> None:
    players = clients + bots
    table = make_table(tmp_path, players, seed, bots)
    host = await start_host(table, HOST_NET)
    runner = await run_table(table)
    impairment = Impairment(loss_to_server=loss, loss_to_client=loss, duplicate=0.05, reorder=0.05)
    proxy = await ImpairmentProxy.start(host.address, impairment, seed=seed)
    net_clients = []
    logs = []
    try:
        for i in range(clients + spectators):
            watch = i >= clients
            name = f"watcher{i}" if watch else f"player{i}"
            net_clients.append(
                make_client(
                    proxy.address,
                    name,
                    tmp_path / f"tokens-{i}.json",
                    watch=watch,
                    config=CLIENT_NET,
                )
            )
            logs.append(ClientLog(name))
        started = time.monotonic()
        await asyncio.wait_for(
            asyncio.gather(
                *(
                    play_bot(c, log, seed=seed + i)
                    for i, (c, log) in enumerate(zip(net_clients, logs, strict=True))
                )
            ),
            timeout=50,
        )
        elapsed = time.monotonic() - started
        assert table.state is not None and table.state.phase.name == "OVER"
        record = table_record(table)
        verify_record(record)
        expected = expected_views(record)
        seats = sorted(log.seat for log in logs if log.seat is not None)
        assert len(seats) == clients and len(set(seats)) == clients
        for log in logs:
            check_client_against_record(log, record, expected)
        for log in logs[clients:]:
            assert log.seat is None and not log.submitted
            assert all(v.hand == () and v.legal == () for v in log.views)
        # The impairment really happened, both ways.
        for direction in (proxy.to_server, proxy.to_client):
            assert direction.dropped > 0 and direction.duplicated > 0
            assert direction.reordered > 0
            if direction.received > 300:
                assert abs(direction.dropped / direction.received - loss) < 0.1
        stats = host.server.stats
        assert stats.retransmissions > 0
        print(
            f"loss {loss:.0%}: {len(record.moves)} moves in {elapsed:.1f} s, "
            f"host retransmissions {stats.retransmissions}, "
            f"proxy dropped {proxy.to_server.dropped}+{proxy.to_client.dropped}, "
            f"reconnects {[c.reconnects for c in net_clients]}"
        )
    finally:
        for client in net_clients:
            await _bounded(client.close(), f"closing {client.name}")
        await _bounded(proxy.stop(), "stopping the proxy")
        await _bounded(stop_runner(runner), "stopping the table runner")
        await _bounded(host.close(), "closing the host")


async def _bounded(aw: Awaitable[None], what: str, timeout: float = 10.0) -> None:
    try:
        await asyncio.wait_for(aw, timeout)
    except TimeoutError:
        raise AssertionError(f"{what} took more than {timeout} s") from None


@pytest.mark.parametrize(("loss", "seed"), [(0.10, 101), (0.30, 303)])
async def test_game_completes_through_loss_duplication_and_reordering(
    tmp_path: Path, loss: float, seed: int
) -> None:
    started = time.monotonic()
    await _impaired_game(tmp_path, loss, seed, clients=3, bots=1)
    assert time.monotonic() - started < 60


async def test_two_player_game_at_30_percent_loss_without_host_bots(tmp_path: Path) -> None:
    started = time.monotonic()
    await _impaired_game(tmp_path, 0.30, 77, clients=2, bots=0, spectators=0)
    assert time.monotonic() - started < 60


RECONNECT_NET = NetConfig(
    idle_timeout=1.5,
    heartbeat_interval=0.3,
    connect_timeout=1.0,
    initial_rto=0.05,
    min_rto=0.03,
    max_rto=0.4,
)


@pytest.mark.parametrize("cut", ["both", "to_client"])
async def test_a_link_cut_right_after_a_move_loses_and_doubles_nothing(
    tmp_path: Path, cut: str
) -> None:
    """The link of one client is cut right after it sent a move: with
    ``both`` the move never arrives and is re-sent after the reconnect; with
    ``to_client`` it is applied but the client never hears of it, so the
    re-sent copy after the reconnect must be recognised as stale."""
    table = make_table(tmp_path, 3, 909, bots=1)
    host = await start_host(table, HOST_NET)
    runner = await run_table(table)
    proxies = [
        await ImpairmentProxy.start(host.address, Impairment(), seed=909 + i) for i in range(2)
    ]
    clients = [
        make_client(p.address, f"player{i}", tmp_path / f"t{i}.json", config=RECONNECT_NET)
        for i, p in enumerate(proxies)
    ]
    logs = [ClientLog(f"player{i}") for i in range(2)]
    loop = asyncio.get_running_loop()
    cut_at: list[int] = []

    def restore() -> None:
        proxies[0].impairment = Impairment()

    def maybe_cut(view: View) -> None:
        if cut_at or view.moves_played < 10:
            return
        cut_at.append(view.moves_played)
        loss_to_server = 1.0 if cut == "both" else 0.0
        proxies[0].impairment = Impairment(loss_to_server=loss_to_server, loss_to_client=1.0)
        loop.call_later(2.5, restore)

    try:
        await asyncio.wait_for(
            asyncio.gather(
                play_bot(clients[0], logs[0], seed=1, after_submit=maybe_cut),
                play_bot(clients[1], logs[1], seed=2),
            ),
            timeout=40,
        )
        assert cut_at, "the game ended before the cut"
        assert clients[0].reconnects >= 1
        assert any(c.state == "reconnecting" for c in logs[0].connection)
        record = table_record(table)
        verify_record(record)
        expected = expected_views(record)
        for log in logs:
            check_client_against_record(log, record, expected)
        # The move sent just before the cut is in the record exactly once.
        seat = logs[0].seat
        assert record.moves[cut_at[0]].seat == seat
        if cut == "to_client":
            assert host.stats.stale_moves >= 1, "the re-sent move was not seen as stale"
        assert table.seats[seat].kind == "human" and table.seats[seat].bot is None
    finally:
        for client in clients:
            await _bounded(client.close(), f"closing {client.name}")
        for proxy in proxies:
            await _bounded(proxy.stop(), "stopping a proxy")
        await _bounded(stop_runner(runner), "stopping the table runner")
        await _bounded(host.close(), "closing the host")


async def test_a_reconnect_repeats_no_chat_line_and_misses_none(tmp_path: Path) -> None:
    """Every session begins with the table's recent chat lines: after a
    reconnect the client passes on only those it has not shown, such as a
    line said while its link was down, and each line once."""
    table = make_table(tmp_path, 3, 911, bots=1)
    host = await start_host(table, HOST_NET)
    runner = await run_table(table)
    proxy = await ImpairmentProxy.start(host.address, Impairment(), seed=911)
    ann = make_client(proxy.address, "ann", tmp_path / "ann.json", config=RECONNECT_NET)
    bob = make_client(host.address, "bob", tmp_path / "bob.json", config=CLIENT_NET)
    heard: list[tuple[str, str]] = []

    async def ann_hears(text: str) -> None:
        while (event := await ann.next_event()) is not None:
            if isinstance(event, ChatReceived):
                heard.append((event.name, event.text))
                if event.text == text:
                    return

    try:
        await ann.start()
        await bob.start()
        ann.chat("hello all")
        await asyncio.wait_for(ann_hears("hello all"), 10)
        proxy.impairment = Impairment(loss_to_server=1.0, loss_to_client=1.0)
        await asyncio.sleep(0.3)
        bob.chat("brb")  # ann's link is down: she hears it only after she is back
        await asyncio.sleep(2.5)
        proxy.impairment = Impairment()
        await asyncio.wait_for(ann_hears("brb"), 15)
        bob.chat("back")
        await asyncio.wait_for(ann_hears("back"), 10)
        assert ann.reconnects >= 1
        said = [line for line in heard if line[0] != "table"]
        assert said == [("ann", "hello all"), ("bob", "brb"), ("bob", "back")], heard
        table_lines = [text for name, text in heard if name == "table"]
        assert len(table_lines) == len(set(table_lines)), heard  # none twice
        assert "ann sat down at seat 2" in table_lines and "bob sat down at seat 3" in table_lines
    finally:
        for client in (ann, bob):
            await _bounded(client.close(), f"closing {client.name}")
        await _bounded(proxy.stop(), "stopping the proxy")
        await _bounded(stop_runner(runner), "stopping the table runner")
        await _bounded(host.close(), "closing the host")
