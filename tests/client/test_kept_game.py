"""A game against bots kept in the state directory's games/ until it is
over (threeup_tui.savedgame): closed in the middle it comes back exactly
where it was; closed at its end it leaves nothing; a window that plays it
holds it.  Real tables, real files."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

from threeup_tui.bots import GreedyBot
from threeup_tui.client.local import LocalClient, bot_game, kept_game
from threeup_tui.leftgame import keep_left_games
from threeup_tui.paths import games_dir
from threeup_tui.rules import Phase, seat_view
from threeup_tui.savedgame import (
    GameLock,
    SavedGame,
    forget,
    kept_games,
    new_journal,
    saved_games,
)
from threeup_tui.table import Table, TableConfig, TableError, open_table
from threeup_tui.tablefile import table_file_path


def state_of(client: LocalClient):  # type: ignore[no-untyped-def]
    state = client.table.state
    assert state is not None
    return state


def play_until_our_turn(client: LocalClient, moves: int) -> None:
    """Our face-up choice, then ``moves`` of our moves (greedy's), the bots in between."""
    table, me = client.table, GreedyBot(9)
    state = state_of(client)
    if state.setup[0] is None:
        table.choose_face_up(0, me.choose_face_up(seat_view(state, 0)))
    made = 0
    while True:
        state = state_of(client)
        if state.phase == Phase.OVER:
            return
        if state.phase == Phase.PLAY and state.seat == 0:
            if made == moves:
                return
            table.submit(0, me.choose_move(seat_view(state, 0)))
            made += 1
        else:
            assert table.step_bot()


async def kept_and_started(players: int, seed: int) -> tuple[Path, LocalClient]:
    """A new game against bots, kept in games/, with ann in seat 1."""
    journal = new_journal()
    client = bot_game(players=players, seed=seed, name="ann", bot_delay=0.0, journal=journal)
    await client.start()
    return journal, client


async def test_a_game_closed_in_the_middle_comes_back_exactly_where_it_was() -> None:
    journal, client = await kept_and_started(3, 7)
    play_until_our_turn(client, 4)
    left = seat_view(state_of(client), 0)
    assert client.kept
    await client.close()
    (kept,) = saved_games()
    assert kept == SavedGame(journal, 3, "greedy", 1, left_at=kept.left_at)
    assert abs(kept.left_at - time.time()) < 60
    back = kept_game(journal, "ann", bot_delay=0.0)
    await back.start()
    try:
        assert seat_view(state_of(back), 0) == left
        assert back.table.seats[0].name == "ann" and back.seat == 0
        assert [s.kind for s in back.table.seats] == ["human", "bot", "bot"]
        # A second window can neither take it up nor see it offered.
        with pytest.raises(TableError, match="being played in another window"):
            kept_game(journal, "ann")
        assert saved_games() == []
    finally:
        await back.close()
    assert [g.journal for g in saved_games()] == [journal]


async def test_a_kept_game_is_said_to_be_left_when_its_last_move_was_made() -> None:
    """The start screen's "left 03:10" took the table file's time, written
    when the game began or was taken up, not at each move: a game played
    for half an hour was said to be left when it began."""
    journal, client = await kept_and_started(3, 7)
    play_until_our_turn(client, 4)
    await client.close()
    began, last_move = 1_700_000_000, 1_700_001_800
    os.utime(table_file_path(journal), (began, began))
    os.utime(journal, (last_move, last_move))
    (kept,) = saved_games()
    assert kept.left_at == last_move


async def test_a_set_up_left_half_done_comes_back_with_its_deal_and_choice() -> None:
    journal, client = await kept_and_started(2, 3)
    state = state_of(client)
    chosen = GreedyBot(1).choose_face_up(seat_view(state, 0))
    client.table.choose_face_up(0, chosen)
    left = seat_view(state, 0)
    assert left.phase == "setup"
    await client.close()  # the bot has not chosen yet: the runner never ran
    back = kept_game(journal, "ann", bot_delay=0.0)
    await back.start()
    try:
        again = state_of(back)
        assert seat_view(again, 0) == left
        assert again.setup[0] == state.setup[0] and again.deck == state.deck
    finally:
        await back.close()


async def test_a_game_closed_at_its_end_leaves_no_file() -> None:
    _, client = await kept_and_started(2, 5)
    play_until_our_turn(client, 10_000)
    assert state_of(client).phase == Phase.OVER
    await client.close()
    assert sorted(os.listdir(games_dir())) == []  # no journal, table file, lock or record
    assert saved_games() == []


async def test_a_game_whose_window_ended_at_the_game_over_box_is_not_offered() -> None:
    """Killed at the game-over box, a window leaves the finished game's files
    (its table never closed): the next start screen offered "Continue your
    game" for a game with nothing left to play.  It is not offered, and the
    start's worker counts it and forgets its files."""
    journal, client = await kept_and_started(2, 5)
    play_until_our_turn(client, 10_000)
    assert state_of(client).phase == Phase.OVER
    left = new_journal()
    while left == journal:  # named by the second: wait for a new name
        await asyncio.sleep(0.05)
        left = new_journal()
    # What a killed window leaves: the files, and no lock held on them.
    shutil.copy(journal, left)
    shutil.copy(table_file_path(journal), table_file_path(left))
    assert "result" in json.loads(left.read_text())
    try:
        assert saved_games() == []
        keep_left_games()
        assert not left.exists() and not table_file_path(left).exists()
    finally:
        await client.close()


async def test_two_games_begun_in_one_second_are_both_kept() -> None:
    """A journal is written once the set-up is done, its table file at once.
    Named by the second, a game begun while another was in its set-up (a
    second window, or "Play against bots" again at once after leaving one)
    took the same name, and its table file wrote over the other's: one
    kept game was lost."""
    first, one = await kept_and_started(2, 5)
    second, two = await kept_and_started(3, 6)
    await one.close()
    await two.close()
    assert second != first
    kept = {game.journal: game.players for game in saved_games()}
    assert kept == {first: 2, second: 3}


async def test_a_game_closed_before_it_was_dealt_leaves_no_file() -> None:
    journal = new_journal()
    client = bot_game(players=2, seed=5, name="ann", bot_delay=0.0, journal=journal)
    await client.close()  # never started: no game to keep
    assert sorted(os.listdir(games_dir())) == []


async def test_kept_games_are_offered_newest_first_passing_over_what_cannot_be_read() -> None:
    journals = []
    for seed in range(3):
        journal = new_journal()  # in the same second: another name all the same
        client = bot_game(players=2 + seed, seed=seed, bot_delay=0.0, journal=journal)
        await client.start()
        await client.close()  # in its set-up: kept
        journals.append(journal)
    for age, journal in enumerate(reversed(journals)):
        stamp = 1_700_000_000 - age * 60
        os.utime(table_file_path(journal), (stamp, stamp))
    assert [g.journal for g in saved_games()] == list(reversed(journals))
    assert [g.players for g in saved_games()] == [4, 3, 2]
    table_file_path(journals[2]).write_text("{ not json")
    doctored = json.loads(table_file_path(journals[0]).read_text())
    doctored["config"]["bot_level"] = "[b]sneaky[/b]"
    table_file_path(journals[0]).write_text(json.dumps(doctored))
    os.utime(table_file_path(journals[0]), (1_600_000_000, 1_600_000_000))
    games, aside = kept_games()
    assert [g.journal for g in games] == [journals[1]]
    # Said once, by the names they went under...
    said = "A kept game could not be read; its files are kept aside as"
    assert sorted(aside) == sorted([f"{said} {journals[2]}.bad", f"{said} {journals[0]}.bad"])
    bad = Path(f"{table_file_path(journals[2])}.bad")
    assert bad.read_text() == "{ not json"  # ...and set aside, never deleted
    assert kept_games() == (games, [])


def test_forget_leaves_alone_a_game_another_window_took_up(tmp_path: Path) -> None:
    journal = tmp_path / "game.json"
    for path in (journal, table_file_path(journal)):
        path.write_text("{}")
    holder = GameLock.take(journal)
    assert holder is not None
    try:
        assert GameLock.take(journal) is None
        assert not forget(journal)
        assert journal.exists() and table_file_path(journal).exists()
    finally:
        holder.release()
    assert forget(journal)
    assert list(tmp_path.iterdir()) == []


def test_saved_game_words() -> None:
    assert SavedGame(Path("g.json"), 4, "greedy", 1).words() == "3 greedy bots"
    assert SavedGame(Path("g.json"), 2, "expert", 3).words() == "1 expert bot · game 3"
    left = time.mktime((2026, 12, 3, 14, 5, 0, 0, 0, -1))
    game = SavedGame(Path("g.json"), 2, "greedy", 1, left_at=left)
    assert game.when(now=left + 3600) == "14:05"  # the same day: the time
    assert game.when(now=left + 3 * 86400) == "3 Dec"  # another day: the date
    assert SavedGame(Path("g.json"), 2, "greedy", 1).when() == ""


async def test_a_journal_that_cannot_be_written_stops_no_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The disk is the table's servant: a move is made and shown even when
    its journal cannot be written, and the table says so once."""
    folder = tmp_path / "games"
    table = Table(TableConfig(players=2, seed=4, journal=folder / "game.json", auto_start=True))
    table.seat_human("ann")
    table.add_bot(None, "greedy")
    state = table.state
    assert state is not None
    table.choose_face_up(0, GreedyBot(1).choose_face_up(seat_view(state, 0)))
    shutil.rmtree(folder)
    folder.write_text("a file where the journal's folder was")
    me = GreedyBot(2)
    with caplog.at_level(logging.ERROR):
        made = 0
        while made < 6:
            if state.phase == Phase.PLAY and state.seat == 0:
                table.submit(0, me.choose_move(seat_view(state, 0)))
                made += 1
            else:
                assert table.step_bot()
    assert len(state.history) >= 6
    failures = [r for r in caplog.records if "cannot write the journal" in r.getMessage()]
    assert len(failures) == 1


def test_finished_games_are_kept_beside_the_journal_as_the_resuming_host_chooses(
    tmp_path: Path,
) -> None:
    """The app keeps finished games in its history, not beside its own
    journals; a headless host that resumes such a journal has no history,
    so it keeps them beside the journal (as for any table it hosts)."""
    journal = tmp_path / "table.json"
    open_table(TableConfig(players=2, journal=journal, keep_records=False))
    assert open_table(TableConfig(), resume=journal).config.keep_records  # headless
    assert not open_table(TableConfig(keep_records=False), resume=journal).config.keep_records


async def test_a_kept_game_that_cannot_be_moved_aside_is_not_said_to_be(
    read_only: Callable[[Path], AbstractContextManager[None]],
) -> None:
    """In a games directory that cannot be written, an unreadable kept game
    stayed where it was while the player was told it was "kept aside as
    NAME.bad" (a name no file had), and told so again by every start screen."""
    journal = new_journal()
    client = bot_game(players=2, seed=3, bot_delay=0.0, journal=journal)
    await client.start()
    await client.close()  # in its set-up: kept
    table_file = table_file_path(journal)
    table_file.write_text("{ not json")
    with read_only(games_dir()):
        games, unreadable = kept_games()
        assert games == []
        (line,) = unreadable
        assert line.startswith("A kept game could not be read, nor moved aside (")
        assert line.endswith(f"): {table_file}") and "kept aside as" not in line
        assert table_file.read_text() == "{ not json"  # left as it was
    games, unreadable = kept_games()  # once the directory can be written again
    assert unreadable == [
        f"A kept game could not be read; its files are kept aside as {journal}.bad"
    ]
    assert Path(f"{table_file}.bad").read_text() == "{ not json"


def notices(client: LocalClient) -> list[str]:
    """The texts of the Notice events waiting for ``client`` (read off its queue)."""
    from threeup_tui.client.events import Notice

    said = []
    while not client._events.empty():
        event = client._events.get_nowait()
        if isinstance(event, Notice):
            said.append(event.text)
    return said


async def test_a_game_that_cannot_be_kept_on_a_full_disk_is_not_said_to_be(
    small_disk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a full disk the table's files could not be written, which only
    the log said: the player was asked "Leave this game? It is kept:
    continue it from the start screen", and found nothing to continue.
    The player is told once, the game plays on, and it is not said to be
    kept until its files are written again (here, once the disk has room)."""
    monkeypatch.setenv("THREEUP_STATE_DIR", str(small_disk.path / "state"))
    journal = new_journal()
    small_disk.fill()
    client = bot_game(players=2, seed=5, name="ann", bot_delay=0.0, journal=journal)
    await client.start()
    try:
        play_until_our_turn(client, 2)
        assert not client.kept and not client.table.keeping_files
        (said,) = notices(client)
        assert said.startswith("This game cannot be kept on disk (No space left on device)")
        small_disk.free()
        play_until_our_turn(client, 1)  # a move: the journal and the table file again
        assert client.kept and notices(client) == []
    finally:
        await client.close()
    assert [game.journal for game in saved_games()] == [journal]
