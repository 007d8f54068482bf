"""Bots that think while the table goes on: TableRunner and BotSeat.

A decision arrives a while after it was asked for.  The table makes it only
if nothing has moved on meanwhile, so a returning player's own move always
wins; and the event loop runs the whole time.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from thinking_bots import Gate, GatedBot, alive, decision_key
from waiting import until

from threeup_tui.bots import BOT_LEVELS, ExpertBot, GreedyBot
from threeup_tui.bots.busy import BusyBot
from threeup_tui.bots.pool import ThinkPool, decide, thinks
from threeup_tui.client.botseat import BotSeat
from threeup_tui.client.local import bot_game
from threeup_tui.rules import GameState, Move, Options, View, seat_view
from threeup_tui.table import BotRequest, Table, TableConfig, TableRunner


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def ann_to_move(level: str = "greedy") -> tuple[Table, str, Clock]:
    """Ann (seat 1) against a greedy bot, the game on and Ann to move."""
    clock = Clock()
    table = Table(TableConfig(players=2, seed=5, bot_level=level, takeover_after=30), clock)
    _seat, token = table.seat_human("ann")
    table.add_bot(None, "greedy")
    table.start(None)
    state = table.state
    assert state is not None
    table.choose_face_up(0, GreedyBot(0).choose_face_up(seat_view(state, 0)))
    while table.step_bot():  # the bot's set-up, and its moves until Ann's turn
        pass
    assert state.seat == 0
    return table, token, clock


def take_over_ann(table: Table, clock: Clock) -> None:
    table.disconnect(0)
    clock.now += 31
    table.check_takeovers()
    assert table.seats[0].bot is not None


def ann_moves(table: Table) -> Move:
    state = table.state
    assert state is not None
    move = GreedyBot(9).choose_move(seat_view(state, 0))
    table.submit(0, move)
    return move


def test_the_take_over_bot_is_the_tables_level_and_thinks_off_the_loop_if_expert() -> None:
    table, _token, clock = ann_to_move(level="expert")
    take_over_ann(table, clock)
    bot = table.seats[0].bot
    assert isinstance(bot, ExpertBot) and thinks(bot)
    said = [line.text for line in table.chat_log]
    assert "an expert bot plays seat 1 for ann until they return" in said


def test_a_decision_is_dropped_when_the_player_came_back_and_moved_meanwhile() -> None:
    table, token, clock = ann_to_move()
    take_over_ann(table, clock)
    request = table.bot_request()
    assert request is not None and request.seat == 0
    decision = decide(request.bot, request.view)  # however long this took...
    table.seat_human("ann", token)  # ...Ann came back
    ann_moves(table)
    state = table.state
    assert state is not None
    moves = len(state.history)
    assert not table.apply_bot_decision(request, decision)
    assert len(state.history) == moves  # nothing made for Ann, nor for the seat now to act


def test_a_decision_is_dropped_once_the_player_is_back_even_before_they_move() -> None:
    table, token, clock = ann_to_move()
    take_over_ann(table, clock)
    request = table.bot_request()
    assert request is not None
    table.seat_human("ann", token)
    assert not table.apply_bot_decision(request, decide(request.bot, request.view))
    assert table.bot_turn() is None  # Ann's own turn, hers to play
    ann_moves(table)


def test_a_decision_still_standing_is_made() -> None:
    table, _token, clock = ann_to_move()
    take_over_ann(table, clock)
    request = table.bot_request()
    assert request is not None
    state = table.state
    assert state is not None
    moves = len(state.history)
    assert table.apply_bot_decision(request, decide(request.bot, request.view))
    assert len(state.history) == moves + 1


async def test_the_runner_drops_the_take_over_bots_move_when_the_player_moved_first(
    gate: Gate, pool: ThinkPool
) -> None:
    table, token, clock = ann_to_move(level="gated")
    made: list[tuple[int, bool]] = []
    apply = table.apply_bot_decision

    def recording(request: BotRequest, decision: object) -> bool:
        ok = apply(request, decision)  # type: ignore[arg-type]
        made.append((request.seat, ok))
        return ok

    table.apply_bot_decision = recording  # type: ignore[method-assign]
    runner = TableRunner(table, pool)
    runner.start()
    try:
        state = table.state
        assert state is not None
        at = len(state.history)
        key = decision_key(0, at)
        take_over_ann(table, clock)
        table.changed.set()
        await gate.until_thinking(key)  # the take-over bot thinks for Ann...
        table.seat_human("ann", token)  # ...and she is back, and moves first
        mine = ann_moves(table)
        gate.open(key)
        await until(lambda: made, what="the take-over bot's decision")
        assert made[0] == (0, False)
        assert state.history[at][0] == 0 and len(state.history) > at
        assert table.seats[0].bot is None
        assert mine.seat == 0
    finally:
        await runner.stop()


async def test_the_event_loop_runs_while_a_bot_thinks(gate: Gate, pool: ThinkPool) -> None:
    table = Table(TableConfig(players=2, seed=3, bot_level="gated", auto_start=True))
    table.add_bot(None, "gated")
    table.add_bot(None, "gated")
    runner = TableRunner(table, pool)
    runner.start()
    try:
        await gate.until_thinking("0-setup")
        ticks = 0
        for _ in range(20):  # other work on the loop goes on, turn after turn
            await asyncio.sleep(0.001)
            ticks += 1
        assert ticks == 20
        state = table.state
        assert state is not None
        assert not gate.decided("0-setup") and state.setup[0] is None
        gate.open("0-setup")
        await until(lambda: state.setup[0] is not None, what="the bot's face-up cards")
    finally:
        await runner.stop()


async def test_a_bot_that_fails_in_its_worker_does_not_stall_the_table(
    gate: Gate, pool: ThinkPool
) -> None:
    table = Table(TableConfig(players=2, seed=8, bot_level="failing", auto_start=True))
    table.add_bot(None, "failing")
    table.add_bot(None, "failing")
    runner = TableRunner(table, pool)
    runner.start()
    try:
        await until(
            lambda: table.state is not None and len(table.state.history) >= 6,
            what="six moves made for the failing bots",
        )
    finally:
        await runner.stop()


async def test_a_bot_seat_sends_a_thinking_bots_decision_for_the_view_it_was_made_on(
    gate: Gate, pool: ThinkPool
) -> None:
    client = bot_game(players=2, seed=5, name="ann", bot_delay=0.0)
    sent: list[object] = []
    client.submit = sent.append  # type: ignore[method-assign,assignment]
    client.choose_face_up = sent.append  # type: ignore[method-assign,assignment]
    await client.start()
    seat = BotSeat(client, GatedBot(1), pool)
    try:
        table = client.table
        state = table.state
        assert state is not None
        setup = seat_view(state, 0)
        seat.on_view(setup)
        seat.on_view(setup)  # the same view again: still one thought
        await gate.until_thinking("0-setup")
        assert sent == []
        gate.open("0-setup")
        await until(lambda: sent, what="the face-up choice")
        assert sent == [GreedyBot(1).choose_face_up(setup)]
        assert not seat.thinking

        table.choose_face_up(0, sent[0])  # type: ignore[arg-type]
        while not (view := seat_view(state, 0)).my_turn:
            assert table.step_bot()
        seat.on_view(view)
        key = decision_key(0, view.moves_played)
        await gate.until_thinking(key)
        # The table moves on without the bot (say the host's turn timer
        # played for the seat) and the seat is told before its bot answers.
        table.submit(0, GreedyBot(2).choose_move(view))
        seat.on_view(seat_view(state, 0))
        gate.open(key)
        await until(lambda: not seat.thinking, what="the bot's stale decision")
        assert len(sent) == 1  # dropped: not sent for a view that is gone
    finally:
        await seat.stop()
        await client.close()


async def test_a_table_plays_on_when_the_pool_restarts_under_its_bots_waiting_decision(
    gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another caller's decision (a hint, another table's bot) overruns its
    time-out, and the pool restarts while this table's bot waits its turn
    for a worker: the table goes on (greedy's move for the dropped decision)."""
    monkeypatch.setitem(BOT_LEVELS, "busy", BusyBot)
    pool = ThinkPool(workers=1)
    table = Table(TableConfig(players=2, seed=3, auto_start=True, think_ms=20))
    runner = TableRunner(table, pool)
    try:
        elsewhere = view_of_another_game(seed=9)
        await pool.decide(BusyBot(0, think_ms=1), elsewhere)  # the worker is up
        stuck = asyncio.ensure_future(pool.decide(GatedBot(1), elsewhere, timeout=1.0))
        await gate.until_thinking(decision_key(elsewhere.seat, elsewhere.moves_played))
        ahead = [
            asyncio.ensure_future(pool.decide(BusyBot(seed, think_ms=50), elsewhere))
            for seed in range(3)
        ]
        table.add_bot(None, "busy")
        table.add_bot(None, "busy")  # the game starts; its first decision queues
        runner.start()
        await asyncio.gather(stuck, *ahead, return_exceptions=True)  # the pool restarted
        await until(
            lambda: table.state is not None and len(table.state.history) >= 6,
            what="six moves made after the pool restarted",
        )
    finally:
        await runner.stop()
        pool.close()


