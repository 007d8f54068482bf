"""The SSH door's budget of keys (threeup_tui.doorkeys): what a guest's
session may feed its app, never cutting a key in half."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual import events, messages
from textual._xterm_parser import XTermParser

from threeup_tui.doorkeys import (
    KEYS_BURST,
    KEYS_PER_SECOND,
    MAX_PASTE,
    PASTE_END,
    PASTE_START,
    REPORT_DROPPED,
    RESIZE_BURST,
    RESIZES_PER_SECOND,
    KeyBudget,
    ResizeBudget,
    SizeReports,
)

ARROW = b"\x1b[A"
MOUSE = b"\x1b[<35;41;12M"  # a moving mouse, SGR report
OLD_MOUSE = b"\x1b[M !!"  # an old-style report: three bytes after ESC [ M


def test_a_flood_of_keys_passes_up_to_the_budget_and_the_rest_is_dropped_and_counted() -> None:
    keys = KeyBudget(now=0.0)
    passed = keys.feed(b"x" * 100_000, now=0.0)
    assert passed == b"x" * KEYS_BURST
    assert keys.dropped == 100_000 - KEYS_BURST
    # The budget fills again, KEYS_PER_SECOND keys a second.
    assert keys.feed(b"z" * 1000, now=1.0) == b"z" * KEYS_PER_SECOND
    assert keys.feed(b"y", now=1.1) == b"y"
    assert keys.dropped == 100_000 - KEYS_BURST + 1000 - KEYS_PER_SECOND


def test_typing_and_a_chat_line_pasted_unbracketed_pass_whole() -> None:
    keys = KeyBudget(now=0.0)
    line = ("山田 says hi " * 20).encode()[:600]
    assert keys.feed(line, now=0.0) == line
    typed = b"".join(keys.feed(bytes([c]), now=1 + i / 15) for i, c in enumerate(b"hello\r" * 50))
    assert typed == b"hello\r" * 50
    assert keys.dropped == 0


def test_escape_sequences_are_passed_or_dropped_whole() -> None:
    for key in (ARROW, MOUSE, OLD_MOUSE, b"\x1bOP", b"\x1bx", b"\x1b[48;24;80;480;800t"):
        keys = KeyBudget(now=0.0)
        passed = keys.feed(key * 5000, now=0.0)
        assert passed == key * KEYS_BURST, key
        assert keys.feed(b"q", now=1.0) == b"q"  # no rest of a sequence left to read as keys


def test_a_flood_split_anywhere_leaves_no_half_sequence_behind() -> None:
    keys = KeyBudget(now=0.0)
    flood = ARROW * 2000
    passed = b"".join(keys.feed(flood[i : i + 7], now=0.0) for i in range(0, len(flood), 7))
    assert passed == ARROW * KEYS_BURST
    assert keys.feed(b"\x1b", now=0.0) == b""  # no budget: the Esc key is dropped...
    assert keys.feed(b"[B", now=1.0) == b""  # ...and the rest of its sequence with it
    assert keys.feed(b"q", now=1.0) == b"q"


def test_a_long_bracketed_paste_is_cut_and_still_ends() -> None:
    keys = KeyBudget(now=0.0)
    passed = keys.feed(PASTE_START + b"p" * 100_000 + PASTE_END + b"q", now=0.0)
    assert passed == PASTE_START + b"p" * MAX_PASTE + PASTE_END + b"q"
    assert keys.dropped == 100_000 - MAX_PASTE


def test_a_paste_begun_over_the_budget_is_dropped_with_its_end() -> None:
    keys = KeyBudget(now=0.0)
    keys.feed(b"x" * KEYS_BURST, now=0.0)
    pasted = PASTE_START + b"pasted" + PASTE_END
    assert keys.feed(pasted[:9], now=0.0) == b""
    # Its end comes once the budget has filled again: still the paste's, dropped.
    assert keys.feed(pasted[9:] + b"q", now=1.0) == b"q"


def test_characters_are_never_cut_in_half() -> None:
    keys = KeyBudget(now=0.0)
    passed = keys.feed("山".encode() * 1000, now=0.0)
    assert passed.decode("utf-8") == "山" * (KEYS_BURST // 3)
    keys = KeyBudget(now=0.0)
    passed = keys.feed(PASTE_START + "é".encode() * MAX_PASTE + PASTE_END, now=0.0)
    assert passed[6:-6].decode("utf-8") == "é" * (MAX_PASTE // 2)


def _mixed(seed: int) -> bytes:
    rng = random.Random(seed)
    parts = [b"a", b"\r", "é".encode(), "山".encode(), ARROW, MOUSE, OLD_MOUSE, b"\x1bOP"]
    out = []
    for _ in range(4000):
        if rng.random() < 0.01:
            text = "pé山\x1b[A".encode() * rng.randint(0, 1500)
            out.append(PASTE_START + text + PASTE_END)
        else:
            out.append(rng.choice(parts))
    return b"".join(out)


def test_input_read_in_pieces_passes_as_if_read_at_once() -> None:
    """However the client's bytes are split between reads, the same keys
    pass, and what passes is UTF-8 (half a character ended the app)."""
    for seed in range(5):
        data = _mixed(seed)
        at_once = KeyBudget(now=0.0).feed(data, now=0.0)
        keys = KeyBudget(now=0.0)
        rng = random.Random(seed)
        pieces = bytearray()
        i = 0
        while i < len(data):
            n = rng.randint(1, 40)
            pieces += keys.feed(data[i : i + n], now=0.0)
            i += n
        assert bytes(pieces) == at_once
        at_once.decode("utf-8")
        assert at_once.count(PASTE_START) == at_once.count(PASTE_END)


def test_window_changes_pass_a_few_at_once_then_one_a_second_and_the_latest_wins() -> None:
    sizes = ResizeBudget(now=0.0)
    for n in range(int(RESIZE_BURST)):
        sizes.offer(80 + n, 24)
        assert sizes.due(0.0) == 0.0
        assert sizes.take(0.0) == (80 + n, 24)
    assert sizes.due(0.0) is None  # nothing waits
    for width in range(100, 200):  # a flood: each one replaces the last
        sizes.offer(width, 40)
    assert sizes.take(0.0) is None
    assert sizes.due(0.0) == 1.0 / RESIZES_PER_SECOND
    assert sizes.take(1.0) == (199, 40)
    assert sizes.take(1.0) is None and sizes.due(1.0) is None


def test_a_window_of_the_doors_largest_size_costs_the_whole_burst() -> None:
    sizes = ResizeBudget(now=0.0)
    sizes.offer(1000, 500)
    assert sizes.take(0.0) == (1000, 500)
    sizes.offer(1000, 499)
    assert sizes.due(0.0) == pytest.approx(RESIZE_BURST / RESIZES_PER_SECOND, abs=0.01)
    assert sizes.take(1.0) is None
    assert sizes.take(RESIZE_BURST / RESIZES_PER_SECOND) == (1000, 499)


SIZE_REPORT = b"\x1b[48;3000;4000;0;0t"  # a terminal's report of its size: 4000 x 3000
REPORTS_ANSWER = b"\x1b[?2048;2$y"  # a terminal saying it can send them


def test_a_terminals_size_report_and_its_answer_about_them_never_reach_the_app() -> None:
    reports = SizeReports()
    typed = b"hi" + SIZE_REPORT + ARROW + REPORTS_ANSWER + b"\x1b[?2026;2$y" + MOUSE + b"x"
    gone = REPORT_DROPPED
    assert reports.feed(typed) == b"hi" + gone + ARROW + gone + b"\x1b[?2026;2$y" + MOUSE + b"x"
    assert reports.dropped == 2


def test_a_size_report_with_sub_parameters_never_reaches_the_app_whole() -> None:
    """Textual takes anything after a colon in a report's field: the door
    drops such a report's beginning, and no ESC is left for the rest."""
    reports = SizeReports()
    passed = reports.feed(b"\x1b[48;3000:x;4000:y;0;0t")
    assert passed == REPORT_DROPPED + b"x;4000:y;0;0t"
    assert reports.dropped == 1


