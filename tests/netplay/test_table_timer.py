"""The turn timer, in the table itself, on a clock the test moves.

A connected player who does not act in time gets the seat's bot for that
one action (a discard, or the face-up choice at set-up), a TurnClock to
count down from and a Notice afterwards; three in a row mark the seat away
until the player does anything.  The clock is the host's: a reconnect does
not reset it, and a resume gives it back.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest

from threeup_tui.bots import make_bot
from threeup_tui.cli import build_parser
from threeup_tui.client.events import Event, Notice, TurnClock
from threeup_tui.client.local import bot_game
from threeup_tui.hostargs import resume_overrides
from threeup_tui.limits import RESUME_GRACE
from threeup_tui.rules import Phase, seat_view
from threeup_tui.rules.cards import CODES, card_label
from threeup_tui.table import AWAY_AFTER, Table, TableConfig, check_resumable


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def timed_table(
    turn_time: float | None = 20.0, players: int = 2, journal: Path | None = None
) -> tuple[Table, FakeClock, dict[int, list[Event]]]:
    """Seat 0: a person (ann) who is here but does nothing; the others bots."""
    clock = FakeClock()
    table = Table(TableConfig(players=players, seed=8, turn_time=turn_time, journal=journal), clock)
    events: dict[int, list[Event]] = {0: []}
    table.seat_human("ann", "a" * 32)
    table.subscribe("ann", 0, events[0].append)
    for _ in range(players - 1):
        table.add_bot(None, "greedy")
    return table, clock, events


def run_bots(table: Table) -> None:
    """Let the bots act until none has to (what TableRunner does)."""
    while table.bot_turn() is not None:
        table.step_bot()


def clocks(events: list[Event]) -> list[TurnClock]:
    return [e for e in events if isinstance(e, TurnClock)]


def notices(events: list[Event]) -> list[str]:
    return [e.text for e in events if isinstance(e, Notice)]


def to_anns_turn(table: Table, clock: FakeClock) -> None:
    """Past set-up (ann times out once there) to a move of ann's."""
    state = table.state
    assert state is not None
    while state.phase != Phase.OVER and not (state.phase == Phase.PLAY and state.seat == 0):
        run_bots(table)
        if state.phase == Phase.PLAY and state.seat == 0:
            break
        clock.now += 21
        table.check_timers()
        run_bots(table)


def test_without_a_turn_time_nobody_acts_for_a_player() -> None:
    table, clock, events = timed_table(turn_time=None)
    table.start(None)
    run_bots(table)
    clock.now += 10_000
    assert table.check_timers() is None
    assert table.bot_turn() is None  # ann's set-up waits for ann
    assert clocks(events[0]) == []


def test_a_set_up_that_runs_out_is_chosen_by_the_bot_and_the_player_is_told() -> None:
    table, clock, events = timed_table()
    table.start(None)
    run_bots(table)
    state = table.state
    assert state is not None and state.setup[0] is None
    # ann's own set-up clock: 20 s from the start.
    assert clocks(events[0])[-1] == TurnClock(0, 20.0)
    clock.now += 19.5
    assert table.check_timers() == 0.5
    assert table.bot_turn() is None
    clock.now += 0.5
    turn = table.bot_turn()
    assert turn is not None and turn[0] == 0
    table.step_bot()
    assert state.setup[0] is not None
    laid = " ".join(card_label(CODES[k]) for k in state.setup[0])
    assert notices(events[0]) == [f"time is up: the bot laid {laid} face up for you"]
    # Named as the table shows them: this deal's bot lays a Clear +1, which
    # players read as "RC+1" everywhere else, never as its record code "RC1".
    assert "RC+1" in laid.split() and "RC1" not in laid.split()
    assert table.seats[0].timeouts == 1 and not table.seats[0].away


