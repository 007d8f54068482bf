"""Spectators and guests are offered only what they can do."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from app_fakes import ScriptedClient
from app_helpers import screen_text, wait_for, words_shown
from app_states import dealt, lobby_for, seat_events
from table_states import open_table, table_app
from textual.widgets import Button, Input, Static

from threeup_tui.app.screens.game_over import HOST_STOPPED_WAIT, GameOverScreen, result_content
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.widgets.status import StatusBar
from threeup_tui.client import ConnectionChanged, Lobby, SeatSlot
from threeup_tui.rules import GameState, seat_view


@dataclasses.dataclass(frozen=True)
class RematchLobby(Lobby):
    """A lobby that says how the next game starts (the table's Lobby fields)."""

    rematch: str = "host"
    rematch_after: float | None = None


def lobby_with(lobby: Lobby, **fields: Any) -> Lobby:
    names = {f.name for f in dataclasses.fields(Lobby)}
    if set(fields) <= names:
        return dataclasses.replace(lobby, **fields)
    base = {f.name: getattr(lobby, f.name) for f in dataclasses.fields(Lobby)}
    return RematchLobby(**base, **fields)


def finished(names: list[str]) -> GameState:
    state = dealt(names, first=0, seed=4)
    while not state.over:
        state.apply(state.legal_actions()[0])
    return state


async def game_over_for(
    pilot: Any, client: ScriptedClient, state: GameState, seat: int | None, host: bool, lobby: Lobby
) -> GameOverScreen:
    for event in seat_events(state, seat, host):
        client.emit(event)  # type: ignore[arg-type]
    from threeup_tui.client import LobbyChanged

    client.emit(LobbyChanged(lobby))
    client.emit(ConnectionChanged("connected"))
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen) and app.screen.is_mounted)
    screen = app.screen
    assert isinstance(screen, GameOverScreen)
    await pilot.pause()
    return screen


def buttons(screen: GameOverScreen) -> set[str]:
    return {b.id or "" for b in screen.query(Button)}


def footer_words(app: Any) -> str:
    return screen_text(app).splitlines()[-1]


def wait_line(app: Any) -> str:
    """What the result box says the next game waits for ("" if nothing)."""
    found = app.screen.query("#rematch-wait")
    return str(found.first(Static).content) if found else ""


async def test_a_spectator_has_no_hint_key(client: ScriptedClient) -> None:
    state = dealt(["ana", "bo", "cy"], first=0)
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_table(pilot, client, state, seat=None, is_host=False)
        assert "Hint" not in footer_words(app)
        assert "Play" not in footer_words(app)
        await pilot.press("h")  # and the key does nothing
        assert client.requests == []
        # Nor does the palette offer moves a spectator cannot make.
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert not titles & {"Play", "Pick up", "Draw", "Flip face-down card 1"}, titles
        assert {"Chat", "Leave the table", "Rules"} <= titles


@pytest.mark.parametrize("seat", [None, 1])
async def test_a_table_without_spectator_chat_offers_a_spectator_none(
    client: ScriptedClient, seat: int | None
) -> None:
    state = dealt(["ana", "bo", "cy"], first=0)
    lobby = dataclasses.replace(lobby_for(["ana", "bo", "cy"]), spectator_chat=False)
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_table(pilot, client, state, seat=seat, is_host=False, lobby=lobby)
        box = app.screen.query_one("#chat-input", Input)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        await pilot.press("c", "h", "i", "enter", "escape")  # Esc: back to the table's keys
        if seat is None:
            assert "Chat" not in footer_words(app) and "Chat" not in titles
            assert box.disabled and "only players chat here" in screen_text(app)
            assert client.requests == []  # and "c" typed nothing
        else:  # a player at that table still chats
            assert "Chat" in footer_words(app) and "Chat" in titles and not box.disabled
            assert client.requests == [("chat", "hi")]


async def test_a_seated_player_has_the_hint_key(client: ScriptedClient) -> None:
    state = dealt(["you", "bo"], first=0)
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_table(pilot, client, state)
        assert "Hint" in footer_words(app)


