"""The start, host, join, lobby and Stats screens; settings and history in the app.

Settings and history are real files in the test's own config and data
directories (tests/conftest.py); games are real games against bots where
the record and the history matter, scripted views where only the screens do.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import socket
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from app_fakes import ScriptedClient, ScriptedLauncher
from app_helpers import (
    fast_launcher,
    joined_at_a_real_host,
    notes_heard,
    screen_text,
    send_at_once,
    wait_for,
    words_shown,
    writing,
)
from app_states import dealt, lobby_for
from text_fit import cut_text
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, OptionList, Select, Static

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.messages import StatsRequested
from threeup_tui.app.rules_text import BUILTIN_RULES, KEYS_HELP, load_rules
from threeup_tui.app.scenes import Announcement, scene
from threeup_tui.app.screens.confirm import ConfirmScreen
from threeup_tui.app.screens.game_over import GameOverScreen
from threeup_tui.app.screens.host import HostScreen
from threeup_tui.app.screens.join import JoinScreen
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.name import NameScreen
from threeup_tui.app.screens.replay import ReplayScreen
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.app.screens.stats import StatsScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.widgets.chat import ChatLines
from threeup_tui.app.widgets.status_line import status_line_for
from threeup_tui.bots import BOT_LEVELS, GreedyBot
from threeup_tui.client import ConnectionChanged, LobbyChanged, TableClient, ViewChanged, Welcome
from threeup_tui.history import FinishedGame, History, HistoryError, SeatEntry
from threeup_tui.launcher import NO_NAME, HostedClient, HostSettings, JoinSettings, Launcher
from threeup_tui.paths import in_tables_dir, tables_dir
from threeup_tui.pendinggames import RECORD_WAITS, keep_aside, pending_dir, pending_games
from threeup_tui.rules import Options, Phase, seat_view
from threeup_tui.settings import Settings, SettingsFile, settings_path
from threeup_tui.table import check_resumable
from threeup_tui.tablefile import table_file_path


def games_now() -> list[FinishedGame]:
    """The history's games, or none while the app's worker still holds the file."""
    try:
        return History().games()
    except HistoryError:
        return []


def notes(app: ThreeUpApp) -> list[str]:
    return [n.message for n in app._notifications]


def on(app: ThreeUpApp, screen: type) -> bool:
    return isinstance(app.screen, screen) and app.screen.is_mounted


class RecordingLauncher(ScriptedLauncher):
    """The scripted launcher, also keeping what each call was given."""

    def __init__(self, client: ScriptedClient) -> None:
        super().__init__(client)
        self.calls: list[tuple[str, object]] = []

    async def local_game(self, players=4, bot_level="greedy", seed=None, name="you"):  # type: ignore[no-untyped-def,override]
        self.calls.append(("play", (players, bot_level, name)))
        return self.client

    async def host(self, settings: HostSettings):  # type: ignore[no-untyped-def,override]
        self.calls.append(("host", settings))
        return self.client

    async def join(self, settings: JoinSettings):  # type: ignore[no-untyped-def,override]
        self.calls.append(("join", settings))
        return self.client


# ---------------------------------------------------------------- settings
async def test_start_screen_choices_are_remembered_at_the_next_start() -> None:
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        await pilot.press("minus", "b")
        await pilot.press("n")
        await wait_for(pilot, lambda: on(app, NameScreen))
        name_input = app.screen.query_one(Input)
        assert name_input.has_focus  # the box's hint: type, then ⏎
        await pilot.press("ctrl+u", *"Zoë", "enter")
        await wait_for(pilot, lambda: on(app, StartScreen))
        assert "Zoë against 2" in screen_text(app)
    levels = list(BOT_LEVELS)
    level = levels[(levels.index("greedy") + 1) % len(levels)]  # b: the next level
    assert SettingsFile().settings == Settings(players=3, bot_level=level, name="Zoë")

    launcher = RecordingLauncher(ScriptedClient())
    again = create_app(launcher)
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(again, StartScreen))
        screen = again.screen
        assert isinstance(screen, StartScreen)
        assert (screen.players, screen.bot_level) == (3, level)
        assert f"Zoë against 2 {level} bots" in screen_text(again)
        await pilot.press("enter")  # Play against bots, as remembered
        await wait_for(pilot, lambda: bool(launcher.calls))
    assert launcher.calls == [("play", (3, level, "Zoë"))]


async def test_a_wide_name_is_cut_in_the_box_as_the_table_seats_it() -> None:
    """24 characters, 7 of them two cells wide, are 31 terminal cells: the
    table seats the first 24 cells, and the start screen and the settings
    say so too, not the 24 characters the box took."""
    typed = "日本語のなまえABCDEFGHIJKLMNOPQ"
    seated = "日本語のなまえABCDEFGHIJ"
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        await pilot.press("n")
        await wait_for(pilot, lambda: on(app, NameScreen))
        app.screen.query_one(Input).value = typed
        await pilot.press("enter")
        await wait_for(pilot, lambda: on(app, StartScreen))
        await wait_for(pilot, lambda: f"{seated} against" in screen_text(app))
    assert SettingsFile().settings.name == seated


async def test_escape_in_the_name_box_keeps_the_name() -> None:
    SettingsFile().change(name="Ann")
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        await pilot.press("n", "x", "escape")
        await wait_for(pilot, lambda: on(app, StartScreen))
    assert SettingsFile().settings.name == "Ann"


async def test_the_name_box_shows_its_own_keys_not_the_start_screens() -> None:
    """The box's key bar was the start screen's, left under it: "b Bot
    level  ? Rules  q Quit", keys that only type a letter into the name.
    The bar says what the box's keys do."""
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        await pilot.press("n")
        await wait_for(pilot, lambda: on(app, NameScreen))
        await wait_for(pilot, lambda: "Cancel" in screen_text(app).splitlines()[-1])
        bar = screen_text(app).splitlines()[-1]
        assert "esc Cancel" in bar, bar
        for start_key in ("Bot level", "Rules", "Quit"):
            assert start_key not in bar, bar


async def test_the_theme_chosen_is_remembered() -> None:
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        app.theme = "nord"  # what the command palette's "Change theme" does
        await wait_for(pilot, lambda: SettingsFile().settings.theme == "nord")
    again = create_app(fast_launcher())
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(again, StartScreen))
        assert again.theme == "nord"


async def test_an_unknown_theme_in_the_file_is_told_and_kept_in_the_file() -> None:
    """A theme the app does not have (a typo, another Textual's) was ignored
    without a word.  It is told at start as a bad setting is, the app
    starts in its default theme, and the file keeps what the player wrote,
    through a change of another setting too."""
    path = settings_path()
    path.parent.mkdir(parents=True)
    written = 'theme = "nord-typo"\nplayers = 3\n'
    path.write_text(written, encoding="utf-8")
    app = create_app(fast_launcher())
    default = app.theme
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        await wait_for(pilot, lambda: any("theme" in n for n in notes(app)))
        (line,) = [n for n in notes(app) if "Settings" in n]
        assert line == f"Settings: {path}: unknown theme 'nord-typo'; using the default theme"
        assert app.theme == default and app.settings.players == 3
        assert path.read_text(encoding="utf-8") == written
        await pilot.press("b")  # the bot level: a setting saved at once
        await wait_for(pilot, lambda: SettingsFile().settings.bot_level != "greedy")
    assert SettingsFile().settings.theme == "nord-typo"
    assert not (path.parent / "settings.toml.bad").exists()


async def test_an_unknown_theme_is_told_with_the_other_bad_settings() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text('theme = "nope"\nplayers = 9\n', encoding="utf-8")
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        await wait_for(pilot, lambda: any("Settings" in n for n in notes(app)))
        (line,) = [n for n in notes(app) if "Settings" in n]
        assert "bad players" in line and "unknown theme 'nope'" in line and "\n" not in line


def unseen_text(app: ThreeUpApp) -> str:
    """The characters the screen draws in its own background colour, as the
    terminal is sent them (Textual's colour filters applied)."""
    hidden = []
    for strip in app.screen._compositor.render_strips():
        for text, style, _ in strip:
            if not text.strip() or style is None or style.color is None:
                continue
            fg, bg = style.color, style.bgcolor
            if bg is not None and not fg.is_default and fg.get_truecolor() == bg.get_truecolor():
                hidden.append(text.strip())
    return " ".join(hidden)


@pytest.mark.parametrize("theme", ["ansi-dark", "ansi-light", "textual-dark"])
async def test_no_color_shows_every_theme_in_black_and_white(
    monkeypatch: pytest.MonkeyPatch, theme: str
) -> None:
    """Under NO_COLOR an ANSI theme chosen in the palette came back as black
    text on black: every word on the screen was invisible."""
    monkeypatch.setenv("NO_COLOR", "1")
    SettingsFile().change(theme=theme)
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        assert app.theme == theme and app.no_color
        assert "Play against bots" in screen_text(app)
        assert unseen_text(app) == ""
        # Chosen while the app runs, the other way round too.
        app.theme = "textual-light" if theme.startswith("ansi") else "ansi-light"
        await pilot.pause()
        assert unseen_text(app) == ""


