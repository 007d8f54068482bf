"""A guest's lobby on a small terminal: what they wait for and their own
seat in sight without scrolling, and the chat a c away."""

from __future__ import annotations

from dataclasses import replace

import pytest
from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import screen_text, wait_for
from app_states import lobby_for
from text_fit import cut_text
from textual.widgets import OptionList, Static

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.scenes import scene
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.client import LobbyChanged, SeatSlot, Welcome
from threeup_tui.launcher import JoinSettings


def in_sight(app: object, widget: Static | OptionList) -> bool:
    """Whether all of ``widget`` is on screen, where it is, without scrolling."""
    region = widget.region
    clip = app.screen.find_widget(widget).clip  # type: ignore[attr-defined]
    return bool(region.height) and clip.contains_region(region)


@pytest.mark.parametrize("size", [(40, 15), (50, 16)], ids=["40x15", "50x16"])
async def test_a_small_guest_lobby_shows_the_wait_and_the_seat_and_chats_on_c(
    size: tuple[int, int],
) -> None:
    """At 40x15 the chat kept its 32 cells (or 40%) beside a 24-cell
    column: the seats wrapped in two lines each and "Waiting for the host
    to start the game…" was scrolled out of sight (at 50x16 too).  Under
    the table's 60 columns a guest's chat gives its room to the column, and
    c brings it in the column's place while a line is written."""
    lobby_scene = scene("lobby-guest", rules_text=None)
    app = lobby_scene.app()
    async with app.run_test(size=size) as pilot:
        await lobby_scene.drive(pilot)
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        shown = screen_text(app)
        wait = screen.query_one("#lobby-wait", Static)
        seats = screen.query_one("#seats", OptionList)
        assert in_sight(app, wait) and in_sight(app, seats), shown
        assert "Waiting for the host" in shown and "(you)" in shown, shown
        assert not seats.max_scroll_y, f"the seats scroll:\n{shown}"
        assert not cut_text(app), cut_text(app)

        await pilot.press("c", "h", "i")
        await wait_for(pilot, lambda: "Ana: welcome!" in screen_text(app), what="the chat")
        assert "Waiting for the host" not in screen_text(app)  # in the column's place
        assert not cut_text(app), cut_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Bo: hi" in screen_text(app), what="the line said")
        await pilot.press("enter")  # an empty line: the column is back
        await wait_for(pilot, lambda: "Waiting for the host" in screen_text(app))
        assert "Ana: welcome!" not in screen_text(app)


@pytest.mark.parametrize("size", [(40, 15), (50, 16)], ids=["40x15", "50x16"])
async def test_a_small_guest_lobby_of_six_seats_and_a_turn_time_shows_the_wait(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    """A dedicated host's six seats, its turn time and "No room code: ..."
    (two lines each at 40 columns) scrolled "The game starts once every
    seat is taken" out of sight at 40x15, the chat already out of the
    way: narrow, the wait goes above the seats, and short, the title keeps
    no blank line under it, so the wait and the guest's seat show."""
    names = ["greedy bot 1", "you", "seat 3", "seat 4", "seat 5", "seat 6"]
    seats = tuple(
        SeatSlot(i, name, "human" if i == 1 else "bot" if i == 0 else "open", True, None)
        for i, name in enumerate(names)
    )
    lobby = replace(lobby_for(names, started=False), seats=seats, host_seat=None, turn_time=30.0)
    app = create_app(ScriptedLauncher(client), StartSpec(mode="join", join=JoinSettings("h")))
    async with app.run_test(size=size) as pilot:
        client.emit(Welcome(1, False))
        client.emit(LobbyChanged(lobby))
        await wait_for(pilot, lambda: "Turn time: 30 s" in screen_text(app), what="the lobby")
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        shown = screen_text(app)
        wait = screen.query_one("#lobby-wait", Static)
        assert in_sight(app, wait), shown
        assert "2. you  ● here  (you)" in shown, shown  # their seat, on screen
        assert not cut_text(app), cut_text(app)


LONG = ["Annabelle Longname", "greedy bot 2", "Cyrus Verylongname", "Diane Longername"]


@pytest.mark.parametrize(
    ("turn_time", "names"),
    [
        (None, ["Ann", "greedy bot 2", "Cy", "Di", "Ed", "Bo"]),
        (30.0, ["Ann", "greedy bot 2", "Cy", "Di", "Ed", "Bo"]),
        (30.0, [*LONG, "Edward Longname", "Bo Longname Here Twenty"]),
    ],
    ids=["no-turn-time", "turn-time", "long-names"],
)
async def test_a_guest_seated_sixth_of_six_sees_their_own_seat_at_40x15(
    client: ScriptedClient, turn_time: float | None, names: list[str]
) -> None:
    """Seated sixth of six at 40x15, under the table's name, its words on
    room codes, the turn time and the wait, a guest's own row was below
    the column's end: "6. Bo ● here (you)" out of sight, and nothing said
    they were seated; with long names (two rows each) the seat list also
    scrolled it out of sight within itself.  It shows when the lobby is
    drawn, when it changes, and after the terminal narrows to 40x15."""
    seats = tuple(
        SeatSlot(i, name, "human" if i in (0, 2, 3, 4, 5) else "bot", True, None)
        for i, name in enumerate(names)
    )
    lobby = replace(lobby_for(names, started=False), seats=seats, turn_time=turn_time)
    app = create_app(ScriptedLauncher(client), StartSpec(mode="join", join=JoinSettings("h")))
    own = "(you)"  # on the guest's own row, the sixth: "6. Bo  ● here  (you)"
    async with app.run_test(size=(40, 15)) as pilot:
        client.emit(Welcome(5, False))
        client.emit(LobbyChanged(lobby))
        await wait_for(pilot, lambda: own in screen_text(app), what=f"the seat: {screen_text(app)}")
        assert f"6. {names[5][:10]}" in screen_text(app), screen_text(app)
        left = replace(seats[2], name="seat 3", kind="open", connected=False)
        client.emit(LobbyChanged(replace(lobby, seats=(*seats[:2], left, *seats[3:]))))
        await wait_for(pilot, lambda: "3. seat 3" in screen_text(app), what="the change")
        assert own in screen_text(app), screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.resize_terminal(40, 15)
        await wait_for(pilot, lambda: own in screen_text(app), what=f"the seat: {screen_text(app)}")
