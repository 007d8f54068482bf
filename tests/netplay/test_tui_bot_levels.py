"""Which bot plays a seat, as the people at a real table on loopback see it:
the host's app (Pilot, 80x24), a ``threeup join --bot random`` under a name
of its own, and a friend whose seat the table's expert bot takes over."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest
from app_helpers import screen_text, wait_for, words_shown
from netplay_support import LOOPBACK, make_client
from text_fit import cut_text

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.scenes import choose_face_up, play_turns
from threeup_tui.app.screens.game_over import GameOverScreen
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.bots import ExpertBot, GreedyBot, make_bot
from threeup_tui.client import Lobby, TableClient
from threeup_tui.client.botseat import BotSeat
from threeup_tui.client.events import LobbyChanged, ViewChanged
from threeup_tui.launcher import HostedClient, HostSettings, JoinSettings, Launcher
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.tokens import TokenStore
from threeup_tui.rules import Options, seat_view
from threeup_tui.table import Table, TableConfig, TableError


async def play_as_bot(client: TableClient, level: str) -> None:
    """The seat played as ``threeup join --bot LEVEL`` plays it."""
    seat = BotSeat(client, make_bot(level, 3))
    try:
        while True:
            event = await client.next_event()
            if isinstance(event, ViewChanged):
                seat.on_view(event.view)
    finally:
        await seat.stop()


async def test_the_table_shows_the_level_of_a_network_bot_and_of_a_take_over(
    tmp_path: Path,
) -> None:
    """A seat shown as "Robo ⚙ bot" said nothing of how Robo plays (a ``join --bot random
    --name Robo``: only its name is seen), and a friend's seat the bot took
    over read "away, bot plays", whatever the table's level.  Now the lobby
    and the table say "random bot" and "left, expert bot plays"; a bot the
    lobby added, whose name says its level, still reads "⚙ bot"."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    settings = HostSettings(
        players=4, name="Hana", port=0, bind=LOOPBACK, bot_level="expert", takeover_after=0.3
    )
    app = create_app(launcher, StartSpec(mode="host", host=settings))
    clients: list[NetClient] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), 20, "the lobby")
            host = app.session.client if app.session is not None else None
            assert isinstance(host, HostedClient) and host.address is not None
            address = (LOOPBACK, host.address[1])
            robo = NetClient(
                *address, "Robo", tokens=TokenStore(tmp_path / "robo.json"), bot="random"
            )
            fred = make_client(address, "Fred", tmp_path / "fred.json")
            clients += [robo, fred]
            await robo.start()
            tasks.append(asyncio.ensure_future(play_as_bot(robo, "random")))
            await fred.start()
            await pilot.press("a")  # the lobby's Add bot, at the table's level
            await wait_for(
                pilot, lambda: "Robo  ⚙ random bot" in screen_text(app), 20, "Robo's level"
            )
            assert "expert bot 4  ⚙ bot" in screen_text(app)

            await pilot.press("s")
            await wait_for(pilot, lambda: host.table.state is not None, 20, "the game")
            await fred.close()  # Fred's app is gone: the table's expert bot plays for him
            assert app.session is not None and app.session.view is not None
            host.choose_face_up(make_bot("greedy", 1).choose_face_up(app.session.view))
            await wait_for(
                pilot,
                lambda: (
                    isinstance(app.screen, TableScreen)
                    and "Fred ◐ left, expert bot plays" in screen_text(app)
                ),
                20,
                "Fred's seat played by the expert bot",
            )
            text = screen_text(app)
            assert "Robo ⚙ random bot" in text
            assert "expert bot 4 ⚙ bot" in text
    finally:
        for task in tasks:
            task.cancel()
        for client in clients:
            with contextlib.suppress(Exception):
                await client.close()
        await asyncio.sleep(0)


async def play_as_bot_seeing_lobbies(client: TableClient, level: str, lobbies: list[Lobby]) -> None:
    """As :func:`play_as_bot`, keeping each lobby the host sends."""
    seat = BotSeat(client, make_bot(level, 4))
    try:
        while True:
            event = await client.next_event()
            if isinstance(event, ViewChanged):
                seat.on_view(event.view)
            elif isinstance(event, LobbyChanged):
                lobbies.append(event.lobby)
    finally:
        await seat.stop()