async def test_a_spectator_is_offered_no_rematch_and_no_save(client: ScriptedClient) -> None:
    state = finished(["ana", "bo"])
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await game_over_for(pilot, client, state, None, False, lobby_for(["ana", "bo"]))
        assert "rematch" not in buttons(screen) and "save" not in buttons(screen)
        assert not screen.query("#record-path")
        assert "Rematch" not in screen_text(app) and "Save" not in screen_text(app)
        await pilot.press("r", "s")
        assert client.requests == []


async def test_a_guest_may_not_save_and_waits_for_the_host(client: ScriptedClient) -> None:
    state = finished(["ana", "you"])
    lobby = lobby_for(["ana", "you"], host_seat=0)
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await game_over_for(pilot, client, state, 1, False, lobby)
        assert buttons(screen) == {"close", "leave"}
        assert "Waiting for the host to start a rematch" in screen_text(app)
        await pilot.press("s", "r")
        assert client.requests == []


@pytest.mark.parametrize("bo_here", [True, False], ids=["a-player-waits", "nobody-else"])
async def test_the_host_leaving_after_a_game_asks_if_it_closes_on_others(
    client: ScriptedClient, bo_here: bool
) -> None:
    """q on the game over closed the host's table at once, on a player
    waiting there for the rematch; in the lobby and during a game the same
    key asks first.  With nobody else here there is nothing to ask."""
    from app_fakes import ScriptedLauncher

    from threeup_tui.app.app import StartSpec, create_app
    from threeup_tui.app.screens.confirm import ConfirmScreen
    from threeup_tui.app.screens.start import StartScreen

    state = finished(["you", "bo"])
    lobby = lobby_for(["you", "bo"], host_seat=0)
    bo = SeatSlot(1, "bo", "human", bo_here)
    lobby = dataclasses.replace(lobby, seats=(lobby.seats[0], bo))
    app = create_app(ScriptedLauncher(client), StartSpec(mode="host"))
    async with app.run_test(size=(80, 24)) as pilot:
        await game_over_for(pilot, client, state, 0, True, lobby)
        await pilot.press("q")
        if bo_here:
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            assert "it closes for everyone" in screen_text(app)
            await pilot.press("n")
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
            assert app.session is not None
            await pilot.press("q", "y")
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        assert app.session is None


async def test_no_rematch_offer_when_the_host_has_left(client: ScriptedClient) -> None:
    state = finished(["ana", "you"])
    lobby = lobby_for(["ana", "you"], host_seat=0)
    gone = SeatSlot(0, "ana", "human", False, "greedy")
    lobby = dataclasses.replace(lobby, seats=(gone, lobby.seats[1]))
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await game_over_for(pilot, client, state, 1, False, lobby)
        assert "Waiting for the host" not in screen_text(app)
        assert "host has left" in screen_text(app)


async def test_no_rematch_offer_when_the_table_closes(client: ScriptedClient) -> None:
    state = finished(["you", "bo"])
    lobby = lobby_with(lobby_for(["you", "bo"]), rematch="none")
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await game_over_for(pilot, client, state, 0, True, lobby)
        assert "rematch" not in buttons(screen)
        assert "closes after this game" in screen_text(app)
        await pilot.press("r")
        assert ("rematch", None) not in client.requests


async def test_a_dedicated_hosts_player_asks_for_the_next_game(client: ScriptedClient) -> None:
    state = finished(["you", "bo"])
    lobby = lobby_with(
        dataclasses.replace(lobby_for(["you", "bo"]), host_seat=None),
        rematch="vote",
        rematch_after=30.0,
    )
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await game_over_for(pilot, client, state, 0, False, lobby)
        assert "rematch" in buttons(screen) and "save" not in buttons(screen)
        assert "Next game (r)" in screen_text(app) and "in 30 s" in screen_text(app)
        assert "r Next game" in footer_words(app) and "Rematch" not in screen_text(app)
        assert "0 of 1 asked" in screen_text(app)
        await pilot.press("r")
        assert client.requests[-1] == ("rematch", None)
        from threeup_tui.client import LobbyChanged

        client.emit(LobbyChanged(lobby_with(lobby, rematch_votes=(0,))))
        await wait_for(pilot, lambda: "1 of 1 asked, you too" in screen_text(app))


