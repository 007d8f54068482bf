"""The thinking pool (bots/pool.py): decisions in worker processes that
ignore Ctrl-C, import no Textual, are replaced when they die and are gone
after close."""

from __future__ import annotations

import ast
import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import textual  # noqa: F401  -- the parent has Textual loaded; the workers must not
from thinking_bots import (
    FailingBot,
    Gate,
    GatedBot,
    InterruptedBot,
    alive,
    decision_key,
    loaded_modules,
)

from threeup_tui.bots import GreedyBot
from threeup_tui.bots.busy import BusyBot
from threeup_tui.bots.pool import ThinkingError, ThinkPool, decide
from threeup_tui.rules import GameState, Options, View, seat_view


def setup_view(seed: int = 4) -> View:
    return seat_view(GameState.new(["a", "b"], Options(), seed), 0, log_length=0)


def play_view(seed: int = 4) -> View:
    state = GameState.new(["a", "b"], Options(), seed)
    for seat in (0, 1):
        cards = GreedyBot(0).choose_face_up(seat_view(state, seat, log_length=0))
        state.choose_face_up_codes(seat, list(cards))
    return seat_view(state, state.seat, log_length=0)


async def test_a_thinking_bot_decides_in_a_worker_as_it_would_here(pool: ThinkPool) -> None:
    bot = BusyBot(7, think_ms=20)
    for view in (setup_view(), play_view()):
        assert await pool.decide(bot, view) == decide(bot, view)
    assert pool.decisions == 2
    pids = pool.worker_pids()
    assert pids and os.getpid() not in pids


async def test_a_cheap_bot_decides_in_the_caller(pool: ThinkPool) -> None:
    view = play_view()
    assert await pool.decide(GreedyBot(1), view) == GreedyBot(1).choose_move(view)
    assert pool.decisions == 0 and pool.worker_pids() == []


async def test_workers_import_the_bots_and_never_textual(pool: ThinkPool) -> None:
    await pool.decide(BusyBot(1, think_ms=1), play_view())
    modules = await asyncio.wrap_future(pool._submit(loaded_modules))
    assert "threeup_tui" in modules
    assert "textual" not in modules and "rich" not in modules and "net" not in modules


async def test_a_worker_ignores_ctrl_c(pool: ThinkPool, gate: Gate) -> None:
    """Ctrl-C in a terminal reaches the whole process group: a worker,
    thinking or idle, neither dies of it nor lets it into the bot."""
    view = play_view()
    key = decision_key(view.seat, view.moves_played)
    thinking = asyncio.ensure_future(pool.decide(GatedBot(1), view))
    await gate.until_thinking(key)
    pid = gate.pid(key)
    os.kill(pid, signal.SIGINT)  # mid-thought
    await asyncio.sleep(0.1)  # (it lands within microseconds of pure-Python thinking)
    gate.open(key)
    assert await thinking == decide(GreedyBot(1), view)
    os.kill(pid, signal.SIGINT)  # idle
    await asyncio.sleep(0.1)
    bot = BusyBot(1, think_ms=1)
    assert await pool.decide(bot, view) == decide(bot, view)
    assert pid in pool.worker_pids() and alive(pid)


def test_every_worker_is_born_with_ctrl_c_blocked(tmp_path: Path) -> None:
    """A Ctrl-C while a worker boots must wait for its handler, never kill it
    with a traceback: the first worker too, started right after
    multiprocessing's resource tracker (a fresh process, so that the
    tracker is started there)."""
    program = f"""
import sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from thinking_bots import started_blocked_slowly
from threeup_tui.bots.pool import ThinkPool
pool = ThinkPool(workers=2)
pool.warm()
calls = [pool._submit(started_blocked_slowly) for _ in range(2)]
print(sorted({{call.result() for call in calls}}))
pool.close()
"""
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    workers = ast.literal_eval(out.strip())
    assert len(workers) == 2 and all(blocked is True for _pid, blocked in workers), workers


async def test_a_bots_error_comes_back_to_the_caller(pool: ThinkPool) -> None:
    with pytest.raises(RuntimeError, match="the failing bot fails"):
        await pool.decide(FailingBot(1, think_ms=1), play_view())


async def test_an_interrupt_inside_a_worker_never_reaches_the_callers_loop(
    pool: ThinkPool,
) -> None:
    with pytest.raises(ThinkingError, match="KeyboardInterrupt"):
        await pool.decide(InterruptedBot(1, think_ms=1), play_view())


async def test_a_worker_that_dies_mid_thought_is_replaced(pool: ThinkPool, gate: Gate) -> None:
    view = play_view()
    thinking = asyncio.ensure_future(pool.decide(GatedBot(1), view))
    key = decision_key(view.seat, view.moves_played)
    await gate.until_thinking(key)
    os.kill(gate.pid(key), signal.SIGKILL)
    with pytest.raises(ThinkingError):
        await thinking
    bot = BusyBot(1, think_ms=1)
    assert await pool.decide(bot, view) == decide(bot, view)  # a fresh worker
    assert gate.pid(key) not in pool.worker_pids()


