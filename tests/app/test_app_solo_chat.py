"""A game against bots here has no chat: only bots share the table, and
they never say a word.  Its set-up and table showed a chat box nobody
would write in, and offered c; their room goes to the cards and the
moves.  A table with people (a host's, here) keeps its chat."""

from __future__ import annotations

import pytest
from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import fast_launcher, screen_text, wait_for, wait_for_setup
from app_states import lobby_for
from text_fit import footer_keys
from textual.app import App

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.widgets.chat import ChatPane
from threeup_tui.client import LobbyChanged, ViewChanged, Welcome
from threeup_tui.rules import GameState, Options, seat_view

SIZES = [(80, 24), (40, 15)]


def chat_shown(app: App[object]) -> bool:
    """Whether the screen's chat box is laid out (in sight)."""
    return any(pane.region.area > 0 for pane in app.screen.query(ChatPane))


def offers_chat(app: App[object]) -> bool:
    return any(key.startswith("c Chat") for key in footer_keys(app))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "40x15"])
async def test_a_game_against_bots_has_no_chat_and_no_c(size: tuple[int, int]) -> None:
    app = create_app(fast_launcher(), StartSpec(mode="play", players=3, seed=4))
    async with app.run_test(size=size) as pilot:
        setup = await wait_for_setup(pilot)
        assert not chat_shown(app), screen_text(app)
        assert "Chat" not in screen_text(app), screen_text(app)
        assert not offers_chat(app), footer_keys(app)
        await pilot.press("c")  # and the key does nothing
        await pilot.pause()
        assert not setup.focus_in_chat() and not chat_shown(app)
        # The cards take the chat's room: the set-up's column is the screen's width.
        main = setup.query_one("#setup-main")
        assert main.region.width == size[0], main.region
        await pilot.press("1", "2", "3", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        table = app.screen
        assert isinstance(table, TableScreen)
        await wait_for(pilot, lambda: table.laid_out, what="the table laid out")
        assert not chat_shown(app), screen_text(app)
        assert "Chat" not in screen_text(app), screen_text(app)
        assert not offers_chat(app), footer_keys(app)
        await pilot.press("c")
        await pilot.pause()
        assert not table.focus_in_chat() and not chat_shown(app)
        if size == (80, 24):
            # The moves take the whole side, where the chat had its half.
            side, moves = table.query_one("#side"), table.query_one("#moves")
            assert moves.region.height == side.region.height > 0, (moves.region, side.region)


async def test_a_table_with_people_keeps_its_chat(client: ScriptedClient) -> None:
    state = GameState.new(["you", "Bo"], Options(first=0), seed=2)
    app = create_app(ScriptedLauncher(client), StartSpec(mode="host"))
    async with app.run_test(size=(80, 24)) as pilot:
        client.emit(Welcome(0, True))
        client.emit(LobbyChanged(lobby_for(["you", "Bo"])))
        client.emit(ViewChanged(seat_view(state, 0)))
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: chat_shown(app), what="the chat")
        assert offers_chat(app), footer_keys(app)
        await pilot.press("c")
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        await wait_for(pilot, screen.focus_in_chat, what="the chat's line")