def test_a_move_that_runs_out_is_made_by_the_bot_for_that_move_only() -> None:
    table, clock, events = timed_table()
    table.start(None)
    to_anns_turn(table, clock)
    state = table.state
    assert state is not None and state.seat == 0
    moves = len(state.history)
    last = clocks(events[0])[-1]
    assert last.seat == 0 and last.remaining == 20.0
    clock.now += 20
    table.step_bot()
    assert len(state.history) == moves + 1 and state.history[moves][0] == 0
    move = state.moves(moves)[0]
    words = {
        "play": f"played {' '.join(map(card_label, move.cards))}",
        "pickup": "picked up the pile",
        "flip": f"flipped face-down card {move.slot + 1}",
        "draw": "drew a card",
    }[move.kind]
    assert notices(events[0])[-1] == f"time is up: the bot {words} for you"
    assert table.seats[0].bot is None  # the next action is ann's again
    assert table.seats[0].timeouts == 2


def test_three_timeouts_in_a_row_mark_the_seat_away_until_the_player_acts() -> None:
    table, clock, events = timed_table()
    table.start(None)
    state = table.state
    assert state is not None
    for _ in range(200):
        if table.seats[0].away or state.phase == Phase.OVER:
            break
        run_bots(table)
        clock.now += 20
        table.check_timers()
        run_bots(table)
    seat = table.seats[0]
    assert seat.away and seat.timeouts == AWAY_AFTER
    assert seat.bot is not None
    assert table.lobby().seats[0].bot_level == "greedy"  # the lobby shows the bot
    assert "you are away" in notices(events[0])[-1]
    # The bot plays ann's turns at once now, with no clock for her seat.
    if state.phase == Phase.PLAY and state.seat == 0:
        assert table.bot_turn() is not None
    assert 0 not in table.turn_clock.deadlines
    # A reconnect alone is not ann acting (clients reconnect by themselves).
    table.disconnect(0)
    table.seat_human("ann", "a" * 32)
    assert table.seats[0].away
    assert table.chat_log[-1].text == "ann is connected again; the bot plays until they act"
    # Any request from her session is.
    table.seat_active(0)
    assert not seat.away and seat.bot is None and seat.timeouts == 0
    assert notices(events[0])[-1] == "you are back: the bot no longer plays for you"


def test_a_player_who_acts_in_time_starts_the_count_again() -> None:
    table, clock, _events = timed_table()
    table.start(None)
    to_anns_turn(table, clock)
    assert table.seats[0].timeouts == 1  # the set-up ran out
    state = table.state
    assert state is not None
    # ann plays herself, with time to spare.
    table.submit(0, make_bot("greedy", 1).choose_move(seat_view(state, 0)))
    assert table.seats[0].timeouts == 0


def test_a_crash_right_after_a_time_out_or_a_move_keeps_the_count(tmp_path: Path) -> None:
    """The table file holds each seat's count of time-outs the moment it
    changes: a crash right after the turn timer's bot acted, or right after
    the player's own move started the count again, brings back the count
    the table had.  (Found by tests/seats/test_table_stateful.py: the file
    was written with the move, a moment before the count changed.)"""
    journal = tmp_path / "game.json"
    table, clock, _events = timed_table(journal=journal)
    table.start(None)
    run_bots(table)
    clock.now += 20
    table.step_bot()  # the bot lays ann's face-up cards: her first time-out
    assert table.seats[0].timeouts == 1
    assert check_resumable(journal).seats[0].timeouts == 1  # kill -9 now
    to_anns_turn(table, clock)
    state = table.state
    assert state is not None and state.seat == 0 and table.seats[0].timeouts == 1
    table.submit(0, make_bot("greedy", 1).choose_move(seat_view(state, 0)))
    assert table.seats[0].timeouts == 0
    assert check_resumable(journal).seats[0].timeouts == 0  # kill -9 now


def test_a_reconnect_does_not_reset_the_clock() -> None:
    table, clock, _events = timed_table()
    table.start(None)
    to_anns_turn(table, clock)
    deadline = table.turn_clock.deadlines[0]
    clock.now += 12
    table.disconnect(0)
    clock.now += 3
    table.seat_human("ann", "a" * 32)
    assert table.turn_clock.deadlines[0] == deadline
    again: list[Event] = []
    table.subscribe("ann again", 0, again.append)
    assert clocks(again) == [TurnClock(0, 5.0)]  # what is left, not a new 20 s


