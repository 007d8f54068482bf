"""The SSH door's budget of keys (threeup_tui.doorkeys): what a guest's
session may feed its app, never cutting a key in half."""

from __future__ import annotations

import random

import pytest

from threeup_tui.doorkeys import (
    KEYS_BURST,
    KEYS_PER_SECOND,
    MAX_PASTE,
    PASTE_END,
    PASTE_START,
    RESIZE_BURST,
    RESIZES_PER_SECOND,
    KeyBudget,
    ResizeBudget,
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