def words_contrast(app: ThreeUpApp, words: str) -> float:
    """The WCAG contrast (1 to 21) of ``words`` on the screen with the
    background they are drawn on (the least, where they are drawn twice)."""
    from test_app_looks import contrast

    seen = []
    for strip in app.screen._compositor.render_strips():
        for text, style, _ in strip:
            if words in text and style is not None and style.bgcolor is not None:
                fg, bg = style.color, style.bgcolor
                if style.reverse:
                    fg, bg = bg, fg
                assert fg is not None and bg is not None
                seen.append(contrast(tuple(fg.get_truecolor()), tuple(bg.get_truecolor())))
    assert seen, f"{words!r} is not on the screen"
    return min(seen)


@pytest.mark.parametrize(
    ("scene_name", "keys", "words", "name"),
    [("lobby", [], "(host, you)", "Ana"), ("join", ["down"], "playing", "basement LAN")],
)
async def test_a_highlighted_row_keeps_its_words_readable_in_every_theme(
    scene_name: str, keys: list[str], words: str, name: str
) -> None:
    """On the highlighted row of a list (the lobby's seats, the tables
    found), "(host, you)" and "playing" were drawn in the theme's accent and
    warning colours, which are close to the highlight's own in many themes:
    in catppuccin-mocha, nord, atom-one-dark and catppuccin-latte they all
    but vanished (contrast 1.0 to 1.1)."""
    from threeup_tui.app.scenes import scene

    shown = scene(scene_name)
    app = shown.app()
    async with app.run_test(size=(80, 24)) as pilot:
        await shown.drive(pilot)
        await pilot.press(*keys)
        themes = [key for key, theme in app.available_themes.items() if not theme.ansi]
        for theme in themes:
            app.theme = theme
            await pilot.pause()
            # As readable as the name on the row (the theme's own highlight), or 3.
            least = min(3.0, words_contrast(app, name))
            assert words_contrast(app, words) >= least, theme


async def test_animation_setting_toggles_from_the_palette() -> None:
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        assert app.settings.animation is True
        app.toggle_animation()
        assert app.settings.animation is False
    assert SettingsFile().settings.animation is False


async def test_a_damaged_settings_file_is_one_line_and_the_game_starts() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text("players = = 3\n[[[", encoding="utf-8")
    launcher = RecordingLauncher(ScriptedClient())
    app = create_app(launcher, StartSpec(mode="play"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: bool(launcher.calls))
        await wait_for(pilot, lambda: any("Settings" in n for n in notes(app)))
        (line,) = [n for n in notes(app) if "Settings" in n]
        assert "\n" not in line and "defaults" in line
    assert launcher.calls == [("play", (4, "greedy", "you"))]


async def test_the_first_change_after_a_damaged_settings_file_says_where_it_went() -> None:
    """The damaged file is moved aside before the first change is saved: the
    player was told it could not be read, and then never where it went (a
    settings.toml of theirs seemed simply gone)."""
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text("players = = 3\n", encoding="utf-8")
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        await pilot.press("b")  # the bot level: a setting kept for the next run
        await wait_for(pilot, lambda: any("kept as" in n for n in notes(app)))
        (line,) = [n for n in notes(app) if "kept as" in n]
        assert "settings.toml.bad" in line and "\n" not in line
    assert (path.parent / "settings.toml.bad").read_text(encoding="utf-8") == "players = = 3\n"


# ---------------------------------------------------------------- focus and hints
async def test_join_screen_focus_starts_on_the_tables_and_enter_joins_one() -> None:
    client = ScriptedClient()

    class Lan(RecordingLauncher):
        async def discover(self):  # type: ignore[no-untyped-def,override]
            yield [
                Announcement("192.0.2.10", 47823, "Ana's table", 2, 4),
                Announcement("192.0.2.22", 5000, "basement", 1, 6),
            ]

    launcher = Lan(client)
    app = create_app(launcher, StartSpec(mode="join", join=JoinSettings("", "Bo")))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, JoinScreen) and len(app.screen.found) == 2)
        assert "↑ ↓, ⏎ to join" in screen_text(app)
        found = app.screen.query_one("#found", OptionList)
        assert found.has_focus and found.highlighted == 0
        await pilot.press("down", "up", "down", "enter")
        await wait_for(pilot, lambda: bool(launcher.calls))
    kind, settings = launcher.calls[0]
    assert kind == "join" and isinstance(settings, JoinSettings)
    assert (settings.address, settings.name) == ("192.0.2.22:5000", "Bo")


async def test_a_name_on_the_join_command_line_is_for_that_run_only() -> None:
    """README: what the command line gives (--name...) is used for that run
    only.  `threeup join HOST --name Yan` used to keep Yan for good."""
    SettingsFile().change(name="Ann")
    launcher = RecordingLauncher(ScriptedClient())
    spec = StartSpec(mode="join", join=JoinSettings("192.0.2.5:47823", "Yan"))
    app = create_app(launcher, spec)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(launcher.calls))
    assert launcher.calls[0][1].name == "Yan"  # type: ignore[union-attr]
    assert SettingsFile().settings.name == "Ann"
    # A name typed in the form is the player's choice, and kept.
    launcher = RecordingLauncher(ScriptedClient())
    app = create_app(launcher, StartSpec(mode="join", join=JoinSettings("", "Ann")))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, JoinScreen))
        app.screen.query_one("#join-address", Input).value = "192.0.2.5"
        app.screen.query_one("#join-name", Input).value = "Zoe"
        app.screen.join()  # type: ignore[attr-defined]
        await wait_for(pilot, lambda: bool(launcher.calls))
    assert SettingsFile().settings.name == "Zoe"


async def test_typing_on_the_tables_types_the_address() -> None:
    class Lan(RecordingLauncher):
        async def discover(self):  # type: ignore[no-untyped-def,override]
            yield [Announcement("192.0.2.10", 47823, "Ana's table", 2, 4)]

    launcher = Lan(ScriptedClient())
    app = create_app(launcher, StartSpec(mode="join", join=JoinSettings("", "Bo")))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, JoinScreen) and len(app.screen.found) == 1)
        await pilot.press(*"10.0.0.5", "enter")
        await wait_for(pilot, lambda: bool(launcher.calls))
        assert app.screen.query_one("#join-address", Input).value == "10.0.0.5"
    assert launcher.calls[0][1] == JoinSettings("10.0.0.5", "Bo")


async def test_join_screen_without_discovery_focuses_the_address() -> None:
    class NoLan(RecordingLauncher):
        discover = None  # type: ignore[assignment]

    app = create_app(NoLan(ScriptedClient()), StartSpec(mode="join", join=JoinSettings("")))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, JoinScreen))
        assert app.screen.query_one("#join-address", Input).has_focus


async def test_a_network_with_no_table_says_what_to_do_instead() -> None:
    """With no table announcing itself, "Looking for tables…" stayed for
    ever (seen for minutes in tmux): after a while the form says none was
    heard and where the address comes from; a table heard later is listed."""
    # The form's own wait (5 s), not a shorter one: on a loaded machine the
    # form was first painted after "Looking for tables…" had gone at 0.3 s
    # (once in a whole run) and at 1.5 s (once, CI beside other jobs).
    heard = asyncio.Event()

    class Quiet(RecordingLauncher):
        async def discover(self):  # type: ignore[no-untyped-def,override]
            yield []
            await heard.wait()
            yield [Announcement("10.0.0.7", 47823, "Ann's table", 2, 4)]
            await asyncio.sleep(60)

    app = create_app(Quiet(ScriptedClient()), StartSpec(mode="join", join=JoinSettings("")))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, JoinScreen))
        await wait_for(pilot, lambda: "Looking for tables…" in screen_text(app))
        await wait_for(pilot, lambda: "No table heard yet" in screen_text(app))
        assert "type the host's address (its lobby shows it)" in screen_text(app)
        heard.set()
        await wait_for(pilot, lambda: "1 table found" in screen_text(app))
        assert "Ann's table" in screen_text(app)


async def test_joining_says_where_at_once_and_esc_stops() -> None:
    class Silent(RecordingLauncher):
        """A table that never answers (as an address where nothing listens)."""

        async def join(self, settings: JoinSettings):  # type: ignore[no-untyped-def,override]
            self.calls.append(("join", settings))
            import asyncio

            await asyncio.sleep(60)
            return self.client

        async def discover(self):  # type: ignore[no-untyped-def,override]
            yield []

    launcher = Silent(ScriptedClient())
    app = create_app(launcher, StartSpec(mode="join", join=JoinSettings("10.0.0.5", "Bo")))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: on(app, JoinScreen))
        # Said the moment the screen is there (not a second later, with the counter).
        status = str(app.screen.query_one("#join-error", Static).content)
        assert status.startswith("Joining 10.0.0.5:47823…"), status
        await wait_for(pilot, lambda: "Joining 10.0.0.5:47823…" in screen_text(app))
        assert "waiting for the table to answer" in screen_text(app)
        # The seconds count up (a loaded machine may skip one).
        await wait_for(
            pilot, lambda: bool(re.search(r"\([1-9]\d* s\)", screen_text(app))), timeout=5
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Stopped joining" in screen_text(app))
        assert on(app, JoinScreen) and app.session is None
        assert not [w for w in app.workers if w.group == "launch" and w.is_running]
        await pilot.press("escape")  # and Esc again goes back
        await wait_for(pilot, lambda: on(app, StartScreen))


@pytest.mark.parametrize("port", ["99999", "²", "0"])
async def test_a_bad_address_on_the_form_is_said_at_once(port: str) -> None:
    """A port of a superscript digit ("²", which str.isdigit takes and int
    does not) ended the app with a ValueError traceback."""
    launcher = RecordingLauncher(ScriptedClient())
    app = create_app(launcher, StartSpec(mode="join", join=JoinSettings("", "Bo")))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, JoinScreen))
        app.screen.query_one("#join-address", Input).focus()
        await pilot.press(*f"127.0.0.1:{port}", "enter")
        await wait_for(pilot, lambda: "not a port (1-65535)" in screen_text(app))
        assert launcher.calls == [] and app.is_running


