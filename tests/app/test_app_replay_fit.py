"""The replay on a small terminal: its boxes stay whole on the screen."""

from __future__ import annotations

import dataclasses

import pytest
from app_helpers import fast_launcher, screen_text, wait_for
from text_fit import screen_lines
from textual.content import Content
from textual.geometry import Size

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.scenes import demo_record
from threeup_tui.app.screens.replay import ReplayScreen
from threeup_tui.app.widgets.fitted import FittedText
from threeup_tui.app.widgets.pile import PileView


@pytest.mark.parametrize("size", [(40, 15), (41, 15), (50, 16)], ids=str)
async def test_the_replays_pile_box_is_whole_on_a_narrow_terminal(size: tuple[int, int]) -> None:
    """The pile's box is 40 cells wide: at 40 columns (less the page's
    padding) its right side, border and all, was off the screen."""
    record = demo_record(players=3, seed=1)
    app = create_app(fast_launcher(), StartSpec(mode="replay", record=record, record_name="g"))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.pause()
        pile = app.screen.query_one(PileView)
        text = screen_text(app)
        assert pile.region.right <= size[0], f"{pile.region} at {size}:\n{text}"
        top = next(line for line in text.splitlines() if "╭" in line)
        assert top.rstrip().endswith("╮"), text


async def test_a_narrow_replay_wraps_a_seat_under_its_cards() -> None:
    """At 40 columns a seat's cards ran past the line and went on at the
    left edge, "(GC)" alone under the names, and the header's "turn 31" on a
    line of its own: a seat's line goes on indented under its cards, and the
    header says move and turn on one line."""
    record = demo_record(players=6, seed=1)
    app = create_app(
        fast_launcher(), StartSpec(mode="replay", record=record, record_name="threeup-game")
    )
    size = (40, 40)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("pagedown", "pagedown", "pagedown")
        await pilot.pause()
        text = screen_text(app)
        lines = screen_lines(app)
        head = next(line for line in lines if "move 30" in line)
        assert "turn 31" in head, text
        wrapped = 0
        for seat in app.screen.query(".replay-seat"):
            region = seat.content_region
            shown = [lines[y][region.x : region.right] for y in range(region.y, region.bottom)]
            for line in shown[1:]:
                if line.strip() and not line.startswith("    "):
                    raise AssertionError(f"{line.strip()!r} not under its seat:\n{text}")
            wrapped += len(shown) > 2
        assert wrapped, f"no seat's cards ran past the line at {size}:\n{text}"


def test_a_fitted_line_wider_than_its_box_counts_the_lines_it_takes() -> None:
    """A word wider than the box (a 24-cell name in a narrow one) is wrapped
    by Textual when drawn: the height counts those lines, or the last of
    them would be cut off below the box."""
    text = FittedText()
    text.update(lambda width: Content("Wilhelmina-Konstantinova\nwins."))
    assert text.get_content_height(Size(12, 10), Size(12, 10), 12) == 3


@pytest.mark.parametrize(
    ("moves", "words"),
    [
        ("none", "The record holds no moves: the game as dealt."),
        ("first illegal", "Before the first move."),
        ("some", "Before the first move. → steps forward."),
    ],
)
async def test_before_the_first_move_offers_a_step_only_where_there_is_one(
    moves: str, words: str
) -> None:
    """Found replaying a record of no moves (threeup verify: "ok: 0 moves,
    unfinished"): the screen said "→ steps forward", and → did nothing."""
    record = demo_record(players=3, seed=1)
    if moves == "none":
        record = dataclasses.replace(record, moves=(), result=None)
    elif moves == "first illegal":
        record = dataclasses.replace(record, moves=record.moves[1:2] * 2, result=None)
    app = create_app(fast_launcher(), StartSpec(mode="replay", record=record, record_name="g"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.pause()
        text = screen_text(app)
        assert words in text, text
        if "→" not in words:
            assert "steps forward" not in text, text
