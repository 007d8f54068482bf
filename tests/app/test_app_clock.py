"""The turn clock: a countdown in the last 10 s of your own clock, a quiet
clock beside the opponent whose time runs, and the set-up clock."""

from __future__ import annotations

from app_fakes import ScriptedClient
from app_helpers import screen_text, wait_for
from app_states import lobby_for
from table_states import open_table, played_until, table_app

from threeup_tui.app.messages import ClockUpdated, NoticeArrived
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.session import clock_words
from threeup_tui.app.widgets.opponent import OpponentPane
from threeup_tui.app.widgets.status import StatusBar
from threeup_tui.client import ConnectionChanged, LobbyChanged, TurnClock, ViewChanged, Welcome
from threeup_tui.rules import GameState, Options, seat_view


def test_events_become_app_messages() -> None:
    from threeup_tui.app.app import _message_for
    from threeup_tui.client import Notice

    assert _message_for(TurnClock(1, 12.5)) == ClockUpdated(1, 12.5)
    assert _message_for(TurnClock(None, None)) == ClockUpdated(None, None)
    assert _message_for(Notice("the bot played R4 for you")) == NoticeArrived(
        "the bot played R4 for you"
    )


def test_clock_words_round_up() -> None:
    assert clock_words(9.2) == "⏱ 10s"
    assert clock_words(3.0) == "⏱ 3s"
    assert clock_words(0.0) == "⏱ 0s"


async def test_your_last_seconds_are_counted_down_on_the_top_line(
    client: ScriptedClient,
) -> None:
    state = played_until(["you", "bot"], lambda s, v: v.my_turn)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        bar = screen.query_one(StatusBar)
        client.emit(TurnClock(0, 30.0))
        await pilot.pause(0.1)
        assert "⏱" not in bar.text  # 30 s left: no countdown yet
        client.emit(TurnClock(0, 2.4))
        await wait_for(pilot, lambda: "⏱ 3s" in bar.text or "⏱ 2s" in bar.text)
        # It counts down on its own between the host's reports.
        await wait_for(pilot, lambda: "⏱ 1s" in bar.text, timeout=3)
        assert "turn" in bar.text  # and the turn number keeps its place
        client.emit(TurnClock(None, None))
        await wait_for(pilot, lambda: "⏱" not in bar.text)


async def test_no_clock_is_counted_down_while_the_link_is_lost(client: ScriptedClient) -> None:
    """A crashed host holds the turn clock until its players are back, and a
    player cut off cannot act anyway: while reconnecting, the app shows no
    time it cannot know (it used to count on to "⏱ 0s"), and the host's next
    report times the clock again."""
    state = played_until(["you", "bot"], lambda s, v: v.my_turn)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        bar = screen.query_one(StatusBar)
        client.emit(TurnClock(0, 1.5))
        await wait_for(pilot, lambda: "⏱ 2s" in bar.text or "⏱ 1s" in bar.text)
        client.emit(ConnectionChanged("reconnecting", "nothing received for 5 s"))
        await wait_for(pilot, lambda: "reconnecting" in screen_text(app))
        await pilot.pause(1.8)  # past the time the clock had when the link was lost
        assert "⏱" not in bar.text
        client.emit(ConnectionChanged("connected", "127.0.0.1:1"))
        client.emit(TurnClock(0, 7.5))  # the host held it: 7.5 s are left
        await wait_for(pilot, lambda: "⏱ 8s" in bar.text or "⏱ 7s" in bar.text)


async def test_an_opponents_clock_shows_quietly_beside_them(client: ScriptedClient) -> None:
    state = played_until(["you", "bot"], lambda s, v: not v.my_turn and v.to_act == 1)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot, client, state)
        client.emit(TurnClock(1, 25.0))
        pane = screen.query_one("#opp-1", OpponentPane)
        await wait_for(
            pilot, lambda: "⏱ 25s" in pane.render().plain or "⏱ 24s" in pane.render().plain
        )
        assert "⏱" not in screen.query_one(StatusBar).text  # not yours: no countdown


async def test_the_set_up_clock_counts_down_too(client: ScriptedClient) -> None:
    state = GameState.new(["you", "bot"], Options(first=0), seed=2)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        client.emit(Welcome(0, True))
        client.emit(LobbyChanged(lobby_for(["you", "bot"])))
        client.emit(ViewChanged(seat_view(state, 0)))
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen) and app.screen.is_mounted)
        client.emit(TurnClock(0, 5.0))
        title = app.screen.query_one("#setup-title")
        await wait_for(pilot, lambda: "left" in str(title.render()) and "⏱" in str(title.render()))
