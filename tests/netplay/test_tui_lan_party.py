"""A LAN party through the app: a table hosted from one app (``Launcher.host``
on loopback, announced to 127.255.255.255 on a port of the test's own), and
friends' apps that find it in the join form's list, or a host that reopens
the app after it stopped in the middle of a game."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest
from app_helpers import screen_text, wait_for
from netplay_support import LOOPBACK, ClientLog, free_udp_port, make_client, play_bot
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, OptionList
from waiting import until

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.confirm import ConfirmScreen
from threeup_tui.app.screens.host import HostScreen
from threeup_tui.app.screens.join import JoinScreen
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.bots import make_bot
from threeup_tui.client import TableClient
from threeup_tui.client.botseat import BotSeat
from threeup_tui.client.events import ViewChanged
from threeup_tui.launcher import HostedClient, HostSettings, JoinSettings, Launcher
from threeup_tui.netplay.host import NetHost
from threeup_tui.paths import tables_dir

LOOPBACK_BROADCAST = "127.255.255.255"


def lan_launcher() -> Launcher:
    """Announces and listens on loopback only, on a port no other test uses."""
    port = free_udp_port()
    launcher = Launcher(announce_address=LOOPBACK_BROADCAST, announce_port=port, listen_port=port)
    launcher.bot_delay = 0
    return launcher


async def test_a_name_typed_then_enter_joins_the_table_highlighted_in_the_list() -> None:
    """A friend opens the join form, sees the table highlighted in the list,
    types their name and presses ⏎: they were told "type the host's address
    (HOST or HOST:PORT), or pick a table", the table highlighted above."""
    launcher = lan_launcher()
    host = await launcher.host(HostSettings(players=3, name="Ann", port=0, bind=LOOPBACK))
    assert isinstance(host, HostedClient)
    app = create_app(launcher, StartSpec(mode="join", join=JoinSettings("", "player")))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, JoinScreen) and len(app.screen.found) == 1,
                timeout=20,
                what="the table heard",
            )
            app.screen.query_one("#join-name", Input).focus()
            await pilot.press("ctrl+u", *"Bob", "enter")
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, LobbyScreen),
                timeout=20,
                what=f"the lobby, not: {screen_text(app)}",
            )
            assert [seat.name for seat in host.table.seats][:2] == ["Ann", "Bob"]
    finally:
        await host.close()
        await asyncio.sleep(0)


async def play_seat(client: TableClient, seed: int) -> None:
    """The host's own seat, played by a bot from its views."""
    seat = BotSeat(client, make_bot("greedy", seed))
    while True:
        event = await client.next_event()
        if isinstance(event, ViewChanged):
            seat.on_view(event.view)


async def test_a_host_reopening_the_app_after_it_stopped_mid_game_is_offered_the_table(
    tmp_path: Path,
) -> None:
    """The host's app stopped in the middle of a game (quit by mistake, its
    terminal closed, killed): reopened, the start screen offered nothing,
    and "Host a table" on the same port opened a new, empty table that
    turned the waiting players away; the command that resumes the table
    had been in the chat of the app that was gone.  Now the start screen
    offers "Resume your table" first, and ⏎ brings it back: the same port,
    the host in its own seat, no move lost, a guest back in its seat."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    port = free_udp_port()
    settings = HostSettings(
        players=3, bots=1, name="Ann", seed=5, port=port, bind=LOOPBACK, takeover_after=600
    )
    host = await launcher.host(settings)  # its journal in tables/, as the app's own
    assert isinstance(host, HostedClient)
    tokens = tmp_path / "bob-seats.json"
    guest = make_client((LOOPBACK, port), "Bob", tokens)
    tasks = [
        asyncio.ensure_future(play_seat(host, 1)),
        asyncio.ensure_future(play_bot(guest, ClientLog("Bob"), seed=2)),
    ]
    try:
        await until(
            lambda: all(seat.kind != "open" for seat in host.table.seats), "every seat taken"
        )
        host.start_game()
        await until(
            lambda: host.table.state is not None and len(host.table.state.history) >= 6,
            "six moves played",
        )
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
    guest_seat = guest.seat
    await guest.close()
    assert await host.stop() is not None  # stopped mid-game: the table may resume
    state = host.table.state
    assert state is not None
    made = len(state.history)
    assert [p.name for p in tables_dir().glob("*.json")]  # the journal stayed

    app = create_app(launcher)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="start screen")
        await wait_for(
            pilot,
            lambda: "Resume your table" in screen_text(app),
            what=f"the table offered, not: {screen_text(app)}",
        )
        shown = screen_text(app)
        assert "Ann's table" in shown and "game 1 · left" in shown
        menu = app.screen.query_one("#menu", OptionList)
        assert menu.highlighted == 0 and menu.get_option_at_index(0).id == "resume"
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: app.session is not None and app.session.view is not None,
            timeout=20,
            what="the table back",
        )
        session = app.session
        assert session is not None and session.where == "host"
        again = session.client
        assert isinstance(again, HostedClient) and again.address is not None
        assert again.address[1] == port and again.seat == 0
        assert again.table.seats[0].name == "Ann"
        resumed = again.table.state
        assert resumed is not None and len(resumed.history) == made  # no move lost
        back = make_client((LOOPBACK, port), "Bob", tokens)
        try:
            await asyncio.wait_for(back.start(), 20)
            assert back.seat == guest_seat  # the waiting friend's seat, with the token
        finally:
            await back.close()
        # A window hosting the table holds it: a second start screen offers nothing.
        assert launcher.kept_tables() == []


async def host_and_leave_in_the_set_up(pilot: Pilot[int]) -> None:
    """Host from the app (a bot in the other seat), start, and leave with `q`
    and "yes" while the face-up cards are being chosen."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
    await pilot.press("s")
    await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen), what="the set-up")
    await pilot.press("q")
    await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="leave?")
    await pilot.press("y")
    await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="start screen")


