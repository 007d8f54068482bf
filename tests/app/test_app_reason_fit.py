"""The reasons beside the action buttons, on a small terminal: a reason
that does not fit goes whole, with "…", and no word is cut inside."""

from __future__ import annotations

import pytest
from app_fakes import ScriptedClient
from app_helpers import screen_text
from table_states import open_table, played_until, table_app
from text_fit import cut_text

from threeup_tui.app.text import card_label, rank_label, rank_of_code
from threeup_tui.app.widgets.action_bar import Reason, ReasonBox, reasons_content
from threeup_tui.rules import GameState, View, seat_view

PICKUP = Reason.of("Pick up", "you may not pick up while you have a legal discard")
DRAW = Reason.of("Draw", "the draw pile is empty")


@pytest.mark.parametrize(
    ("width", "rows", "expected"),
    [
        (16, 1, "no pick-up…"),  # was "Pick up: not no…", then "Pick up: not…"
        (17, 1, "Pick up: not now…"),
        (20, 1, "no pick-up · no draw"),  # was "Pick up: not now…": both said now
        (30, 1, "Pick up: not now · no draw"),  # was "Pick up: not now · Draw: not …"
        (25, 1, "no pick-up · no draw"),  # was "Pick up: not now · Draw:…"
        (32, 1, "Pick up: not now · Draw: not now"),  # not "… · no draw": the room is there
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


def card_below_the_top(state: GameState, view: View) -> bool:
    """Our turn, the first card of the hand lower than the pile's top."""
    return (
        my_turn_on_a_pile(state, view)
        and rank_of_code(view.hand[0]) < min(view.top_rank, 11)
        and rank_of_code(view.hand[0]) not in view.playable_ranks()
    )


async def test_at_40x15_the_bar_says_why_the_card_cannot_go_in_words(
    client: ScriptedClient,
) -> None:
    """At 40x15 the buttons' blank sides left the reasons 6 cells: the bar
    read "Pick…" or "G2 is…".  Tight, the buttons are as wide as their
    words, and the reason has a short form that says it all there: "G2 is
    below 5"."""
    state = played_until(["you", "Bob", "Cy", "Dee"], card_below_the_top)
    view = seat_view(state, 0)
    label, top = card_label(view.hand[0]), rank_label(view.pile[-1])
    app = table_app(client)
    async with app.run_test(size=(40, 15)) as pilot:
        screen = await open_table(pilot, client, state)
        box = screen.query_one(ReasonBox)
        await pilot.press("home")  # the cursor on the first card
        await pilot.pause()
        assert box.region.width >= 16, f"{box.region}\n{screen_text(app)}"
        assert box.text.startswith(f"{label} is below {top}"), f"{box.text!r}\n{screen_text(app)}"
        assert not cut_text(app), cut_text(app)
