"""A spectator's app in the lobby of a table hosted from another app
(``Launcher.host`` on loopback, announced nowhere) sees a seat open and
sits down with s, without leaving; its footer offers "s Sit down" only
while that can work."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from app_helpers import notes_heard, screen_text, wait_for, words_shown
from netplay_support import (
    LOOPBACK,
    free_udp_port,
    make_table,
    run_table,
    start_host,
    stop_runner,
)
from textual.app import App
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, OptionList

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.confirm import ConfirmScreen
from threeup_tui.app.screens.game_over import GameOverScreen
from threeup_tui.app.screens.join import JoinScreen
from threeup_tui.app.screens.lobby import SIT_HINT, LobbyScreen, SitNameScreen
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.widgets.opponent import OpponentPane
from threeup_tui.launcher import HostedClient, HostSettings, JoinSettings, Launcher
from threeup_tui.netplay.client import NetClient
from threeup_tui.netplay.host import NetHost
from threeup_tui.netplay.tokens import TokenStore
from threeup_tui.table import Table, TableRunner

SIT_KEY = "s Sit down"
TAKEN_FIRST = "no seat for you: the last open seat was taken first; you watch on"


@pytest.fixture
async def host() -> AsyncIterator[HostedClient]:
    """Ann's table of three, hosted from her app, one seat of two open to others."""
    launcher = Launcher(announce_address="off")
    launcher.bot_delay = 0
    client = await launcher.host(HostSettings(players=3, name="Ann", port=0, bind=LOOPBACK))
    assert isinstance(client, HostedClient)
    try:
        yield client
    finally:
        await client.close()


def watcher_app(host: HostedClient, name: str | None) -> ThreeUpApp:
    """``threeup join HOST --watch``, with ``--name`` if ``name`` is given.
    Its join form listens for tables on a port of its own, on loopback."""
    assert host.address is not None
    address = f"{LOOPBACK}:{host.address[1]}"
    join = JoinSettings(address, watch=True)
    if name is not None:
        join = JoinSettings(address, name, watch=True)
    launcher = Launcher(announce_address="off", listen_port=free_udp_port())
    return create_app(launcher, StartSpec(mode="join", join=join))


def lobby_words(app: App[int]) -> str:
    """The words of the lobby's own column (not the chat's), as one line."""
    return words_shown(app, app.screen.query_one("#lobby-main", VerticalScroll))


def footer(app: App[int]) -> str:
    return (screen_text(app).splitlines() or [""])[-1]  # nothing drawn yet: no keys


async def watching_on(pilot: Pilot[int], table: Table, screen: type, what: str) -> ThreeUpApp:
    """The app, once it watches ``table`` (its only spectator) on ``screen``."""
    app = pilot.app
    assert isinstance(app, ThreeUpApp)
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, screen) and table.watching == 1,
        timeout=20,
        what=what,
    )
    return app


async def watching_in_the_lobby(pilot: Pilot[int], host: HostedClient) -> ThreeUpApp:
    return await watching_on(pilot, host.table, LobbyScreen, "the spectator in the lobby")


async def test_a_spectator_sits_down_with_s_and_plays_the_seat(host: HostedClient) -> None:
    """Bob watches Ann's lobby with seats open: the lobby says he may sit
    and the footer offers s; s seats him under his name, the lobby shows
    the seat as his, the key goes, and he watches no more.  When the last
    seat is taken, no other spectator is offered the key."""
    app = watcher_app(host, "Bob")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await watching_in_the_lobby(pilot, host)
        await wait_for(pilot, lambda: SIT_KEY in footer(app), what="the key offered")
        assert SIT_HINT in lobby_words(app)

        await pilot.press("s")
        await wait_for(
            pilot,
            lambda: app.session is not None and app.session.seat == 1,
            timeout=20,
            what="Bob seated",
        )
        seat = host.table.seats[1]
        assert (seat.name, seat.kind, seat.connected) == ("Bob", "human", True)
        await wait_for(pilot, lambda: host.table.watching == 0, what="Bob no longer watching")
        await wait_for(pilot, lambda: "Bob ● here (you)" in lobby_words(app), what="his seat")
        assert SIT_KEY not in footer(app) and SIT_HINT not in lobby_words(app)
        assert isinstance(app.screen, LobbyScreen)

    # Bob's seat opened again as he left the lobby.  Every seat taken: a
    # spectator who comes now is offered no key, and s does nothing.
    for _ in range(500):
        if host.table.seats[1].kind == "open":
            break
        await asyncio.sleep(0.02)
    for name in ("Cy", "Dee"):
        host.table.seat_human(name, secrets.token_hex(16))
    late = watcher_app(host, "Eve")
    async with late.run_test(size=(80, 24)) as pilot:
        await watching_in_the_lobby(pilot, host)
        await wait_for(pilot, lambda: "Seats: 3 of 3 taken" in lobby_words(late), what="full")
        assert SIT_KEY not in footer(late) and SIT_HINT not in lobby_words(late)
        await pilot.press("s")
        await asyncio.sleep(0.3)
        assert late.session is not None and late.session.seat is None
        assert [s.name for s in host.table.seats] == ["Ann", "Cy", "Dee"]