def hosting_app(name: str = "Ann") -> ThreeUpApp:
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    settings = HostSettings(players=2, bots=1, name=name, port=0, bind=LOOPBACK)
    return create_app(launcher, StartSpec(mode="host", host=settings))


async def test_a_table_left_in_its_set_up_is_offered_and_comes_back_in_its_set_up() -> None:
    """A game in its set-up is kept in the table file, not the journal (it
    cannot hold one yet): such a table was not offered."""
    app = hosting_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await host_and_leave_in_the_set_up(pilot)
        await wait_for(
            pilot, lambda: "resume" in offered(app), what=f"the table offered: {screen_text(app)}"
        )
        assert "Ann's table" in screen_text(app) and "game 1" in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen), what="the set-up back")


async def test_a_kept_table_the_host_will_not_resume_can_be_forgotten() -> None:
    """A host who left a table for good (and hosted another since) was
    offered "Resume your table" first at every start, with no way to say
    no: `x` on it asks, and "yes" forgets it (journal and table file).  The
    question names the table in plain words, whatever its name holds."""
    app = hosting_app("[b]Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await host_and_leave_in_the_set_up(pilot)
        await wait_for(pilot, lambda: "resume" in offered(app), what="the table offered")
        kept = list(tables_dir().iterdir())
        assert kept
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="forget?")
        question = str(app.screen.question)
        assert "Forget your table [b]Ann's table (game 1)?" in question
        assert "Forget your table [b]Ann's table" in screen_text(app)
        await pilot.press("n")  # a slip: nothing is lost
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="start screen")
        assert "resume" in offered(app) and all(path.exists() for path in kept)
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="forget?")
        await pilot.press("y")
        await wait_for(pilot, lambda: "resume" not in offered(app), what="the offer gone")
        assert not any(path.exists() for path in kept)
        assert app.launcher.kept_tables() == []


async def test_a_host_leaving_mid_game_is_told_the_start_screen_brings_the_table_back() -> None:
    """`q` and "yes" by mistake in the middle of a game: the note said "The
    table is closed. `threeup host --resume /home/.../table-20261206-122725
    .json` brings i…", cut off at 80 columns; the start screen under it is
    where the table is offered again, and the note says so."""
    app = hosting_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await host_and_leave_in_the_set_up(pilot)
        await wait_for(pilot, lambda: "resume" in offered(app), what="the table offered")
        (note,) = [n.message for n in app._notifications if "closed" in n.message]
        assert "Resume your table" in note and "--resume" not in note


