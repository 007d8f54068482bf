"""The chat on a small terminal, where it is out of sight until c: it
stays open while a line is written, says where Esc goes back to, and
counts the lines that came while it was hidden."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

import pytest
from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import screen_text, wait_for
from app_states import dealt, lobby_for
from table_states import open_table, table_app
from textual.pilot import Pilot
from textual.widgets import Input

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.messages import ChatArrived
from threeup_tui.app.scenes import scene
from threeup_tui.app.screens.game_over import GameOverScreen
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.widgets.chat import ChatLines
from threeup_tui.client import (
    ChatReceived,
    ConnectionChanged,
    Lobby,
    LobbyChanged,
    ViewChanged,
    Welcome,
)
from threeup_tui.launcher import JoinSettings
from threeup_tui.rules import GameState, Options, seat_view


@asynccontextmanager
async def narrow_guest(
    client: ScriptedClient, lobby: Lobby, seat: int | None
) -> AsyncIterator[tuple[ThreeUpApp, Pilot[int]]]:
    """A guest's app at 40x15 (``threeup join``), told by ``client`` that
    it has ``seat`` (None: it watches) at ``lobby``.  What it shows next
    (the lobby, or a started game's set-up) is the caller's to wait for."""
    app = create_app(ScriptedLauncher(client), StartSpec(mode="join", join=JoinSettings("h")))
    async with app.run_test(size=(40, 15)) as pilot:
        client.emit(Welcome(seat, False))
        client.emit(LobbyChanged(lobby))
        yield app, pilot


@asynccontextmanager
async def narrow_spectator_of_a_players_chat(
    client: ScriptedClient,
) -> AsyncIterator[tuple[ThreeUpApp, Pilot[int]]]:
    """A spectator's app at 40x15, at a dealt table of three that keeps its
    chat to the players (--no-spectator-chat)."""
    names = ["you", "Ana", "Bo"]
    lobby = replace(lobby_for(names), spectator_chat=False)
    app = table_app(client)
    async with app.run_test(size=(40, 15)) as pilot:
        await open_table(pilot, client, dealt(names), seat=None, is_host=False, lobby=lobby)
        yield app, pilot


async def test_a_guest_writing_in_a_narrow_lobby_keeps_the_chat_through_a_resize() -> None:
    """A guest wrote in the chat of a narrow lobby (c), the terminal grew
    wide and narrow again: the lobby had put the chat away when it grew
    (the table and the set-up leave that to the chat line losing the
    keys), so the box kept the keys, out of sight, and the letters typed
    next went into a line nobody could see."""
    lobby_scene = scene("lobby-guest", rules_text=None)
    app = lobby_scene.app()
    async with app.run_test(size=(40, 15)) as pilot:
        await lobby_scene.drive(pilot)
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("c")
        await wait_for(pilot, lambda: "Ana: welcome!" in screen_text(app), what="the chat")
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.resize_terminal(40, 15)
        await pilot.pause()
        await pilot.press("h", "i")
        box = app.screen.query_one("#chat-input", Input)
        assert box.has_focus and box.value == "hi"
        await wait_for(
            pilot,
            lambda: "hi" in screen_text(app) and "Ana: welcome!" in screen_text(app),
            what=f"the line written, in sight: {screen_text(app)}",
        )
        assert "Waiting for the host" not in screen_text(app)  # the chat in the column's place


@pytest.mark.usefixtures("bots_table_with_chat")
@pytest.mark.parametrize(
    ("name", "size"),
    [("lobby-guest", (40, 15)), ("lobby", (80, 24)), ("setup", (40, 15))],
    ids=["guest-lobby-40x15", "host-lobby-80x24", "setup-40x15"],
)
async def test_the_chat_line_says_where_esc_goes_back_to(name: str, size: tuple[int, int]) -> None:
    """The chat line's Esc read "Back to the table" in a lobby too, where
    there is no table yet: it says the lobby there, the table elsewhere."""
    chat_scene = scene(name, rules_text=None)
    app = chat_scene.app()
    async with app.run_test(size=size) as pilot:
        await chat_scene.drive(pilot)
        await pilot.press("c")
        place = "lobby" if isinstance(app.screen, LobbyScreen) else "table"
        await wait_for(
            pilot,
            lambda: f"esc Back to the {place}" in screen_text(app).splitlines()[-1],
            what=f"the footer's Esc: {screen_text(app).splitlines()[-1]}",
        )
        await pilot.press("escape")
        assert "Back to the" not in screen_text(app).splitlines()[-1]


def footer(app: object) -> str:
    return screen_text(app).splitlines()[-1]


async def test_lines_said_while_a_narrow_tables_chat_is_hidden_are_counted_until_c(
    client: ScriptedClient,
) -> None:
    """At 40x15 the table's chat is out of sight until c, and nothing said
    that a line had come: the footer's chat key counts the lines others
    said meanwhile (not the player's own, nor the table's notes), shows
    though the footer has no room for it otherwise, and c clears it."""
    app = table_app(client)
    async with app.run_test(size=(40, 15)) as pilot:
        await open_table(pilot, client, dealt(["you", "Ana", "Bo"]))
        assert "Chat" not in footer(app)  # no room for it at 40 columns
        client.emit(ChatReceived(None, "table", "Cy is watching"))  # the table's note
        client.emit(ChatReceived(0, "you", "my own line"))
        client.emit(ChatReceived(1, "Ana", "hello"))
        client.emit(ChatReceived(None, "Cy", "nice hand", spectator=True))
        await wait_for(pilot, lambda: "c Chat (2)" in footer(app), what=f"the count: {footer(app)}")
        assert "⏎/p Play" in footer(app) and "q Leave" in footer(app), footer(app)
        assert "Ana: hello" not in screen_text(app)

        await pilot.press("c")
        await wait_for(pilot, lambda: "Ana: hello" in screen_text(app), what="the chat")
        assert "Chat (" not in footer(app), footer(app)
        client.emit(ChatReceived(2, "Bo", "said in sight"))  # read as it comes: not counted
        await wait_for(pilot, lambda: "Bo: said in sight" in screen_text(app))
        await pilot.press("escape")
        await pilot.pause()
        assert "Chat (" not in footer(app), footer(app)

        client.emit(ChatReceived(2, "Bo", "gg"))
        await wait_for(pilot, lambda: "c Chat (1)" in footer(app), what=f"the count: {footer(app)}")
        await pilot.resize_terminal(100, 30)  # the chat beside the cards: read
        await wait_for(pilot, lambda: "Chat (" not in footer(app), what=f"no count: {footer(app)}")
        await pilot.resize_terminal(40, 15)
        await pilot.pause()
        assert "Chat (" not in footer(app), footer(app)


async def test_a_narrow_guests_unread_lines_stay_counted_when_the_game_begins(
    client: ScriptedClient,
) -> None:
    """Lines said in the lobby before the deal (\"ready?\") are as unread on
    the set-up screen that follows it: the count goes on from one to the
    other, until c."""
    names = ["Ann", "Bo", "Cy"]
    lobby = replace(lobby_for(names, started=False), host_seat=0)
    async with narrow_guest(client, lobby, seat=1) as (app, pilot):
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        client.emit(ChatReceived(0, "Ann", "ready?"))
        await wait_for(pilot, lambda: "c Chat (1)" in footer(app), what=f"the count: {footer(app)}")
        state = GameState.new(names, Options(), seed=1)
        client.emit(LobbyChanged(replace(lobby, started=True)))
        client.emit(ViewChanged(seat_view(state, 1)))
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen), what="the set-up")
        await wait_for(pilot, lambda: "c Chat (1)" in footer(app), what=f"the count: {footer(app)}")
        await pilot.press("c")
        await wait_for(pilot, lambda: "Ann: ready?" in screen_text(app), what="the chat")
        assert "Chat (" not in footer(app), footer(app)


@pytest.mark.usefixtures("bots_table_with_chat")
async def test_the_game_over_box_over_a_narrow_table_counts_the_lines_said() -> None:
    """After a game is when people talk ("gg"): at 40x15 the result box
    covers the table, whose chat is out of sight anyway, and its "c Chat"
    said nothing of the lines come.  It counts them, and c (the table,
    its chat open) clears the count."""
    over = scene("game-over", rules_text=None)
    app = over.app()
    async with app.run_test(size=(40, 15)) as pilot:
        await over.drive(pilot)
        assert isinstance(app.screen, GameOverScreen)
        app.post_message(ChatArrived(1, "greedy bot 2", "gg"))
        await wait_for(pilot, lambda: "c Chat (1)" in footer(app), what=f"the count: {footer(app)}")
        await pilot.press("c")
        await wait_for(pilot, lambda: "greedy bot 2: gg" in screen_text(app), what="the chat")
        assert not isinstance(app.screen, GameOverScreen)
        assert "Chat (" not in footer(app), footer(app)


async def test_a_line_begun_at_a_wide_table_stays_open_when_the_terminal_narrows(
    client: ScriptedClient,
) -> None:
    """c at a wide table, then the terminal narrowed under 60 columns (a
    pane split): the chat went out of sight under the keys, Textual gave
    them to the table, and the next word's space and "p" played a card.
    The chat takes the cards' room instead, as a c at 40 columns does."""
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_table(pilot, client, dealt(["you", "Ana", "Bo"]))
        await pilot.press("c", "h", "i")
        await pilot.resize_terminal(40, 15)
        await pilot.pause()
        await pilot.press("space", "p")
        box = app.screen.query_one("#chat-input", Input)
        assert box.has_focus and box.value == "hi p", (app.focused, box.value)
        assert client.requests == [], client.requests  # no card played
        await wait_for(pilot, lambda: "hi p" in screen_text(app), what="the line, in sight")
        await pilot.press("escape")  # the cards are back
        await wait_for(pilot, lambda: "Hand" in screen_text(app), what="the cards")


@pytest.mark.usefixtures("bots_table_with_chat")
@pytest.mark.parametrize("name", ["lobby-guest", "setup"])
async def test_a_line_begun_wide_stays_open_when_the_terminal_narrows(name: str) -> None:
    """As at the table: in a guest's lobby and at the set-up, a line begun
    at 100x30 stays in sight, its box keeping the keys, at 40x15."""
    chat_scene = scene(name, rules_text=None)
    app = chat_scene.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await chat_scene.drive(pilot)
        await pilot.press("c", "h", "i")
        await pilot.resize_terminal(40, 15)
        await pilot.pause()
        await pilot.press("space", "1")
        box = app.screen.query_one("#chat-input", Input)
        assert box.has_focus and box.value == "hi 1", (app.focused, box.value)
        await wait_for(pilot, lambda: "hi 1" in screen_text(app), what="the line, in sight")


async def test_the_lines_said_before_a_narrow_app_came_are_not_counted(
    client: ScriptedClient,
) -> None:
    """A new app at the table is sent its recent lines, said before it came
    (they tell what happened): at 40x15 they counted as unread, "c Chat (3)"
    before anyone had said a word to the newcomer.  A lost link's recent
    lines are those said while it was away: new to the player, counted."""
    names = ["Ann", "Bo", "Cy"]
    lobby = replace(lobby_for(names, started=False), host_seat=0)
    async with narrow_guest(client, lobby, seat=1) as (app, pilot):
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        client.emit(ChatReceived(0, "Ann", "who is coming?", number=1, old=True))
        client.emit(ChatReceived(None, "Cy", "me, watching", spectator=True, number=2, old=True))
        client.emit(ChatReceived(None, "table", "Bo sat down at seat 2", number=3, old=True))
        await wait_for(pilot, lambda: app.session is not None and len(app.session.chat) == 3)
        await pilot.pause()
        assert "Chat (" not in footer(app), footer(app)

        client.emit(ConnectionChanged("reconnecting", "no answer"))
        client.emit(ConnectionChanged("connected", ""))
        client.emit(ChatReceived(0, "Ann", "Bo, are you there?", number=4, old=True))
        await wait_for(pilot, lambda: "c Chat (1)" in footer(app), what=f"the count: {footer(app)}")
        client.emit(ChatReceived(0, "Ann", "welcome back", number=5))
        await wait_for(pilot, lambda: "c Chat (2)" in footer(app), what=f"the count: {footer(app)}")


@pytest.mark.usefixtures("bots_table_with_chat")
async def test_a_line_said_under_the_game_over_box_of_a_wide_table_is_counted() -> None:
    """At 100x30 the table shows its chat, but the result box covers it: a
    line said under the box counted as read, and the box's "c Chat" said
    nothing of it.  It counts until the table (its chat) is in sight."""
    over = scene("game-over", rules_text=None)
    app = over.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await over.drive(pilot)
        assert isinstance(app.screen, GameOverScreen)
        app.post_message(ChatArrived(1, "greedy bot 2", "gg"))
        await wait_for(pilot, lambda: "c Chat (1)" in footer(app), what=f"the count: {footer(app)}")
        await pilot.press("t")  # back to the table, its chat beside the cards
        await wait_for(pilot, lambda: not isinstance(app.screen, GameOverScreen))
        await wait_for(pilot, lambda: "greedy bot 2: gg" in screen_text(app), what="the chat")
        await wait_for(pilot, lambda: "Chat (" not in footer(app), what=f"no count: {footer(app)}")


async def test_a_line_said_under_the_help_stays_unread_if_the_table_narrows(
    client: ScriptedClient,
) -> None:
    """A line said while the help covered a wide table was counted as read,
    though nobody saw it: narrowed before the help was closed, the table
    hid its chat, and the footer said nothing had come."""
    app = table_app(client)
    async with app.run_test(size=(100, 30)) as pilot:
        table = await open_table(pilot, client, dealt(["you", "Ana", "Bo"]))
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: app.screen is not table, what="the help")
        client.emit(ChatReceived(1, "Ana", "said under the help"))
        await wait_for(pilot, lambda: "said under the help" in table.query_one(ChatLines).text)
        await pilot.resize_terminal(40, 15)
        await pilot.pause()
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is table, what="the table")
        await wait_for(pilot, lambda: "c Chat (1)" in footer(app), what=f"the count: {footer(app)}")