async def test_a_seat_taken_meanwhile_is_told_and_the_spectator_watches_on(
    host: HostedClient,
) -> None:
    """The last open seat goes to Cy just as Bob asks for it, before his
    lobby hears of it: he reads why, in words, and goes on watching."""
    host.table.seat_human("Cy", secrets.token_hex(16))  # one seat left
    app = watcher_app(host, "Bob")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await watching_in_the_lobby(pilot, host)
        await wait_for(pilot, lambda: SIT_KEY in footer(app), what="the key offered")
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        # No await in between: Bob's lobby still shows the seat open when
        # s is acted on, and the table has just given it away.
        host.table.seat_human("Dee", secrets.token_hex(16))
        assert screen.check_action("sit", ())
        screen.action_sit()
        await wait_for(
            pilot,
            lambda: TAKEN_FIRST in screen_text(app),
            timeout=20,
            what="why there is no seat",
        )
        assert app.session is not None and app.session.seat is None
        assert [s.name for s in host.table.seats] == ["Ann", "Cy", "Dee"]
        assert host.table.watching == 1 and isinstance(app.screen, LobbyScreen)
        await wait_for(pilot, lambda: SIT_KEY not in footer(app), what="the key gone")


async def test_a_spectator_who_asks_as_the_game_begins_reads_why_at_the_table(
    tmp_path: Path,
) -> None:
    """A dedicated host starts the game once the last seat is taken: Bob
    takes it just as Cy asks.  Cy's app goes on to the game as a spectator,
    and the words of the refusal stay on its status line there (a game's
    first view took back every "Not allowed" note, and Cy read nothing):
    the seat Cy saw open was taken first, not "the table is full", said
    as the game appears, of a table whose open seat Cy had just seen."""
    table = make_table(tmp_path, players=2, seed=9, bots=1)  # starts when full
    host = await start_host(table)
    join = JoinSettings(f"{LOOPBACK}:{host.address[1]}", "Cy", watch=True)
    launcher = Launcher(announce_address="off", listen_port=free_udp_port())
    app = create_app(launcher, StartSpec(mode="join", join=join))
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await watching_on(pilot, table, LobbyScreen, "Cy watching the lobby")
            await wait_for(pilot, lambda: SIT_KEY in footer(app), what="the key offered")
            screen = app.screen
            assert isinstance(screen, LobbyScreen)
            table.seat_human("Bob", secrets.token_hex(16))  # the last seat: the game begins
            screen.action_sit()
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), timeout=20)
            await wait_for(
                pilot,
                lambda: TAKEN_FIRST in screen_text(app),
                timeout=20,
                what="why Cy has no seat",
            )
            await asyncio.sleep(0.5)  # the game's next views come and go
            await pilot.pause()
            assert TAKEN_FIRST in screen_text(app)
            assert app.session is not None and app.session.seat is None
    finally:
        await host.close()