def test_a_bot_decision_for_an_older_state_is_dropped() -> None:
    """A bot thinking off the event loop may finish after the player acted."""
    table, clock, _events = timed_table()
    table.start(None)
    to_anns_turn(table, clock)
    state = table.state
    assert state is not None
    clock.now += 20
    request = table.bot_request()  # the stand-in starts thinking
    assert request is not None and request.seat == 0
    at = len(state.history)
    choice = request.bot.choose_move(request.view)
    table.seat_active(0)
    table.submit(0, choice)  # ann was quicker after all
    assert table.apply_bot_decision(request, choice) is False
    assert len(state.history) == at + 1
    assert table.seats[0].timeouts == 0  # and it was not a time-out


def test_the_clock_survives_a_clean_stop_and_a_resume(tmp_path: Path) -> None:
    journal = tmp_path / "game.json"
    table, clock, _events = timed_table(turn_time=60.0, journal=journal)
    table.start(None)
    to_anns_turn(table, clock)
    clock.now += 15  # 45 s left
    table.suspend()
    saved = json.loads(journal.with_name("game.json.table").read_text())
    assert saved["clock"]["remaining"] == 45.0
    later = FakeClock()
    later.now = 5000.0  # the host was down a long while: that does not count
    resumed = Table.resume(journal, clock=later)
    assert resumed.seats[0].timeouts == 1
    later.now += 4  # nor the time ann's app takes to notice and come back
    resumed.seat_human("ann", "a" * 32)
    assert resumed.turn_clock.deadlines == {0: 5049.0}


def test_a_resume_after_a_crash_starts_the_turn_clock_again(tmp_path: Path) -> None:
    journal = tmp_path / "game.json"
    table, clock, _events = timed_table(turn_time=60.0, journal=journal)
    table.start(None)
    to_anns_turn(table, clock)
    clock.now += 58  # 2 s left, then the host dies: nothing saved
    later = FakeClock()
    resumed = Table.resume(journal, clock=later)
    resumed.seat_human("ann", "a" * 32)
    assert resumed.turn_clock.deadlines == {0: later.now + 60.0}
    # After a clean stop with 2 s left she has those 2 s once she is back.
    table.suspend()
    resumed = Table.resume(journal, clock=later)
    later.now += 3
    resumed.seat_human("ann", "a" * 32)
    assert resumed.turn_clock.deadlines == {0: later.now + 2.0}


def test_a_short_clock_waits_for_its_player_after_a_crash(tmp_path: Path) -> None:
    """With a 3 s turn, a crash once timed out the player to act: her app
    notices a crash only after its 5 s idle time-out.  The clock now holds
    until she is back, and then gives her the whole turn."""
    journal = tmp_path / "game.json"
    table, clock, _events = timed_table(turn_time=3.0, journal=journal)
    table.start(None)
    to_anns_turn(table, clock)
    later = FakeClock()
    resumed = Table.resume(journal, clock=later)
    run_bots(resumed)
    later.now += 5.5  # the crash's idle time-out, and the reconnect
    resumed.check_timers()
    assert resumed.bot_turn() is None  # the timer's bot does not move for her
    events: list[Event] = []
    resumed.seat_human("ann", "a" * 32)
    resumed.subscribe("ann", 0, events.append)
    assert clocks(events) == [TurnClock(0, 3.0)]
    later.now += 3
    resumed.check_timers()
    assert resumed.bot_turn() is not None  # her 3 s run as ever once she is here


def test_a_held_clock_runs_when_its_player_does_not_come_back(tmp_path: Path) -> None:
    journal = tmp_path / "game.json"
    table, clock, _events = timed_table(turn_time=3.0, journal=journal)
    table.start(None)
    to_anns_turn(table, clock)
    table.suspend()  # a clean stop with 3 s left
    later = FakeClock()
    resumed = Table.resume(journal, clock=later)
    later.now += RESUME_GRACE + 2.9
    resumed.check_timers()
    assert resumed.bot_turn() is None
    later.now += 0.2
    resumed.check_timers()
    turn = resumed.bot_turn()
    assert turn is not None and turn[0] == 0  # the turn timer's bot, for her