async def test_a_spectator_who_may_not_chat_reads_a_narrow_tables_chat_on_c(
    client: ScriptedClient,
) -> None:
    """At a table that keeps its chat to the players (--no-spectator-chat),
    c was refused a spectator: under 60 columns they never saw a line, nor
    a count of them.  c lends the lines the cards' room, to read (no line to
    write), and c again or Esc gives it back, as the footer says."""
    async with narrow_spectator_of_a_players_chat(client) as (app, pilot):
        client.emit(ChatReceived(1, "Ana", "hello"))
        await wait_for(pilot, lambda: "c Chat (1)" in footer(app), what=f"the count: {footer(app)}")
        assert "Ana: hello" not in screen_text(app)

        for back in ("c", "escape"):
            await pilot.press("c")
            await wait_for(pilot, lambda: "Ana: hello" in screen_text(app), what="the chat")
            assert "only players chat here" in screen_text(app)
            await wait_for(
                pilot,
                lambda: "esc/c Back to the table" in footer(app),
                what=f"the way back: {footer(app)}",
            )
            assert "Chat" not in footer(app), footer(app)
            assert "q Leave" in footer(app), footer(app)  # q leaves from here too
            await pilot.press(back)
            await wait_for(
                pilot, lambda: "Ana: hello" not in screen_text(app), what=f"the cards, {back}"
            )
            assert "Back to" not in footer(app) and "c Chat" in footer(app), footer(app)