async def test_the_players_see_whom_the_next_game_waits_for(client: ScriptedClient) -> None:
    """A dedicated host's players read "1 of 3 asked" and could not tell
    whom they waited for, nor ask them.  The line names them ("you" for
    oneself), names being text and never markup, and leaves out a player
    marked away (the bot plays their seat: the table does not wait for
    them), whom it names as away: the count left them out, and nothing
    said why."""
    state = finished(["you", "[b]bob[/b]", "cy", "bo"])
    seats = (
        SeatSlot(0, "you", "human", True),
        SeatSlot(1, "[b]bob[/b]", "human", True),
        SeatSlot(2, "cy", "human", True, "greedy", away=True),  # the bot plays for cy
        SeatSlot(3, "bo", "bot", True, "greedy"),
    )
    lobby = lobby_with(
        dataclasses.replace(lobby_for(["you", "b", "cy", "bo"]), host_seat=None, seats=seats),
        rematch="vote",
        rematch_votes=(1,),
    )
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await game_over_for(pilot, client, state, 0, False, lobby)
        wait = screen.query_one("#rematch-wait", Static)
        assert str(wait.content).endswith("(1 of 2 asked; waiting for you; cy is away).")
        from threeup_tui.client import LobbyChanged

        client.emit(LobbyChanged(lobby_with(lobby, rematch_votes=(0,))))
        await wait_for(pilot, lambda: "waiting for [b]bob[/b];" in str(wait.content))
        assert "(1 of 2 asked, you too; waiting for [b]bob[/b]; cy is away)." in str(wait.content)
        await pilot.pause()
        assert "waiting for [b]bob[/b]; cy is away)." in words_shown(app, wait)  # not bold


async def test_the_wait_line_says_the_next_game_waits_for_a_stopped_host(
    client: ScriptedClient,
) -> None:
    """A headless host stopped between games (to be resumed): the box read
    "The next game starts when every player here has asked for it … waiting
    for you", as if a vote could start it, above the note that the host had
    stopped.  It says the next game waits for the host, and the vote line
    comes back with the host."""
    state = finished(["you", "bob"])
    seats = (SeatSlot(0, "you", "human", True), SeatSlot(1, "bob", "human", True))
    lobby = lobby_with(
        dataclasses.replace(lobby_for(["you", "bob"]), host_seat=None, seats=seats),
        rematch="vote",
    )
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await game_over_for(pilot, client, state, 0, False, lobby)
        wait = screen.query_one("#rematch-wait", Static)
        assert "waiting for you and bob" in str(wait.content)
        stopped = "the host stopped between games: it may resume the table"
        client.emit(ConnectionChanged("reconnecting", stopped))
        await wait_for(pilot, lambda: str(wait.content) == HOST_STOPPED_WAIT)
        client.emit(ConnectionChanged("connected", "127.0.0.1:1 (reconnected)"))
        await wait_for(pilot, lambda: "waiting for you and bob" in str(wait.content))


async def test_the_wait_line_names_you_first_and_the_last_after_and(client: ScriptedClient) -> None:
    """In seat order it said "waiting for ann, you": "you" comes first."""
    state = finished(["ann", "[b]bob[/b]", "you"])
    seats = (
        SeatSlot(0, "ann", "human", True),
        SeatSlot(1, "[b]bob[/b]", "human", True),
        SeatSlot(2, "you", "human", True),
    )
    lobby = lobby_with(
        dataclasses.replace(lobby_for(["ann", "b", "you"]), host_seat=None, seats=seats),
        rematch="vote",
        rematch_votes=(1,),
    )
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await game_over_for(pilot, client, state, 2, False, lobby)
        wait = screen.query_one("#rematch-wait", Static)
        assert str(wait.content).endswith("(1 of 3 asked; waiting for you and ann).")
        from threeup_tui.client import LobbyChanged

        client.emit(LobbyChanged(lobby_with(lobby, rematch_votes=())))
        await wait_for(pilot, lambda: "(0 of 3 asked" in str(wait.content))
        assert str(wait.content).endswith("waiting for you, ann and [b]bob[/b]).")
        await pilot.pause()
        assert "you, ann and [b]bob[/b])." in words_shown(app, wait)  # as typed, not bold


