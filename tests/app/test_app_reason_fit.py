"""The reasons beside the action buttons, on a small terminal: a reason
that does not fit goes whole, with "…", and no word is cut inside."""

from __future__ import annotations

import pytest
from app_fakes import ScriptedClient
from app_helpers import screen_text
from table_states import open_table, played_until, table_app

from threeup_tui.app.widgets.action_bar import Reason, ReasonBox, reasons_content
from threeup_tui.rules import GameState, View

PICKUP = Reason.of("Pick up", "you may not pick up while you have a legal discard")
DRAW = Reason.of("Draw", "the draw pile is empty")


@pytest.mark.parametrize(
    ("width", "rows", "expected"),
    [
        (16, 1, "Pick up: not…"),  # was "Pick up: not no…"
        (17, 1, "Pick up: not now…"),
        (30, 1, "Pick up: not now…"),  # was "Pick up: not now · Draw: not …"
        (25, 1, "Pick up: not now…"),  # was "Pick up: not now · Draw:…"
        (40, 1, "Pick up: not now · Draw: not now"),
    ],
)
def test_a_reason_that_does_not_fit_goes_whole(width: int, rows: int, expected: str) -> None:
    assert reasons_content((PICKUP, DRAW), width, rows).plain == expected


def my_turn_on_a_pile(state: GameState, view: View) -> bool:
    return view.my_turn and bool(view.pile) and not view.can_draw() and len(view.hand) >= 3


@pytest.mark.parametrize("size", [(50, 16), (40, 15), (60, 18)], ids=str)
async def test_the_reasons_cut_no_word_at_small_sizes(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    """At 50x16 the box read "Pick up: not no…", a word cut inside; each
    card under the cursor in turn, every word shown is a whole word of
    the reasons."""
    state = played_until(["you", "Bob", "Cy", "Dee"], my_turn_on_a_pile)
    app = table_app(client)
    async with app.run_test(size=size) as pilot:
        screen = await open_table(pilot, client, state)
        box = screen.query_one(ReasonBox)
        for _ in range(len(state.hand[0])):
            await pilot.pause()
            forms = [form for reason in box.reasons for form in reason.forms]
            whole = {"·"} | {w.rstrip("…") for form in forms for w in form.split()}
            cut = [w for w in box.text.split() if w.rstrip("…") not in whole]
            assert not cut, f"cut inside: {cut} in {box.text!r}\n{screen_text(app)}"
            await pilot.press("right")