async def test_the_palette_offers_a_narrow_spectator_who_may_not_chat_reading_not_writing(
    client: ScriptedClient,
) -> None:
    """Ctrl+P offered that spectator "Chat: Write to the table", which c
    (and the command) cannot do for them: it offers reading, and reads."""
    async with narrow_spectator_of_a_players_chat(client) as (app, pilot):
        client.emit(ChatReceived(1, "Ana", "hello"))
        await wait_for(pilot, lambda: "c Chat (1)" in footer(app), what=f"the count: {footer(app)}")
        said = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert "Chat" not in said and "Write to the table" not in said.values(), said
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        assert "Read the chat" in commands, said
        commands["Read the chat"].callback()  # and it shows the lines
        await wait_for(pilot, lambda: "Ana: hello" in screen_text(app), what="the chat")
        assert client.requests == []


class WatchingClient(ScriptedClient):
    """A spectator's client, which may ask for a seat ("s Sit down")."""

    @property
    def may_sit_down(self) -> bool:
        return True


async def test_a_spectator_who_may_not_chat_reads_a_narrow_lobbys_chat_on_c() -> None:
    """As at the table: in a 40x15 lobby whose chat is the players' alone,
    c was refused a spectator; it reads the chat now, and the footer says
    the way back, with "? Rules" and "q Leave" whole beside it."""
    names = ["Ann", "Bo", "seat 3"]
    lobby = replace(lobby_for(names, started=False), spectator_chat=False)
    lobby = replace(lobby, seats=(*lobby.seats[:2], replace(lobby.seats[2], kind="open")))
    client = WatchingClient()
    async with narrow_guest(client, lobby, seat=None) as (app, pilot):
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        client.emit(ChatReceived(0, "Ann", "hello"))
        await wait_for(pilot, lambda: "c Chat (1)" in footer(app), what=f"the count: {footer(app)}")
        assert "s Sit down" in footer(app), footer(app)
        await pilot.press("c")
        await wait_for(pilot, lambda: "Ann: hello" in screen_text(app), what="the chat")
        back = "esc/c Back to the lobby"
        await wait_for(pilot, lambda: back in footer(app), what=f"the way back: {footer(app)}")
        assert "? Rules" in footer(app) and "q Leave" in footer(app), footer(app)  # whole
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Ann: hello" not in screen_text(app), what="the lobby")


