"""D17: an absent player's seat waits, then a bot plays it until they return."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from netplay_support import (
    ClientLog,
    make_client,
    make_table,
    play_bot,
    run_table,
    start_bot_process,
    start_host,
    stop_runner,
    table_record,
    verify_record,
)

from threeup_tui.netplay.client import CLIENT_NET


async def test_a_bot_plays_for_an_absent_player_until_they_return(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=2, seed=5, bots=1, takeover_after=0.5)
    # Once her seat's bot takes over, both seats are bots: without a pause
    # between their moves the game could end between two looks below, and
    # Ann would come back to a finished game (it did once, on a busy CI runner).
    table.config.bot_delay = 0.05
    runner = await run_table(table)
    host = await start_host(table)
    tokens = tmp_path / "tokens.json"
    try:
        ann = make_client(host.address, "ann", tokens)
        log = ClientLog("ann")
        # Play until Ann's second turn, then leave without a word.
        turns = 0

        def second_turn(view: object) -> bool:
            nonlocal turns
            turns += 1
            return turns >= 2

        await asyncio.wait_for(play_bot(ann, log, until=second_turn), 30)
        seat = log.seat
        assert seat is not None
        moves_when_left = len(table.state.history)  # type: ignore[union-attr]
        await ann.close()
        # The seat waits: nothing is played for Ann before the time-out...
        for _ in range(400):  # up to 20 s (the time-out is 0.5 s; a busy machine is slower)
            if table.seats[seat].bot is not None:
                break
            await asyncio.sleep(0.05)
        assert table.seats[seat].kind == "human" and table.seats[seat].bot is not None
        lobby = table.lobby()
        assert lobby.seats[seat].bot_level == "greedy" and not lobby.seats[seat].connected
        # ...and then the bot moves for her.
        for _ in range(400):  # up to 20 s
            mine = [e for e in table.state.history[moves_when_left:] if e[0] == seat]  # type: ignore[union-attr]
            if mine or table.state.over:  # type: ignore[union-attr]
                break
            await asyncio.sleep(0.05)
        assert mine and not table.state.over  # type: ignore[union-attr]
        table.config.bot_delay = 0.0  # the rest of the game at full speed
        # Ann comes back with her token: her seat, and the bot steps aside.
        back = make_client(host.address, "ann", tokens)
        back_log = ClientLog("ann-again")
        await asyncio.wait_for(play_bot(back, back_log), 60)
        assert back_log.seat == seat
        assert table.seats[seat].bot is None and table.seats[seat].connected
        assert back_log.submitted  # she played again herself
        await back.close()
        assert table.state.over  # type: ignore[union-attr]
        verify_record(table_record(table))
    finally:
        await host.close()
        await stop_runner(runner)


async def test_a_terminal_that_wakes_after_a_take_over_leaves_the_seat_alone(
    tmp_path: Path,
) -> None:
    """A client stopped (SIGSTOP, a suspended laptop) while the player took
    the seat over from another terminal wakes to overdue timers with the
    host's CLOSE waiting unread.  It once judged the host silent first,
    reconnected, and took the seat back from the newer terminal."""
    table = make_table(tmp_path, players=2, seed=7, bots=1)
    runner = await run_table(table)
    host = await start_host(table)
    state = tmp_path / "cy-state"
    old = start_bot_process(tmp_path, host.address[1], "cy", state, level="expert")
    new = None
    try:
        for _ in range(200):
            if any(s.name == "cy" and s.connected for s in table.lobby().seats):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"cy never sat down: {old.stderr()}")
        seat = next(i for i, s in enumerate(table.seats) if s.name == "cy")
        token = table.seats[seat].token
        assert token is not None
        # Seated on the host is not yet kept by the client: stopped before it
        # writes its token, the account would have no seat to take over.
        for _ in range(200):
            if (state / "seats.json").exists() and token in (state / "seats.json").read_text():
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"cy's token was never kept: {old.stderr()}")
        before = host._seat_owner.get(seat)
        old.popen.send_signal(signal.SIGSTOP)
        new = start_bot_process(tmp_path, host.address[1], "cy", state, level="expert")
        for _ in range(600):  # a fresh interpreter may take a while on a busy machine
            if host._seat_owner.get(seat) not in (None, before):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"the new terminal never took the seat: {new.stderr()}")
        await asyncio.sleep(CLIENT_NET.idle_timeout + 1.5)  # the old one's clocks run out
        assert "taken over" not in new.stderr()
        old.popen.send_signal(signal.SIGCONT)
        for _ in range(600):
            if old.popen.poll() is not None:
                break
            await asyncio.sleep(0.05)
        assert "your seat was taken over from another terminal" in old.stderr()
        # The newer terminal keeps the seat: no CLOSE comes to it.
        await asyncio.sleep(2.0)
        assert new.popen.poll() is None and "taken over" not in new.stderr(), new.stderr()
    finally:
        old.popen.send_signal(signal.SIGCONT)
        old.kill()
        if new is not None:
            new.kill()
        await stop_runner(runner)
        await host.close()
