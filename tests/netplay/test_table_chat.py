"""Chat that cannot flood, in the table itself, on a clock the test moves.

Per seat and per spectator: at most 5 lines in any 10 s, at most 3 back to
back; a line is at most 400 characters and 1,000 bytes of UTF-8; refused
lines get a reason; the host logs a flooder once a minute, not each line.
"""

from __future__ import annotations

import logging
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from threeup_tui.client.events import ChatReceived, Event
from threeup_tui.table import Table, TableConfig, TableError


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def chat_table(**config: object) -> tuple[Table, FakeClock, list[Event]]:
    clock = FakeClock()
    table = Table(TableConfig(players=2, **config), clock)  # type: ignore[arg-type]
    table.seat_human("ann", "a" * 32)
    table.seat_human("bob", "b" * 32)
    heard: list[Event] = []
    table.subscribe("bob", 1, heard.append)
    heard.clear()
    return table, clock, heard


def said(heard: list[Event], seat: int | None = 0) -> list[str]:
    return [e.text for e in heard if isinstance(e, ChatReceived) and e.seat == seat]


def try_chat(table: Table, seat: int | None, text: str, **kw: object) -> str | None:
    try:
        table.chat(seat, text, **kw)  # type: ignore[arg-type]
    except TableError as err:
        return str(err)
    return None


def test_a_burst_of_three_then_five_lines_in_ten_seconds() -> None:
    table, clock, heard = chat_table()
    refusals = [try_chat(table, 0, f"line {n}") for n in range(10)]
    assert refusals[:3] == [None, None, None]
    # The reason names the limit that refused the line, and a wait that is enough.
    burst = "too many chat lines: at most 3 back to back; wait 2 s"
    assert refusals[3:] == [burst] * 7
    assert said(heard) == ["line 0", "line 1", "line 2"]
    clock.now = 1.9
    assert try_chat(table, 0, "at 1.9 s") == "too many chat lines: at most 3 back to back; wait 1 s"
    clock.now = 2.0  # one more token
    assert try_chat(table, 0, "line at 2 s") is None
    clock.now = 4.0
    assert try_chat(table, 0, "line at 4 s") is None
    clock.now = 9.9  # the bucket is full again, but 5 lines fell in the last 10 s
    assert try_chat(table, 0, "too soon") == "too many chat lines: at most 5 in 10 s; wait 1 s"
    clock.now = 10.0  # the first three are out of the window
    assert [try_chat(table, 0, f"later {n}") for n in range(4)][:3] == [None, None, None]
    # bob has his own allowance
    assert try_chat(table, 1, "hi from bob") is None


def test_lines_are_numbered_and_a_session_begins_with_the_last_ten_marked_old() -> None:
    table, clock, heard = chat_table()
    for n in range(12):
        clock.now += 3
        table.chat(n % 2, f"line {n}")
    live = [e for e in heard if isinstance(e, ChatReceived)]
    assert not any(e.old for e in live)
    numbers = [e.number for e in live]
    assert numbers == list(range(numbers[0], numbers[0] + 12))  # after the table's own lines
    again: list[Event] = []
    table.subscribe("bob again", 1, again.append)
    old = [e for e in again if isinstance(e, ChatReceived)]
    assert [(e.text, e.number, e.old) for e in old] == [
        (e.text, e.number, True) for e in live[-10:]
    ]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=3.0), min_size=1, max_size=60))
def test_no_ten_seconds_ever_carry_more_than_five_lines(gaps: list[float]) -> None:
    table, clock, heard = chat_table()
    times: list[float] = []
    for gap in gaps:
        clock.now += gap
        if try_chat(table, 0, "x") is None:
            times.append(clock.now)
    for i, start in enumerate(times):
        assert len([t for t in times[i:] if t < start + 10.0]) <= 5, times
        assert len([t for t in times[i:] if t == start]) <= 3
    assert len(said(heard)) == len(times)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=3.0), min_size=1, max_size=40))
@example(gaps=[0.4806676487781324, 0.0, 0.0, 0.0, 0.0])  # 2 s of refill summed to 0.99999…
def test_a_refused_speaker_who_waits_as_told_is_heard(gaps: list[float]) -> None:
    table, clock, _heard = chat_table()
    for gap in gaps:
        clock.now += gap
        reason = try_chat(table, 0, "x")
        if reason is not None:
            found = re.search(r"; wait (\d+) s$", reason)
            assert found is not None and int(found.group(1)) >= 1, reason
            clock.now += int(found.group(1))
            assert try_chat(table, 0, "after the wait") is None, (reason, clock.now)