def view_of_another_game(seed: int) -> View:
    """A view of a game of its own (the other caller's)."""
    state = GameState.new(["a", "b"], Options(), seed)
    for seat in (0, 1):
        state.choose_face_up_codes(seat, list(GreedyBot(0).choose_face_up(seat_view(state, seat))))
    return seat_view(state, state.seat)


async def test_leaving_a_game_ends_a_long_thought_its_bot_was_thinking(
    gate: Gate, pool: ThinkPool
) -> None:
    """A game left (the runner stopped) while its bot thinks with a long
    budget: the worker does not go on burning a core for the rest of the
    thought; the next game's bot gets a fresh worker."""
    table = Table(
        TableConfig(players=2, seed=3, bot_level="gated", auto_start=True, think_ms=20_000)
    )
    table.add_bot(None, "gated")
    table.add_bot(None, "gated")
    runner = TableRunner(table, pool)
    runner.start()
    await gate.until_thinking("0-setup")
    worker = gate.pid("0-setup")
    await runner.stop()  # the player leaves the game
    await until(lambda: not alive(worker), timeout=10, what="the abandoned thought to end")
    assert not gate.decided("0-setup")
    bot = BusyBot(1, think_ms=1)
    view = view_of_another_game(seed=2)
    assert await pool.decide(bot, view) == decide(bot, view)