async def test_a_spectator_without_a_name_is_asked_for_one(host: HostedClient) -> None:
    """A spectator who gave no name (they watch as "player") is asked for
    one before sitting down, and sits under it; Esc there leaves them
    watching."""
    app = watcher_app(host, None)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await watching_in_the_lobby(pilot, host)
        await wait_for(pilot, lambda: SIT_KEY in footer(app), what="the key offered")
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SitNameScreen), what="asked")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="back")
        assert app.session is not None and app.session.seat is None

        # Enter on no name at all: told what a seat needs, still watching.
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SitNameScreen), what="asked")
        assert "⏎ sit down · Esc watch on" in screen_text(app)
        # The box's own key bar, not the lobby's ("s Sit down", "q Leave"
        # there only typed into the name).
        last_line = lambda: screen_text(app).splitlines()[-1]  # noqa: E731
        await wait_for(pilot, lambda: "esc Watch on" in last_line(), what="the box's keys")
        assert "Leave" not in last_line()
        await pilot.press("enter")
        await wait_for(pilot, lambda: "A seat needs a name" in screen_text(app), what="told")
        assert app.session is not None and app.session.seat is None

        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SitNameScreen), what="asked")
        assert app.screen.query_one(Input).value == ""
        await pilot.press(*"Eve", "enter")
        await wait_for(
            pilot,
            lambda: app.session is not None and app.session.seat == 1,
            timeout=20,
            what="Eve seated",
        )
        assert host.table.seats[1].name == "Eve"


async def test_one_who_sat_down_and_left_mid_game_gets_the_seat_back_from_the_join_form(
    host: HostedClient,
) -> None:
    """Bob watched, sat down, and the game began; he leaves.  The join form
    he comes back to holds his name and not "Only watch": ⏎ gives him his
    seat back (it offered watching, as a "player", and the seat waited)."""
    host.table.add_bot(None, "greedy")  # Ann, a bot, and one seat open
    app = watcher_app(host, "Bob")
    async with app.run_test(size=(80, 24)) as pilot:
        await watching_in_the_lobby(pilot, host)
        await wait_for(pilot, lambda: SIT_KEY in footer(app), what="the key offered")
        await pilot.press("s")
        await wait_for(pilot, lambda: host.table.seats[2].name == "Bob", timeout=20, what="Bob")
        await wait_for(pilot, lambda: app.session is not None and app.session.seat == 2)
        host.start_game()
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen), timeout=20)

        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asked")
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="left")
        menu = app.screen.query_one("#menu", OptionList)
        menu.highlighted = menu.get_option_index("join")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen), what="the join form")
        form = app.screen
        assert form.query_one("#join-name", Input).value == "Bob"
        assert not form.query_one("#join-watch", Checkbox).value

        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SetupScreen) and app.session is not None,
            timeout=20,
            what="back at the table",
        )
        assert app.session is not None and app.session.seat == 2
        assert host.table.seats[2].connected


TAKE_KEY = "s Take your seat"


@dataclass
class AnnsTable:
    table: Table
    host: NetHost
    runner: TableRunner

    async def close(self) -> None:
        await stop_runner(self.runner)
        await self.host.close()


async def ann_left_her_game(tmp_path: Path, takeover_after: float = 600.0) -> AnnsTable:
    """A dedicated host's game of two under way, Ann's seat waiting for her:
    she sat down (her token kept in this account's seats file), laid her
    face-up cards and left once play began.  By default nobody takes her
    seat over (a long --takeover-after), so the game waits for her."""
    table = make_table(tmp_path, players=2, seed=12, bots=1, takeover_after=takeover_after)
    host = await start_host(table)
    runner = await run_table(table)  # the bot's moves
    ann = NetClient(LOOPBACK, host.address[1], "Ann", tokens=TokenStore())
    await ann.start()
    try:
        chosen = False
        for _ in range(1000):
            view = ann.view
            if view is not None and view.phase == "setup" and not chosen:
                ann.choose_face_up(list(view.hand[:3]))
                chosen = True
            if view is not None and view.phase == "play":
                break
            await asyncio.sleep(0.01)
        assert ann.view is not None and ann.view.phase == "play"
    finally:
        await ann.close()
    for _ in range(500):
        if not table.seats[1].connected:
            break
        await asyncio.sleep(0.01)
    assert not table.seats[1].connected
    return AnnsTable(table, host, runner)


def watching_app(host: NetHost, name: str) -> ThreeUpApp:
    """``threeup join HOST --name NAME --watch``: "Only watch" on the form."""
    join = JoinSettings(f"{LOOPBACK}:{host.address[1]}", name, watch=True)
    launcher = Launcher(announce_address="off", listen_port=free_udp_port())
    return create_app(launcher, StartSpec(mode="join", join=join))