async def test_a_table_that_closes_after_the_game_takes_its_next_game_offer_back(
    client: ScriptedClient,
) -> None:
    """A dedicated host stopped between games: the box went on offering
    "Next game (r)", in its footer too, and r did nothing."""
    state = finished(["you", "bo"])
    lobby = lobby_with(
        dataclasses.replace(lobby_for(["you", "bo"]), host_seat=None), rematch="vote"
    )
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await game_over_for(pilot, client, state, 0, False, lobby)
        assert "r Next game" in footer_words(app)
        client.emit(ConnectionChanged("closed", "the host closed the table"))
        await wait_for(pilot, lambda: "No next game here: the host closed" in screen_text(app))
        assert "Next game" not in footer_words(app) and "asked" not in screen_text(app)
        assert not screen.query("#rematch")  # gone, not a button that does nothing
        await pilot.press("r")
        assert ("rematch", None) not in client.requests


@pytest.mark.parametrize("size", [(80, 24), (40, 15)])
async def test_a_seat_taken_over_after_the_game_is_not_told_the_table_closed(
    client: ScriptedClient, size: tuple[int, int]
) -> None:
    """The same player joined from a second terminal while the result
    showed: the first app's box read "The table has closed: there is no
    next game", which was not so (the table plays on, in the other
    terminal).  It says why there is no next game here, in the host's words."""
    state = finished(["you", "bo"])
    app = table_app(client)
    async with app.run_test(size=size) as pilot:
        screen = await game_over_for(pilot, client, state, 1, False, lobby_for(["you", "bo"]))
        wait = screen.query_one("#rematch-wait", Static)
        client.emit(ConnectionChanged("closed", "your seat was taken over from another terminal"))
        await wait_for(pilot, lambda: "taken over" in words_shown(app, wait), 5, "the reason")
        shown = words_shown(app, wait)
        assert shown == "No next game here: your seat was taken over from another terminal."
        assert "table has closed" not in screen_text(app), screen_text(app)


async def test_the_host_may_rematch_and_save(client: ScriptedClient) -> None:
    state = finished(["you", "bo"])
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await game_over_for(pilot, client, state, 0, True, lobby_for(["you", "bo"]))
        assert {"rematch", "save", "close", "leave"} <= buttons(screen)
        assert "r Rematch" in footer_words(app) and "Next game" not in screen_text(app)
        await pilot.press("r")
        assert client.requests[-1] == ("rematch", None)


@pytest.mark.parametrize("seed", [4, 7, 12])
async def test_the_turn_number_agrees_on_the_top_line_and_in_the_dialog(
    client: ScriptedClient, seed: int
) -> None:
    state = dealt(["you", "bo"], first=0, seed=seed)
    while not state.over:
        state.apply(state.legal_actions()[0])
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await game_over_for(pilot, client, state, 0, True, lobby_for(["you", "bo"]))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        top = app.screen.query_one(StatusBar).text
        turn = int(top.rsplit("turn ", 1)[1])
        said = result_content(seat_view(state, 0), ("you", "bo")).plain
        assert f"{turn} turns" in said or (turn == 1 and "1 turn" in said), (top, said)


async def test_after_the_game_the_table_offers_the_result_not_moves(
    client: ScriptedClient,
) -> None:
    state = finished(["you", "bo"])
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await game_over_for(pilot, client, state, 0, True, lobby_for(["you", "bo"]))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        footer = footer_words(app)
        assert "Result" in footer and "Play" not in footer and "Hint" not in footer
        assert not app.screen.query_one("#actions").display
        await pilot.press("u", "d", "enter")
        assert not any(kind == "submit" for kind, _ in client.requests)


async def test_a_spectator_is_told_the_next_game_waits_for_a_player(
    client: ScriptedClient,
) -> None:
    """Every player gone (the bots played their seats to the end): a
    dedicated host deals no game to bots alone and waits for one to come
    back, but a spectator's box said "The next game starts when every
    player here has asked for it", as if it would come."""
    state = finished(["ann", "bo"])
    seats = tuple(dataclasses.replace(s, connected=False) for s in lobby_for(["ann", "bo"]).seats)
    lobby = lobby_with(
        dataclasses.replace(lobby_for(["ann", "bo"]), host_seat=None, seats=seats),
        rematch="vote",
    )
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await game_over_for(pilot, client, state, None, False, lobby)
        assert "rematch" not in buttons(screen)
        said = str(screen.query_one("#rematch-wait", Static).content)
        assert said == "No player is at the table now: the next game waits for one to come back."
        assert "come" in screen_text(app)  # shown (wrapped in the box at 80 columns)
        # Someone comes back: the box says how the next game starts again.
        from threeup_tui.client import LobbyChanged

        client.emit(LobbyChanged(dataclasses.replace(lobby, seats=lobby_for(["ann", "bo"]).seats)))
        wait = screen.query_one("#rematch-wait", Static)
        await wait_for(pilot, lambda: "(0 of 1 asked; waiting for ann)" in str(wait.content))


