"""A player whose turns timed out three times in a row is marked away: the
bot plays their seat at once until they act.  At a real table on loopback,
the player's app (Pilot, 80x24, joined over UDP) says so on its top line,
and a key of theirs gives them the seat back.

Before, nothing on their screen said it (the notice passed in the status
line), and no key of theirs reached the table: a move out of turn was
refused by the app itself, a card chosen stayed in the app, and on the
seat's turn the bot had played before a key could.  Only a chat line
brought the seat back, and nothing said so."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from app_helpers import screen_text, wait_for, words_shown
from netplay_support import LOOPBACK, free_udp_port, start_host
from textual.pilot import Pilot
from textual.widgets import Static

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.game_over import GameOverScreen
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.widgets.status import StatusBar
from threeup_tui.launcher import HostedClient, HostSettings, JoinSettings, Launcher
from threeup_tui.rules import Phase
from threeup_tui.table import Table, TableConfig, TableRunner


def my_turn(app: ThreeUpApp) -> bool:
    session = app.session
    return session is not None and session.view is not None and session.view.my_turn


def banner_of(app: ThreeUpApp) -> str:
    """The table's top line, as shown (empty on any other screen)."""
    screen = app.screen
    return screen.query_one(StatusBar).text if isinstance(screen, TableScreen) else ""


@asynccontextmanager
async def bo_away(
    tmp_path: Path,
    players: int = 2,
    turn_time: float = 0.3,
    bot_delay: float = 0.02,
    notifications: bool = False,
    size: tuple[int, int] = (80, 24),
) -> AsyncIterator[tuple[Pilot[int], ThreeUpApp, Table, int]]:
    """A real table on loopback (a greedy bot in the first seat, Cy seated
    and idle at three players) whose turn clock runs out Bo's turns: Bo's
    app (joined over UDP, ``size``) once the table has marked Bo away."""
    table = Table(
        TableConfig(
            players=players,
            seed=5,
            auto_start=True,
            journal=tmp_path / "journal.json",
            turn_time=turn_time,
            bot_delay=bot_delay,
            takeover_after=600.0,
        )
    )
    table.add_bot(None, "greedy")
    if players > 2:
        table.seat_human("Cy")  # connected, and idle until the test says
    host = await start_host(table)
    runner = TableRunner(table)  # the bots, and the turn clock
    runner.start()
    join = JoinSettings(f"{LOOPBACK}:{host.address[1]}", "Bo")
    app = create_app(
        Launcher(announce_address="off", listen_port=free_udp_port()),
        StartSpec(mode="join", join=join),
    )
    try:
        async with app.run_test(size=size, notifications=notifications) as pilot:
            assert isinstance(app, ThreeUpApp)
            bo = next(i for i, seat in enumerate(table.seats) if seat.name == "Bo")
            await wait_for(pilot, lambda: table.seats[bo].away, 30, "Bo's turns timed out")
            yield pilot, app, table, bo
    finally:
        await runner.stop()
        await host.close()


async def test_an_away_player_is_told_so_and_a_key_gives_the_seat_back(tmp_path: Path) -> None:
    slow = bo_away(tmp_path, turn_time=0.4, bot_delay=0.2, notifications=True)
    async with slow as (pilot, app, table, bo):
        # No more time-outs, and a slower bot: the game lasts the test.
        table.config.turn_time = None
        table.config.bot_delay = 1.0

        def banner() -> str:
            return banner_of(app)

        await wait_for(pilot, lambda: "You are away" in banner(), 10, "the away banner")
        assert "any key to play again" in banner(), banner()
        assert "greedy bot plays for you" in screen_text(app), screen_text(app)
        assert table.seats[bo].away  # the banner alone gives nothing back
        # Bo's turn, which the bot plays (a second later): no "Your turn"
        # calls Bo to it, nor rings.
        await wait_for(pilot, lambda: my_turn(app), 20, "a turn of Bo's, away")
        await pilot.pause(0.3)
        assert "Your turn" not in screen_text(app), screen_text(app)

        await pilot.press("right")  # a key that moves the cursor, nothing more
        await wait_for(pilot, lambda: not table.seats[bo].away, 10, "Bo's seat back")
        await wait_for(pilot, lambda: "away" not in banner(), 10, "the banner of the game")
        assert table.seats[bo].bot is None


