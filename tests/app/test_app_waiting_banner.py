"""The top line tells everyone what the seat to act is in the middle of.

After a Clear +1 or +2 the same player discards again (D7-D9), and may
draw first (D10).  Both are public (every view carries them), yet every
other player and every spectator read only "Waiting for Ann…": they could
not tell Ann thinking about her turn from Ann owing one more discard.
The pile's box, too, keeps the clear that gave those discards through an
early draw.
"""

from __future__ import annotations

import dataclasses

import pytest
from app_fakes import ScriptedClient
from app_helpers import play_by_keys, screen_text, view_of, wait_for, words_shown
from table_states import open_table, played_until, table_app
from text_fit import cut_text
from textual.pilot import Pilot

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.scenes import SceneLauncher, choose_face_up
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.widgets.move_log import MoveLog
from threeup_tui.app.widgets.pile import PileView
from threeup_tui.app.widgets.status import StatusBar, banner_for
from threeup_tui.bots import GreedyBot
from threeup_tui.rules import GameState, View, seat_view
from threeup_tui.settings import SettingsFile

SIZES = [(80, 24), (60, 18)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]


def owed_words(n: int) -> tuple[str, ...]:
    """The forms that say ``n`` extra discards owed in words ("2 extra
    discards owed", "2 extra owed"): at 80x24 and 60x18 the name is said
    shorter ("Bob's turn") before the debt is cut to "+2 owed"."""
    return (f"{n} extra discard", f"{n} extra owed")


def others_owe(state: GameState, view: View) -> bool:
    """Bob (seat 1) owes extra discards with the early draw open."""
    return view.to_act == 1 and view.extra_discards > 0 and view.draw_open


class SlowBots(SceneLauncher):
    """Bots wait a moment before each move: long enough to read the table."""

    bot_delay = 0.4


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_a_bots_clear_plus_two_shows_on_our_top_line(size: tuple[int, int]) -> None:
    """A real game against greedy bots (seed 3, four players): the seat after
    ours plays a Clear +2 on move 5.  Our top line says it owes two extra
    discards and may draw first; after its early draw, two; then one.  The
    move log labels the extra discards, so the same name four times in a
    row reads as one turn."""
    spec = StartSpec(mode="play", players=4, seed=3, name="you")
    app = create_app(SlowBots(), spec, settings=SettingsFile.in_memory())
    async with app.run_test(size=size) as pilot:
        await _play_until_another_owes(pilot, app)
        view = view_of(pilot)
        assert view.extra_discards == 2 and view.draw_open
        seat = view.to_act
        assert seat is not None and seat != 0
        name = app.session.names()[seat]  # type: ignore[union-attr]
        line = app.screen.query_one(StatusBar).text
        assert name in line, line
        assert any(w in line for w in owed_words(2)), line
        assert "may draw" in line, line
        no_cut(app, f"{name} owes two extra discards")

        # Bob's next moves, each on the line until his turn ends: the early
        # draw closes it (D10), each extra discard takes one off.
        seen = []
        while view.to_act == seat:
            made = view.moves_played
            await wait_for(pilot, lambda m=made: view_of(pilot).moves_played > m, what="a move")
            view = view_of(pilot)
            seen.append(app.screen.query_one(MoveLog).last)
            if view.to_act != seat:
                break
            line = app.screen.query_one(StatusBar).text
            assert any(w in line for w in owed_words(view.extra_discards)), line
            assert ("may draw" in line) == view.draw_open, line
            no_cut(app, f"{name} owes {view.extra_discards}")
        assert seen[0] == f"{name} drew 1 early", seen
        assert seen[1].startswith(f"extra 1 of 2: {name} "), seen
        assert seen[2].startswith(f"extra 2 of 2: {name} "), seen