def test_a_guest_waits_for_the_host_or_for_the_seats_to_fill() -> None:
    """An app's table starts when its host says; a dedicated host's (no seat
    of its own) once every seat is taken, which its guests are told."""
    from threeup_tui.app.screens.lobby import WAITING, waiting_words

    assert waiting_words(lobby_for(["ann", "bo"])) == WAITING
    open_seat = SeatSlot(2, "seat 3", "open", False)
    headless = dataclasses.replace(lobby_for(["ann", "bo"]), host_seat=None)
    one_open = dataclasses.replace(headless, seats=(*headless.seats, open_seat))
    assert waiting_words(one_open) == "The game starts once every seat is taken (1 seat open)."
    assert "about to start" in waiting_words(headless)


def real_lobby(guest: str) -> Lobby:
    """A real table's lobby: its host ("you") and a second seat, which a
    network guest took ("human"), a network guest's ``join --bot expert``
    took ("network-bot"), or the host gave a bot ("bot")."""
    from threeup_tui.table import Table, TableConfig

    table = Table(TableConfig(players=2))
    table.seat_human("you", host=True)
    if guest == "bot":
        table.add_bot(0, "greedy")
    else:
        seat, _token = table.seat_human("bo")
        if guest == "network-bot":
            table.set_network_bot(seat, "expert")  # its level, not the table's
    return table.lobby(0)


@pytest.mark.parametrize("guest", ["human", "network-bot", "bot"])
async def test_the_hosts_game_over_speaks_of_bots_only_where_bots_play(
    client: ScriptedClient, guest: str
) -> None:
    """The host's game-over box said "Bots: greedy   b: another level next
    game" at a table of people alone, where no bot plays, and beside a
    guest's ``join --bot expert``, whose level b does not change."""
    lobby = real_lobby(guest)
    state = finished([slot.name for slot in lobby.seats])
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await game_over_for(pilot, client, state, 0, True, lobby)
        bots = guest == "bot"
        assert ("Bots: greedy" in screen_text(app)) == bots, screen_text(app)
        assert ("another level" in screen_text(app)) == bots
        assert ("Bot level" in footer_words(app)) == bots, footer_words(app)
        assert "Rematch" in screen_text(app)  # the host's rematch stays


@pytest.mark.parametrize("seat", [0, None])
async def test_every_player_away_is_told_the_next_game_waits_for_one_to_play(
    client: ScriptedClient, seat: int | None
) -> None:
    """Both players' turns timed out (the bot plays their seats): the host
    waits for one to play again ("nobody plays at the table", its log
    said), but the box read "The next game starts when every player here
    has asked for it, or in 3 s".  And a player's own line ended "(r)",
    though any key brings their seat back: it begins as the line of a
    player away alone does, with what they are and what brings them back."""
    state = finished(["ann", "bo"])
    seats = tuple(
        dataclasses.replace(s, connected=True, bot_level="greedy", away=True)
        for s in lobby_for(["ann", "bo"]).seats
    )
    lobby = lobby_with(
        dataclasses.replace(lobby_for(["ann", "bo"]), host_seat=None, seats=seats),
        rematch="vote",
        rematch_after=3.0,
    )
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await game_over_for(pilot, client, state, seat, False, lobby)
        said = str(screen.query_one("#rematch-wait", Static).content)
        if seat is None:
            assert said == "Every player is away: the next game waits for one to play again."
        else:  # any key of theirs brings a game, as the lone player away is told
            assert said == (
                "You are away: any key to play again. "
                "Every player is away: the next game waits for one to play again."
            )
            assert "rematch" in buttons(screen)


