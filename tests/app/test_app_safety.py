"""Untrusted text (names, chat, table names) is shown literally, never as markup."""

from __future__ import annotations

from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import screen_text, wait_for
from app_states import HOSTILE, HOSTILE_SHOWN, dealt, lobby_for, seat_events

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.scenes import Announcement
from threeup_tui.app.screens.confirm import ConfirmScreen
from threeup_tui.app.screens.join import JoinScreen
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.text import clean, plain
from threeup_tui.client import ChatReceived, LobbyChanged, Welcome
from threeup_tui.launcher import JoinSettings


def test_clean_removes_control_and_format_characters() -> None:
    assert clean(HOSTILE) == HOSTILE_SHOWN
    assert clean("a\u202eb\u200bc\r\nd\te") == "abc d e"  # bidi override, zero width, newlines
    assert clean("x" * 500, 10) == "x" * 10
    assert plain(HOSTILE).plain == HOSTILE_SHOWN
    assert plain(HOSTILE).spans == []  # no style came out of the text


async def test_hostile_name_and_chat_render_literally(client: ScriptedClient) -> None:
    # The hostile player moves first, so the move log names them too.
    state = dealt(["you", HOSTILE], first=1)
    state.apply(state.legal_actions()[0])
    app = create_app(ScriptedLauncher(client), StartSpec(mode="play"))
    async with app.run_test(size=(120, 40)) as pilot:
        for event in seat_events(state, 0):
            client.emit(event)  # type: ignore[arg-type]
        client.emit(ChatReceived(1, HOSTILE, HOSTILE))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: len(app.session.chat) == 1 if app.session else False)
        await pilot.pause()
        text = screen_text(app)
        assert "\x1b" not in text and "\x07" not in text
        # Opponent pane, move log and chat line each show the name as typed,
        # and the chat line its text (wrapped in the chat's width).
        assert text.count(HOSTILE_SHOWN) >= 4, text
        assert f"{HOSTILE_SHOWN}:" in text


async def test_names_and_chat_from_a_host_are_cut_by_display_width(
    client: ScriptedClient,
) -> None:
    """Our host cuts names to 24 cells and chat to 200; another host may
    not.  The app cut them to 24 and 200 *characters*: 24 wide characters
    took 48 cells, and a name pushed everything beside it out of its box."""
    wide_name, wide_text = "山" * 40, "田" * 300
    state = dealt(["you", wide_name], first=1)
    app = create_app(ScriptedLauncher(client), StartSpec(mode="play"))
    async with app.run_test(size=(120, 40)) as pilot:
        for event in seat_events(state, 0):
            client.emit(event)  # type: ignore[arg-type]
        client.emit(ChatReceived(1, wide_name, wide_text))
        await wait_for(pilot, lambda: len(app.session.chat) == 1 if app.session else False)
        line = app.session.chat[0] if app.session else None
        assert line is not None
        assert (line.name, line.text) == ("山" * 12, "田" * 100)
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)
        await pilot.pause()
        text = screen_text(app)
        assert "山" * 12 in text and "山" * 13 not in text


async def test_the_host_is_told_that_leaving_closes_the_table(client: ScriptedClient) -> None:
    app = create_app(ScriptedLauncher(client), StartSpec(mode="host"))
    async with app.run_test(size=(80, 24)) as pilot:
        client.emit(Welcome(0, True, "Ann"))
        client.emit(LobbyChanged(lobby_for(["Ann", "Bob"], started=False)))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.is_mounted)
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "it closes for everyone" in screen_text(app)


async def test_hostile_names_in_lobby_and_discovery(client: ScriptedClient) -> None:
    names = ["you", HOSTILE]
    app = create_app(ScriptedLauncher(client), StartSpec(mode="host"))
    async with app.run_test(size=(100, 30)) as pilot:
        client.emit(Welcome(0, True, HOSTILE))
        client.emit(LobbyChanged(lobby_for(names, started=False)))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.is_mounted)
        await pilot.pause()
        text = screen_text(app)
        assert HOSTILE_SHOWN in text and "\x1b" not in text

    class Lan(ScriptedLauncher):
        async def discover(self):  # type: ignore[no-untyped-def,override]
            yield [Announcement("192.0.2.1", 47823, HOSTILE, 1, 2)]

    app = create_app(Lan(client), StartSpec(mode="join", join=JoinSettings("")))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, JoinScreen) and len(app.screen.found) == 1
        )
        await pilot.pause()
        assert HOSTILE_SHOWN in screen_text(app)