async def test_the_host_changes_the_bots_level_between_games(tmp_path: Path) -> None:
    """After a game the host could only rematch with the same bots: to play
    the next one against experts, they had to close the table on everyone
    at it.  Now b on the game-over box changes the table's level: its bots
    play the next game at it (renamed), the stand-in too, and the guests
    are told; a ``join --bot`` seat plays on as its own client does."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    settings = HostSettings(
        players=3, bots=1, name="Hana", port=0, bind=LOOPBACK, seed=7, bot_level="greedy"
    )
    app = create_app(launcher, StartSpec(mode="host", host=settings))
    lobbies: list[Lobby] = []
    robo: NetClient | None = None
    task: asyncio.Task[None] | None = None
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), 20, "the lobby")
            host = app.session.client if app.session is not None else None
            assert isinstance(host, HostedClient) and host.address is not None
            robo = NetClient(
                LOOPBACK,
                host.address[1],
                "Robo",
                tokens=TokenStore(tmp_path / "r.json"),
                bot="random",
            )
            await robo.start()
            task = asyncio.ensure_future(play_as_bot_seeing_lobbies(robo, "random", lobbies))
            await wait_for(pilot, lambda: "Robo" in screen_text(app), 20, "Robo seated")
            await pilot.press("s")
            me = GreedyBot(1)
            await choose_face_up(pilot, me)
            await play_turns(pilot, 1000, me)
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), 30, "game over")
            assert "Bots: greedy" in screen_text(app)

            await pilot.press("b")  # as on the start screen: greedy, then expert
            await wait_for(pilot, lambda: "Bots: expert" in screen_text(app), 10, "expert")
            table = host.table
            assert table.seats[1].name == "expert bot 2"
            assert isinstance(table.seats[1].bot, ExpertBot)
            assert table.seats[2].name == "Robo" and table.seats[2].network_bot == "random"
            await wait_for(
                pilot, lambda: any(lobby.bot_level == "expert" for lobby in lobbies), 10, "told"
            )

            await pilot.press("r")  # the next game: against the expert
            await wait_for(pilot, lambda: table.game_number == 2, 10, "the rematch")
            assert table.state is not None and table.state.names[1] == "expert bot 2"
            assert isinstance(table.seats[1].bot, ExpertBot)
            assert isinstance(table._stand_in(0), ExpertBot)  # a timed-out turn's bot too
    finally:
        if task is not None:
            task.cancel()
        if robo is not None:
            with contextlib.suppress(Exception):
                await robo.close()
        await asyncio.sleep(0)


def test_only_the_host_and_only_between_games() -> None:
    table = Table(TableConfig(players=3, bot_level="greedy"))
    host, _ = table.seat_human("Hana", host=True)
    guest, _ = table.seat_human("Gus")
    table.add_bot(host, "greedy")
    with pytest.raises(TableError, match="only the host"):
        table.set_bot_level(guest, "expert")
    with pytest.raises(TableError, match="unknown bot level"):
        table.set_bot_level(host, "Expert")
    table.start(host)
    with pytest.raises(TableError, match="between games"):
        table.set_bot_level(host, "expert")
    assert table.config.bot_level == "greedy" and table.seats[2].name == "greedy bot 3"


async def test_a_guest_is_told_which_bot_acts_when_their_time_runs_out(tmp_path: Path) -> None:
    """A guest's lobby said "Turn time: 30 s for each move, then a bot
    acts": which bot, the guest could not know.  It now names the table's
    level, which the host chose."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    settings = HostSettings(
        players=3, name="Hana", port=0, bind=LOOPBACK, bot_level="expert", turn_time=30.0
    )
    host = await launcher.host(settings)
    assert isinstance(host, HostedClient) and host.address is not None
    join = JoinSettings(f"{LOOPBACK}:{host.address[1]}", "Gus")
    app = create_app(Launcher(announce_address="off"), StartSpec(mode="join", join=join))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: "Gus" in screen_text(app), 20, "the guest's lobby")

            def title() -> str:
                shown = app.screen.query("#lobby-title")
                return words_shown(app, shown.first()) if shown else ""

            await wait_for(
                pilot,
                lambda: "then an expert bot acts" in title(),
                10,
                f"the timer's bot named, not: {title()}",
            )
    finally:
        await host.close()
        await asyncio.sleep(0)


def test_a_player_still_gone_gets_the_new_level_next_game() -> None:
    """Gus left in the middle of the game and the greedy stand-in finished it
    for him; the host then chose expert: the bot playing on for Gus in the
    next game is an expert too, as the seat says."""
    now = [0.0]
    table = Table(TableConfig(players=2, bot_level="greedy", takeover_after=1), lambda: now[0])
    host, _ = table.seat_human("Hana", host=True)
    gus, _ = table.seat_human("Gus")
    table.start(host)
    table.disconnect(gus)
    now[0] = 2.0
    table.check_takeovers()
    me = GreedyBot(0)
    while table.state is not None and not table.state.over:
        if not table.step_bot():
            view = seat_view(table.state, host)
            if view.phase == "setup":
                table.choose_face_up(host, me.choose_face_up(view))
            else:
                table.submit(host, me.choose_move(view))
    assert isinstance(table.seats[gus].bot, GreedyBot)
    table.set_bot_level(host, "expert")
    assert isinstance(table.seats[gus].bot, ExpertBot)
    assert table.lobby().seats[gus].bot_level == "expert"


async def test_the_result_box_with_six_places_and_the_bots_line_fits_70x20() -> None:
    """The bots' line took a row of the result box: at 70x20 a game of six
    played for places pushed the buttons' row out of it ("Leave (q" cut, a
    scroll bar).  Short of 24 lines the result gives up its blank line above."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    launcher.crash_journals = False
    settings = HostSettings(
        players=6, bots=5, name="Hana", port=0, bind=LOOPBACK, seed=3,
        options=Options(finish="places"),
    )  # fmt: skip
    app = create_app(launcher, StartSpec(mode="host", host=settings))
    async with app.run_test(size=(70, 20)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), 20, "the lobby")
        await pilot.press("s")
        me = GreedyBot(1)
        await choose_face_up(pilot, me)
        await play_turns(pilot, 2000, me)
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), 30, "game over")
        await wait_for(pilot, lambda: "Bots: greedy" in screen_text(app), what="the bots' line")
        text = screen_text(app)
        assert "6. " in text and "Bots: greedy" in text
        assert not cut_text(app), "\n".join(cut_text(app)) + "\n" + text
