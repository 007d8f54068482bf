"""The host's lobby on a small terminal: one row a seat, shortened, never
wrapped, and a seat list that does not scroll inside its column.

At 40x15 the host's column kept its chat beside it, 24 cells: the seat
list wrapped "2. seat 2 ○" and "open" onto two rows and scrolled in
itself, a scroll bar's stub beside it.  A real table hosted from the app
(Launcher on loopback), a guest with a long name over UDP."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_helpers import screen_text, wait_for
from netplay_support import LOOPBACK, make_client
from text_fit import region_lines
from textual.containers import VerticalScroll
from textual.widgets import OptionList

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.lobby import LobbyScreen, seat_line
from threeup_tui.app.widgets.fitted import FittedLine
from threeup_tui.client import Lobby, SeatSlot
from threeup_tui.launcher import HostedClient, HostSettings, Launcher
from threeup_tui.rules import Options

LONG = "Aleksandra Konstantinova"  # 24 cells, as long as a name gets
# Its row: at 40 columns the presence word gives way before the name.
GUEST_ROW = {(40, 15): f"5. {LONG} ●", (80, 24): f"5. {LONG}  ● here"}


@pytest.mark.parametrize("size", [(40, 15), (80, 24)], ids=["40x15", "80x24"])
async def test_the_hosts_seat_rows_are_one_line_each(tmp_path: Path, size: tuple[int, int]) -> None:
    launcher = Launcher(announce_address="off")
    settings = HostSettings(players=6, bots=3, name="Ana", port=0, bind=LOOPBACK)
    app = create_app(launcher, StartSpec(mode="host", host=settings))
    guest = None
    try:
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), 20, "the lobby")
            host = app.session.client if app.session is not None else None
            assert isinstance(host, HostedClient) and host.address is not None
            guest = make_client((LOOPBACK, host.address[1]), LONG, tmp_path / "guest.json")
            await guest.start()
            seats = app.screen.query_one("#seats", OptionList)
            await wait_for(pilot, lambda: "Seats: 5 of 6" in screen_text(app), 20, "the guest")
            await pilot.pause(0.2)
            main = app.screen.query_one("#lobby-main", VerticalScroll)
            main.scroll_to_widget(seats, animate=False, immediate=True)
            await pilot.pause(0.2)
            # One line a seat: the list as tall as its seats, scrolling nothing.
            assert seats.virtual_size.height == 6 and not seats.max_scroll_y, screen_text(app)
            text = screen_text(app)
            drawn = [line.strip() for line in region_lines(app, seats.content_region)]
            assert [row[:3] for row in drawn] == [f"{i}. " for i in range(1, 7)], text
            assert drawn[0] == "1. Ana  ● here  (host, you)", text
            assert drawn[4] == GUEST_ROW[size], text
            assert drawn[5] == "6. seat 6  ○ open", text
    finally:
        if guest is not None:
            await guest.close()


def lobby_of(slots: tuple[SeatSlot, ...]) -> Lobby:
    return Lobby(slots, Options(), False, None, True, 0)


@pytest.mark.parametrize("width", [34, 60])
def test_a_seat_the_bot_plays_says_left_or_away_at_40_columns(width: int) -> None:
    """At 40 columns (a 34-cell row) the longest names still say whether the
    bot plays for one who left or one who is away, never a bare "◐"."""
    slots = (
        SeatSlot(0, "Ana", "human", True),
        SeatSlot(1, LONG, "human", False, "greedy"),
        SeatSlot(2, LONG, "human", True, "greedy", away=True),
    )
    lobby = lobby_of(slots)
    left = seat_line(lobby, 1, 0, True, width)
    away = seat_line(lobby, 2, 0, True, width)
    assert left.cell_length <= width and away.cell_length <= width
    assert "◐ left" in left.plain and "◐ away" in away.plain, (left.plain, away.plain)
    assert FittedLine(lambda w: seat_line(lobby, 1, 0, True, w)).at(width).plain == left.plain
