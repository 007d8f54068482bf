"""Whole games against bots, played by mouse alone and by keyboard alone."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from app_helpers import (
    MAX_MOVES,
    app_of,
    click,
    fast_launcher,
    lay_by_keys,
    notes_heard,
    play_by_client,
    play_by_keys,
    play_by_mouse,
    play_to_the_end,
    screen_text,
    view_of,
    wait_for,
    wait_for_setup,
    wait_for_turn,
)
from textual._styles_cache import StylesCache
from textual.widget import Widget
from textual.widgets import Input

from threeup_tui.app import app as app_module
from threeup_tui.app.app import StartSpec, create_app
from threeup_tui.app.screens.game_over import GameOverScreen
from threeup_tui.app.screens.lobby import LobbyScreen
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.app.text import card_label
from threeup_tui.app.widgets.status_line import HINT, StatusLine
from threeup_tui.bots import GreedyBot


async def test_whole_game_by_mouse() -> None:
    app = create_app(fast_launcher(), StartSpec(players=2, seed=12))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="start screen")
        # One click on the first entry and the game is on.
        await click(pilot, "#menu", offset=(4, 1))
        setup = await wait_for_setup(pilot)
        bot = GreedyBot(1)
        chosen = bot.choose_face_up(view_of(pilot))
        hand = list(view_of(pilot).hand)
        for code in chosen:
            i = hand.index(code)
            hand[i] = ""
            await click(pilot, f"#setup-{i}")
        await click(pilot, "#confirm")
        await wait_for(pilot, lambda: not isinstance(app.screen, SetupScreen), what="the table")
        assert setup.sent
        await play_to_the_end(pilot, bot, play_by_mouse)
        assert isinstance(app.screen, GameOverScreen)
        assert view_of(pilot).winner is not None
        # Leave by mouse too: back to the start screen.
        await click(pilot, "#leave")
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="start screen")
        assert app_of(pilot).session is None


async def test_a_game_against_bots_goes_from_the_menu_to_the_set_up_with_no_lobby(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bots sit down after the player, so the table's first word is a
    lobby of open seats ("anyone who finds the table may sit"), then the
    deal.  That lobby is nobody's to use: on a cold start (the expert's
    workers starting) it stood on the screen for over a second."""
    lobbies: list[LobbyScreen] = []

    class RecordedLobby(LobbyScreen):
        def __init__(self) -> None:
            super().__init__()
            lobbies.append(self)

    monkeypatch.setattr(app_module, "LobbyScreen", RecordedLobby)
    app = create_app(fast_launcher(), StartSpec(players=3, seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="start screen")
        await pilot.press("enter")
        await wait_for_setup(pilot)
    assert lobbies == []


async def test_whole_game_by_keyboard() -> None:
    app = create_app(fast_launcher(), StartSpec(players=2, seed=16))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="start screen")
        # Fewer players, then Enter: the default entry is "Play against bots".
        await pilot.press("minus", "minus", "enter")
        await wait_for_setup(pilot)
        assert len(view_of(pilot).seats) == 2
        bot = GreedyBot(2)
        chosen = bot.choose_face_up(view_of(pilot))
        hand = list(view_of(pilot).hand)
        for code in chosen:
            i = hand.index(code)
            hand[i] = ""
            await pilot.press(str(i + 1))
        await pilot.press("enter")
        await play_to_the_end(pilot, bot, play_by_keys)
        assert isinstance(app.screen, GameOverScreen)
        # Rematch by key: a new set-up.
        await pilot.press("r")
        await wait_for_setup(pilot)
        assert view_of(pilot).phase == "setup"


async def test_the_hint_at_set_up_selects_three_cards_and_enter_lays_them() -> None:
    """``h`` at the set-up asks the best bot (thinking off the UI loop) for
    three cards to lay face up; they are selected, and Enter lays exactly them."""
    app = create_app(fast_launcher(), StartSpec(players=2, seed=16))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="start screen")
        await pilot.press("minus", "minus", "enter")
        setup = await wait_for_setup(pilot)
        assert "Hint" in screen_text(app).splitlines()[-1]  # the footer offers it
        hand = view_of(pilot).hand
        await pilot.press("h")
        assert any(n.title == HINT and n.message == "thinking…" for n in app._notifications)
        await wait_for(pilot, lambda: len(setup.selected) == 3, timeout=20, what="the hint")
        chosen = [hand[i] for i in setup.selected]
        assert len(set(setup.selected)) == 3
        line = setup.query_one(StatusLine)
        await wait_for(pilot, lambda: "lay" in line.text, what="the hint on the status line")
        words = " ".join(card_label(c) for c in chosen)
        assert line.text == f"• Hint: lay {words} face up (⏎ to do it)"
        await pilot.press("enter")
        # Laid: the hint is taken back at once, not left to run out.
        assert not any(n.title == HINT for n in app._notifications)
        await wait_for(pilot, lambda: not isinstance(app.screen, SetupScreen), what="the table")
        me = view_of(pilot).me
        assert me is not None and sorted(me.face_up) == sorted(chosen)


