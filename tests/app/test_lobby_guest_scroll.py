"""A guest who scrolls their lobby keeps the view where they put it.

At 40x15, six seats and the table's words are more than the column: it
scrolls to show the guest's own seat when the lobby first shows.  A guest
who scrolled up to read the table's name or another seat was thrown back
down to their own seat at each change of the lobby (anyone joining or
leaving), every time."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from app_helpers import screen_text, wait_for
from test_lobby_guest_fit import in_sight
from textual import events
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import OptionList

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.launcher import JoinSettings, Launcher
from threeup_tui.netplay.host import NetHost
from threeup_tui.table import Table, TableConfig

OWN = "5. Bo"  # the guest's own row, below four bots


@asynccontextmanager
async def guest_in_a_lobby_of_six() -> AsyncIterator[tuple[Table, ThreeUpApp, Pilot[int]]]:
    """An app at 40x15 seated fifth of six at a table hosted on loopback
    (four bots before it, the sixth seat open); the host is closed after."""
    table = Table(TableConfig(players=6, seed=5, table_name="Friday night"))
    for _ in range(4):
        table.add_bot(None, "greedy")
    host = await NetHost.start(table, "127.0.0.1", 0)
    join = JoinSettings(f"127.0.0.1:{host.address[1]}", "Bo")
    app = create_app(Launcher(announce_address="off"), StartSpec(mode="join", join=join))
    try:
        async with app.run_test(size=(40, 15)) as pilot:
            await wait_for(pilot, lambda: OWN in screen_text(app), what="the own seat in sight")
            yield table, app, pilot
    finally:
        await host.close()


def column(app: ThreeUpApp) -> VerticalScroll:
    screen = app.screen
    assert isinstance(screen, LobbyScreen)
    return screen.query_one("#lobby-main", VerticalScroll)


async def wheel_up(pilot: Pilot[int], app: ThreeUpApp) -> None:
    """The mouse wheel turned up over the column until it is at its top."""
    main = column(app)
    while main.scroll_y:
        await pilot._post_mouse_events([events.MouseScrollUp], widget=main, offset=(2, 2))


async def test_a_guest_who_scrolled_up_stays_there_as_others_come_and_go() -> None:
    async with guest_in_a_lobby_of_six() as (table, app, pilot):
        main = column(app)
        assert main.max_scroll_y, f"nothing to scroll at 40x15:\n{screen_text(app)}"
        assert main.scroll_y, "the column scrolled to the guest's own seat"
        await wheel_up(pilot, app)
        assert "Friday night" in screen_text(app)
        table.add_bot(None, "greedy")  # someone takes the last seat
        await wait_for(pilot, lambda: "6 of 6 taken" in screen_text(app), what="the join")
        await pilot.pause(0.2)
        assert main.scroll_y == 0, f"thrown back down:\n{screen_text(app)}"
        table.remove_seat(None, 5)  # and leaves
        await wait_for(pilot, lambda: "5 of 6 taken" in screen_text(app), what="the leave")
        await pilot.pause(0.2)
        assert main.scroll_y == 0, f"thrown back down:\n{screen_text(app)}"
        table.chat(None, "anyone for a game?", speaker="watcher", name="Cy")  # a watcher chats
        await wait_for(pilot, lambda: "c Chat (1)" in screen_text(app), what="the chat line")
        await pilot.pause(0.2)
        assert main.scroll_y == 0, f"thrown back down:\n{screen_text(app)}"
        assert "Friday night" in screen_text(app)


async def test_a_guest_who_did_not_scroll_keeps_their_seat_in_sight_as_the_lobby_grows() -> None:
    """The host sets a turn time: two more lines above the seats at 40
    columns, which pushed the guest's own row out of sight unless the
    column, still where it was put, follows it down."""
    async with guest_in_a_lobby_of_six() as (table, app, pilot):
        main = column(app)
        placed = main.scroll_y
        table.set_turn_time(None, 30.0)
        await wait_for(pilot, lambda: main.max_scroll_y > placed, what="a longer column")
        await pilot.pause(0.2)
        seats = app.screen.query_one("#seats", OptionList)
        assert in_sight(app, seats), f"the seat list cut:\n{screen_text(app)}"
        assert OWN in screen_text(app) and "(you)" in screen_text(app), screen_text(app)
        # Shorter again (the column's end comes up under the view), then
        # longer: the guest moved nothing, and the list is followed down.
        table.set_turn_time(None, None)
        await wait_for(pilot, lambda: main.max_scroll_y == placed, what="a shorter column")
        await pilot.pause(0.2)
        table.set_turn_time(None, 60.0)
        await wait_for(pilot, lambda: "Turn time: 1 min" in screen_text(app), what="the longer")
        await pilot.pause(0.2)
        assert in_sight(app, seats), f"the seat list cut:\n{screen_text(app)}"