async def test_a_decision_past_its_time_out_fails_and_its_worker_goes(
    pool: ThinkPool, gate: Gate
) -> None:
    view = play_view()
    key = decision_key(view.seat, view.moves_played)
    # A worker up first: the time-out counts from the call, and a worker
    # spawned on a loaded machine (CI beside other jobs) took over a second
    # to begin, so the gated bot had not written its pid when it ran out.
    await pool.decide(BusyBot(1, think_ms=1), view)
    with pytest.raises(ThinkingError, match="no decision within"):
        await pool.decide(GatedBot(1), view, timeout=2.0)
    pid = gate.pid(key)
    for _ in range(100):
        if not alive(pid):
            break
        await asyncio.sleep(0.02)
    assert not alive(pid) and not gate.decided(key)


async def test_no_worker_outlives_close_even_one_that_is_thinking(
    pool: ThinkPool, gate: Gate
) -> None:
    view = play_view()
    key = decision_key(view.seat, view.moves_played)
    busy = BusyBot(1, think_ms=300)
    # Two decisions at once: two workers, one of them gated for ever.
    thinking = asyncio.ensure_future(pool.decide(GatedBot(1), view))
    other = asyncio.ensure_future(pool.decide(busy, view))
    await gate.until_thinking(key)
    await other
    pids = pool.worker_pids()
    assert len(pids) == 2
    await pool.aclose(grace=0.2)
    assert not any(alive(pid) for pid in pids)
    assert not gate.decided(key)  # terminated mid-thought, not waited for
    with pytest.raises(ThinkingError):
        await thinking


async def test_decisions_waiting_when_the_pool_restarts_fail_and_never_cancel_their_callers(
    gate: Gate,
) -> None:
    """A decision that overruns its time-out restarts the pool under the
    decisions still queued behind it (another seat's, a hint): each of them
    fails as a ThinkingError, which its caller handles (a fallback move),
    never as a cancellation of a caller nobody cancelled, which would end
    a table's runner or a bot seat for good."""
    pool = ThinkPool(workers=1)
    try:
        view = play_view()
        stuck = asyncio.ensure_future(pool.decide(GatedBot(1), view, timeout=1.0))
        queued = [
            asyncio.ensure_future(pool.decide(BusyBot(seed, think_ms=50), view))
            for seed in range(4)  # more than the executor hands its workers at once
        ]
        outcomes = await asyncio.gather(stuck, *queued, return_exceptions=True)
        assert all(isinstance(outcome, ThinkingError) for outcome in outcomes), outcomes
        bot = BusyBot(1, think_ms=1)
        assert await pool.decide(bot, view) == decide(bot, view)  # afresh
    finally:
        pool.close()


async def test_a_decision_failing_with_the_old_workers_leaves_the_new_ones_alone(
    gate: Gate,
) -> None:
    """A time-out restarts the pool; a decision that was queued on the old
    workers fails a moment later, when they are gone.  That failure must not
    restart the pool again under a decision already made on the new
    workers (it would fail too, and its caller would fall back to greedy)."""
    pool = ThinkPool(workers=1)
    try:
        view = play_view()
        stuck = asyncio.ensure_future(pool.decide(GatedBot(1), view, timeout=1.0))
        queued = asyncio.ensure_future(pool.decide(BusyBot(2, think_ms=50), view))
        with pytest.raises(ThinkingError, match="no decision within"):
            await stuck
        bot = BusyBot(3, think_ms=300)
        afresh = asyncio.ensure_future(pool.decide(bot, view))  # on the new workers
        with pytest.raises(ThinkingError):
            await queued
        assert await afresh == decide(bot, view)
    finally:
        pool.close()


async def test_workers_that_died_idle_are_replaced_before_the_next_decision() -> None:
    """Workers killed between decisions (the OOM killer, a `kill`) leave the
    executor refusing all work: the next decision, and the warm-up of the
    next game, start fresh workers instead of failing for ever (the app
    said "Could not play: ... the process pool is not usable anymore" to
    every new game against experts, and every bot move was greedy's)."""
    pool = ThinkPool()
    try:
        view = play_view()
        bot = BusyBot(1, think_ms=1)
        await pool.decide(bot, view)
        executor = pool._executor
        dead = pool.worker_pids()
        for pid in dead:
            os.kill(pid, signal.SIGKILL)
        for _ in range(500):  # until the executor has noticed (it marks itself broken)
            if getattr(executor, "_broken", False):
                break
            await asyncio.sleep(0.01)
        assert getattr(executor, "_broken", False)
        pool.warm()  # a new game's runner warms the pool first
        assert await pool.decide(bot, view) == decide(bot, view)
        assert pool.worker_pids() and not set(pool.worker_pids()) & set(dead)
    finally:
        pool.close()