async def test_c_shows_the_lines_it_counted_though_the_reader_had_scrolled_back(
    client: ScriptedClient,
) -> None:
    """A reader scrolled back (PgUp), went back to the cards, and two lines
    came: "c Chat (2)", then c showed the old lines where they had been and
    the count went, the two new ones below, out of sight.  c brings the
    lines it counted into sight."""
    async with narrow_spectator_of_a_players_chat(client) as (app, pilot):
        for i in range(30):
            client.emit(ChatReceived(1, "Ana", f"line {i}"))
        await pilot.press("c")
        await wait_for(pilot, lambda: "Ana: line 29" in screen_text(app), what="the chat's end")
        await pilot.press("pageup", "pageup")
        await wait_for(pilot, lambda: "Ana: line 29" not in screen_text(app), what="scrolled back")
        await pilot.press("escape")
        client.emit(ChatReceived(1, "Ana", "new one"))
        client.emit(ChatReceived(1, "Ana", "new two"))
        await wait_for(pilot, lambda: "c Chat (2)" in footer(app), what=f"the count: {footer(app)}")
        await pilot.press("c")
        await wait_for(
            pilot,
            lambda: "Ana: new one" in screen_text(app) and "Ana: new two" in screen_text(app),
            what=f"the lines counted: {screen_text(app)}",
        )