async def test_the_hosts_own_seat_comes_back_on_a_key_too() -> None:
    """The host's app plays its seat in this process (as the SSH door's
    guests do): a key there gives the seat back the same way."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0.2
    settings = HostSettings(players=2, name="Hana", port=0, bind=LOOPBACK, turn_time=0.4)
    app = create_app(launcher, StartSpec(mode="host", host=settings))
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app, ThreeUpApp)
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), 20, "the lobby")
        client = app.session.client if app.session is not None else None
        assert isinstance(client, HostedClient)
        table = client.table
        await pilot.press("a")  # a bot in seat 2
        await wait_for(pilot, lambda: table.seats[1].bot is not None, 10, "the bot seated")
        await pilot.press("s")
        await wait_for(pilot, lambda: table.seats[0].away, 30, "Hana's turns timed out")
        table.config.turn_time = None
        table.config.bot_delay = 1.0
        await wait_for(pilot, lambda: "You are away" in banner_of(app), 10, "the away banner")
        await pilot.press("right")
        await wait_for(pilot, lambda: not table.seats[0].away, 10, "Hana's seat back")
        await wait_for(pilot, lambda: "away" not in banner_of(app), 10, "the game's banner")
        await pilot.press("q")


def title_of(app: ThreeUpApp) -> str:
    """The set-up's title, as shown (empty on any other screen)."""
    screen = app.screen
    if not isinstance(screen, SetupScreen):
        return ""
    return words_shown(app, screen.query_one("#setup-title"))


@asynccontextmanager
async def away_at_the_next_set_up(
    tmp_path: Path, bot_delay: float
) -> AsyncIterator[tuple[Pilot[int], ThreeUpApp, Table, int]]:
    """Bo marked away in game 1 (:func:`bo_away`, three players); Cy, here,
    asks for game 2, which deals while Bo is still away: Bo's app at its
    set-up.  The table's bots then take ``bot_delay`` to act."""
    async with bo_away(tmp_path, players=3) as (pilot, app, table, bo):
        cy = next(i for i, seat in enumerate(table.seats) if seat.name == "Cy")

        def over() -> bool:
            return table.state is not None and table.state.phase == Phase.OVER

        await wait_for(pilot, over, 60, "game 1 played out by the bots")
        table.config.turn_time = None
        table.config.bot_delay = bot_delay
        table.seat_active(cy)  # Cy is back (the bot played their seat too)
        table.rematch(cy)  # and asks: Bo, away, is not waited for
        await wait_for(pilot, lambda: table.game_number == 2, 10, "game 2")
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen), 10, "the set-up")
        assert table.seats[bo].away
        yield pilot, app, table, bo


async def test_an_away_player_whose_cards_the_bot_laid_is_told_so_at_the_set_up(
    tmp_path: Path,
) -> None:
    """The bot lays an away player's cards at once: their set-up said
    "Choose 3 cards", showed three cards they never chose, and no key of
    theirs reached the table."""
    async with away_at_the_next_set_up(tmp_path, 0.02) as (pilot, app, table, bo):
        assert table.state is not None
        await wait_for(pilot, lambda: table.state.setup[bo] is not None, 10, "Bo's cards laid")

        def title() -> str:
            return title_of(app)

        await wait_for(pilot, lambda: "You are away" in title(), 10, "the away line")
        assert "any key to play again" in title(), title()
        assert "the greedy bot laid your cards" in title(), title()
        assert "Choose 3 cards" not in screen_text(app)
        await pilot.pause(0.3)
        assert table.seats[bo].away  # the line alone gives nothing back

        await pilot.press("right")  # a key that moves the cursor, nothing more
        await wait_for(pilot, lambda: not table.seats[bo].away, 10, "Bo's seat back")
        await wait_for(pilot, lambda: "away" not in title(), 10, "the set-up's own title")
        # The bot laid them: the title says so, not "Choose 3 cards" above them.
        assert "Your face-up cards" in title(), title()
        assert table.seats[bo].bot is None  # the game's turns are Bo's


async def test_an_away_player_back_before_the_bot_laid_lays_their_own_cards(
    tmp_path: Path,
) -> None:
    """Back before the bot has laid them (it waits, so that people can
    follow), a key gives the seat back and the player chooses: the key that
    came back chooses too."""
    async with away_at_the_next_set_up(tmp_path, 600.0) as (pilot, app, table, bo):
        await wait_for(pilot, lambda: "You are away" in title_of(app), 10, "the away line")
        assert "the greedy bot lays your cards" in title_of(app), title_of(app)
        session = app.session
        assert session is not None and session.view is not None
        six = session.view.hand
        await pilot.press("1")
        await wait_for(pilot, lambda: not table.seats[bo].away, 10, "Bo's seat back")
        await wait_for(pilot, lambda: "Choose 3 cards" in title_of(app), 10, "the title")
        await pilot.press("2", "3", "enter")

        def laid() -> tuple[str, ...]:
            view = session.view
            me = view.me if view is not None else None
            return me.face_up if me is not None else ()

        await wait_for(pilot, lambda: bool(laid()), 10, "Bo's cards laid")
        assert sorted(laid()) == sorted(six[:3]), (laid(), six)


