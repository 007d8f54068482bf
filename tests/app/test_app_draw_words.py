"""The table says "draw" when the draw is the one move there is.

Right after a Clear +1 or +2 the early draw opens (D10).  A player whose
hand is then empty, with cards left to draw, cannot discard (D11) and may
not pick up while the draw is open (D12): the draw is not a choice.  The top
line read "you may draw first (d)" all the same, as if a discard could
come instead.
"""

from __future__ import annotations

import pytest
from app_fakes import ScriptedClient
from app_helpers import screen_text, wait_for, words_shown
from table_states import open_table, played_until, random_bots, table_app
from text_fit import cut_text

from threeup_tui.app.widgets.action_bar import ReasonBox
from threeup_tui.app.widgets.status import StatusBar
from threeup_tui.app.widgets.status_line import StatusLine
from threeup_tui.rules import GameState, View
from threeup_tui.rules.actions import is_play

SIZES = [(80, 24), (60, 18)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]


def must_draw(state: GameState, view: View) -> bool:
    """Our turn: the draw open, and no discard (an empty hand after a Clear +2)."""
    return view.my_turn and view.can_draw() and not any(is_play(a) for a in view.legal)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_an_empty_hand_after_a_clear_is_told_to_draw(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    state = played_until(["you", "Bob", "Cy"], must_draw, bot=random_bots)
    assert not state.hand_size[0] and state.extra_discards()
    app = table_app(client)
    async with app.run_test(size=size) as pilot:
        await open_table(pilot, client, state)
        line = words_shown(app, app.screen.query_one(StatusBar))
        assert "YOUR TURN" in line and "draw (d)" in line, line
        assert "may" not in line, line
        problems = cut_text(app)
        assert not problems, "\n".join(problems) + "\n" + screen_text(app)


async def test_play_and_enter_say_draw_not_select_when_the_hand_is_empty(
    client: ScriptedClient,
) -> None:
    """The action bar read "Play: select cards first" and Enter answered
    "Select cards first" with no card to select: the hand is empty and the
    draw is what comes first.  Both say so now; no move is sent."""
    state = played_until(["you", "Bob", "Cy"], must_draw, bot=random_bots)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        reasons = words_shown(app, screen.query_one(ReasonBox))
        assert "Play: nothing to play, draw first" in reasons, reasons
        assert "select" not in reasons, reasons
        await pilot.press("enter")
        line = screen.query_one(StatusLine)
        await wait_for(pilot, lambda: "first" in line.text, what="an answer to Enter")
        assert "Nothing to play: draw first (d)" in line.text, line.text
        assert not [r for r in client.requests if r[0] == "submit"]
