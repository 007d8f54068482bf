"""A game against bots outlives leaving it: the start screen offers to
continue it, exactly where it was, and it counts once when it ends.

Real apps (``run_test``), a real table with real bots, and real files in
the test's own state and data directories.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from app_helpers import (
    app_of,
    fast_launcher,
    play_by_keys,
    screen_text,
    view_of,
    wait_for,
    wait_for_turn,
)
from test_app_home import games_now, notes, play_a_game
from textual.pilot import Pilot
from textual.widgets import OptionList

from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.screens.confirm import ConfirmScreen
from threeup_tui.app.screens.setup import SetupScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.app.screens.table import TableScreen
from threeup_tui.bots import GreedyBot
from threeup_tui.history import History
from threeup_tui.paths import games_dir
from threeup_tui.rules import View
from threeup_tui.savedgame import GameLock, SavedGame, saved_games


def menu_keys(app: ThreeUpApp) -> list[str | None]:
    menu = app.screen.query_one("#menu", OptionList)
    return [menu.get_option_at_index(i).id for i in range(menu.option_count)]


def kept_files() -> list[str]:
    """The files of kept games (their lock files aside)."""
    folder = games_dir()
    if not folder.exists():
        return []
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(".lock"))


async def on_start_screen(pilot: Pilot[int]) -> StartScreen:
    app = app_of(pilot)
    # In sight, as a player sees it before a key acts on it.
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, StartScreen) and app.screen.shown_at is not None,
        what="start screen",
    )
    screen = app.screen
    assert isinstance(screen, StartScreen)
    return screen


async def play_a_few_turns(pilot: Pilot[int], turns: int) -> View:
    """Lay the face-up cards and make ``turns`` moves by keys; the view on our next turn."""
    app = app_of(pilot)
    await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen), what="the set-up")
    bot = GreedyBot(4)
    session = app.session
    assert session is not None and session.view is not None
    session.client.choose_face_up(bot.choose_face_up(session.view))
    acted = -1
    for _ in range(turns):
        assert await wait_for_turn(pilot, acted) == "turn"
        acted = view_of(pilot).moves_played
        await play_by_keys(pilot, bot.choose_move(view_of(pilot)))
    assert await wait_for_turn(pilot, acted) == "turn"
    return view_of(pilot)


async def leave_in_the_middle(pilot: Pilot[int]) -> View:
    """Start a two-player game, play three turns and leave it; the view we left."""
    await on_start_screen(pilot)
    await pilot.press("minus", "minus", "enter")
    left = await play_a_few_turns(pilot, 3)
    await leave_a_kept_game(pilot)
    return left


async def leave_a_kept_game(pilot: Pilot[int]) -> StartScreen:
    """`q` and `y` in a game against bots: told it is kept, and offered it."""
    app = app_of(pilot)
    await pilot.press("q")
    await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
    assert "It is kept: continue it from the start screen" in str(app.screen.question)
    await pilot.press("y")
    start = await on_start_screen(pilot)
    await wait_for(pilot, lambda: start.saved is not None, what="the kept game offered")
    return start


async def test_a_game_left_in_the_middle_comes_back_as_it_was_and_counts_once() -> None:
    app = create_app(fast_launcher(), StartSpec(seed=16, name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        left = await leave_in_the_middle(pilot)
        # Continue is first: Enter takes the player back to where they were.
        assert menu_keys(app)[:2] == ["continue", "play"]
        assert app.screen.query_one("#menu", OptionList).highlighted == 0
        assert len(kept_files()) == 2  # the journal and its table file
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, TableScreen) and app.session is not None
        )
        await wait_for(pilot, lambda: app.session is not None and app.session.view is not None)
        back = view_of(pilot)
        assert back.moves_played == left.moves_played and back.my_turn
        assert back == left  # the same hand, pile, seats, draw pile, log: the same game
        # Played to its end, it counts once in the history.
        bot = GreedyBot(4)
        acted = -1
        for _ in range(400):
            if await wait_for_turn(pilot, acted) == "over":
                break
            acted = view_of(pilot).moves_played
            await play_by_keys(pilot, bot.choose_move(view_of(pilot)))
        await wait_for(pilot, lambda: bool(games_now()), what="the history")
        (game,) = History().games()
        assert game.moves == view_of(pilot).moves_played
        # Left at its end, nothing is kept and nothing is offered.
        app.leave_table()
        start = await on_start_screen(pilot)
        await wait_for(pilot, lambda: not kept_files(), what="the kept game forgotten")
        await wait_for(pilot, lambda: start.saved is None, what="no continue")
        assert "continue" not in menu_keys(app)


async def test_a_new_game_over_a_kept_one_asks_first() -> None:
    app = create_app(fast_launcher(), StartSpec(seed=16, name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        await leave_in_the_middle(pilot)
        (kept,) = saved_games()
        await pilot.press("down", "enter")  # Play against bots
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        assert "Your unfinished game (1 greedy bot) will be lost" in str(app.screen.question)
        await pilot.press("n")
        start = await on_start_screen(pilot)
        assert start.saved == kept and kept.journal.exists()
        await pilot.press("enter")  # "Play against bots" is still highlighted
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen), what="a new game")
        assert not kept.journal.exists()
        assert saved_games() == []  # the new game is being played: no window offers it


def footer_keys(app: ThreeUpApp) -> set[str]:
    """The actions the footer offers now."""
    return {binding.action for (_, binding, enabled, _) in app.active_bindings.values() if enabled}


async def test_a_kept_game_can_be_forgotten_from_the_start_screen() -> None:
    """A game the player will never go back to was offered first at every
    start: `x` (shown in the footer while it is highlighted) asks, and
    "yes" forgets it; on any other entry `x` does nothing."""
    app = create_app(fast_launcher(), StartSpec(seed=16, name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        await leave_in_the_middle(pilot)
        (kept,) = saved_games()
        assert "forget_kept" in footer_keys(app)
        await pilot.press("down")  # Play against bots
        await pilot.pause()
        assert "forget_kept" not in footer_keys(app)
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen) and kept.journal.exists()
        await pilot.press("up", "x")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="forget?")
        assert "Forget your unfinished game (1 greedy bot)?" in str(app.screen.question)
        await pilot.press("y")
        start = await on_start_screen(pilot)
        await wait_for(pilot, lambda: start.saved is None, what="the offer gone")
        assert "continue" not in menu_keys(app)
        assert not kept.journal.exists() and kept_files() == []
        assert "forget_kept" not in footer_keys(app)


async def test_the_palette_continues_and_asks_as_the_menu_does() -> None:
    app = create_app(fast_launcher(), StartSpec(seed=16, name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        await leave_in_the_middle(pilot)
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        assert "Continue your game" in commands
        commands["Play against bots"].callback()  # a kept game is not given up unasked
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("n")
        start = await on_start_screen(pilot)
        assert start.saved is not None and start.saved.journal.exists()
        commands["Continue your game"].callback()
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")


async def test_a_game_played_in_another_window_is_not_offered() -> None:
    # A first app leaves a game; another window takes it up (its lock).
    app = create_app(fast_launcher(), StartSpec(seed=16, name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        await leave_in_the_middle(pilot)
    (kept,) = saved_games()
    other_window = GameLock.take(kept.journal)
    assert other_window is not None
    try:
        second = create_app(fast_launcher(), StartSpec(name="me"))
        async with second.run_test(size=(80, 24)) as pilot:
            start = await on_start_screen(pilot)
            assert start.saved is None and "continue" not in menu_keys(second)
    finally:
        other_window.release()
    third = create_app(fast_launcher(), StartSpec(name="me"))
    async with third.run_test(size=(80, 24)) as pilot:
        start = await on_start_screen(pilot)
        assert start.saved == kept and menu_keys(third)[0] == "continue"


async def test_a_kept_game_that_cannot_come_back_is_set_aside_in_words() -> None:
    app = create_app(fast_launcher(), StartSpec(seed=16, name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        await leave_in_the_middle(pilot)
    (kept,) = saved_games()
    kept.journal.write_text('{"not": "a record"}\n')
    second = create_app(fast_launcher(), StartSpec(name="me"))
    async with second.run_test(size=(80, 24), notifications=True) as pilot:
        await on_start_screen(pilot)
        await pilot.press("enter")  # Continue your game
        await wait_for(pilot, lambda: any("kept aside" in n for n in notes(second)))
        (said,) = [n for n in notes(second) if "kept aside" in n]
        assert said.startswith("cannot resume:") and "Traceback" not in said
        start = await on_start_screen(pilot)
        await wait_for(pilot, lambda: start.saved is None, what="no continue")
        assert second.session is None
    aside = Path(f"{kept.journal}.bad")
    assert aside.read_text() == '{"not": "a record"}\n'  # kept, never deleted
    assert Path(f"{kept.journal}.table.bad").exists()
    assert saved_games() == []


async def a_kept_game_with_a_damaged_table_file() -> tuple[SavedGame, Path]:
    """A game against bots left in the middle, its table file then cut short."""
    app = create_app(fast_launcher(), StartSpec(seed=16, name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        await leave_in_the_middle(pilot)
    (kept,) = saved_games()
    table_file = Path(f"{kept.journal}.table")
    table_file.write_text('{"format": "threeup-tab')
    return kept, table_file


async def test_a_kept_game_whose_table_file_is_damaged_is_set_aside_in_words() -> None:
    """Passed over without a word, the next kept game was offered as if it
    were the one the player left."""
    kept, table_file = await a_kept_game_with_a_damaged_table_file()
    second = create_app(fast_launcher(), StartSpec(name="me"))
    async with second.run_test(size=(80, 24), notifications=True) as pilot:
        start = await on_start_screen(pilot)
        await wait_for(pilot, lambda: any("could not be read" in n for n in notes(second)))
        (said,) = [n for n in notes(second) if "could not be read" in n]
        assert said.endswith(f"kept aside as {kept.journal}.bad")
        assert start.saved is None and "continue" not in menu_keys(second)
    assert Path(f"{table_file}.bad").read_text() == '{"format": "threeup-tab'
    assert Path(f"{kept.journal}.bad").exists() and saved_games() == []


async def test_more_kept_games_than_the_one_offered_are_counted() -> None:
    for seed in (16, 17):  # `threeup play` twice, each game quit in the middle
        spec = StartSpec(mode="play", players=2, seed=seed, name="me")
        app = create_app(fast_launcher(), spec)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_a_few_turns(pilot, 1)
            await app.action_quit()
        await asyncio.sleep(1.1)  # journals are named by the second
    third = create_app(fast_launcher(), StartSpec(name="me"))
    async with third.run_test(size=(80, 24)) as pilot:
        start = await on_start_screen(pilot)
        assert start.saved is not None and start.more_saved == 1
        menu = third.screen.query_one("#menu", OptionList)
        offered = str(menu.get_option_at_index(0).prompt)
        assert "1 greedy bot · " in offered and "and 1 more kept game" in offered


async def test_a_game_quit_with_the_app_is_kept() -> None:
    """Ctrl-Q (or SIGTERM) in the middle of a game: the next start offers it."""
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=16, name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        left = await play_a_few_turns(pilot, 2)
        await app.action_quit()
    await asyncio.sleep(0)
    (kept,) = saved_games()
    assert kept.players == 2 and kept.bot_level == "greedy" and kept.game_number == 1
    second = create_app(fast_launcher(), StartSpec(name="me"))
    async with second.run_test(size=(80, 24)) as pilot:
        await on_start_screen(pilot)
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: second.session is not None and second.session.view is not None
        )
        assert view_of(pilot).moves_played == left.moves_played


async def test_a_game_over_quit_with_the_app_leaves_nothing() -> None:
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12, name="me"))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_a_game(app, pilot)
        await app.action_quit()
    assert kept_files() == [] and saved_games() == []


async def test_the_leave_question_shows_its_own_keys_in_the_footer() -> None:
    """Under the question only y and n answer: the footer says so, not the
    table's keys (space Select, ⏎/p Play...), which do nothing then."""
    app = create_app(fast_launcher(), StartSpec(seed=16, name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        await on_start_screen(pilot)
        await pilot.press("minus", "minus", "enter")
        await play_a_few_turns(pilot, 1)
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.pause()
        footer = screen_text(app).split("\n")[-1]
        assert "y Yes" in footer and "n No" in footer, footer
        assert "Play" not in footer, footer
        await pilot.press("n")


async def test_a_long_kept_game_line_breaks_between_its_parts() -> None:
    """A kept game past its first deal: "5 expert bots · game 3 · 18:38" is
    wider than the menu, and its time wrapped to the menu's left edge."""
    app = create_app(fast_launcher(), StartSpec(name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        start = await on_start_screen(pilot)
        left = time.time()
        start.show_saved(SavedGame(Path("game.json"), 6, "expert", 3, left), more=1)
        await pilot.pause()
        rows = [line.split("▊", 1)[1] for line in screen_text(app).splitlines() if "▊" in line]
        first = next(i for i, row in enumerate(rows) if "Continue your game" in row)
        last = next(i for i, row in enumerate(rows) if "more kept game" in row)
        shown = rows[first + 1 : last + 1]
        assert all(row.startswith("   ") for row in shown), shown  # each indented
        assert any(time.strftime("%H:%M", time.localtime(left)) in row for row in shown), shown


async def test_the_kept_game_says_when_it_was_left() -> None:
    """Under "Continue your game", "3 expert bots · 06:16" read as a clock
    (or as the time the game had run): the time is when it was left."""
    app = create_app(fast_launcher(), StartSpec(name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        start = await on_start_screen(pilot)
        left = time.time()
        start.show_saved(SavedGame(Path("game.json"), 4, "expert", 1, left))
        await pilot.pause()
        when = time.strftime("%H:%M", time.localtime(left))
        assert f"3 expert bots · left {when}" in screen_text(app)


async def test_a_kept_game_that_cannot_be_moved_aside_is_told_once_a_run(
    read_only: Callable[[Path], AbstractContextManager[None]],
) -> None:
    """In a games directory that cannot be written, the start screen said
    "kept aside as NAME.bad" of a file that had not moved, and said it again
    each time it showed (back from a game, a join that failed)."""
    _, table_file = await a_kept_game_with_a_damaged_table_file()
    with read_only(games_dir()):
        second = create_app(fast_launcher(), StartSpec(name="me"))
        async with second.run_test(size=(80, 24), notifications=True) as pilot:
            start = await on_start_screen(pilot)
            await wait_for(pilot, lambda: any("could not be read" in n for n in notes(second)))
            second._show_saved_game()  # as the start screen's every return does
            await pilot.pause(0.2)
            (said,) = [n for n in notes(second) if "could not be read" in n]
            assert "nor moved aside" in said and said.endswith(str(table_file))
            assert start.saved is None
    assert table_file.read_text() == '{"format": "threeup-tab'  # left as it was


async def test_a_rematch_left_in_its_set_up_is_kept_as_the_question_says() -> None:
    """After a game played out and a rematch, `q` in the next game's set-up
    asked "Leave this game? It is kept: continue it from the start screen",
    and then the start screen offered nothing and the files were gone: the
    journal held the finished game before it, and a finished journal was
    taken for nothing to continue (the set-up is in the table file)."""
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12, name="me"))
    async with app.run_test(size=(80, 24)) as pilot:
        await play_a_game(app, pilot)
        session = app.session
        assert session is not None

        def in_set_up() -> bool:
            view = app.session.view if app.session is not None else None
            shown = isinstance(app.screen, SetupScreen)
            return shown and view is not None and view.phase == "setup"

        session.client.rematch()
        await wait_for(pilot, in_set_up, what="the next game's set-up")
        start = await leave_a_kept_game(pilot)
        assert start.saved is not None and start.saved.game_number == 2
        await pilot.press("enter")
        await wait_for(pilot, in_set_up, what="the set-up back")
        view = app.session.view  # type: ignore[union-attr]
        assert view is not None and len(view.hand) == 6
