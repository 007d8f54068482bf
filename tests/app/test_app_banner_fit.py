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
from table_states import open_table, played_until, random_bots, table_app
from text_fit import banner_cut_words, cut_text

from threeup_tui.app.widgets.status import StatusBar
from threeup_tui.client import ConnectionChanged, LobbyChanged
from threeup_tui.rules import GameState, View

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
