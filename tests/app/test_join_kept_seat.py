"""The join list marks a table that keeps the player's seat, and joins it
under the name the seat is kept for: a player whose app closed mid-game
read "0 of 3 seats free  playing" and nothing else, and ⏎ joined them under
the form's name, a newcomer to a full table."""

from __future__ import annotations

from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import screen_text, wait_for

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.join import JoinScreen
from threeup_tui.launcher import JoinSettings
from threeup_tui.netplay.discovery import TableAnnouncement
from threeup_tui.netplay.tokens import TokenStore
from threeup_tui.settings import SettingsFile

ANA = TableAnnouncement("192.0.2.10", 47823, "Ana's table", 0, 3, False, True, "table-a")
# A table now at an address where this account sat at an older one.
BASEMENT = TableAnnouncement("192.0.2.22", 5000, "basement", 0, 3, False, True, "table-new")


class Lan(ScriptedLauncher):
    def __init__(self) -> None:
        super().__init__(ScriptedClient())
        self.joined: list[JoinSettings] = []

    async def discover(self):  # type: ignore[no-untyped-def,override]
        yield [ANA, BASEMENT]

    async def join(self, settings: JoinSettings):  # type: ignore[no-untyped-def,override]
        self.joined.append(settings)
        return self.client


async def join_from_the_list(name: str, *keys: str) -> tuple[str, JoinSettings]:
    """The join list's text, with ``name`` in the form, and what ``keys``
    (⏎ on the first table, at first) joined with."""
    launcher = Lan()
    app = create_app(launcher, StartSpec(mode="join", join=JoinSettings("", name)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen) and app.screen.found)
        text = screen_text(app)
        await pilot.press(*(keys or ["enter"]))
        await wait_for(pilot, lambda: bool(launcher.joined))
    return text, launcher.joined[0]


async def test_a_table_keeping_the_players_seat_is_marked_and_joined_under_its_name() -> None:
    tokens = TokenStore()
    tokens.remember("192.0.2.10:47823", "Ann", "table-a", "a" * 32, 1)
    tokens.remember("192.0.2.22:5000", "Ann", "table-old", "b" * 32, 0)
    text, joined = await join_from_the_list("Bo")  # Ana's table, highlighted first
    assert "Ana's table" in text and "your seat: Ann" in text
    assert text.count("your seat") == 1  # not the basement's: another table ran there
    assert (joined.address, joined.name) == ("192.0.2.10:47823", "Ann")
    assert SettingsFile().settings.name != "Ann"  # that name was for this join


async def test_a_name_the_seat_is_kept_under_is_joined_as_typed() -> None:
    TokenStore().remember("192.0.2.10:47823", "Ann", "table-a", "a" * 32, 1)
    _, joined = await join_from_the_list("ann", "down", "up", "enter")
    assert joined.name == "ann"  # the same name to the table: the token's
    assert SettingsFile().settings.name == "ann"  # typed (kept) by the player


async def test_seats_kept_under_two_names_are_both_shown_and_the_player_chooses() -> None:
    """Ann's seat and a bot's this account ran with `join --bot --name Cy`:
    both are this account's, and only the player knows which they want."""
    tokens = TokenStore()
    tokens.remember("192.0.2.10:47823", "Ann", "table-a", "a" * 32, 1)
    tokens.remember("192.0.2.10:47823", "Cy", "table-a", "c" * 32, 2)
    text, joined = await join_from_the_list("Bo")
    # One line in the list's cells at 80 columns (it wrapped there), the
    # seats kept next to the name: the seat count goes, as it seats nobody
    # at a game under way.
    assert "Ana's table  your seats: Ann, Cy  192.0.2.10:47823  playing" in text
    assert joined.name == "Bo"  # as typed: the player's to choose
