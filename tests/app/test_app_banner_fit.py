"""The top line shortens by its shorter forms, then drops whole words: it
never cuts a word inside (a word cut and given "…" still passes the screen
check of text_fit.cut_text, so banner_cut_words checks the banner's own
forms)."""

from __future__ import annotations

import dataclasses

import pytest
from app_fakes import ScriptedClient
from app_helpers import screen_text, wait_for, words_shown
from app_states import lobby_for
from table_states import extra_and_draw, open_table, played_until, random_bots, table_app
from text_fit import banner_cut_words, cut_text

from threeup_tui.app.widgets.status import Banner, StatusBar, banner_content, banner_for
from threeup_tui.client import ConnectionChanged, LobbyChanged
from threeup_tui.rules import GameState, View, seat_view
from threeup_tui.rules.actions import DRAW, PICKUP, is_play

LONG = "Wilhelmina Konstantinova"  # 24 cells: the longest name a seat may have
SIZES = [(80, 24), (60, 18)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]


def long_name_may_draw(state: GameState, view: View) -> bool:
    """The long-named seat owes extra discards, the draw open."""
    return view.to_act == 1 and view.draw_open and view.extra_discards > 0


def no_cut(app: object, bar: StatusBar, where: str) -> None:
    problems = cut_text(app) + [f"cut inside: {w!r}" for w in banner_cut_words(bar)]  # type: ignore[arg-type]
    assert not problems, f"{where}:\n" + "\n".join(problems) + "\n" + screen_text(app)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("seat", [0, None], ids=["seat", "spectator"])
async def test_a_long_name_leaves_room_for_the_draw_hint(
    client: ScriptedClient, size: tuple[int, int], seat: int | None
) -> None:
    """A 24-cell name, a spectator watching, 60 columns: the line read
    "Wilhelmina Konstantinova · +1 owed · …" (the draw hint gone to a "…")
    and a narrower one "ma…".  Now the name is said shorter first (it shows
    whole on its own row) and the hint stays whole."""
    names = ["you", LONG, "Cy"]
    state = played_until(names, long_name_may_draw, bot=random_bots)
    app = table_app(client)
    async with app.run_test(size=size) as pilot:
        lobby = dataclasses.replace(lobby_for(names), watching=1)
        await open_table(pilot, client, state, seat=seat, lobby=lobby)
        bar = app.screen.query_one(StatusBar)
        await wait_for(pilot, lambda: "watching" in bar.text, what="the spectator counted")
        line = words_shown(app, bar)
        assert "draw…" in line and "owed" in line and "Wilhelmina" in line, line
        no_cut(app, bar, f"{LONG} owes, at {size}")


@pytest.mark.parametrize("watching", [0, 2])
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_a_stopped_host_is_said_in_whole_words(
    client: ScriptedClient, size: tuple[int, int], watching: int
) -> None:
    """ "⚠ closed: the host stopped in the middle of the game: it may resume
    the table" was cut "…in the middle of the game: it m…" at 80 columns
    and "…the host stopped in the midd…" at 60.  Its last clause goes first,
    then whole words."""
    names = ["you", "Bob"]
    state = played_until(names, lambda s, v: v.to_act == 1)
    app = table_app(client)
    async with app.run_test(size=size) as pilot:
        lobby = dataclasses.replace(lobby_for(names), watching=watching)
        await open_table(pilot, client, state, lobby=lobby)
        client.emit(LobbyChanged(lobby))
        detail = "the host stopped in the middle of the game: it may resume the table"
        client.emit(ConnectionChanged("closed", detail))
        bar = app.screen.query_one(StatusBar)
        await wait_for(pilot, lambda: "closed" in bar.text, what="the closed table")
        assert "⚠ closed: the host" in words_shown(app, bar), bar.text
        no_cut(app, bar, f"closed at {size}")


NARROW_SIZES = [(50, 16), (40, 15)]
NARROW_IDS = [f"{w}x{h}" for w, h in NARROW_SIZES]