async def test_a_wrong_room_code_puts_the_focus_in_the_code_box() -> None:
    """Joined without the table's code (a real table on loopback), the
    player reads why and types the code at once: the focus was left on the
    address, three Tabs away.  Why is that the table asks for one: "wrong
    room code", to one who gave none, sent them looking for a typo; a code
    given and wrong is called so."""
    from threeup_tui.netplay.host import NetHost
    from threeup_tui.table import Table, TableConfig

    host = await NetHost.start(Table(TableConfig(players=2, code="pizza")), "127.0.0.1", 0)
    address = f"127.0.0.1:{host.address[1]}"
    app = create_app(Launcher(announce_address="off"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: on(app, StartScreen))
            app.open_join_form()
            await wait_for(pilot, lambda: on(app, JoinScreen))
            app.screen.query_one("#join-address", Input).focus()
            await pilot.press(*address, "enter")
            asks = "the table asks for a room code, and none was given"
            await wait_for(pilot, lambda: asks in " ".join(screen_text(app).split()))
            assert "wrong room code" not in screen_text(app)
            code = app.screen.query_one("#join-code", Input)
            assert code.has_focus
            await pilot.press(*"pasta", "enter")
            await wait_for(pilot, lambda: "wrong room code" in screen_text(app))
            assert code.has_focus
            await pilot.press(*"pizza", "enter")
            await wait_for(pilot, lambda: on(app, LobbyScreen) and app.session is not None)
            app.leave_table()
            await wait_for(pilot, lambda: on(app, StartScreen))
    finally:
        await host.close()


async def test_leaving_a_joined_game_says_the_seat_waits() -> None:
    """A player who leaves a table they joined, in the middle of a game,
    keeps the seat (D17): the question says so and how to come back, as the
    host's chat does ("the seat waits for them"); it asked only "Leave this
    table?", and a player who meant to come back could not tell."""
    async with joined_at_a_real_host("Bo") as (table, app, pilot):
        await pilot.press("q")
        await wait_for(pilot, lambda: "Your seat waits" in screen_text(app))
        assert "join the table again to play on" in screen_text(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: on(app, StartScreen))
        seat = table.seats[1]  # and it does wait, for the same player
        await wait_for(pilot, lambda: not seat.connected)
        assert (seat.kind, seat.name) == ("human", "Bo")


async def test_the_join_form_offers_the_table_just_left_again() -> None:
    """A player who stepped away from a real table (q, y: "Your seat
    waits") came back to an empty join form, and typed the address, the
    name and the room code again (23 keys in tmux): the form offers the
    table last joined in this run, and ⏎ sits them at their waiting seat."""
    from threeup_tui.netplay.host import NetHost
    from threeup_tui.table import Table, TableConfig

    table = Table(TableConfig(players=2, seed=5, auto_start=True, code="PARTY"))
    table.add_bot(None, "greedy")
    host = await NetHost.start(table, "127.0.0.1", 0)
    join = JoinSettings(f"127.0.0.1:{host.address[1]}", "Bo", "PARTY")
    app = create_app(Launcher(announce_address="off"), StartSpec(mode="join", join=join))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: on(app, SetupScreen))
            await pilot.press("q", "y")
            seat = table.seats[1]
            await wait_for(pilot, lambda: on(app, StartScreen) and not seat.connected)
            await pilot.press("down", "down", "enter")  # Join a table
            await wait_for(pilot, lambda: on(app, JoinScreen))
            form = app.screen
            assert form.query_one("#join-address", Input).value == join.address
            assert form.query_one("#join-name", Input).value == "Bo"
            assert form.query_one("#join-code", Input).value == "PARTY"
            await pilot.press("enter")
            await wait_for(pilot, lambda: on(app, SetupScreen) and seat.connected)
            assert (seat.kind, seat.name) == ("human", "Bo")
            app.leave_table()
            await wait_for(pilot, lambda: on(app, StartScreen))
    finally:
        await host.close()


async def test_host_form_focus_enter_opens_and_remembers_the_name() -> None:
    SettingsFile().change(name="Ann", bot_level="random")
    client = ScriptedClient()
    launcher = RecordingLauncher(client)
    app = create_app(launcher)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        await pilot.press("down", "enter")  # Host a table
        await wait_for(pilot, lambda: on(app, HostScreen))
        name = app.screen.query_one("#host-name", Input)
        assert name.has_focus and name.value == "Ann"
        await pilot.press("ctrl+u", *"Bea", "enter")
        await wait_for(pilot, lambda: bool(launcher.calls))
    kind, settings = launcher.calls[0]
    assert kind == "host" and isinstance(settings, HostSettings)
    assert (settings.name, settings.bot_level) == ("Bea", "random")
    assert SettingsFile().settings.name == "Bea"


async def test_a_key_the_port_refuses_leaves_the_selected_port_as_it_was() -> None:
    """The port box takes digits only.  Typed over its selected text, a
    letter was refused as Input refuses it, but the selection had been
    deleted first (InOrderInput.type_in): the box came out empty.  A digit
    typed over it replaces it."""
    app = create_app(RecordingLauncher(ScriptedClient()))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        app.open_host_form()
        await wait_for(pilot, lambda: on(app, HostScreen))
        port = app.screen.query_one("#host-port", Input)
        port.value = "47990"
        port.focus()
        await pilot.pause()
        port.select_all()
        await pilot.press("x")
        await wait_for(pilot, lambda: port.value == "47990", what="the port kept")
        port.select_all()
        await pilot.press("5")
        await wait_for(pilot, lambda: port.value == "5", what="the port replaced")


@pytest.mark.parametrize("form", ["host", "join"])
async def test_a_form_left_at_its_own_word_for_a_name_is_not_remembered(form: str) -> None:
    """A newcomer who never chose a name opened a table with the host form
    as it came ("host"), or joined one as "player": that word was kept as
    their name, and the start screen read "host against 3 greedy bots" (and
    seated "host" at every game against bots) instead of "You against 3
    greedy bots".  A name typed in the form is still kept."""
    launcher = RecordingLauncher(ScriptedClient())
    app = create_app(launcher)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        if form == "host":
            app.open_host_form()
            await wait_for(pilot, lambda: on(app, HostScreen))
            app.screen.query_one("#host-name", Input).focus()
        else:
            app.open_join_form(JoinSettings("127.0.0.1:45012", NO_NAME))
            await wait_for(pilot, lambda: on(app, JoinScreen))
            app.screen.query_one("#join-address", Input).focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(launcher.calls))
    _kind, settings = launcher.calls[0]
    assert settings.name == {"host": "host", "join": NO_NAME}[form]  # type: ignore[attr-defined]
    assert SettingsFile().settings.name == ""
    again = create_app(fast_launcher())
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(again, StartScreen))
        assert "You against 3 greedy bots" in screen_text(again)


async def to_the_host_form(pilot: Pilot[int], app: ThreeUpApp) -> None:
    """From the start screen to the host form, as the menu's Host a table does."""
    await wait_for(pilot, lambda: on(app, StartScreen))
    app.open_host_form()
    await wait_for(pilot, lambda: on(app, HostScreen))


async def test_the_host_forms_name_is_cleaned_as_the_table_seats_it() -> None:
    """Typed "[bold red]Zed[/]" in the host form, the host sat as "Zed" while
    the lobby's title and every LAN announcement read "[bold red]Zed[/]'s
    table": the form cut the name but kept markup tags, which the table
    strips from names (as `threeup host --name` does)."""
    launcher = RecordingLauncher(ScriptedClient())
    app = create_app(launcher)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_host_form(pilot, app)
        app.screen.query_one("#host-name", Input).focus()
        await pilot.press("ctrl+u", *"[bold red]Zed[/]", "enter")
        await wait_for(pilot, lambda: bool(launcher.calls))
    _kind, settings = launcher.calls[0]
    assert isinstance(settings, HostSettings) and settings.name == "Zed"