async def test_keys_pressed_while_a_spectator_reads_the_chat_are_not_card_keys(
    client: ScriptedClient,
) -> None:
    """Reading a narrow table's chat, a spectator's p (or a digit) popped up
    "You are watching: only the players play", of cards out of sight."""
    async with narrow_spectator_of_a_players_chat(client) as (app, pilot):
        client.emit(ChatReceived(1, "Ana", "hello"))
        await pilot.press("c")
        await wait_for(pilot, lambda: "Ana: hello" in screen_text(app), what="the chat")
        await pilot.press("p", "1")
        await pilot.pause(0.2)
        assert not [n for n in app._notifications if "only the players" in n.message]
        await pilot.press("escape", "p")
        await wait_for(
            pilot,
            lambda: any("only the players" in n.message for n in app._notifications),
            what="the watcher's note, at the table",
        )


async def test_a_narrow_players_unread_lines_stay_counted_when_play_begins(
    client: ScriptedClient,
) -> None:
    """Lines said while a 40-column player chose face-up cards were
    counted on the set-up screen ("c Chat (2)"), and lost as the table
    came: its footer had no chat key, the lines never seen.  Found in
    tmux, Cy at 40x15 at Ann's table, Bo saying "one" and "two"."""
    names = ["Ann", "Bo", "Cy"]
    lobby = replace(lobby_for(names, started=True), host_seat=0)
    async with narrow_guest(client, lobby, seat=2) as (app, pilot):
        client.emit(ViewChanged(seat_view(GameState.new(names, Options(), seed=1), 2)))
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen), what="the set-up")
        client.emit(ChatReceived(1, "Bo", "one"))
        client.emit(ChatReceived(1, "Bo", "two"))
        await wait_for(pilot, lambda: "c Chat (2)" in footer(app), what=f"the count: {footer(app)}")
        client.emit(ViewChanged(seat_view(dealt(names), 2)))
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        await pilot.pause(0.3)
        assert "c Chat (2)" in footer(app), footer(app)
        await pilot.press("c")
        await wait_for(pilot, lambda: "Bo: two" in screen_text(app), what="the chat")