@pytest.mark.parametrize("cut", range(1, len(SIZE_REPORT)))
def test_a_size_report_split_between_reads_is_dropped_whole(cut: int) -> None:
    reports = SizeReports()
    passed = reports.feed(b"a" + SIZE_REPORT[:cut]) + reports.feed(SIZE_REPORT[cut:] + b"b")
    # A lone ESC goes on at once (the Escape key); the rest of the report never.
    assert passed in (b"a" + REPORT_DROPPED + b"b", b"a\x1b" + REPORT_DROPPED + b"b")
    assert reports.dropped == 1


def test_the_escape_key_and_keys_that_only_begin_like_a_report_pass_at_once() -> None:
    reports = SizeReports()
    assert reports.feed(b"\x1b") == b"\x1b"  # Escape, alone in its read
    assert reports.feed(b"\x1b[4~") == b"\x1b[4~"  # End, on the Linux console
    # 0, Ctrl+0 and Ctrl+Shift+0 in the kitty keyboard protocol the app asks for.
    for key in (b"\x1b[48u", b"\x1b[48;;48u", b"\x1b[48;5u", b"\x1b[48;6;41u"):
        assert reports.feed(key + b"x") == key + b"x"
    assert reports.feed(b"\x1b[?2048;22$y") == b"\x1b[?2048;22$y"  # no answer Textual reads
    assert reports.feed(PASTE_START + b"[48;" + PASTE_END) == PASTE_START + b"[48;" + PASTE_END
    assert reports.feed(b"\x1b[4") == b""  # it may go on as a report: held
    assert reports.feed(b"~z") == b"\x1b[4~z"
    assert reports.dropped == 0