async def test_a_port_in_use_is_told_in_words_on_the_host_form() -> None:
    """Two friends hosting on one machine, the second on the first one's port:
    the form said "Could not open the table: [Errno 98] Address already in use"."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    first = await launcher.host(HostSettings(players=2, name="Dan", port=0, bind=LOOPBACK))
    assert isinstance(first, HostedClient) and first.address is not None
    port = first.address[1]
    again = HostSettings(players=2, name="Eve", port=port, bind=LOOPBACK)
    app = create_app(launcher, StartSpec(mode="host", host=again))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, HostScreen) and "Could not" in screen_text(app),
                what="the form, with why",
            )
            shown = screen_text(app)
            assert f"port {port} is in use" in shown and "choose another port" in shown
            assert "Errno" not in shown
    finally:
        await first.close()


@pytest.mark.parametrize("begun", [False, True])
async def test_a_fifth_friend_at_a_full_table_is_told_they_may_watch(begun: bool) -> None:
    """ "Could not join: the table refused: the table is full", and nothing
    of the box on the same form that seats them as a spectator.  Once the
    game has begun the refusal says why a seat is not theirs, and the box
    is still offered."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    host = await launcher.host(HostSettings(players=2, bots=1, name="Ann", port=0, bind=LOOPBACK))
    assert isinstance(host, HostedClient) and host.address is not None
    if begun:
        host.table.start(0)  # Ann, at the host's seat, starts the game
    join = JoinSettings(f"{LOOPBACK}:{host.address[1]}", "Eve")
    app = create_app(launcher, StartSpec(mode="join", join=join))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, JoinScreen) and "full" in screen_text(app),
                timeout=20,
                what="the refusal",
            )
            shown = " ".join(screen_text(app).split())
            assert "tick “Only watch” to watch" in shown
            assert ("a seat waits for the computer that took it" in shown) is begun
            # Said in two lines: the form's buttons stay in sight, not scrolled away.
            rows = screen_text(app).splitlines()
            assert any("Join" in row and "Back" in row for row in rows), rows
            form = app.screen
            assert isinstance(form, JoinScreen)
            form.query_one("#join-watch", Checkbox).value = True
            form.join()
            watching = TableScreen if begun else LobbyScreen  # the game, or its lobby
            await wait_for(
                pilot, lambda: isinstance(app.screen, watching), timeout=20, what="watching"
            )
            net_host = host.net_host
            assert isinstance(net_host, NetHost)
            assert [peer.seat for peer in net_host.peers.values()] == [None]  # a spectator
    finally:
        await host.close()


async def test_x_after_adding_a_bot_removes_the_bot_not_the_friend_who_sat_down(
    tmp_path: Path,
) -> None:
    """The lobby's highlight starts on the first open seat.  Bob sat down
    there, the host added a bot and pressed x to take it away again: Bob
    was removed ("the host removed you from the table")."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    settings = HostSettings(players=3, name="Ann", port=0, bind=LOOPBACK)
    app = create_app(launcher, StartSpec(mode="host", host=settings))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, LobbyScreen) and app.session is not None,
            what="the lobby",
        )
        assert app.session is not None
        host = app.session.client
        assert isinstance(host, HostedClient) and host.address is not None
        bob = make_client((LOOPBACK, host.address[1]), "Bob", tmp_path / "bob.json")
        await bob.start()
        try:
            await wait_for(pilot, lambda: "Bob" in screen_text(app), what="Bob seated")
            await pilot.press("a")
            await wait_for(pilot, lambda: "bot 3" in screen_text(app), what="the bot")
            await pilot.press("x")
            await wait_for(pilot, lambda: "bot 3" not in screen_text(app), what="no bot")
            assert [seat.name for seat in host.table.seats][:2] == ["Ann", "Bob"]
            assert host.table.seats[1].kind == "human"
        finally:
            await bob.close()


async def test_q_at_a_table_the_host_closed_leaves_without_asking() -> None:
    """A friend whose screen says "the host removed you from the table" (or
    closed it) pressed q and was asked "Leave this table?"."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    host = await launcher.host(HostSettings(players=3, name="Ann", port=0, bind=LOOPBACK))
    assert isinstance(host, HostedClient) and host.address is not None
    join = JoinSettings(f"{LOOPBACK}:{host.address[1]}", "Bob")
    app = create_app(launcher, StartSpec(mode="join", join=join))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
            host.remove_seat(1)
            await wait_for(
                pilot,
                lambda: app.session is not None and not app.session.live,
                timeout=20,
                what="the table closed on Bob",
            )
            await pilot.press("q")
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, (StartScreen, ConfirmScreen)),
                what="an answer to q",
            )
            assert isinstance(app.screen, StartScreen)
    finally:
        await host.close()


def offered(app: object) -> list[str | None]:
    """The ids of the start screen's menu entries."""
    menu = app.screen.query_one("#menu", OptionList)  # type: ignore[attr-defined]
    return [menu.get_option_at_index(i).id for i in range(menu.option_count)]
