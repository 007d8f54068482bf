"""A table of the join list is one line at 80 columns and below: a long
table name wrapped its row at 80 columns ("… 3 of 3" and "seats free  code
needed" under it), so the list read as more tables than it had.  The row
keeps which table, its address and its seats; its words and then the
table's name step down, the name cut at a word with "…"."""

from __future__ import annotations

import pytest
from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import screen_text, wait_for
from text_fit import cut_text, region_lines
from textual.widgets import OptionList

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.join import JoinScreen, announcement_prompt
from threeup_tui.launcher import JoinSettings
from threeup_tui.netplay.discovery import TableAnnouncement

# A name as long as a host may give (24 letters) and the "'s table" after it.
LONG = TableAnnouncement(
    "192.0.2.10", 47823, "Bartholomew Fitzwilliams's table", 3, 3, True, False, "table-a"
)
SHORT = TableAnnouncement("192.0.2.22", 5000, "Cy's table", 2, 4, False, False, "table-b")


class Lan(ScriptedLauncher):
    def __init__(self) -> None:
        super().__init__(ScriptedClient())

    async def discover(self):  # type: ignore[no-untyped-def,override]
        yield [LONG, SHORT]


def list_rows(screen: JoinScreen) -> list[str]:
    """The list's rows as drawn, one string per line of the list."""
    region = screen.query_one("#found", OptionList).content_region
    return [text.strip() for text in region_lines(screen.app, region) if text.strip()]


@pytest.mark.parametrize("size", [(80, 24), (60, 18), (50, 16), (40, 15)])
async def test_each_table_is_one_line_that_keeps_its_address_and_seats(
    size: tuple[int, int],
) -> None:
    app = create_app(Lan(), StartSpec(mode="join", join=JoinSettings("", "Bo")))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen) and app.screen.found)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, JoinScreen)
        rows = list_rows(screen)
        assert len(rows) == 2, rows  # a line per table, not a wrapped one
        long, short = rows
        assert long.startswith("Barthol") and "192.0.2.10:47823" in long
        if size[0] >= 50:
            assert "3/3 free" in long or "3 of 3 seats free" in long
            assert short.startswith("Cy's table  192.0.2.22:5000  2")
            assert "2/4 free" in short or "2 of 4 seats free" in short
        else:  # 30 cells: the seats go, and a "…" says so
            assert long.endswith("192.0.2.10:47823…") and short.endswith("192.0.2.22:5000…")
        # The list's title wraps (it ran past the form's edge at 40 columns).
        assert "⏎ to join):" in " ".join(screen_text(app).split()), screen_text(app)
        if size == (80, 24):
            assert long.startswith("Bartholomew Fitzwilliams's…  192.0.2.10:47823  3/3 free")
            assert short == "Cy's table  192.0.2.22:5000  2 of 4 seats free"
        assert cut_text(app) == []


async def test_rows_are_fitted_again_when_the_terminal_narrows() -> None:
    app = create_app(Lan(), StartSpec(mode="join", join=JoinSettings("", "Bo")))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen) and app.screen.found)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, JoinScreen)
        assert list_rows(screen)[0].startswith("Bartholomew Fitzwilliams's…  192.0.2.10")
        await pilot.resize_terminal(50, 16)
        await pilot.pause()
        await pilot.pause()
        rows = list_rows(screen)
        assert len(rows) == 2 and rows[0].startswith("Barthol"), rows
        assert "…  192.0.2.10:47823  3/3 free" in rows[0]


@pytest.mark.parametrize("cells", [62, 50, 40])
def test_a_kept_seat_stays_whole_when_the_row_has_no_room(cells: int) -> None:
    """A table whose game goes on with a room code, at an address as long as
    an IPv4 one gets, keeping this player's seat: the kept seat is what the
    row is for, and it stays whole (at 40 cells it was dropped: "Bartholomew…
    fd00::1234:5678:47823  playing…"); the code, the seats, then the
    address give way, a "…" saying so, never after the kept name."""
    table = TableAnnouncement(
        "203.115.215.125", 47823, "Bartholomew Fitzwilliams's table", 0, 6, True, True, "t"
    )
    row = announcement_prompt(table, ["Ann"], cells)
    assert row.cell_length <= cells, row.plain
    assert row.plain.startswith("Bartholom") and "  your seat: Ann" in row.plain, row.plain
    assert not row.plain.endswith("Ann…"), row.plain
    if cells == 62:
        assert row.plain.endswith("203.115.215.125:47823  playing…"), row.plain