# Pieces of input that make reports, their beginnings, and keys that look
# like them, for the property below.
PIECES = [
    b"\x1b", b"[", b"4", b"8", b";", b":", b"t", b"1", b"0", b"?", b"$", b"y", b"u", b"x",
    b"\xc3\xa9", b"\x1b[48;", b"\x1b[?2048;", SIZE_REPORT, REPORTS_ANSWER, b"\x1b[48;1:x;2;3;4t",
    PASTE_START, PASTE_END, b"\x1b[I", b"\x1b[48;5u",
]  # fmt: skip


def sizes_read(data: bytes) -> list[object]:
    """What Textual's own parser, reading ``data`` all at once, takes for a
    size: a window change, or a terminal that sends its size in-band."""
    parser = XTermParser()
    read: list[object] = []
    with contextlib.suppress(ValueError):  # Textual's parser fails on some junk
        read += parser.feed(data.decode("utf-8", "replace"))
    return [
        event
        for event in read
        if isinstance(event, events.Resize)
        or (isinstance(event, messages.InBandWindowResize) and event.supported)
    ]


@pytest.mark.parametrize(
    "spliced",
    [
        b"\x1b[48;1;1;1;1" + SIZE_REPORT + b"t",  # a report, about one dropped
        b"\x1b[4" + SIZE_REPORT + b"8;1;1;1;1t",
        b"\x1b[?2048;1$" + SIZE_REPORT + b"y",  # an answer about reports
        b"\x1b" + SIZE_REPORT + b"[48;1;1;1;1t",
    ],
)
def test_a_report_dropped_from_inside_a_sequence_does_not_join_its_two_halves(
    spliced: bytes,
) -> None:
    assert sizes_read(spliced.replace(SIZE_REPORT, b""))  # the inner one dropped for nothing
    assert sizes_read(SizeReports().feed(spliced)) == []


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30), st.lists(st.integers(0, 200), max_size=3))
def test_no_size_reaches_the_app_however_reports_are_cut_spliced_or_split(
    pieces: list[bytes], cuts: list[int]
) -> None:
    """A report dropped from inside another sequence once joined its two
    halves into a report (ESC [ 48 ; 1 ; 1 ; 1 ; 1, a dropped report, t)."""
    data = b"".join(pieces)
    reports = SizeReports()
    passed, last = b"", 0
    for cut in [*sorted(min(cut, len(data)) for cut in cuts), len(data)]:
        passed += reports.feed(data[last:cut])
        last = cut
    assert sizes_read(passed) == []
