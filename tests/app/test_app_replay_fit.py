"""The replay on a small terminal: its boxes stay whole on the screen."""

from __future__ import annotations

import pytest
from app_helpers import fast_launcher, screen_text, wait_for

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.scenes import demo_record
from threeup_tui.app.screens.replay import ReplayScreen
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
