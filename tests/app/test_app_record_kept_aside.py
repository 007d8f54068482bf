"""A hosted game that ends while neither the history nor its records/ can
be written keeps its record: "Your games" later replays it.

It was kept aside without one ("the game is counted without it"), and
once added, its row had nothing to replay.  The real app playing a real
game against a bot; a real data directory made read-only, then writable.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack
from pathlib import Path
from typing import Any

import pytest
from app_helpers import fast_launcher, notes_heard, screen_text, wait_for, writing
from test_app_home import games_now, kept_game, on, play_a_game
from textual.pilot import Pilot

import threeup_tui.app.app as app_module
from threeup_tui.app.app import StartSpec, ThreeUpApp, create_app
from threeup_tui.app.messages import StatsRequested
from threeup_tui.app.screens.game_over import GameOverScreen
from threeup_tui.app.screens.replay import ReplayScreen
from threeup_tui.app.screens.start import StartScreen
from threeup_tui.app.screens.stats import StatsScreen
from threeup_tui.history import History
from threeup_tui.pendinggames import (
    RECORD_NOT_KEPT,
    RECORD_WAITS,
    keep_aside,
    pending_dir,
    pending_games,
)
from threeup_tui.recordfile import load_record


async def test_a_game_kept_aside_keeps_its_record_and_is_replayed_once_added(
    read_only: Callable[[Path], AbstractContextManager[None]],
) -> None:
    history = History()
    history.path.parent.mkdir(parents=True)
    with read_only(history.path.parent):
        app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12, name="me"))
        said = notes_heard(app)
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await play_a_game(app, pilot)
            await wait_for(pilot, lambda: bool(pending_games()), timeout=20)
            # Its notes are told once the game is kept aside.
            await wait_for(pilot, lambda: not writing(app), what="the history's notes")
    # One line: the game is kept (its record with it), never "counted without it".
    (told,) = [line for line in said if "Your games" in line]
    assert told.endswith("this game is kept, and added when the history can be written"), said
    (record,) = pending_dir().glob("record-*.json")
    assert record.stat().st_mode & 0o077 == 0  # every card of the game: yours alone
    # Writable again: the next app adds the game, its record in records/.
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, name="me"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await wait_for(pilot, lambda: not pending_games() and bool(history.games()), timeout=20)
    (row,) = history.games()
    assert row.record is not None and Path(row.record).parent == history.records_dir
    record = load_record(row.record)  # the whole game, to replay
    assert record.players[0] == "me" and len(record.moves) == row.moves
    assert list(pending_dir().iterdir()) == []


async def play_again(app: ThreeUpApp, pilot: Pilot[int], games: int) -> None:
    """From the game-over box, a rematch played to its end, counted as the ``games``th."""
    await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
    await pilot.press("r")  # the key, unlike the button, has no grace to wait out
    await play_a_game(app, pilot)
    await wait_for(pilot, lambda: len(games_now()) == games, timeout=20)


async def test_records_that_records_cannot_take_wait_replay_and_go_in_later() -> None:
    """The history writable, its records/ not (a file in its place): each
    game was counted without its record, the record that waited in
    pending-games/ deleted.  Two real games: one line, saying where the
    records wait; "Your games" replays them from there; and once records/
    can take them, opening "Your games" moves them in, and says so."""
    history = History()
    history.path.parent.mkdir(parents=True)
    history.records_dir.write_text("a file where records/ should be")
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12, name="me"))
    said = notes_heard(app)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await play_a_game(app, pilot)
        await wait_for(pilot, lambda: len(games_now()) == 1, timeout=20)
        await play_again(app, pilot, 2)
        # The second game's notes, were there any, are told by now.
        await wait_for(pilot, lambda: not writing(app), what="the history's notes")
        told = [line for line in said if "record" in line]
        assert told == [
            f"{RECORD_WAITS} {pending_dir()} until records/ can take it (cannot keep records"
            f" in {history.records_dir}: {history.records_dir} is a file, not a directory)"
        ], said
        rows = history.games()
        assert [Path(row.record or "").parent for row in rows] == [pending_dir()] * 2
        app.leave_table()
        await wait_for(pilot, lambda: on(app, StartScreen))
        app.post_message(StatsRequested())
        await wait_for(pilot, lambda: on(app, StatsScreen) and bool(app.screen.games))
        # The title's "⏎ replays", and both rows (drawn once the rows are read:
        # a fixed pause was too short under load).
        await wait_for(pilot, lambda: screen_text(app).count("⏎ replay") == 3, what="two rows")
        await pilot.press("enter")  # the newest game, its record still waiting
        await wait_for(pilot, lambda: on(app, ReplayScreen))
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.last == rows[0].moves
        await pilot.press("q")
        await wait_for(pilot, lambda: on(app, StatsScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: on(app, StartScreen))
        history.records_dir.unlink()  # records/ can be made again
        said.clear()
        app.post_message(StatsRequested())
        await wait_for(pilot, lambda: on(app, StatsScreen) and bool(app.screen.games))
        await wait_for(pilot, lambda: any("waited" in line for line in said))
        assert said == [
            f"Your games: 2 game records that waited in {pending_dir()} are in"
            f" {history.records_dir} now"
        ]
        await wait_for(pilot, lambda: screen_text(app).count("⏎ replay") == 3, what="in records/")
    for row in history.games():
        assert row.record is not None and Path(row.record).parent == history.records_dir
        assert len(load_record(row.record).moves) == row.moves  # the whole game, to replay
    assert list(pending_dir().iterdir()) == []


async def test_a_record_not_kept_is_told_again_after_records_could_be_kept_since() -> None:
    """Neither records/ nor pending-games/ can take a game's record: the
    game is counted without it, said once.  The app's "said once" was one
    for the table, never reset: after a game whose record went in, records/
    failing again lost the next game's record in silence.  Three real games
    at one table: told, quiet (kept), told again."""
    history = History()
    history.path.parent.mkdir(parents=True)
    pending_dir().parent.mkdir(parents=True)
    pending_dir().write_text("a file where pending-games/ should be")
    history.records_dir.write_text("a file where records/ should be")
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12, name="me"))
    said = notes_heard(app)

    def not_kept() -> list[str]:
        return [line for line in said if line.startswith(RECORD_NOT_KEPT)]

    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await play_a_game(app, pilot)
        await wait_for(pilot, lambda: len(games_now()) == 1, timeout=20)
        assert len(not_kept()) == 1, said
        history.records_dir.unlink()
        await play_again(app, pilot, 2)  # its record goes in records/
        assert len(not_kept()) == 1, said
        shutil.rmtree(history.records_dir)
        history.records_dir.write_text("a file again")
        await play_again(app, pilot, 3)
        assert len(not_kept()) == 2, said  # (told as the game ended, before it is counted)
        assert not_kept()[1] == not_kept()[0]
    assert [row.record is None for row in history.games()] == [True, False, True]


async def test_records_that_went_in_at_a_games_end_are_news_not_a_warning() -> None:
    """A record waited (records/ a file); records/ is free again when the
    next game ends, and its end moves the one that waited in.  The line
    that says so showed "⚠ Your games: 1 game record that waited ... is in
    ... now": the app marked every line at a game's end as a warning.  A
    real game, then a rematch: the news is shown as news (•), and the
    trouble before it still warned (⚠)."""
    history = History()
    history.path.parent.mkdir(parents=True)
    history.records_dir.write_text("a file where records/ should be")
    app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12, name="me"))
    marks: list[tuple[str, str]] = []
    notify = app.notify

    def heard(message: str, *args: Any, **kwargs: Any) -> None:
        marks.append((kwargs.get("severity", "information"), message))
        notify(message, *args, **kwargs)

    app.notify = heard  # type: ignore[method-assign]
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await play_a_game(app, pilot)
        await wait_for(pilot, lambda: len(games_now()) == 1, timeout=20)
        history.records_dir.unlink()
        await play_again(app, pilot, 2)
        news = "Your games: 1 game record that waited in"
        await wait_for(pilot, lambda: any(message.startswith(news) for _, message in marks))
        await wait_for(pilot, lambda: f"• {news}" in screen_text(app), what="the news shown")
        assert f"⚠ {news}" not in screen_text(app)
    told = [(mark, message.split(" in ")[0]) for mark, message in marks if "record" in message]
    assert told == [
        ("warning", RECORD_WAITS.removesuffix(" in")),
        ("information", "Your games: 1 game record that waited"),
    ], marks
    assert len(list(history.records_dir.iterdir())) == 2


async def test_your_games_says_the_games_kept_aside_it_cannot_count_yet(
    read_only: Callable[[Path], AbstractContextManager[None]],
) -> None:
    """A full disk left an empty history file, and the game played then
    was kept aside: "Your games" said "No finished games yet", and with
    games counted before, showed them alone, as if the newer were lost.
    A data directory made read-only (a real bind mount): a history that
    reads and cannot be written, with a game kept aside."""
    history = History()
    history.path.parent.mkdir(parents=True)
    history.path.touch()  # what the full disk left: an empty history
    keep_aside(kept_game(1))
    app = create_app(fast_launcher())
    with ExitStack() as blocked:
        blocked.enter_context(read_only(history.path.parent))
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            app.post_message(StatsRequested())
            await wait_for(pilot, lambda: on(app, StatsScreen) and "counted" in screen_text(app))
            assert "No finished games yet" not in screen_text(app)
            assert "None counted yet: 1 finished game kept aside, added when the history" in (
                screen_text(app)
            )
            blocked.close()  # writable again while the screen is open: no file changes
            await wait_for(pilot, lambda: "1 game · 1 won" in screen_text(app), timeout=15)
            assert "kept aside" not in screen_text(app)
    with read_only(history.path.parent):
        keep_aside(kept_game(1))
        app = create_app(fast_launcher())
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            app.post_message(StatsRequested())
            await wait_for(pilot, lambda: on(app, StatsScreen) and bool(app.screen.games))
            await wait_for(pilot, lambda: "kept aside" in screen_text(app))
            text = screen_text(app)
            assert "1 game · 1 won" in text and "1 finished game kept aside" in text, text
    assert len(pending_games()) == 1


async def test_a_game_whose_app_died_before_counting_it_is_counted_at_the_next_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The app kept a finished game's record, then handed the game to a
    worker thread for the history: an app gone before that worker counted
    it lost the game (its record no row's).  The game is kept aside whole
    as it ends; here the worker never counts it (the app "dies" first),
    and the next start counts it, with its record, once."""
    history = History()

    def died_first(*_args: Any, **_kwargs: Any) -> tuple[int | None, list[str]]:
        return -1, []  # the worker that counts the game never ran

    with monkeypatch.context() as patched:
        patched.setattr(app_module, "count_game", died_first)
        app = create_app(fast_launcher(), StartSpec(mode="play", players=2, seed=12, name="me"))
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await play_a_game(app, pilot)
            await wait_for(pilot, lambda: bool(pending_games()), timeout=20, what="the game kept")
    assert games_now() == []
    for _start in range(2):  # the next start counts it; the one after, not again
        app = create_app(fast_launcher(), StartSpec(mode="play", players=2, name="me"))
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await wait_for(pilot, lambda: not pending_games() and bool(games_now()), timeout=20)
    (row,) = history.games()
    assert row.record is not None and Path(row.record).parent == history.records_dir
    assert len(load_record(row.record).moves) == row.moves  # the whole game, to replay
    assert list(history.records_dir.iterdir()) == [Path(row.record)]
    assert list(pending_dir().iterdir()) == []
