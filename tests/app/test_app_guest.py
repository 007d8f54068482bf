"""The confined guest (THREEUP_GUEST=1, the SSH door's player): only the
table, no menu it could reach, and the app ends with the table."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import wait_for
from app_states import dealt, lobby_for, seat_events

from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.main import guest_seat
from threeup_tui.app.screens.guest import GuestScreen
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.widgets.chat import ChatLines
from threeup_tui.app.widgets.status_line import StatusLine
from threeup_tui.client import ChatReceived, ConnectionChanged, LobbyChanged, Welcome
from threeup_tui.launcher import JoinSettings
from threeup_tui.table import TABLE_FULL, TABLE_FULL_SEATS_KEPT

SEAT = JoinSettings("127.0.0.1:47823", "ann", "pizza", token="t" * 32)
MENUS = {"Play against bots", "Host a table", "Join a table", "Screenshot"}


def guest_app(client: ScriptedClient, join_error: str | None = None):  # type: ignore[no-untyped-def]
    spec = StartSpec(mode="join", join=SEAT, guest=True)
    return create_app(ScriptedLauncher(client, join_error), spec)


def exit_words(app) -> str:  # type: ignore[no-untyped-def]
    return app.goodbye or ""


async def test_a_guest_sees_only_the_table_and_no_palette_entry_leads_away(
    client: ScriptedClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Textual saves screenshots in the downloads directory: ~/Downloads.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    downloads = tmp_path / "Downloads"
    downloads.mkdir()
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    app = guest_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        client.emit(Welcome(1, False, "Bo's table"))
        client.emit(LobbyChanged(lobby_for(["Bo", "ann"], host_seat=0, started=False)))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert isinstance(app.screen_stack[1], GuestScreen)
        assert not any(isinstance(s, StartScreen) for s in app.screen_stack)
        for screen in app.screen_stack:
            titles = {c.title for c in app.get_system_commands(screen)}
            assert not titles & MENUS, titles
        app.deliver_screenshot()  # the palette's entry is gone; the action writes nothing
        await asyncio.sleep(0.3)  # a delivery is written by a thread
        await pilot.pause()
        assert list(tmp_path.rglob("*")) == [downloads]
        # Leaving the table ends the app, and with it the SSH session.
        app.leave_table()
        await pilot.pause()
    assert app.return_code == 0
    assert "you left the table" in exit_words(app)
    assert client.closed


@pytest.mark.parametrize(
    "reason", ["the host closed the table", "your seat was taken over from another terminal"]
)
async def test_when_the_table_closes_the_guests_app_says_why_and_ends(
    client: ScriptedClient, reason: str
) -> None:
    app = guest_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        client.emit(Welcome(1, False, "Bo's table"))
        client.emit(LobbyChanged(lobby_for(["Bo", "ann"], host_seat=0, started=False)))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        client.emit(ConnectionChanged("closed", reason))
        await wait_for(pilot, lambda: app._exit, what="the app to exit")
    assert app.return_code == 0
    assert reason in exit_words(app)


async def test_a_joined_player_whose_seat_is_taken_over_keeps_reading_why(
    client: ScriptedClient,
) -> None:
    """Not a guest (``threeup join``): the app stays, and the reason stays on
    the status line, not for a toast's few seconds, until the player leaves."""
    reason = "your seat was taken over from another terminal"
    app = create_app(ScriptedLauncher(client), StartSpec(mode="join", join=SEAT))
    async with app.run_test(size=(80, 24)) as pilot:
        client.emit(Welcome(1, False, "Bo's table"))
        client.emit(LobbyChanged(lobby_for(["Bo", "ann"], host_seat=0, started=False)))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        client.emit(ConnectionChanged("closed", reason))
        line = app.screen.query_one(StatusLine)
        await wait_for(pilot, lambda: reason in line.text)
        (note,) = [n for n in app._notifications if reason in n.message]
        assert note.timeout > 3600, "the reason goes after a few seconds"
        assert not app._exit
        app.leave_table()
        await pilot.pause()
        assert not [n for n in app._notifications if reason in n.message]


async def test_a_guest_that_cannot_join_ends_with_the_reason(client: ScriptedClient) -> None:
    app = guest_app(client, join_error="the table refused: wrong room code")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app._exit, what="the app to exit")
    assert app.return_code == 1
    assert "wrong room code" in exit_words(app)


@pytest.mark.parametrize("refusal", [TABLE_FULL, TABLE_FULL_SEATS_KEPT])
async def test_a_guest_who_loses_the_last_seat_watches(
    client: ScriptedClient, refusal: str
) -> None:
    """The door saw a seat open; another guest took it while this one was
    at the prompts.  The app ended with "could not join: the table is
    full", where the door lets a guest at a full table watch.  (A dedicated
    host's game begins with its last seat: the refusal then says why a
    seat is kept.)"""

    class Race(ScriptedLauncher):
        def __init__(self) -> None:
            super().__init__(client)
            self.asked: list[JoinSettings] = []

        async def join(self, settings: JoinSettings):  # type: ignore[no-untyped-def,override]
            self.asked.append(settings)
            if not settings.watch:
                raise ConnectionRefusedError(f"the table refused: {refusal}")
            return self.client

    launcher = Race()
    app = create_app(launcher, StartSpec(mode="join", join=SEAT, guest=True))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: len(launcher.asked) == 2, what="a watching join")
        await pilot.pause()
        assert not app._exit
        notes = [n.message for n in app._notifications]
        assert any("went to someone else first: you watch" in n for n in notes), notes
    first, then = launcher.asked
    assert (first.watch, then.watch) == (False, True)
    assert then.token == SEAT.token  # s in the lobby asks for a seat as this identity