async def test_the_host_form_offers_no_more_bots_than_the_seats_hold() -> None:
    """At 3 seats the form offered 0 to 5 bots, and 5 quietly became 2 in
    the lobby: the choices follow the seats, and a choice the seats no
    longer hold comes down to what they do."""
    launcher = RecordingLauncher(ScriptedClient())
    app = create_app(launcher)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_host_form(pilot, app)
        seats = app.screen.query_one("#host-players", Select)
        bots = app.screen.query_one("#host-bots", Select)
        bots.focus()
        await pilot.press("enter", "end", "enter")  # the most bots offered
        # 4 seats: 3 bots beside the host
        await wait_for(pilot, lambda: bots.value == 3, what="3 bots at most at 4 seats")
        seats.focus()
        await pilot.press("enter", "home", "down", "enter")  # 3 seats
        await wait_for(
            pilot, lambda: seats.value == 3 and bots.value == 2, what="3 seats: 2 bots at most"
        )
        bots.focus()
        await pilot.press("enter", "end", "enter")
        await pilot.pause(0.2)
        assert bots.value == 2
        app.screen.query_one("#open").focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(launcher.calls))
    _, settings = launcher.calls[0]
    assert isinstance(settings, HostSettings) and (settings.players, settings.bots) == (3, 2)


async def test_the_host_form_takes_a_port_and_says_what_a_port_is() -> None:
    """`threeup host --port` could choose the table's port, the app's host
    form could not (a friend's firewall, a port agreed beforehand): it has a
    Port field now, empty for the usual port, whole at 80x24."""
    launcher = RecordingLauncher(ScriptedClient())
    app = create_app(launcher)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_host_form(pilot, app)
        await pilot.pause()
        assert "Port        47823, the usual one (UDP)" in screen_text(app)
        assert not cut_text(app), cut_text(app)
        port = app.screen.query_one("#host-port", Input)

        async def refused(typed: str) -> None:
            port.value = ""
            port.focus()
            await pilot.press(*typed, "enter")
            said = f"{typed} is not a port (1-65535); leave it empty for 47823"
            await wait_for(pilot, lambda: said in screen_text(app))
            assert launcher.calls == [] and port.has_focus

        await refused("99999")
        await refused("0")
        port.value = ""
        await pilot.press(*"45010", "enter")
        await wait_for(pilot, lambda: bool(launcher.calls))
        await wait_for(pilot, lambda: "not a port" not in screen_text(app))
    _, settings = launcher.calls[0]
    assert isinstance(settings, HostSettings) and settings.port == 45010


async def test_a_host_command_that_could_not_open_keeps_its_port_on_the_form() -> None:
    """`threeup host --port 45011` on a port in use showed the form, with
    why, but not the port: ⏎ then tried the usual port instead."""

    class Busy(RecordingLauncher):
        async def host(self, settings: HostSettings):  # type: ignore[no-untyped-def,override]
            self.calls.append(("host", settings))
            raise OSError("[Errno 98] Address already in use")

    launcher = Busy(ScriptedClient())
    spec = StartSpec(mode="host", host=HostSettings(name="Ann", port=45011))
    app = create_app(launcher, spec)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, HostScreen))
        await wait_for(pilot, lambda: "Address already in use" in screen_text(app))
        assert app.screen.query_one("#host-port", Input).value == "45011"
        await pilot.press("enter")  # in the name field: tries again
        await wait_for(pilot, lambda: len(launcher.calls) == 2)
    settings = launcher.calls[1][1]
    assert isinstance(settings, HostSettings) and settings.port == 45011


async def test_lobby_focus_on_the_seats_and_the_ssh_port_shown() -> None:
    client = ScriptedClient()
    client.address = ("0.0.0.0", 47823)  # type: ignore[attr-defined]
    client.ssh_address = ("0.0.0.0", 2222)  # type: ignore[attr-defined]
    app = create_app(ScriptedLauncher(client), StartSpec(mode="host"))
    async with app.run_test(size=(100, 30)) as pilot:
        client.emit(Welcome(0, True))
        client.emit(LobbyChanged(lobby_for(["you", "bot", "bot 2"], started=False)))
        await wait_for(pilot, lambda: on(app, LobbyScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "threeup join HOST:47823" in text and "ssh -p 2222 HOST" in text
        # A table bound to one address is reached by that address alone.
        client.address = ("127.0.0.1", 47823)  # type: ignore[attr-defined]
        client.ssh_address = ("::1", 2222)  # type: ignore[attr-defined]
        client.emit(LobbyChanged(lobby_for(["you", "bot"], started=False)))
        await wait_for(pilot, lambda: "threeup join 127.0.0.1:47823" in screen_text(app))
        assert "ssh -p 2222 ::1" in screen_text(app)
        client.emit(LobbyChanged(lobby_for(["you", "bot", "bot 2"], started=False)))
        await pilot.pause()
        seats = app.screen.query_one("#seats", OptionList)
        assert seats.has_focus
        await pilot.press("down", "x")  # from the first bot: ↑ ↓ then x, as the lobby says
        assert client.requests[-1] == ("remove_seat", 2)


async def test_start_screen_menu_has_focus_and_its_keys_work() -> None:
    launcher = RecordingLauncher(ScriptedClient())
    app = create_app(launcher)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        assert app.screen.query_one("#menu", OptionList).has_focus
        footer = screen_text(app).splitlines()[-1]
        assert "q Quit" in footer  # the footer fits in 80 columns


def test_the_rules_page_cites_no_file_a_player_does_not_have() -> None:
    for text in (load_rules(), BUILTIN_RULES, KEYS_HELP):
        assert "shared/spec" not in text and "spec/rules" not in text


# ---------------------------------------------------------------- history
async def test_q_on_the_table_after_the_game_leaves_without_asking() -> None:
    """The result box's q leaves at once (nothing is lost), but q on the
    table looked at after the game (t, or Esc) asked "Leave this table?",
    a key more for nothing; during a game it still asks."""
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, SetupScreen))
        await pilot.press("q")  # in the set-up: asked
        await wait_for(pilot, lambda: on(app, ConfirmScreen))
        await pilot.press("n")
        await play_a_game(app, pilot)
        await wait_for(pilot, lambda: on(app, GameOverScreen))
        await pilot.press("t")
        await wait_for(pilot, lambda: on(app, TableScreen))
        await pilot.press("q")
        await wait_for(pilot, lambda: on(app, StartScreen) or on(app, ConfirmScreen))
        assert on(app, StartScreen) and app.session is None


async def play_a_game(app: ThreeUpApp, pilot: Pilot[int]) -> None:
    """A whole game from its set-up, our moves chosen by the greedy bot."""
    bot = GreedyBot(3)
    await wait_for(pilot, lambda: app.session is not None and app.session.view is not None)
    session = app.session
    assert session is not None and session.view is not None
    assert session.view.phase == "setup"
    session.client.choose_face_up(bot.choose_face_up(session.view))
    acted = -1

    def ready() -> bool:
        view = session.view
        return view is not None and (
            view.phase == "over" or (view.my_turn and view.moves_played > acted)
        )

    for _ in range(400):
        await wait_for(pilot, ready, timeout=20)
        view = session.view
        assert view is not None
        if view.phase == "over":
            return
        acted = view.moves_played
        session.client.submit(bot.choose_move(view))
    raise AssertionError("the game did not end")


async def test_a_finished_game_is_remembered_with_its_record_and_replays() -> None:
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12, name="me"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await play_a_game(app, pilot)
        history = History()
        await wait_for(pilot, lambda: bool(games_now()), timeout=20, what="the game counted")
        (game,) = history.games()
        view = app.session.view if app.session else None
        assert view is not None and view.phase == "over"
        assert game.won == (view.winner == 0) and game.moves == view.moves_played
        assert game.turns == view.turn and game.players == 2 and game.venue == "bots"
        # The history keeps turns completed; the game-over box numbers the
        # turn the game was won in: one more (history.py says so).
        await wait_for(pilot, lambda: on(app, GameOverScreen))
        assert f"{view.moves_played} moves, {game.turns + 1} turns" in screen_text(app)
        assert game.seats[0].kind == "you" and game.seats[1].bot_level == "greedy"
        assert game.record is not None and Path(game.record).parent == history.records_dir
        await wait_for(pilot, lambda: Path(game.record or "").is_file())
        assert not any("Saved the record" in n for n in notes(app))  # the history's copy is quiet
        # Leave, open Your games, and replay it.
        app.leave_table()
        await wait_for(pilot, lambda: on(app, StartScreen))
        # Keys that come together (a key held down, an SSH burst) open one
        # screen each time, never a second copy of it (that was a crash).
        send_at_once(app, ["down", "down", "down", "enter", "enter"])
        await wait_for(pilot, lambda: on(app, StatsScreen) and bool(app.screen.games))
        await pilot.pause(0.3)
        assert sum(isinstance(s, StatsScreen) for s in app.screen_stack) == 1
        app.clear_notifications()  # the game's last toasts
        # The summary and the row are painted after the rows are read.
        await wait_for(pilot, lambda: "1 game · " in screen_text(app), what="the summary")
        await wait_for(pilot, lambda: screen_text(app).count("⏎ replay") == 2, what="the row")
        text = screen_text(app)
        assert "1 game · " in text, text
        assert "won the last game" in text or "lost the last game" in text
        assert "2 players" in text and "greedy" in text
        assert app.screen.query_one(DataTable).has_focus
        send_at_once(app, ["r", "r", "enter"])
        await wait_for(pilot, lambda: on(app, ReplayScreen))
        await pilot.pause(0.3)
        assert sum(isinstance(s, ReplayScreen) for s in app.screen_stack) == 1
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.last == game.moves
        await pilot.press("q")
        await wait_for(pilot, lambda: on(app, StatsScreen))
        # The title's "⏎ replays", and the row, painted again.
        await wait_for(pilot, lambda: screen_text(app).count("⏎ replay") == 2, what="the row")
        await pilot.press("escape")
        await wait_for(pilot, lambda: on(app, StartScreen))
        # A record deleted since says so in its row, before Enter is pressed.
        Path(game.record).unlink()
        app.post_message(StatsRequested())
        await wait_for(pilot, lambda: on(app, StatsScreen) and bool(app.screen.games))
        # The row is painted after it is read: "gone" where "⏎ replay" was.
        await wait_for(pilot, lambda: "gone" in screen_text(app), what="the row saying gone")
        text = screen_text(app)
        assert "gone" in text and text.count("⏎ replay") == 1, text


