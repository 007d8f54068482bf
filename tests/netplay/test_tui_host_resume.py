"""A table hosted from the app (``Launcher.host``: the host plays in this
process, guests over loopback) stopped mid-game and hosted again from its
journal: the host sits in its own seat again, the guest gets its seat back
with its token, and the game goes on to a record that verifies.  Resumed
by a headless host instead, the app's player gets their seat back with
``threeup join``."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import replace
from pathlib import Path

import pytest
from netplay_support import (
    LOOPBACK,
    ClientLog,
    free_udp_port,
    make_client,
    play_bot,
    start_host_process,
)
from waiting import until

from threeup_tui.bots import make_bot
from threeup_tui.client import TableClient
from threeup_tui.client.botseat import BotSeat
from threeup_tui.client.events import ViewChanged
from threeup_tui.launcher import HostedClient, HostSettings, Launcher
from threeup_tui.recordfile import load_record
from threeup_tui.rules import verify


async def play_seat(client: TableClient, seed: int) -> None:
    """The host's own seat, played by a bot from its views until the end."""
    seat = BotSeat(client, make_bot("greedy", seed))
    while True:
        event = await client.next_event()
        if isinstance(event, ViewChanged):
            if event.view.phase == "over":
                return
            seat.on_view(event.view)


async def test_a_tui_host_resumed_from_its_journal_plays_on_in_its_own_seat(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "table.json"
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0.0
    settings = HostSettings(
        players=3, bots=1, name="hostess", seed=9, port=free_udp_port(), bind="127.0.0.1",
        journal=journal, takeover_after=600,
    )  # fmt: skip
    host = await launcher.host(settings)
    assert isinstance(host, HostedClient) and host.address is not None
    guest = make_client(host.address, "guest", tmp_path / "guest-tokens")
    tasks = [
        asyncio.ensure_future(play_seat(host, 1)),
        asyncio.ensure_future(play_bot(guest, ClientLog("guest"), seed=2)),
    ]
    try:
        await until(
            lambda: all(seat.kind != "open" for seat in host.table.seats), "every seat taken"
        )
        host.start_game()  # the lobby's Start button
        await until(
            lambda: host.table.state is not None and len(host.table.state.history) >= 8,
            "eight moves played",
        )
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
    host_seat, guest_seat = host.seat, guest.seat
    await guest.close()
    await host.close()
    made = len(load_record(journal).moves)
    assert made >= 8

    # The same port: a guest's token is kept per table address.
    again = await launcher.host(replace(settings, resume=journal))
    assert isinstance(again, HostedClient) and again.address is not None
    assert again.seat == host_seat == 0
    assert again.table.seats[0].name == "hostess"
    state = again.table.state
    assert state is not None and len(state.history) == made  # no move lost
    back = make_client(again.address, "guest", tmp_path / "guest-tokens")
    log = ClientLog("guest")
    try:
        await asyncio.wait_for(
            asyncio.gather(play_seat(again, 1), play_bot(back, log, seed=2)), timeout=60
        )
    finally:
        await back.close()
        await again.close()
    assert log.seat == guest_seat  # the token gave the guest its seat back
    record = load_record(journal)
    assert len(record.moves) > made
    verdict = verify(record.to_json())
    assert verdict.ok and verdict.finished


@pytest.mark.parametrize("code", [None, "pizza"])
async def test_an_app_tables_host_player_gets_their_seat_back_from_a_headless_resume(
    tmp_path: Path, code: str | None
) -> None:
    """The app's player has no app in a headless host, and their token was
    only in the table file: the headless host keeps it for a join from this
    account and says the command.  A table with a room code asks for it of
    a returning player too, so the command says to give it (without
    printing it in the log)."""
    journal = tmp_path / "table.json"
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0.0
    settings = HostSettings(
        players=2, bots=1, name="Hostess Ann", seed=9, port=free_udp_port(), bind=LOOPBACK,
        journal=journal, takeover_after=600, code=code,
    )  # fmt: skip
    host = await launcher.host(settings)
    assert isinstance(host, HostedClient) and host.address is not None
    task = asyncio.ensure_future(play_seat(host, 1))
    try:
        host.start_game()
        await until(
            lambda: host.table.state is not None and len(host.table.state.history) >= 6,
            "six moves played after the resume",
        )
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert await host.stop() is not None  # Ctrl-Q mid-game: the table may resume
    made = len(load_record(journal).moves)

    headless = start_host_process(
        tmp_path, players=2, bots=1, seed=9, record=journal, resume=journal, games=None
    )
    try:
        port = headless.port
        assert port == settings.port
        give_code = " --code CODE" if code else ""
        said = f"`threeup join {LOOPBACK}:{port} --name 'Hostess Ann'{give_code}`"
        assert said in headless.stderr()
        if code is not None:
            assert code not in headless.stderr()  # the log names the code, never shows it
        # Kept with the seat it holds, as a join's ACCEPT keeps it: the seat a
        # spectator of this account is offered back is this one.
        kept = json.loads((tmp_path / "host-state" / "seats.json").read_text())
        (table,) = kept["tables"].values()
        assert table["seats"] == {"hostess ann": 0}
        back = make_client(
            (LOOPBACK, port), "Hostess Ann", tmp_path / "host-state" / "seats.json", code=code
        )
        log = ClientLog("Hostess Ann")
        try:
            await asyncio.wait_for(play_bot(back, log, seed=1), timeout=60)
        finally:
            await back.close()
    finally:
        headless.kill()
    assert log.seat == 0  # the host's own seat, not "the table is full"
    record = load_record(journal)
    assert len(record.moves) > made
    assert any(move.seat == 0 for move in record.moves[made:])