def test_the_doors_secrets_arrive_through_a_pipe_never_the_command_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read, write = os.pipe()
    os.write(write, json.dumps({**SEAT.__dict__, "watch": False, "word": "otter-427"}).encode())
    os.close(write)
    monkeypatch.setenv("THREEUP_GUEST", "1")
    monkeypatch.setenv("THREEUP_GUEST_FD", str(read))
    settings, word = guest_seat()
    assert settings == SEAT and word == "otter-427"
    assert "THREEUP_GUEST_FD" not in os.environ
    with pytest.raises(OSError):
        os.fstat(read)  # read once, then closed


async def test_a_guests_palette_says_what_leaving_and_settings_do_for_a_guest(
    client: ScriptedClient,
) -> None:
    """It offered "Leave the table: Back to the start screen" (a guest has
    none: the SSH session ends) and a card animation "(remembered)" (a
    guest keeps nothing)."""
    app = guest_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        for event in seat_events(dealt(["Bo", "ann"], first=0), 1, is_host=False):
            client.emit(event)  # type: ignore[arg-type]
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        said = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert said["Leave the table"] == "Ends this SSH session"
        animation = next(help for title, help in said.items() if "animation" in title)
        assert "remembered" not in animation


async def test_the_doors_seat_word_stays_below_the_tables_recent_lines_however_late(
    client: ScriptedClient,
) -> None:
    """A keyless guest's app says its seat word in the chat, below the
    table's recent lines (sent again to every new session, marked old).
    It said it 0.3 s after the first lobby, trusting the lines to have come
    by then: they come on the message channel, the lobby on the state
    channel ahead of them in every datagram, and a lost datagram's lines a
    retransmission later (longer under load). Then the word went above
    them, out of sight above a game's chat; lines said later go below it."""
    spec = StartSpec(mode="join", join=SEAT, guest=True, seat_word="otter-427")
    app = create_app(ScriptedLauncher(client), spec)
    async with app.run_test(size=(80, 24)) as pilot:
        for event in seat_events(dealt(["Bo", "ann"]), 1, is_host=False):
            client.emit(event)  # type: ignore[arg-type]
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await asyncio.sleep(0.6)  # the recent lines are late
        for n in range(1, 11):
            client.emit(ChatReceived(0, "Bo", f"line {n}", number=n, old=True))
        client.emit(ChatReceived(0, "Bo", "said after", number=11))
        session = app.session
        assert session is not None
        await wait_for(pilot, lambda: any(line.text == "said after" for line in session.chat))
        await pilot.pause()
        texts = [line.text for line in session.chat]
        assert texts[:10] == [f"line {n}" for n in range(1, 11)], texts
        assert texts[10].startswith("your seat word is otter-427"), texts
        assert texts[11:] == ["said after"], texts
        shown = app.screen.query_one(ChatLines).lines
        assert [line.text for line in shown] == texts
        # A reconnect's lines said while it was away are newer: below it all.
        client.emit(ConnectionChanged("reconnecting"))
        client.emit(ConnectionChanged("connected"))
        client.emit(ChatReceived(0, "Bo", "said while away", number=12, old=True))
        await wait_for(pilot, lambda: session.chat[-1].text == "said while away")


async def test_a_watcher_who_sits_down_reads_its_seat_word_below_the_new_sessions_lines(
    client: ScriptedClient,
) -> None:
    """A keyless watcher who sits down (s) gets a new session, whose recent
    lines not shown yet ("mia sat down at seat 2") go above the seat word
    it is told, and below the line that said it watched."""
    from dataclasses import replace

    from threeup_tui.guest import GUEST_WATCHES

    spec = StartSpec(mode="join", join=replace(SEAT, watch=True), guest=True, seat_word="vole-123")
    app = create_app(ScriptedLauncher(client), spec)
    async with app.run_test(size=(80, 24)) as pilot:
        client.emit(Welcome(None, False, "Bo's table"))
        client.emit(LobbyChanged(lobby_for(["Bo", "seat 2"], host_seat=0, started=False)))
        client.emit(ChatReceived(None, "table", "Bo sat down at seat 1", number=1, old=True))
        session = app.session
        assert session is not None
        await wait_for(pilot, lambda: len(session.chat) == 2)
        client.emit(Welcome(1, False, "Bo's table"))  # sat down: a new session
        client.emit(ChatReceived(None, "table", "mia sat down at seat 2", number=2, old=True))
        await wait_for(pilot, lambda: len(session.chat) == 4)
        texts = [line.text for line in session.chat]
        assert texts[:3] == ["Bo sat down at seat 1", GUEST_WATCHES, "mia sat down at seat 2"]
        assert texts[3].startswith("your seat word is vole-123"), texts