async def test_a_records_dir_that_cannot_be_written_still_counts_the_game(
    read_only: Callable[[Path], AbstractContextManager[None]],
) -> None:
    """The history's own copy of the record failed into a "Not allowed:
    cannot save ..." pop-up the player never asked for, and the row then
    read "gone".  The game is counted, its record waiting in pending-games/
    (said once, and where), and the row names it there: no "gone" row."""
    history = History()
    history.records_dir.mkdir(parents=True)
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12, name="me"))
    said = notes_heard(app)  # a refusal is withdrawn from the status line soon after
    with read_only(history.records_dir):
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await play_a_game(app, pilot)
            await wait_for(pilot, lambda: bool(games_now()), timeout=20, what="the game counted")
            # Its notes are told once the game is in the history.
            await wait_for(pilot, lambda: not writing(app), what="the history's notes")
            assert not any(n.startswith("Not allowed") for n in said), said
            (line,) = [n for n in said if "record" in n]
            where = f"{RECORD_WAITS} {pending_dir()} until records/ can take it (cannot save"
            assert line.startswith(where) and line.endswith(")") and "\n" not in line, line
    (game,) = history.games()
    assert game.record is not None and Path(game.record).is_file()
    assert Path(game.record).parent == pending_dir()
    assert list(history.records_dir.iterdir()) == []


async def test_a_data_dir_that_is_a_file_is_told_in_words_and_the_game_kept(
    own_directories: dict[str, Path],
) -> None:
    """A file where the data directory should be (THREEUP_DATA_DIR naming
    one, or platformdirs' own): the player read Python's "File exists" (and
    "Not a directory" for the record), and "Your games" then said "No
    finished games yet".  Each is said in words, once, naming the file; the
    game is kept aside, and counted once the directory can be made."""
    data = own_directories["THREEUP_DATA_DIR"]
    data.write_text("a file where the data directory should be")
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12, name="me"))
    said = notes_heard(app)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await play_a_game(app, pilot)
        await wait_for(pilot, lambda: bool(pending_games()))
        # Its notes are told once the game is kept aside.
        await wait_for(pilot, lambda: not writing(app), what="the history's notes")
        told = [line for line in said if "Your games" in line]
        assert told and all(f"{data} is a file, not a directory" in line for line in told), said
        assert not any("File exists" in n or "Not a directory" in n for n in said), said
        assert all("\n" not in line for line in told)
        app.leave_table()
        await wait_for(pilot, lambda: on(app, StartScreen))
        app.post_message(StatsRequested())
        await wait_for(pilot, lambda: on(app, StatsScreen) and "kept aside" in screen_text(app))
        text = screen_text(app)
        assert f"{data} is a file, not a directory" in text and "No finished games" not in text
    data.unlink()
    assert History().stats().total.games == 0
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, name="me"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await wait_for(pilot, lambda: len(games_now()) == 1 and not pending_games())


def finished_state(seed: int = 5):  # type: ignore[no-untyped-def]
    state = dealt(["me", "bot"], first=0, seed=seed)
    bots = [GreedyBot(1), GreedyBot(2)]
    while state.phase != Phase.OVER:
        state.apply_move(bots[state.seat].choose_move(seat_view(state, state.seat)))
    return state


async def emit_a_finished_game(client: ScriptedClient, seat: int | None = 0) -> None:
    state = finished_state()
    during = dealt(["me", "bot"], first=0, seed=5)
    client.emit(Welcome(seat, seat == 0))
    client.emit(LobbyChanged(lobby_for(["me", "bot"])))
    client.emit(ViewChanged(seat_view(during, seat)))
    client.emit(ViewChanged(seat_view(state, seat)))