@pytest.mark.parametrize("size", NARROW_SIZES, ids=NARROW_IDS)
async def test_the_draw_hint_outlasts_the_count_of_watchers(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    """With a spectator watching, at 50 columns the line read "Wilhelm… ·
    +1 owed…": the name cut to 8 cells and the draw hint gone, for the
    sake of "1 watching".  What the seat to act owes matters more than the
    tail of its name (whole on its own row, which the ▶ marks), and both
    more than the count of watchers, which goes first; at 40 columns the
    name goes down to "Wilhe…" rather than lose the hint."""
    names = ["you", LONG, "Cy"]
    state = played_until(names, long_name_may_draw, bot=random_bots)
    app = table_app(client)
    async with app.run_test(size=size) as pilot:
        lobby = dataclasses.replace(lobby_for(names), watching=1)
        await open_table(pilot, client, state, lobby=lobby)
        bar = app.screen.query_one(StatusBar)
        await wait_for(pilot, lambda: bar.banner is not None and bar.banner.watching == 1)
        await pilot.pause()
        line = words_shown(app, bar)
        assert "Wilhe" in line and "owed" in line and "draw…" in line, line
        assert line.endswith(f"turn {bar.banner.turn}"), line
        no_cut(app, bar, f"{LONG} owes, at {size}")


@pytest.mark.parametrize("size", NARROW_SIZES, ids=NARROW_IDS)
async def test_a_lost_link_is_said_in_words_at_40_and_50_columns(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    """Our turn, two watching, the link lost for some seconds: at 40
    columns the line read "Y…  ⚠ reconnecting…  2 watching  turn 5", the
    turn's words cut to a letter and the trouble to a "…".  The count of
    watchers goes first, then the trouble's detail: the state is said
    whole ("⚠ reconnecting"), and so is "YOUR TURN"."""
    names = ["you", "Bob"]
    state = played_until(names, lambda s, v: v.my_turn and v.turn > 3)
    app = table_app(client)
    async with app.run_test(size=size) as pilot:
        lobby = dataclasses.replace(lobby_for(names), watching=2)
        await open_table(pilot, client, state, lobby=lobby)
        client.emit(ConnectionChanged("reconnecting", "nothing received for 5 s"))
        bar = app.screen.query_one(StatusBar)
        await wait_for(pilot, lambda: "reconnecting for" in (bar.banner or Banner).connection)
        line = words_shown(app, bar)
        assert "YOUR TURN" in line and "⚠ reconnecting" in line, line
        no_cut(app, bar, f"the link lost, at {size}")


def must_pick_up(state: GameState, view: View) -> bool:
    """Our turn, no card that can go: picking up is the one move."""
    return view.my_turn and view.legal == (PICKUP,) and bool(view.hand)


@pytest.mark.parametrize("size", NARROW_SIZES, ids=NARROW_IDS)
async def test_the_one_move_outlasts_where_cards_would_come_from(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    """With no card to play, at 50 columns the line read "YOUR TURN · from
    hand onto 9…": where cards would come from kept, "pick up (u)", the
    one move there was, gone.  The pick-up stays; "from hand" goes."""
    state = played_until(["you", "Bob", "Cy", "Dee"], must_pick_up)
    app = table_app(client)
    async with app.run_test(size=size) as pilot:
        await open_table(pilot, client, state)
        bar = app.screen.query_one(StatusBar)
        line = words_shown(app, bar)
        assert "YOUR TURN" in line and "pick up" in line, line
        no_cut(app, bar, f"must pick up, at {size}")


def extras_on_an_empty_pile(state: GameState, view: View) -> bool:
    """Our turn after a Clear +1 or +2: a discard owed, the draw open."""
    return extra_and_draw(state, view) and not view.pile


@pytest.mark.parametrize("size", [(60, 18), *NARROW_SIZES], ids=["60x18", *NARROW_IDS])
async def test_the_discard_owed_outlasts_any_card_from_hand(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    """After our Clear +1, at 60 columns the line read "YOUR TURN · any
    card from hand · +1 owed…" (the early draw gone) and at 40 "YOUR
    TURN…": "any card from hand" outlasted the discard owed, which the
    line alone says.  Where cards come from goes first now."""
    state = played_until(["you", "Bob", "Cy", "Dee"], extras_on_an_empty_pile)
    app = table_app(client)
    async with app.run_test(size=size) as pilot:
        await open_table(pilot, client, state)
        bar = app.screen.query_one(StatusBar)
        line = words_shown(app, bar)
        assert "YOUR TURN" in line and "owed" in line, line
        if size[0] >= 50:
            assert "may draw" in line, line
        no_cut(app, bar, f"extra owed, at {size}")


@pytest.mark.parametrize("width", [40, 50])
def test_your_turn_is_never_cut_to_make_room_for_the_trouble(width: int) -> None:
    """Our draw owed after a Clear +2, the link lost: the trouble took the
    room the first part needed with no room for the "…" after it, and the
    line read "YOUR…  ⚠ reconnecting: the host…"."""
    names = ("you", "Bob", "Cy")
    state = played_until(list(names), must_draw_now, bot=random_bots)
    banner = banner_for(
        seat_view(state, 0), names, False, "reconnecting", "the host does not answer"
    )
    text = banner_content(banner, width).plain
    assert text.startswith("YOUR TURN") and "⚠ reconnecting" in text, text


def must_draw_now(state: GameState, view: View) -> bool:
    return view.my_turn and view.legal == (DRAW,) and view.extra_discards > 0


def my_turn_from_hand(state: GameState, view: View) -> bool:
    """Our turn from the hand, nothing owed, no draw, from turn 10 on."""
    return (
        view.my_turn
        and view.source == "hand"
        and not view.extra_discards
        and not view.can_draw()
        and any(is_play(a) for a in view.legal)
        and view.turn >= 10
    )


@pytest.mark.parametrize("pile", ["empty", "a 10 on top"])
async def test_where_to_play_is_said_at_40_columns(client: ScriptedClient, pile: str) -> None:
    """At 40x15, our turn after someone's clear read "YOUR TURN…" with 20
    cells to spare: "any card from hand", its shortest form, was one cell
    too long.  Shorter still, "any card" and "onto 10" fit."""

    def want(state: GameState, view: View) -> bool:
        if not my_turn_from_hand(state, view):
            return False
        return not view.pile if pile == "empty" else view.top_rank == 10

    state = played_until(["you", "Bob", "Cy", "Dee"], want)
    app = table_app(client)
    async with app.run_test(size=(40, 15)) as pilot:
        await open_table(pilot, client, state)
        bar = app.screen.query_one(StatusBar)
        line = words_shown(app, bar)
        assert ("any card" if pile == "empty" else "onto 10") in line, line
        no_cut(app, bar, f"our turn, the pile {pile}, at 40x15")