async def _play_until_another_owes(pilot: Pilot[int], app: ThreeUpApp) -> None:
    """Choose face-up cards and play our turns (by keys, as the greedy bot
    would) until another seat owes extra discards."""
    bot = GreedyBot(1)
    await choose_face_up(pilot, bot)

    def ready() -> bool:
        session = app.session
        view = session.view if session is not None else None
        if view is None or view.phase != "play" or not isinstance(app.screen, TableScreen):
            return False
        return (view.my_turn and view.moves_played > after) or (
            view.to_act != 0 and view.extra_discards > 0
        )

    after = -1
    for _ in range(60):
        await wait_for(pilot, ready, timeout=20, what="our move or a bot's extra discards")
        view = view_of(pilot)
        if not view.my_turn:
            return
        after = view.moves_played
        await play_by_keys(pilot, bot.choose_move(view))
    raise AssertionError("no bot owed extra discards")


def no_cut(app: ThreeUpApp, where: str) -> None:
    problems = cut_text(app)
    assert not problems, f"{where}:\n" + "\n".join(problems) + "\n" + screen_text(app)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("seat", [0, None], ids=["seat", "spectator"])
async def test_a_player_and_a_spectator_read_what_bob_owes(
    client: ScriptedClient, size: tuple[int, int], seat: int | None
) -> None:
    """Bob owes extra discards and may draw: a player waiting and a
    spectator read both on the top line, whole, at 80x24 and at 60x18."""
    state = played_until(["you", "Bob", "Cy"], others_owe)
    n = state.extra_discards()
    app = table_app(client)
    async with app.run_test(size=size) as pilot:
        await open_table(pilot, client, state, seat=seat)
        bar = app.screen.query_one(StatusBar)
        line = words_shown(app, bar)
        assert line == " ".join(bar.text.split())
        assert "Bob" in line and "may draw" in line, line
        assert any(w in line for w in owed_words(n)), line
        assert "YOUR TURN" not in line
        no_cut(app, f"Bob owes {n}, seen by {seat}")
        assert "Bob" in screen_text(app)


def test_the_waiting_words_depend_on_no_hidden_card() -> None:
    """Every seat but Bob's, and a spectator (whose view holds no hidden card
    at all), read the same words; and a view stripped of the viewer's own
    cards and moves gives them too: only public fields make them."""
    state = played_until(["you", "Bob", "Cy"], others_owe)
    names = ("you", "Bob", "Cy")
    spectator = seat_view(state, None)
    expected = banner_for(spectator, names, False).parts
    assert any("owed" in form for part in expected for form in part), expected
    for viewer in (0, 2):
        view = seat_view(state, viewer)
        assert view.hand, "the viewer holds cards of its own"
        assert banner_for(view, names, False).parts == expected
        blank = dataclasses.replace(view, hand=(), legal=(), pickup_reason=None, draw_reason=None)
        assert banner_for(blank, names, False).parts == expected


def test_a_plain_turn_still_reads_waiting_for() -> None:
    """With nothing owed and no draw open, the words are as they were."""
    state = played_until(
        ["you", "Bob"], lambda s, v: v.to_act == 1 and not v.extra_discards and not v.draw_open
    )
    parts = banner_for(seat_view(state, 0), ("you", "Bob"), False).parts
    assert parts == (("Waiting for Bob…", "Bob's turn…"),)


def drew_after_a_clear(state: GameState, view: View) -> bool:
    """Bob cleared with a Clear +1 or +2, drew early, and discards next."""
    log = view.log
    return (
        view.to_act == 1
        and len(log) >= 2
        and log[-1].kind == "draw"
        and log[-2].cleared
        and log[-2].cards[-1][1:] in ("C1", "C2")
    )


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_pile_still_says_who_cleared_it_after_an_early_draw(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    """Bob's Clear +1 or +2 emptied the pile; then he drew early.  The pile's
    box said only "Pile empty · any card may start it", as if his turn were
    new: the clear and the extra discards it gave, the reason Bob plays
    again, were gone while the pile was still as the clear left it."""
    state = played_until(["you", "Bob", "Cy"], drew_after_a_clear)
    rank = seat_view(state, None).log[-2].cards[-1][1:]
    app = table_app(client)
    async with app.run_test(size=size) as pilot:
        await open_table(pilot, client, state, seat=None)
        pile = words_shown(app, app.screen.query_one(PileView))
        assert "CLEARED" in pile and "by Bob" in pile, pile
        assert f"with a Clear +{rank[1]}" in pile, pile
        no_cut(app, "Bob drew after his clear")