async def ann_takes_her_seat_back(pilot: Pilot[int], app: ThreeUpApp, table: Table) -> None:
    """s, and Ann is in her seat (seat 2) again, connected."""
    await pilot.press("s")
    await wait_for(
        pilot,
        lambda: app.session is not None and app.session.seat == 1,
        timeout=20,
        what="Ann back in her seat",
    )
    await wait_for(pilot, lambda: table.seats[1].connected, what="connected")


async def test_a_spectator_takes_back_their_kept_seat_with_s_at_the_table(
    tmp_path: Path,
) -> None:
    """Ann left her game mid-way and watches it now: the table screen's
    footer offers "s Take your seat" (her token is kept for Ann at this
    table, and Ann's seat is away).  s gives her that seat: her cards and
    the keys to play them show, the bot's is her only opponent's row, and
    she watches no more.  She had to leave and join again before."""
    at = await ann_left_her_game(tmp_path)
    table, host = at.table, at.host
    app = watching_app(host, "Ann")
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await watching_on(pilot, table, TableScreen, "Ann watching her game")
            await wait_for(pilot, lambda: TAKE_KEY in footer(app), what="the key offered")
            screen = app.screen
            assert isinstance(screen, TableScreen)
            assert not screen.query_one("#mine").display  # a spectator's table: no cards

            await ann_takes_her_seat_back(pilot, app, table)
            await wait_for(pilot, lambda: table.watching == 0, what="no longer watching")
            await wait_for(
                pilot,
                lambda: (
                    list(app.screen.query(OpponentPane)) != []
                    and [p.seat for p in app.screen.query(OpponentPane)] == [0]
                ),
                what="the bot her only opponent",
            )
            screen = app.screen
            assert isinstance(screen, TableScreen)
            assert screen.query_one("#mine").display and screen.query_one("#hand-box").display
            assert TAKE_KEY not in footer(app) and "u Pick up" in footer(app)
    finally:
        await at.close()


async def test_a_seat_that_is_not_theirs_is_refused_in_words_at_the_table(
    tmp_path: Path,
) -> None:
    """This account keeps a token for "Ann" at the table, but not the token
    of Ann's seat (the name alone is no identity): the key is offered (the
    name points at an away seat), and s is refused in words on the status
    line; the spectator watches on and Ann's seat still waits.  A spectator
    with no token kept at this table is offered no key at all, even as Ann."""
    at = await ann_left_her_game(tmp_path)
    table, host = at.table, at.host
    address = f"{LOOPBACK}:{host.address[1]}"
    TokenStore().remember(address, "Ann", table.table_id, secrets.token_hex(16))
    app = watching_app(host, "Ann")
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, TableScreen) and TAKE_KEY in footer(app),
                timeout=20,
                what="the key offered",
            )
            await pilot.press("s")
            await wait_for(
                pilot,
                lambda: "Ann's seat is kept for another token; you watch on" in screen_text(app),
                timeout=20,
                what="why there is no seat",
            )
            assert app.session is not None and app.session.seat is None
            assert not table.seats[1].connected and table.watching == 1
            await wait_for(pilot, lambda: TAKE_KEY in footer(app), what="offered again")

        # An account that never sat at this table (its name is not why).
        TokenStore().path.unlink()
        other = watching_app(host, "Ann")
        async with other.run_test(size=(80, 24)) as pilot:
            await watching_on(pilot, table, TableScreen, "watching, with no seat kept")
            await asyncio.sleep(0.3)
            await pilot.pause()
            assert TAKE_KEY not in footer(other)
            await pilot.press("s")
            await asyncio.sleep(0.3)
            assert other.session is not None and other.session.seat is None
    finally:
        await at.close()


async def test_between_games_the_result_box_offers_the_kept_seat(tmp_path: Path) -> None:
    """Ann left, the bot played her seat to the end (D17), and the table
    waits for a player before dealing again: Ann, watching, reads the
    result box, whose footer offers "s Take your seat" (it covers the
    table's keys).  s seats her, and the box is a player's now: it offers
    the next game, which she asks for and which is dealt to her seat."""
    at = await ann_left_her_game(tmp_path, takeover_after=0.2)
    table = at.table
    app = watching_app(at.host, "Ann")
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, GameOverScreen) and TAKE_KEY in footer(app),
                timeout=30,
                what="the result box offering the seat",
            )
            assert "r Next game" not in footer(app)
            await ann_takes_her_seat_back(pilot, app, table)
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, GameOverScreen) and "r Next game" in footer(app),
                what="the next game offered",
            )
            assert TAKE_KEY not in footer(app)
            await pilot.press("r")  # the key, unlike the button, has no grace to wait out
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, SetupScreen),
                timeout=20,
                what="the next game dealt to her",
            )
    finally:
        await at.close()