async def test_you_are_back_is_said_once_under_the_result_box(tmp_path: Path) -> None:
    """Back at the final table, the player brings the result box up again:
    at 80x24 the box's own status line said "you are back" and the table's,
    below the box and still in sight, said it a second time (any note did:
    the covered screen's line kept what it showed)."""
    async with bo_away(tmp_path) as (pilot, app, table, bo):
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), 60, "the result box")
        await pilot.press("t")  # to the table, a key of the box: the seat back
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), 10, "the table")

        def backs() -> int:
            return screen_text(app).lower().count("you are back")

        await wait_for(pilot, lambda: not table.seats[bo].away, 10, "Bo's seat back")
        await wait_for(pilot, lambda: backs() > 0, 10, '"you are back"')
        await pilot.press("g")  # the result again, over the table
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), 10, "the box")
        await pilot.pause(0.2)
        assert backs() == 1, screen_text(app)
        await pilot.press("t")  # the box gone, the table's line says it again
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), 10, "the table")
        await pilot.pause(0.2)
        assert backs() == 1, screen_text(app)


async def result_box_with_bo_and_cy_away(
    pilot: Pilot[int], app: ThreeUpApp, table: Table
) -> tuple[GameOverScreen, int]:
    """Game 1 played out by the bots, Bo's and idle Cy's turns timed out
    (both away): Bo's result box, and Cy's seat."""
    cy = next(i for i, seat in enumerate(table.seats) if seat.name == "Cy")
    await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), 90, "the result box")
    table.config.turn_time = None  # no more time-outs: the next game waits for the players
    await wait_for(pilot, lambda: table.seats[cy].away, 30, "Cy's turns timed out too")
    screen = app.screen
    assert isinstance(screen, GameOverScreen)
    return screen, cy


def wait_line(app: ThreeUpApp, screen: GameOverScreen) -> str:
    """The box's line under its buttons, as the screen shows it (cut or not)."""
    return words_shown(app, screen.query_one("#rematch-wait", Static))


@pytest.mark.parametrize("size", [(80, 24), (40, 15)], ids=["80x24", "40x15"])
async def test_the_result_box_tells_a_player_who_alone_is_away(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """Bo away, Cy back and here: Bo's box read only "The next game starts
    when every player here has asked for it (0 of 1 asked; waiting for Cy)",
    nothing of Bo being away nor of the key that brings the seat back (the
    table's top line, which says it, is under the box).  And the box's keys
    did not bring it back: only a request did (r, or chat)."""
    async with bo_away(tmp_path, players=3, size=size) as (pilot, app, table, bo):
        screen, cy = await result_box_with_bo_and_cy_away(pilot, app, table)
        table.seat_active(cy)  # Cy is back: Bo alone is away
        await wait_for(pilot, lambda: "waiting for Cy" in wait_line(app, screen), 10, "Cy here")
        said = wait_line(app, screen)
        assert said.startswith("You are away: any key to play again. The next game starts"), said
        assert said.endswith("(0 of 1 asked; waiting for Cy)."), said  # whole, at 40x15 too
        assert table.seats[bo].away

        await pilot.press("right")  # a key of the box that asks for nothing
        await wait_for(pilot, lambda: not table.seats[bo].away, 10, "Bo's seat back")
        await wait_for(pilot, lambda: "away" not in wait_line(app, screen), 10, "the line")
        assert wait_line(app, screen).endswith("(0 of 2 asked; waiting for you and Cy)."), (
            wait_line(app, screen)
        )
        assert table.rematch_votes == set()  # back, and no game asked for


async def test_the_result_box_says_who_else_is_away(tmp_path: Path) -> None:
    """Bo back, Cy away: the next game does not wait for Cy (the bot plays
    Cy's seat), and Bo's box read "(0 of 1 asked; waiting for you)", as if
    Bo were the only player left."""
    async with bo_away(tmp_path, players=3) as (pilot, app, table, bo):
        screen, _cy = await result_box_with_bo_and_cy_away(pilot, app, table)
        await wait_for(pilot, lambda: "Every player is away" in wait_line(app, screen), 10)
        await pilot.press("right")
        await wait_for(pilot, lambda: not table.seats[bo].away, 10, "Bo's seat back")
        await wait_for(pilot, lambda: "asked" in wait_line(app, screen), 10, "the vote's line")
        said = wait_line(app, screen)
        assert said.endswith("(0 of 1 asked; waiting for you; Cy is away)."), said
        assert "You are away" not in said