async def test_only_the_tables_word_marks_a_player_away(client: ScriptedClient) -> None:
    """Away is what the table says (LOBBY ``away``), not a bot on the seat:
    the app read any bot on its own connected seat as "You are away", sent
    "here" on the player's next key, and left them out of the vote's count."""
    from threeup_tui.client import LobbyChanged

    state = finished(["you", "bo"])
    mine = SeatSlot(0, "you", "human", True, "greedy")  # a bot on it, and not away
    lobby = lobby_with(
        dataclasses.replace(
            lobby_for(["you", "bo"]), host_seat=None, seats=(mine, SeatSlot(1, "bo", "human", True))
        ),
        rematch="vote",
    )
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await game_over_for(pilot, client, state, 0, False, lobby)
        assert wait_line(app).endswith("(0 of 2 asked; waiting for you and bo)."), wait_line(app)
        assert "away" not in screen_text(app)
        await pilot.press("right")  # a key of the box that asks for nothing
        await pilot.pause()
        assert ("here", None) not in client.requests
        marked = dataclasses.replace(mine, away=True)
        client.emit(LobbyChanged(dataclasses.replace(lobby, seats=(marked, lobby.seats[1]))))
        await wait_for(pilot, lambda: wait_line(app).startswith("You are away"), what="away")
        assert wait_line(app).endswith("(0 of 1 asked; waiting for bo)."), wait_line(app)


class KeptSeatClient(ScriptedClient):
    """A spectator's client whose kept token is for ann's seat (s asks for it)."""

    @property
    def may_sit_down(self) -> bool:
        return True

    def kept_seat(self, lobby: Lobby) -> str | None:
        return "ann"


async def test_a_spectator_seated_at_the_result_box_reads_the_next_games_wait() -> None:
    """Ann watched her game's end, her seat away, and took it back at the
    result box: the box is made again for a player as her seat comes, and
    the lobby and view that come with it changed its wait line while its
    widgets were being replaced.  The line went to be put above the box's
    status line, gone with the rest: the app ended with "No nodes match
    'StatusLine' on GameOverScreen" (found at a real host, in
    test_tui_sit_down's result-box test with its timing shifted).  The box
    made again says what the next game waits for, and the app runs on."""
    client = KeptSeatClient()
    state = finished(["ann", "bo"])
    here = lobby_with(dataclasses.replace(lobby_for(["ann", "bo"]), host_seat=None), rematch="vote")
    ann_away = dataclasses.replace(here.seats[0], connected=False)
    away = dataclasses.replace(here, seats=(ann_away, here.seats[1]))
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await game_over_for(pilot, client, state, None, False, away)
        await wait_for(pilot, lambda: "s Take your seat" in footer_words(app), what="the key")
        from threeup_tui.client import LobbyChanged, ViewChanged, Welcome

        client.emit(Welcome(0, False, "test table"))  # the seat given back
        client.emit(LobbyChanged(here))
        client.emit(ViewChanged(seat_view(state, 0)))
        await wait_for(
            pilot,
            lambda: "r Next game" in footer_words(app) and "0 of 1 asked" in wait_line(app),
            what="the box made for a player",
        )
        assert app.is_running
        assert wait_line(app).endswith("(0 of 1 asked; waiting for you)."), wait_line(app)
        assert "waiting for you" in words_shown(app, app.screen.query_one("#rematch-wait"))


@pytest.mark.parametrize("host", [False, True], ids=["guest", "host"])
async def test_a_player_away_at_a_table_the_host_restarts_is_told_so_in_the_box(
    client: ScriptedClient, host: bool
) -> None:
    """At a table whose host starts the next game, a player marked away (the
    bot played their seat to the end) read "Waiting for the host to start
    a rematch…", the host themselves nothing: the bot plays their seat in
    the next game too, and no key of the box gave it back."""
    state = finished(["you", "bo"])
    seats = (
        SeatSlot(0, "you", "human", True, "greedy", away=True),
        SeatSlot(1, "bo", "human", True),
    )
    lobby = dataclasses.replace(lobby_for(["you", "bo"]), host_seat=0 if host else 1, seats=seats)
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await game_over_for(pilot, client, state, 0, host, lobby)
        wait = screen.query_one("#rematch-wait", Static)
        told = "You are away: any key to play again."
        assert str(wait.content) == told + (
            "" if host else " Waiting for the host to start a rematch…"
        )
        await pilot.press("right")  # a key of the box that does nothing else
        assert ("here", None) in client.requests