@pytest.mark.parametrize("seat", [-1, 2, 9])
def test_a_line_from_a_seat_number_that_names_no_seat_is_refused(seat: int) -> None:
    """Refused in words, and heard by nobody: seat -1 is not the last seat
    (its player's name), nor is seat 3 of two an IndexError.  (Found by
    tests/seats/test_table_stateful.py.)"""
    table, _clock, heard = chat_table()
    lines = len(table.chat_log)
    assert try_chat(table, seat, "who am I?") == f"there is no seat {seat + 1}"
    assert len(table.chat_log) == lines and heard == []


def test_a_line_is_at_most_400_characters_and_1000_bytes_and_shown_in_200_cells() -> None:
    table, _clock, heard = chat_table()
    limit = "a chat line is at most 400 characters and 1,000 bytes of UTF-8"
    assert try_chat(table, 0, "x" * 400) is None
    assert try_chat(table, 0, "x" * 401) == limit
    assert try_chat(table, 0, "€" * 333) is None  # 999 bytes
    assert try_chat(table, 0, "€" * 334) == limit  # 1,002 bytes in 334 characters
    # What is shown is cut to 200 terminal cells, by display width: a wide
    # character takes two, so 200 of them once filled a chat pane.
    assert said(heard) == ["x" * 200, "€" * 200]
    table, _clock, heard = chat_table()
    assert try_chat(table, 0, "漢" * 150) is None
    assert try_chat(table, 0, "a" + "漢" * 150) is None  # never half a character
    assert said(heard) == ["漢" * 100, "a" + "漢" * 99]


def test_a_line_is_relayed_without_control_characters_its_breaks_made_spaces() -> None:
    table, _clock, heard = chat_table()
    assert try_chat(table, 0, "gg\nwell\tplayed\x1b[2J\x07\u202e!") is None
    assert said(heard) == ["gg well played[2J!"]  # nothing run together, nothing obeyed


def test_a_line_keeps_marks_on_letters_only_and_no_pile_of_them() -> None:
    """A letter with hundreds of combining marks ("Zalgo") piled them across
    the chat pane's rows above it; a mark after a space bent what stood
    before it.  Four stay on a letter, enough for every script."""
    table, _clock, heard = chat_table()
    assert try_chat(table, 0, "Z" + "\u0336\u0337\u0338" * 100 + " \u0301ok ที่นี่") is None
    assert said(heard) == ["Z\u0336\u0337\u0338\u0336 ok ที่นี่"]


def test_spectators_chat_under_their_own_names_each_with_an_allowance() -> None:
    table, _clock, heard = chat_table()
    for n in range(3):
        assert try_chat(table, None, f"w{n}", speaker="s1", name="wendy") is None
    assert try_chat(table, None, "w3", speaker="s1", name="wendy") is not None
    assert try_chat(table, None, "hi", speaker="s2", name="walt") is None
    lines = [e for e in heard if isinstance(e, ChatReceived)]
    assert [(e.seat, e.name, e.spectator) for e in lines] == [
        (None, "wendy", True),
        (None, "wendy", True),
        (None, "wendy", True),
        (None, "walt", True),
    ]


def test_the_host_can_turn_spectator_chat_off() -> None:
    table, _clock, heard = chat_table(spectator_chat=False)
    assert try_chat(table, None, "hi", speaker="s1", name="w") == (
        "spectators cannot chat at this table"
    )
    assert try_chat(table, 0, "players still can") is None
    assert said(heard, None) == []


def test_a_flooder_is_logged_once_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    table, clock, _heard = chat_table()
    with caplog.at_level(logging.WARNING, logger="threeup.chat"):
        refused = 0
        for n in range(9000):  # 100 lines a second for a minute and a half
            clock.now = n / 100
            refused += try_chat(table, 0, "spam") is not None
    logged = [r.getMessage() for r in caplog.records if r.name == "threeup.chat"]
    assert len(logged) == 2, logged
    assert logged[0] == "chat from seat 1 ('ann') refused: over 3 back to back (1 line refused)"
    found = re.search(r"\((\d+) lines refused in the last 60 s\)$", logged[1])
    assert found is not None, logged[1]
    second = int(found.group(1))
    assert 5900 < second < 6000  # the next minute's refusals, counted, not logged
    assert refused > 8900
