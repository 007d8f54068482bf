"""The table says "draw" when the draw is the one move there is.

Right after a Clear +1 or +2 the early draw opens (D10).  A player whose
hand is then empty, with cards left to draw, cannot discard (D11) and may
not pick up while the draw is open (D12): the draw is not a choice.  The top
line read "you may draw first (d)" all the same, as if a discard could
come instead.
"""

from __future__ import annotations

import random

import pytest
from app_fakes import ScriptedClient
from app_helpers import fast_launcher, screen_text, wait_for, words_shown
from app_states import dealt
from table_states import open_table, played_until, random_bots, table_app
from text_fit import cut_text

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.replay import ReplayScreen
from threeup_tui.app.widgets.action_bar import ReasonBox
from threeup_tui.app.widgets.status import StatusBar, banner_for
from threeup_tui.app.widgets.status_line import StatusLine
from threeup_tui.client import ViewChanged
from threeup_tui.rules import GameState, Move, View, seat_view
from threeup_tui.rules.actions import DRAW, is_play
from threeup_tui.rules.record import record_of
from threeup_tui.rules.search import Determinizer

SIZES = [(80, 24), (60, 18)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]


def must_draw(state: GameState, view: View) -> bool:
    """Our turn: the draw open, and no discard (an empty hand after a Clear +2)."""
    return view.my_turn and view.can_draw() and not any(is_play(a) for a in view.legal)


@pytest.mark.parametrize("size", [*SIZES, (40, 15)], ids=[*SIZE_IDS, "40x15"])
async def test_an_empty_hand_after_a_clear_is_told_to_draw(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    # At 40 columns the line read "YOUR TURN · +2 owed…": the discards owed
    # kept, the draw, the one move there was, left out.  The draw outlasts them.
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


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_empty_hand_says_to_draw_when_the_draw_is_the_move(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    """Where the hand's cards go, the words read "Empty: nothing in your
    hand" while the top line said "draw (d)": true, but no help to a player
    looking at their empty hand for what to do.  They say it must draw,
    as the top line does, and after the draw the cards show again."""
    state = played_until(["you", "Bob", "Cy"], must_draw, bot=random_bots)
    app = table_app(client)
    async with app.run_test(size=size) as pilot:
        screen = await open_table(pilot, client, state)
        words = words_shown(app, screen.query_one("#hand-empty"))
        assert "must draw" in words and "(d)" in words, words
        assert "nothing in your hand" not in words, words
        problems = cut_text(app)
        assert not problems, "\n".join(problems) + "\n" + screen_text(app)
        state.apply_move(Move.draw(0))
        client.emit(ViewChanged(seat_view(state, 0)))
        hand = screen.query_one("#hand")
        await wait_for(pilot, lambda: hand.display, what="the drawn cards")
        assert not screen.query_one("#hand-empty").display


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


# ------------------------------------------------------------ another seat


def bob_must_draw(state: GameState, view: View) -> bool:
    """Bob to act, his hand empty (everyone sees its size), the draw open."""
    return view.to_act == 1 and view.draw_open and view.seats[1].hand_size == 0


def bob_may_draw(state: GameState, view: View) -> bool:
    """Bob to act, the draw open, cards in his hand (nobody else sees which)."""
    return view.to_act == 1 and view.draw_open and view.seats[1].hand_size > 0


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("seat", [0, None], ids=["seat", "spectator"])
async def test_a_player_and_a_spectator_read_that_bob_must_draw(
    client: ScriptedClient, size: tuple[int, int], seat: int | None
) -> None:
    """Bob's hand is empty after his clear: his hand size and the open draw
    are public, so everyone may be told he must draw; "may draw first"
    offered him a choice he does not have."""
    state = played_until(["you", "Bob", "Cy"], bob_must_draw, bot=random_bots)
    app = table_app(client)
    async with app.run_test(size=size) as pilot:
        await open_table(pilot, client, state, seat=seat)
        line = words_shown(app, app.screen.query_one(StatusBar))
        assert "Bob" in line and "must draw" in line, line
        assert "may" not in line, line
        problems = cut_text(app)
        assert not problems, "\n".join(problems) + "\n" + screen_text(app)


@pytest.mark.parametrize("want", [bob_must_draw, bob_may_draw], ids=["must", "may"])
def test_deals_that_look_the_same_give_the_same_words(want: object) -> None:
    """Deals that agree with everything seat 0 sees (dealt as the expert bot
    deals them: Bob's hand and every other unseen card shuffled) give seat 0
    the same top line, and a spectator too: the words depend on no hidden
    card.  With cards in Bob's hand, they differ from deal to deal."""
    names = ("you", "Bob", "Cy")
    state = played_until(list(names), want, bot=random_bots)  # type: ignore[arg-type]
    view = seat_view(state, 0)
    expected = banner_for(view, names, False).parts
    assert banner_for(seat_view(state, None), names, False).parts == expected
    dealer = Determinizer(view)
    rng = random.Random(7)
    bob_hands = set()
    for _ in range(30):
        deal = dealer.sample(rng)
        assert seat_view(deal, 0).seats == view.seats, "the deal looks the same to seat 0"
        bob_hands.add(tuple(deal.hand[1]))
        assert banner_for(seat_view(deal, 0), names, False).parts == expected
        assert banner_for(seat_view(deal, None), names, False).parts == expected
    assert len(bob_hands) > 1 or not view.seats[1].hand_size


def test_must_draw_is_said_only_when_it_is_so() -> None:
    """Over whole games of random bots, every time another seat reads "must
    draw", the seat to act has the draw as its only move; and whenever its
    own top line says to draw, the others read "must" too."""
    names = ["you", "Bob", "Cy"]
    musts = 0
    for seed in range(12):
        state = dealt(names, first=0, seed=seed)
        bots = [random_bots(seed, s) for s in range(len(names))]
        while not state.over:
            seat = state.seat
            own = seat_view(state, seat)
            other = seat_view(state, (seat + 1) % len(names))
            words = " ".join(p[0] for p in banner_for(other, tuple(names), False).parts)
            forced = own.legal == (DRAW,)
            assert ("must draw" in words) == forced, (seed, words, own.legal)
            own_words = " ".join(p[0] for p in banner_for(own, tuple(names), False).parts)
            assert ("nothing to play: draw (d)" in own_words) == forced, (seed, own_words)
            musts += forced
            state.apply_move(bots[seat].choose_move(own))
    assert musts, "no seat had to draw in these games"


# ------------------------------------------------------------ the replay


@pytest.mark.parametrize("moves_on", [0, 1], ids=["must draw", "drew"])
async def test_the_replay_says_what_the_seat_to_act_owes(moves_on: int) -> None:
    """The replay named the last move and marked the seat to act, but never
    said that it owed extra discards or had to draw: stepping to Ann's
    Clear +2 on her last card showed her empty hand and nothing else."""
    state = played_until(["Ann", "Bob", "Cy"], must_draw, bot=random_bots)
    n = state.extra_discards()
    if moves_on:
        state.apply_move(Move.draw(0))
    record = record_of(state, with_result=False)
    app = create_app(fast_launcher(), StartSpec(mode="replay", record=record, record_name="g"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("end")
        await pilot.pause()
        shown = words_shown(app, app.screen.query_one("#replay-move"))
        expected = f"Next: Ann · {n} extra discards owed"
        if not moves_on:
            expected += " · must draw first"
        assert expected in shown and shown.endswith(expected.split()[-1]), shown
        problems = cut_text(app)
        assert not problems, "\n".join(problems) + "\n" + screen_text(app)