async def test_a_short_thought_given_up_keeps_its_worker(gate: Gate, pool: ThinkPool) -> None:
    """Giving up a decision of the usual budget costs no worker: it would
    end sooner than a new worker starts."""
    view = view_of_another_game(seed=2)
    key = decision_key(view.seat, view.moves_played)
    thinking = asyncio.ensure_future(pool.decide(GatedBot(1, think_ms=250), view))
    await gate.until_thinking(key)
    worker = gate.pid(key)
    thinking.cancel()
    await asyncio.gather(thinking, return_exceptions=True)
    gate.open(key)
    await until(lambda: gate.decided(key), what="the given-up decision")
    bot = BusyBot(1, think_ms=1)
    assert await pool.decide(bot, view) == decide(bot, view)
    assert worker in pool.worker_pids()


def bot_to_make_a_forced_move(think_ms: int) -> Table:
    """Ann against an expert bot (seat 2), played greedily by hand until the
    bot's turn comes with one legal action."""
    for seed in range(40):
        table = Table(TableConfig(players=2, seed=seed, bot_level="expert", think_ms=think_ms))
        table.seat_human("ann")
        table.add_bot(None, "expert")
        table.start(None)
        state = table.state
        assert state is not None
        greedy = GreedyBot(seed)
        for i in (0, 1):
            table.choose_face_up(i, greedy.choose_face_up(seat_view(state, i)))
        while not state.over:
            view = seat_view(state, state.seat)
            if state.seat == 1 and len(view.legal) == 1:
                return table
            table.submit(state.seat, greedy.choose_move(view))
    raise AssertionError("no forced move for the bot in 40 deals")


@pytest.mark.parametrize("budget", ["think_ms", "iterations"])
async def test_a_thinking_bots_forced_move_is_made_when_a_whole_thought_would_end(
    budget: str,
) -> None:
    """An expert answers at once when only one action is legal, and whether
    it has a choice depends on its hidden hand: made at once (a dedicated
    host has no bot_delay), a forced move told everyone watching that the
    bot's other cards could not go.  The table makes it when the bot's
    budget would have ended; a budget of iterations (tests) is not timed."""
    table = bot_to_make_a_forced_move(think_ms=400)
    bot = table.seats[1].bot
    assert isinstance(bot, ExpertBot)
    if budget == "iterations":
        bot.iterations = 50
    request = table.bot_request()
    assert request is not None and request.seat == 1
    runner = TableRunner(table, ThinkPool(mode="inline"))
    started = time.monotonic()
    await runner._play(request)
    took = time.monotonic() - started
    assert table.state is not None and len(table.state.history) == request.moves + 1
    if budget == "think_ms":
        assert took >= 0.4
    else:
        assert took < 0.2