async def test_a_saved_record_is_told_with_its_whole_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game over's Save wrote threeup-game.json where the app runs and
    said "Saved the record to threeup-game.json": where that was, it did
    not say (a launcher's directory, an SSH login's)."""
    monkeypatch.chdir(tmp_path)
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12, name="me"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await play_a_game(app, pilot)
        await wait_for(pilot, lambda: on(app, GameOverScreen))
        await pilot.press("s")
        whole = str(tmp_path / "threeup-game.json")
        await wait_for(pilot, lambda: f"Saved the record to {whole}" in notes(app))
        assert Path(whole).is_file()


async def test_a_locked_history_is_one_line_the_game_goes_on_and_is_counted_later() -> None:
    """A game that ended while another program held the history was "not
    counted", and never was: it is kept aside, and "Your games" adds it."""
    history = History()
    history.path.parent.mkdir(parents=True)
    holder = sqlite3.connect(history.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    client = ScriptedClient()
    app = create_app(ScriptedLauncher(client), StartSpec(mode="play"))
    try:
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await emit_a_finished_game(client)
            await wait_for(pilot, lambda: any("locked" in n for n in notes(app)), timeout=10)
            (line,) = [n for n in notes(app) if "locked" in n]
            assert line.endswith("this game is kept, and added when the history can be written")
            assert "not counted" not in line and "\n" not in line
            assert app.session is not None and app.session.view is not None
            # The game is still there to see, and a rematch can be asked for.
            await wait_for(pilot, lambda: on(app, GameOverScreen))
            await pilot.press("r")
            assert ("rematch", None) in client.requests
            # Still held: "Your games" says the game waits, not that it is lost.
            app.post_message(StatsRequested())
            await wait_for(pilot, lambda: on(app, StatsScreen) and "kept aside" in screen_text(app))
            assert "1 finished game kept aside, added when the history" in screen_text(app)
            holder.execute("ROLLBACK")
            await pilot.press("escape")
            app.post_message(StatsRequested())
            await wait_for(pilot, lambda: on(app, StatsScreen) and bool(app.screen.games))
            added = "Your games: 1 finished game not counted yet"
            assert f"{added} is added now" in notes(app)
    finally:
        if holder.in_transaction:
            holder.execute("ROLLBACK")
        holder.close()
    assert history.stats().total.games == 1


def kept_game(place: int = 1) -> FinishedGame:
    seats = (SeatEntry("me", "you"), SeatEntry("Bo", "bot", "greedy"))
    return FinishedGame(seats, 0, place, place == 1, False, 30, 20)


async def test_your_games_open_tells_games_kept_aside_since_and_added_since() -> None:
    """ "Your games" read the history and the games kept aside once, as it
    opened: a game kept aside while it was open (by another app of the
    account) left "1 finished game kept aside" standing, and so did the
    history coming free, until the screen was closed and opened again."""
    history = History()
    history.path.parent.mkdir(parents=True)
    holder = sqlite3.connect(history.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    keep_aside(kept_game(1))
    app = create_app(fast_launcher())
    try:
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            app.post_message(StatsRequested())
            await wait_for(pilot, lambda: on(app, StatsScreen) and "kept aside" in screen_text(app))
            assert "1 finished game kept aside" in screen_text(app)
            keep_aside(kept_game(2))  # another app's game ends: kept aside too
            await wait_for(
                pilot, lambda: "2 finished games kept aside" in screen_text(app), timeout=15
            )
            holder.execute("ROLLBACK")  # the other program lets the history go
            await wait_for(pilot, lambda: "2 games · 1 won" in screen_text(app), timeout=15)
            assert "kept aside" not in screen_text(app) and pending_games() == []
            added = "Your games: 2 finished games not counted yet"
            assert f"{added} are added now" in notes(app)
            keep_aside(kept_game(1))  # and one kept aside by another app once more
            await wait_for(pilot, lambda: "3 games · 2 won" in screen_text(app), timeout=15)
    finally:
        if holder.in_transaction:
            holder.execute("ROLLBACK")
        holder.close()
    assert history.stats().total.games == 3


async def test_your_games_read_again_keeps_the_cursor_on_its_game() -> None:
    history = History()
    for place in (1, 2, 1):
        history.add(kept_game(place))
    app = create_app(fast_launcher())
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        app.post_message(StatsRequested())
        await wait_for(pilot, lambda: on(app, StatsScreen) and bool(app.screen.games))
        await pilot.press("down", "down")
        table = app.screen.query_one(DataTable)
        assert table.cursor_row == 2
        history.add(kept_game(2))  # another app of the account counts a game
        await wait_for(pilot, lambda: "4 games · 2 won" in screen_text(app), timeout=15)
        assert table.cursor_row == 3  # the same game, one row down under the new one
        assert table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value == "1"


async def test_your_games_says_which_bot_levels_a_mixed_table_had(tmp_path: Path) -> None:
    """A table of several bot levels read "mixed" in Last games, which said
    nothing of the bots met.  Their levels are said where they fit (the
    whole row still fits 80 columns); a longer list stays "mixed"."""
    record = tmp_path / "game.json"
    record.write_text("{}")

    def against(*seats: SeatEntry, place: int = 1) -> FinishedGame:
        mine = (SeatEntry("me", "you", "greedy"),)  # finished by the bot: "won (bot)"
        return FinishedGame(
            mine + seats, 0, place, place == 1, False, 12345, 99, record=str(record)
        )

    history = History()
    history.add(against(SeatEntry("B", "bot", "random"), SeatEntry("C", "bot", "greedy"),
                        SeatEntry("D", "bot", "expert")))  # fmt: skip
    history.add(against(SeatEntry("Dan", "human", "greedy")))  # a person's seat a bot finished
    history.add(against(SeatEntry("B", "bot", "\x1bexpert"), SeatEntry("C", "bot", "greedy")))
    history.add(against(SeatEntry("B", "bot", "greedy"), SeatEntry("C", "bot", "greedy"), place=2))
    assert {g.opponents for g in history.games()} == {"mixed", "greedy"}
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.post_message(StatsRequested())
        await wait_for(pilot, lambda: on(app, StatsScreen) and bool(app.screen.games))
        # The rows are painted after they are read.
        await wait_for(pilot, lambda: screen_text(app).count("12345") == 4, what="the 4 rows")
        rows = [line.split() for line in screen_text(app).splitlines() if "12345" in line]
        assert [row[3] for row in rows] == ["greedy", "greedy+expert", "people+greedy", "mixed"]
        assert all(row[-2:] == ["⏎", "replay"] for row in rows), rows  # nothing cut off


async def test_a_game_kept_aside_is_added_when_the_app_starts() -> None:
    history = History()
    history.path.parent.mkdir(parents=True)
    keep_aside(
        FinishedGame(
            seats=(SeatEntry("me", "you"), SeatEntry("Bo", "bot", "greedy")),
            my_seat=0,
            place=1,
            won=True,
            stalemate=False,
            moves=30,
            turns=20,
        )
    )
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: any("is added now" in n for n in notes(app)))
    assert history.stats().total.games == 1 and pending_games() == []


async def test_a_corrupt_history_is_set_aside_and_the_game_counted() -> None:
    history = History()
    history.path.parent.mkdir(parents=True)
    history.path.write_bytes(b"\x00garbage, not SQLite" * 64)
    client = ScriptedClient()
    app = create_app(ScriptedLauncher(client), StartSpec(mode="play"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await emit_a_finished_game(client)
        await wait_for(pilot, lambda: any("damaged" in n for n in notes(app)), timeout=10)
    assert len(history.games()) == 1
    assert history.path.with_name(history.path.name + ".damaged").exists()


async def test_the_damaged_history_note_keeps_what_happened_in_sight_at_80x24(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 80x24 the status line shows two rows.  A damaged history, at a
    path as long as a home directory's, read "... is damaged (database disk
    image is malformed); it is kept as history.sqlite3.damaged, and a new
    hi…": SQLite's words in the middle cut off what happened to the games.
    What happened comes first now, the why last."""
    with tempfile.TemporaryDirectory(prefix="kim", dir="/tmp") as home:
        data = Path(home) / "share" / "threeup"  # as long as /home/kim/.local/share/threeup
        monkeypatch.setenv("THREEUP_DATA_DIR", str(data))
        history = History()
        history.add(
            FinishedGame(
                (SeatEntry("me", "you"), SeatEntry("Bo", "bot")), 0, 1, True, False, 30, 20
            )
        )
        with history.path.open("r+b") as db:  # damage a real history
            db.seek(100)
            db.write(bytes(range(256)) * 8)
        client = ScriptedClient()
        app = create_app(ScriptedLauncher(client), StartSpec(mode="play"))
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await emit_a_finished_game(client)
            await wait_for(pilot, lambda: any("damaged" in n for n in notes(app)), timeout=10)
            line = status_line_for(app)
            assert line is not None
            for words in ("kept as history.sqlite3.damaged", "a new history starts with this game"):
                await wait_for(
                    pilot,
                    lambda w=words: w in words_shown(app, line),
                    what=f"{words!r} on the status line",
                )
        assert len(history.games()) == 1


@pytest.mark.parametrize("size", [(80, 24), (40, 15)], ids=str)
async def test_the_damaged_settings_note_says_what_happened_first(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """Junk in settings.toml, at a path as long as a home directory's, read
    "Settings not loaded, using the defaults: PATH is not valid TOML
    (illegal character…" at 80x24, and at 40x15 the path took the room.
    What happened and what the app does come first, the path and the
    parser's why last; a cut takes only those."""
    with tempfile.TemporaryDirectory(prefix="kim", dir="/tmp") as home:
        config = Path(home) / ".config" / "threeup"  # /home/kim/.config/threeup's length
        config.mkdir(parents=True)
        monkeypatch.setenv("THREEUP_CONFIG_DIR", str(config))
        (config / "settings.toml").write_bytes(b'players = 3\n\x01name = "Bo"\n')
        app = create_app(fast_launcher())
        async with app.run_test(size=size, notifications=True) as pilot:
            await wait_for(pilot, lambda: on(app, StartScreen))
            await wait_for(pilot, lambda: any("Settings" in n for n in notes(app)))
            line = status_line_for(app)
            assert line is not None
            said = "Settings file is not valid TOML: the defaults are used;"
            await wait_for(
                pilot, lambda: said in words_shown(app, line), what=f"{said!r} on the status line"
            )
            (note,) = [n for n in notes(app) if "Settings" in n]
            assert note.endswith(
                f"{config / 'settings.toml'} (invalid statement at line 2, column 1)"
            )
            assert app.settings_file.settings.players != 3  # the defaults, as it says


async def test_the_stats_screen_reports_a_corrupt_file_in_one_line() -> None:
    history = History()
    history.path.parent.mkdir(parents=True)
    history.path.write_bytes(b"garbage, not SQLite" * 64)
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        await pilot.press("down", "down", "down", "enter")
        await wait_for(pilot, lambda: on(app, StatsScreen) and "damaged" in screen_text(app))
        await pilot.press("escape")
        await wait_for(pilot, lambda: on(app, StartScreen))


async def test_the_stats_screen_offers_replay_only_with_a_game_to_replay() -> None:
    """A first look at Your games (a real, empty history file) read "No
    finished games yet", and the key bar still offered "r Replay", a key
    that did nothing there."""
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        await pilot.press("down", "down", "down", "enter")
        await wait_for(
            pilot, lambda: on(app, StatsScreen) and "No finished games" in screen_text(app)
        )
        await pilot.pause(0.2)
        assert "Replay" not in screen_text(app).splitlines()[-1]
        await pilot.press("escape")
        await wait_for(pilot, lambda: on(app, StartScreen))


async def test_a_spectator_or_a_seen_only_ending_is_not_counted() -> None:
    client = ScriptedClient()
    app = create_app(ScriptedLauncher(client), StartSpec(mode="join", join=JoinSettings("h")))
    async with app.run_test(size=(100, 30)) as pilot:
        await emit_a_finished_game(client, seat=None)
        await wait_for(pilot, lambda: app.session is not None and app.session.view is not None)
        await pilot.pause(0.3)
    assert History().games() == []
    # Arriving at a table whose game is already over is not playing it either.
    client = ScriptedClient()
    app = create_app(ScriptedLauncher(client), StartSpec(mode="play"))
    async with app.run_test(size=(100, 30)) as pilot:
        client.emit(Welcome(0, True))
        client.emit(LobbyChanged(lobby_for(["me", "bot"])))
        client.emit(ViewChanged(seat_view(finished_state(), 0)))
        await wait_for(pilot, lambda: app.session is not None and app.session.view is not None)
        await pilot.pause(0.3)
    assert History().games() == []


async def test_a_guests_game_is_counted_without_a_record() -> None:
    client = ScriptedClient()
    app = create_app(ScriptedLauncher(client), StartSpec(mode="join", join=JoinSettings("h")))
    async with app.run_test(size=(100, 30)) as pilot:
        state = finished_state()
        during = dealt(["me", "bot"], first=0, seed=5)
        client.emit(Welcome(1, False))
        client.emit(LobbyChanged(lobby_for(["host", "me"])))
        client.emit(ViewChanged(seat_view(during, 1)))
        client.emit(ViewChanged(seat_view(state, 1)))
        await wait_for(pilot, lambda: bool(games_now()), timeout=20, what="the game counted")
    (game,) = History().games()
    assert game.venue == "join" and game.record is None and game.my_seat == 1
    assert not [r for r in client.requests if r[0] == "save_record"]  # only a host may


async def test_a_seat_a_bot_finished_for_its_player_is_kept_as_such() -> None:
    """A friend's seat the bot played for them (they were gone, D17) was
    kept as "Dan: human", and the game counted as one against people; and
    your own seat finished by the bot read as if you had played it all.
    Now such a seat keeps the bot's level: against Dan-and-a-bot is
    "mixed", and your own result reads "won (bot)"."""
    client = ScriptedClient()
    app = create_app(ScriptedLauncher(client), StartSpec(mode="join", join=JoinSettings("h")))
    async with app.run_test(size=(100, 30)) as pilot:
        state = finished_state()
        during = dealt(["me", "bot"], first=0, seed=5)
        lobby = lobby_for(["Dan", "me"], host_seat=1)
        gone = replace(lobby.seats[0], kind="human", connected=False, bot_level="greedy")
        client.emit(Welcome(1, False))
        client.emit(LobbyChanged(replace(lobby, seats=(gone, lobby.seats[1]))))
        client.emit(ViewChanged(seat_view(during, 1)))
        client.emit(ViewChanged(seat_view(state, 1)))
        await wait_for(pilot, lambda: bool(games_now()), timeout=20, what="the game counted")
    (game,) = History().games()
    assert game.seats[0] == SeatEntry("me", "human", "greedy")  # the state's names
    assert game.opponents == "mixed"
    # Your own seat, finished by the bot: yours, counted, and said so.
    mine = FinishedGame((SeatEntry("me", "you", "greedy"), SeatEntry("Ann", "human")),
                        0, 1, True, False, 30, 20, venue="join")  # fmt: skip
    History().add(mine)
    app = create_app(fast_launcher())
    async with app.run_test(size=(100, 30)) as pilot:
        app.post_message(StatsRequested())
        await wait_for(pilot, lambda: on(app, StatsScreen) and bool(app.screen.games))
        # The row is painted after it is read.
        await wait_for(pilot, lambda: "won (bot)" in screen_text(app), what="the row's result")


@pytest.mark.parametrize("guest", ["1"])
async def test_a_confined_guest_writes_nothing(
    monkeypatch: pytest.MonkeyPatch, own_directories: dict[str, Path], guest: str
) -> None:
    monkeypatch.setenv("THREEUP_GUEST", guest)
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_a_game(app, pilot)
        app.theme = "nord"
        await pilot.press("escape")
        await pilot.pause(0.3)
    for key in ("THREEUP_CONFIG_DIR", "THREEUP_DATA_DIR"):
        assert not own_directories[key].exists(), key


# ---------------------------------------------------------------- turn time
async def test_the_host_form_sets_the_turn_time_off_by_default() -> None:
    launcher = RecordingLauncher(ScriptedClient())
    app = create_app(launcher)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_host_form(pilot, app)
        screen = app.screen
        assert isinstance(screen, HostScreen)
        assert screen.settings().turn_time is None  # off unless chosen
        screen.query_one("#host-turn-time", Select).value = 30.0
        await pilot.press("enter")  # in the name field: opens the table
        await wait_for(pilot, lambda: bool(launcher.calls))
    settings = launcher.calls[0][1]
    assert isinstance(settings, HostSettings) and settings.turn_time == 30


def loopback_host(**settings: Any) -> Launcher:
    """A real launcher whose "Host a table" opens a table on 127.0.0.1 (any
    free port, announcing nothing) with these settings, host named Ann."""

    class Loopback(Launcher):
        async def host(self, _: HostSettings) -> TableClient:
            return await super().host(
                HostSettings(name="Ann", bind="127.0.0.1", port=0, **settings)
            )

    return Loopback(announce_address="off")


async def test_the_lobby_sets_the_real_tables_turn_time() -> None:
    launcher = loopback_host(
        turn_time=20.0, options=Options(finish="places", voluntary_pickup=True)
    )
    app = create_app(launcher, StartSpec(mode="host"))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: on(app, LobbyScreen) and app.session is not None)
        session = app.session
        assert session is not None and isinstance(session.client, HostedClient)
        table = session.client.table
        turn = app.screen.query_one("#turn-time", Select)
        await pilot.pause(0.3)  # the Select's own first Changed must not switch it off
        await wait_for(pilot, lambda: turn.value == 20.0)  # the --turn-time shown, as a choice
        # Nor may the other controls' first Changed send the defaults back.
        assert table.options == Options(finish="places", voluntary_pickup=True)
        turn.value = 60.0
        await wait_for(pilot, lambda: table.config.turn_time == 60.0)
        await wait_for(pilot, lambda: session.lobby is not None and session.lobby.turn_time == 60)
        turn.value = "off"
        await wait_for(pilot, lambda: table.config.turn_time is None)
        app.leave_table()
        await wait_for(pilot, lambda: on(app, StartScreen))


async def test_the_lobby_adds_bots_at_the_tables_level() -> None:
    """``threeup host --bot-level expert`` (or the host screen's choice): the
    lobby's Add bot starts at expert, and ``a`` seats an expert bot."""
    app = create_app(loopback_host(players=3, bot_level="expert"), StartSpec(mode="host"))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: on(app, LobbyScreen) and app.session is not None)
        session = app.session
        assert session is not None and isinstance(session.client, HostedClient)
        table = session.client.table
        assert app.screen.query_one("#bot-level", Select).value == "expert"
        await pilot.press("a")
        await wait_for(pilot, lambda: any(seat.kind == "bot" for seat in table.seats))
        assert [seat.bot_level for seat in table.seats if seat.kind == "bot"] == ["expert"]
        app.leave_table()
        await wait_for(pilot, lambda: on(app, StartScreen))


async def test_a_guest_sees_the_turn_time() -> None:
    client = ScriptedClient()
    app = create_app(ScriptedLauncher(client), StartSpec(mode="join", join=JoinSettings("h")))
    async with app.run_test(size=(100, 30)) as pilot:
        client.emit(Welcome(1, False))
        lobby = lobby_for(["ana", "you"], started=False)
        client.emit(LobbyChanged(replace(lobby, turn_time=45.0)))
        await wait_for(pilot, lambda: on(app, LobbyScreen))
        await wait_for(pilot, lambda: "Turn time: 45 s for each move" in screen_text(app))
        assert not app.screen.query("#turn-time")


async def test_a_lobby_says_who_is_here_how_many_watch_and_nothing_once_closed() -> None:
    client = ScriptedClient()
    app = create_app(ScriptedLauncher(client), StartSpec(mode="join", join=JoinSettings("h")))
    async with app.run_test(size=(80, 24)) as pilot:
        client.emit(Welcome(1, False))
        client.emit(LobbyChanged(lobby_for(["ana", "you"], started=False)))
        await wait_for(pilot, lambda: on(app, LobbyScreen))
        await wait_for(pilot, lambda: "ana  ● here" in screen_text(app))
        assert "watching" not in screen_text(app)
        client.emit(LobbyChanged(replace(lobby_for(["ana", "you"], started=False), watching=1)))
        await wait_for(pilot, lambda: "Seats: 2 of 2 taken · 1 watching" in screen_text(app))
        client.emit(ConnectionChanged("closed", "the host closed the table"))
        await wait_for(pilot, lambda: "● here" not in screen_text(app))
        assert "1. ana  (host)" in screen_text(app)


async def test_a_table_hosted_from_the_app_keeps_a_journal_a_crash_can_resume() -> None:
    """Without --record the app's table once kept nothing: a crash of the
    app lost the game.  Its journal is now in the state directory, and the
    host is told, in its own chat, how to bring the table back."""
    app = create_app(loopback_host(), StartSpec(mode="host"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, LobbyScreen) and app.session is not None)
        client = app.session.client if app.session else None
        assert isinstance(client, HostedClient) and client.journal is not None
        assert client.journal.parent == tables_dir()
        assert table_file_path(client.journal).is_file()  # seats and settings, at once
        # The start screen offers the app's own tables: that is the way back
        # (the command held a path as long as the chat line).
        said = 'if this app stops, start threeup, then "Resume your table": no move is lost'
        await wait_for(pilot, lambda: said in chat_text(app))
        assert "--resume" not in chat_text(app)
        check_resumable(client.journal, {})
        # Closed in its lobby (or between games) it leaves nothing behind:
        # no game is under way, and the history keeps the finished ones.
        app.leave_table()
        await wait_for(pilot, lambda: on(app, StartScreen))
        await wait_for(pilot, lambda: not os.listdir(tables_dir()), what="tables/ emptied")


async def test_an_app_host_that_leaves_in_the_middle_of_a_game_keeps_its_journal() -> None:
    app = create_app(loopback_host(bots=1, players=2), StartSpec(mode="host"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, LobbyScreen) and app.session is not None)
        client = app.session.client if app.session else None
        assert isinstance(client, HostedClient) and client.journal is not None
        client.start_game()
        await wait_for(pilot, lambda: on(app, SetupScreen), what="the set-up")
        app.confirm_leave()  # q: "it closes for everyone"
        await pilot.pause()
        await pilot.press("y")
        await wait_for(pilot, lambda: on(app, StartScreen))
        # The client closes in the app's event worker.
        await wait_for(pilot, lambda: not client.kept, what="the client closed")
        # The host is told how to bring it back (once only in its chat
        # before): the start screen it is on offers the table again.
        said = 'choose "Resume your table" to bring it back'
        assert any(said in n for n in notes(app))
    assert table_file_path(client.journal).is_file()
    check_resumable(client.journal, {})


async def test_an_app_host_quit_in_the_middle_of_a_game_stops_as_a_headless_host_does(
    tmp_path: Path,
) -> None:
    """Ctrl-Q or SIGTERM mid-game: the journal is kept for --resume, so the
    players are told to wait for it (they come back by themselves), not
    that the table is gone; and the terminal is left the resume command."""
    from threeup_tui.netplay.client import NetClient
    from threeup_tui.netplay.tokens import TokenStore
    from threeup_tui.netplay.wire import CLOSE_HOST_STOPPED

    app = create_app(loopback_host(players=2), StartSpec(mode="host"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, LobbyScreen) and app.session is not None)
        client = app.session.client if app.session else None
        assert isinstance(client, HostedClient) and client.address is not None
        guest = NetClient(
            "127.0.0.1", client.address[1], "gus", tokens=TokenStore(tmp_path / "gus.json")
        )
        await guest.start()
        try:
            await wait_for(pilot, lambda: len(client.table.lobby().seats) == 2)
            await wait_for(pilot, lambda: all(s.kind != "open" for s in client.table.seats))
            client.start_game()
            await wait_for(pilot, lambda: on(app, SetupScreen), what="the set-up")
            await app.action_quit()

            async def told() -> ConnectionChanged:
                while True:
                    event = await guest.next_event()
                    if isinstance(event, ConnectionChanged) and event.state != "connected":
                        return event

            change = await asyncio.wait_for(told(), 10)
        finally:
            await guest.close()
    assert (change.state, change.detail) == ("reconnecting", CLOSE_HOST_STOPPED)
    assert client.journal is not None
    # The app's own table: the start screen offers it.  The goodbye was a
    # command with the whole path to the state directory, over 100 columns.
    assert in_tables_dir(client.journal)
    assert app.goodbye == 'threeup: stopped during game 1; start threeup, then "Resume your table"'
    check_resumable(client.journal, {})


def chat_text(app: Any) -> str:
    return " ".join(app.screen.query_one(ChatLines).text.split())


async def test_an_app_host_that_cannot_listen_leaves_no_table_file(tmp_path: Path) -> None:
    """The app says why (its host form shows the error); the new table's
    file is gone, so hosting again once the port is free is not refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as holder:
        holder.bind(("127.0.0.1", 0))
        taken = holder.getsockname()[1]
        settings = HostSettings(bind="127.0.0.1", port=taken, journal=tmp_path / "app1.json")
        with pytest.raises(OSError):
            await Launcher(announce_address="off").host(settings)
    assert os.listdir(tmp_path) == []


async def test_a_real_hosts_lobby_shows_its_ssh_door_port() -> None:
    pytest.importorskip("asyncssh")
    app = create_app(loopback_host(ssh_port=0, code="K"), StartSpec(mode="host"))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: on(app, LobbyScreen) and app.session is not None)
        client = app.session.client if app.session else None
        assert isinstance(client, HostedClient) and client.ssh_address is not None
        port = client.ssh_address[1]
        assert port > 0
        await wait_for(pilot, lambda: f"ssh -p {port} 127.0.0.1" in screen_text(app))
        assert isinstance(client.address, tuple)  # and the game's own join line
        assert f"threeup join 127.0.0.1:{client.address[1]}" in screen_text(app)
        app.leave_table()
        await wait_for(pilot, lambda: on(app, StartScreen))


async def test_the_tallies_of_games_for_six_places_fit_their_lines_at_80x24() -> None:
    """Games for places at six seats: each tally row listed all six places'
    counts ("13·10·8·0·2·0") under a heading of "1st·2nd·…", and at 80
    columns every row broke over two lines, the counts under the label."""
    history = History()
    for level, places in (("random", (1, 2, 2, 3, 5, 6) * 10), ("greedy", (1, 4, 6) * 4)):
        for place in places:
            bots = [SeatEntry(f"{level}-{i}", "bot", level) for i in range(2, 7)]
            seats = (SeatEntry("me", "you"), *bots)
            history.add(FinishedGame(seats, 0, place, place == 1, False, 90, 80, "places"))
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        await pilot.press("down", "down", "down", "enter")
        await wait_for(pilot, lambda: on(app, StatsScreen) and bool(app.screen.games))
        await pilot.pause()
        for tally in ("#by-opponents", "#by-players"):
            widget = app.screen.query_one(tally, Static)
            lines = str(widget.render()).splitlines()
            assert widget.size.height == len(lines), (tally, lines)
        text = screen_text(app)
        assert re.search(r"against +games won rate  1st·2nd·…", text), text
        assert re.search(r"random +60 +10 +17%  10·20·…", text), text
        assert re.search(r"6 players +72 +14 +19%  14·20·…", text), text


@pytest.mark.parametrize("size", [(40, 15), (60, 18), (60, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_your_games_shows_the_last_games_on_a_small_terminal(size: tuple[int, int]) -> None:
    """At 40x15 and 60x18 the tallies (wrapped over two lines a row, their
    places too wide) pushed "Last games" and the list off the screen, the
    list focused all the same.  Short, the tallies give way; narrow, they
    leave out the places and keep one line a row."""
    stats = scene("stats")
    app = stats.app()
    async with app.run_test(size=size) as pilot:
        await stats.drive(pilot)
        await pilot.pause()
        shown = screen_text(app)
        # The list's title, whole: where the cursor is among every game.
        assert re.search(r"Game 1 of 8(, newest first)? \(↑ ↓ End, ⏎ replays\)", shown), shown
        # The dates lose their year, and at 40 columns their time, to fit
        # the columns (stats.py: table_layout).
        assert "03-08" in shown and "03-06" in shown, shown
        assert not cut_text(app), cut_text(app)
        tallies = app.screen.query_one("#stats-tallies")
        if size[1] >= 20:
            assert tallies.display and "against   games won rate" in shown, shown
            assert "1st·2nd·3rd" not in shown, shown  # two tallies with places need 80
            for tally in ("#by-opponents", "#by-players"):
                widget = app.screen.query_one(tally, Static)
                assert widget.size.height == len(str(widget.render()).splitlines())


async def test_the_stats_screen_reads_past_a_game_changed_by_hand() -> None:
    """A date that is no date, written into the history by hand or by another
    program, ended the app with a traceback when Your games was opened."""
    history = History()
    for place in (1, 2):
        history.add(FinishedGame((SeatEntry("me", "you"), SeatEntry("b", "bot", "greedy")),
                                 0, place, place == 1, False, 20, 15))  # fmt: skip
    with contextlib.closing(sqlite3.connect(history.path)) as db, db:
        db.execute("UPDATE games SET finished_at = 'yesterday' WHERE id = 2")
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        await pilot.press("down", "down", "down", "enter")
        await wait_for(pilot, lambda: on(app, StatsScreen) and bool(app.screen.games))
        assert list(app.screen.games) == ["1"]
        await wait_for(pilot, lambda: any("1 game in" in n for n in notes(app)))
        (note,) = [n for n in notes(app) if "cannot be read" in n]
        assert str(history.path) in note and "\n" not in note
        await pilot.press("escape")
        await wait_for(pilot, lambda: on(app, StartScreen))


async def test_a_record_that_cannot_be_looked_at_is_told_as_gone() -> None:
    """Path.is_file() raises for a record under a directory that cannot be
    searched (mode 000; here a name no file system allows, for any user):
    drawing the list of last games ended the app with a traceback."""
    record = "/tmp/" + "x" * 256 + "/game.json"
    History().add(FinishedGame((SeatEntry("me", "you"), SeatEntry("b", "bot", "greedy")),
                               0, 1, True, False, 20, 15, record=record))  # fmt: skip
    app = create_app(fast_launcher())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on(app, StartScreen))
        await pilot.press("down", "down", "down", "enter")
        await wait_for(pilot, lambda: on(app, StatsScreen) and bool(app.screen.games))
        assert "gone" in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: any("The record is gone" in n for n in notes(app)))
        assert on(app, StatsScreen)


async def test_an_app_host_without_a_state_directory_hosts_unkept(
    own_directories: dict[str, Path],
) -> None:
    """A file where the state directory should be (or one that cannot be
    written) left the app unable to host at all: "Could not host: [Errno
    20] Not a directory", though the journal is only a crash's safety net."""
    own_directories["THREEUP_STATE_DIR"].write_text("a file where the state dir should be")
    app = create_app(loopback_host(), StartSpec(mode="host"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on(app, LobbyScreen) and app.session is not None)
        client = app.session.client if app.session else None
        assert isinstance(client, HostedClient) and client.journal is None
        assert not any("Could not host" in n for n in notes(app))
        assert "threeup host --resume" not in chat_text(app)  # nothing to resume from


async def test_an_app_host_on_a_full_disk_promises_no_resume(
    monkeypatch: pytest.MonkeyPatch, small_disk: Any
) -> None:
    """On a full disk the table's files could not be written (the log said
    so, and nobody reads the app's log), yet the chat told the host "if this
    app stops, threeup host --resume ... brings the table back, no move
    lost", and --resume then found no such file.  The host is told the
    game cannot be kept, and is promised no resume."""
    monkeypatch.setenv("THREEUP_STATE_DIR", str(small_disk.path / "state"))
    (small_disk.path / "state").mkdir()
    small_disk.fill()
    app = create_app(loopback_host(), StartSpec(mode="host"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on(app, LobbyScreen) and app.session is not None)
        client = app.session.client if app.session else None
        assert isinstance(client, HostedClient) and client.journal is None
        await wait_for(pilot, lambda: any("cannot be kept on disk" in n for n in notes(app)))
        assert "threeup host --resume" not in chat_text(app)
        await client.close()  # its lock file, on the small disk, before it goes