def test_every_set_up_clock_survives_a_clean_stop(tmp_path: Path) -> None:
    """At set-up every seat still choosing has its own clock (D2): a clean
    stop keeps each one's time left, not only a clock in play."""
    journal = tmp_path / "game.json"
    clock = FakeClock()
    table = Table(TableConfig(players=3, seed=8, turn_time=30.0, journal=journal), clock)
    for name, token in (("ann", "a" * 32), ("bob", "b" * 32)):
        table.seat_human(name, token)
    table.add_bot(None, "greedy")
    table.start(None)
    run_bots(table)
    clock.now += 10
    state = table.state
    assert state is not None
    table.choose_face_up(1, list(seat_view(state, 1).hand[:3]))  # bob chose
    clock.now += 5  # ann has 15 s left
    table.suspend()
    later = FakeClock()
    later.now = 7000.0
    resumed = Table.resume(journal, clock=later)
    assert resumed.state is not None and resumed.state.phase == Phase.SETUP
    later.now += 2
    resumed.seat_human("ann", "a" * 32)
    assert resumed.turn_clock.deadlines == {0: 7017.0}


@pytest.mark.parametrize(
    "kept",
    [{"remaining": "9"}, {"remaining": True}, {"remaining": -1}, {"remaining": None},
     {"seat": 1}, {"at": 0}, [], "45"],
)  # fmt: skip
def test_a_clock_in_the_table_file_that_is_not_a_time_left_gives_the_whole_turn(
    tmp_path: Path, kept: object
) -> None:
    journal = tmp_path / "game.json"
    table, clock, _events = timed_table(turn_time=60.0, journal=journal)
    table.start(None)
    to_anns_turn(table, clock)
    clock.now += 15  # a good file would keep 45 s
    table.suspend()
    file = journal.with_name("game.json.table")
    data = json.loads(file.read_text())
    data["clock"] = {**data["clock"], **kept} if isinstance(kept, dict) else kept
    file.write_text(json.dumps(data))
    later = FakeClock()
    resumed = Table.resume(journal, clock=later)
    resumed.seat_human("ann", "a" * 32)
    assert resumed.turn_clock.deadlines == {0: later.now + 60.0}


async def test_the_in_process_table_gives_its_player_the_clock_and_the_notice() -> None:
    """LocalClient (a game in this process) gets the same TurnClock and
    Notice events as a network client."""
    client = bot_game(players=2, seed=6, name="ann", bot_delay=0.0)
    client.table.config.turn_time = 0.3
    await client.start()
    got: list[Event] = []
    try:

        async def until_notice() -> None:
            while True:
                event = await client.next_event()
                got.append(event)
                if isinstance(event, Notice):
                    return

        await asyncio.wait_for(until_notice(), 5)
    finally:
        await client.close()
    first = clocks(got)[0]
    assert first.seat == 0 and first.remaining is not None and 0.25 < first.remaining <= 0.3
    assert notices(got)[0].startswith("time is up: the bot laid ")


def test_a_resume_with_turn_time_off_takes_the_turn_timer_away(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`threeup host --headless --resume FILE` kept the table's turn timer,
    and no flag could take it away: `--turn-time 0` was refused (a turn lasts
    1 to 3600 s) and a flag left out keeps the saved one.  `--turn-time off`
    does, and the log says so; without it the timer stays."""
    journal = tmp_path / "game.json"
    table, clock, _events = timed_table(turn_time=20.0, journal=journal)
    table.start(None)
    to_anns_turn(table, clock)
    table.suspend()
    parser = build_parser()
    kept = parser.parse_args(["host", "--headless", "--resume", str(journal)])
    assert Table.resume(journal, resume_overrides(kept)).config.turn_time == 20.0
    off = parser.parse_args(["host", "--headless", "--resume", str(journal), "--turn-time", "off"])
    later = FakeClock()
    with caplog.at_level(logging.INFO, logger="threeup.table"):
        resumed = Table.resume(journal, resume_overrides(off), clock=later)
    assert "--turn-time off given: no turn timer now (it was 20.0 s)" in caplog.text
    resumed.seat_human("ann", "a" * 32)
    assert resumed.config.turn_time is None and resumed.turn_clock.deadlines == {}
    state = resumed.state
    assert state is not None and state.seat == 0
    at = len(state.history)
    later.now += 3600  # ann thinks it over: nobody acts for her
    resumed.check_timers()
    assert len(state.history) == at and resumed.seats[0].bot is None
    assert Table.resume(journal).config.turn_time is None  # kept so