async def test_a_flip_of_a_played_face_down_card_is_refused_by_its_number_on_screen() -> None:
    """The face-down cards read 1, 2 and 3 (f then 1-3): f and the number of
    one already played is refused in those numbers, not the record's 0-2."""
    for seed in range(40):  # a deal where we come down to our face-down cards
        if await flip_a_played_face_down_card(seed):
            return
    raise AssertionError("no deal in the seeds tried came down to a played face-down card")


async def flip_a_played_face_down_card(seed: int) -> bool:
    """Play the deal; once a face-down card of ours is played, flip it again
    and check the refusal. False if the game ended first."""
    app = create_app(fast_launcher(), StartSpec(players=2, seed=seed))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        await pilot.press("minus", "minus", "enter")
        await wait_for_setup(pilot)
        bot = GreedyBot(0)

        def status() -> str:
            return app.screen.query_one(StatusLine).text

        await pilot.press("h")
        await wait_for(pilot, lambda: "Hint: lay" in status())
        await pilot.press("enter")
        acted_at = -1
        for _ in range(MAX_MOVES):
            if await wait_for_turn(pilot, acted_at) == "over":
                return False
            view = view_of(pilot)
            me = view.me
            assert me is not None
            if view.source == "face-down" and not all(me.face_down):
                played = me.face_down.index(False) + 1
                await pilot.press("f", str(played))
                await wait_for(pilot, lambda: "already played" in status())
                assert f"face-down card {played} is already played" in status(), status()
                return True
            acted_at = view.moves_played
            await play_by_keys(pilot, bot.choose_move(view))
    return False


def lines_of_widgets_gone() -> int:
    """How many StylesCaches (a widget's drawn lines) outlive their widget."""
    gc.collect()
    objects = gc.get_objects()
    drawn = sum(isinstance(o, StylesCache) for o in objects)
    return drawn - sum(isinstance(o, Widget) for o in objects)


async def test_a_finished_games_widgets_lines_are_let_go_at_the_next_game() -> None:
    """Textual keeps each widget's drawn lines (its StylesCache) in an
    lru_cache of 1024 whatever becomes of the widget (textual#6665).  A
    game makes about a hundred widgets, so an evening's app held about a
    thousand dead ones: 20 to 26 MiB and 170,000 objects more
    (benchmarks/app_evening.py).  Once the next game's table is up, the
    lines of the last game's widgets are gone with them."""
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=16))
    bot = GreedyBot(2)
    async with app.run_test(size=(80, 24)) as pilot:
        await lay_by_keys(pilot, bot)
        # The game makes the widgets; whole games by keys are tested above.
        await play_to_the_end(pilot, bot, play_by_client)
        await pilot.press("r")  # the key, unlike the button, has no grace to wait out
        await lay_by_keys(pilot, bot)
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the next table")
        kept = lines_of_widgets_gone()
        assert kept <= 10, f"the lines of {kept} widgets kept after the widgets were gone"


async def test_a_record_typed_into_a_directory_not_there_is_refused_and_kept_in_the_box(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A typo in the box's directory ("gmaes/x.json") made that directory
    and saved there, where nobody would look.  The table refuses it in
    words that name the directory, and the box stays, the name as typed.
    Under the title "Not saved": "Not allowed", a rule's word, told the
    player they had broken one."""
    monkeypatch.chdir(tmp_path)
    app = create_app(fast_launcher(), StartSpec(players=2, seed=16))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen), what="start screen")
        await pilot.press("minus", "minus", "enter")
        await wait_for_setup(pilot)
        await lay_by_keys(pilot, GreedyBot(2))
        await play_to_the_end(pilot, GreedyBot(2), play_by_client)
        assert isinstance(app.screen, GameOverScreen)
        heard = notes_heard(app_of(pilot))
        field = app.screen.query_one("#record-path", Input)
        field.value = "gmaes/x.json"
        await pilot.press("s")
        await wait_for(pilot, lambda: bool(heard), 10, "the table's answer")
        folder = tmp_path / "gmaes"  # first: at 40x15 the line's end is cut
        assert heard == [f"Not saved: no directory {folder}"]
        assert isinstance(app.screen, GameOverScreen) and field.value == "gmaes/x.json"
        line = app.screen.query_one(StatusLine)  # the box's own, in sight
        await wait_for(pilot, lambda: line.text.startswith("✖ Not saved: no directory /"))
        assert not (tmp_path / "gmaes").exists()
        (tmp_path / "gmaes").mkdir()  # made, as the player would: the same s saves
        await pilot.press("s")
        await wait_for(pilot, lambda: (tmp_path / "gmaes" / "x.json").is_file(), 10, "the record")