async def test_the_seat_offered_back_is_the_one_the_host_told_apart(tmp_path: Path) -> None:
    """This account sat down as Ann where another Ann sat already: the host
    seated it as "Ann (2)".  Watching from this account while the other Ann
    is away and "Ann (2)" is played from its other terminal, the footer
    offers no seat: it offered "s Take your seat" for the other Ann's, and s
    took "Ann (2)" from that terminal.  Once "Ann (2)" is away it is offered,
    and s gives it back; the other Ann's seat still waits for her."""
    table = make_table(tmp_path, players=3, seed=14)
    table.seat_human("Ann", secrets.token_hex(16))  # another account's Ann
    host = await start_host(table)
    mine = NetClient(LOOPBACK, host.address[1], "Ann", tokens=TokenStore())
    await mine.start()
    table.seat_human("Cy", secrets.token_hex(16))  # the last seat: the game begins
    assert [s.name for s in table.seats] == ["Ann", "Ann (2)", "Cy"] and mine.seat == 1
    table.disconnect(0)
    app = watching_app(host, "Ann")
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await watching_on(pilot, table, TableScreen, "Ann watching")
            await wait_for(pilot, lambda: "away" in screen_text(app), what="seat 1 shown away")
            await pilot.pause(0.3)
            assert TAKE_KEY not in footer(app)

            await mine.close()
            await wait_for(pilot, lambda: TAKE_KEY in footer(app), what="Ann (2) offered")
            await pilot.press("s")
            await wait_for(
                pilot,
                lambda: app.session is not None and app.session.seat == 1,
                timeout=20,
                what="back in Ann (2)",
            )
            assert not table.seats[0].connected
    finally:
        await mine.close()
        await host.close()


@pytest.mark.parametrize("other_ann", ["here", "away"])
async def test_the_seat_asked_for_is_named_as_the_table_shows_it(
    tmp_path: Path, other_ann: str
) -> None:
    """This account sat down as Ann where another Ann sat already, and the
    host seated it as "Ann (2)".  Watching while that seat is away, s said
    "asking the table for your seat as Ann…", and the row called Ann was
    the other Ann's, playing: it names the seat "Ann (2)", as its row does.
    With both Anns away the lobby cannot tell which is this account's (s
    said "your seat…", naming none): the token was kept with its seat's
    number, and the notice names that seat."""
    table = make_table(tmp_path, players=3, seed=14)
    table.seat_human("Ann", secrets.token_hex(16))  # another account's Ann, here
    host = await start_host(table)
    mine = NetClient(LOOPBACK, host.address[1], "Ann", tokens=TokenStore())
    await mine.start()
    table.seat_human("Cy", secrets.token_hex(16))  # the last seat: the game begins
    assert [s.name for s in table.seats] == ["Ann", "Ann (2)", "Cy"] and mine.seat == 1
    await mine.close()
    if other_ann == "away":
        table.disconnect(0)
    app = watching_app(host, "Ann")
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await watching_on(pilot, table, TableScreen, "Ann watching")
            await wait_for(pilot, lambda: TAKE_KEY in footer(app), what="Ann (2) offered")
            # Every note as it comes: this one is gone 3 s later, and the
            # seat it asks for comes at once, so the press and a loaded
            # machine's first look may outlast it.
            notices = notes_heard(app)
            await pilot.press("s")
            await wait_for(pilot, lambda: bool(notices), what="the notice")
            assert "asking the table for your seat as Ann (2)…" in notices, notices
            await wait_for(
                pilot,
                lambda: app.session is not None and app.session.seat == 1,
                timeout=20,
                what="back in Ann (2)",
            )
            assert table.seats[0].connected == (other_ann == "here")  # the other Ann's seat
    finally:
        await host.close()
