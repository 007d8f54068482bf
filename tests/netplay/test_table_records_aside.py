"""A finished game's record that the journal's directory cannot take.

A dedicated host keeps each finished game beside its journal (party-N.json),
and the next game's journal is written over the journal that held it.  A
directory that takes no file then (full, read-only) once lost the record
for good, while the host's log said "record in party.json".  It is kept
aside in the state directory (or held by the host while that cannot take
it either), moved beside the journal when a later game ends there, and the
log names where it is, or says plainly that it was lost.  Real full disks
(a 64 KiB tmpfs) and read-only mounts: no mocked file system.
"""

from __future__ import annotations

import asyncio
import json
import logging
import pwd
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from netplay_support import play_out_as_bots, start_bot_process, start_host_process, verify_cli

from threeup_tui.netplay.run import _host_games
from threeup_tui.rules import record_of, verify
from threeup_tui.table import Table, TableConfig, open_table

ReadOnly = Callable[[Path], AbstractContextManager[None]]


def bot_table(journal: Path, **config: Any) -> Table:
    return open_table(TableConfig(players=3, seed=5, journal=journal, **config), bots=3)


def play_out(table: Table) -> dict[str, Any]:
    """The game to its end: its record, as a file reads back."""
    while table.step_bot():
        pass
    assert table.state is not None and table.state.over
    return json.loads(json.dumps(record_of(table.state).to_json()))


def assert_both_beside(
    table: Table, beside: list[Path], records: list[Any], aside: Path, log: str
) -> None:
    """Both games' records beside the journal, the first moved there from
    aside (and said so), none left aside."""
    assert table.kept_records == beside
    assert [json.loads(path.read_text()) for path in beside] == records
    assert not aside.exists()
    assert f"game 1's record is beside the journal now: {beside[0]}" in log


def test_a_record_the_full_disk_cannot_take_is_kept_aside_then_moved_beside_the_journal(
    small_disk: Any, state_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    journal = small_disk.path / "party.json"
    table = bot_table(journal)
    table.start(None)
    for _ in range(20):
        table.step_bot()
    small_disk.fill()
    with caplog.at_level(logging.INFO, logger="threeup"):
        first = play_out(table)
    aside = state_dir / "records-aside" / table.table_id / "party-1.json"
    assert table.kept_records == [aside]
    assert table.finished_games.get_nowait().record == aside  # what the host's log names
    assert json.loads(aside.read_text()) == first
    assert verify(first).ok and verify(first).finished
    assert (
        f"could not keep game 1's record beside {journal} (No space left on device): "
        f"it is kept in {aside} instead" in caplog.text
    )
    small_disk.free()
    table.start(None)  # the next game's journal is written over the first's
    with caplog.at_level(logging.INFO, logger="threeup"):
        second = play_out(table)
    beside = [small_disk.path / "party-1.json", small_disk.path / "party-2.json"]
    assert_both_beside(table, beside, [first, second], aside, caplog.text)


def test_a_record_no_directory_can_take_is_held_until_one_can_and_its_loss_is_said(
    tmp_path: Path, state_dir: Path, read_only: ReadOnly, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "party"
    folder.mkdir()
    table = bot_table(folder / "party.json")
    table.start(None)
    for _ in range(20):
        table.step_bot()
    with read_only(folder), read_only(state_dir), caplog.at_level(logging.INFO, "threeup"):
        first = play_out(table)
        assert table.kept_records == []
        assert table.finished_games.get_nowait().record is None  # not "in party.json"
        assert "this host holds it" in caplog.text
        table.keep_waiting_records(last_try=True)  # what a host stopping now says
        assert "game 1's record is lost: neither" in caplog.text
    table.start(None)
    second = play_out(table)
    beside = [folder / "party-1.json", folder / "party-2.json"]
    assert table.kept_records == beside
    assert [json.loads(path.read_text()) for path in beside] == [first, second]


async def test_the_hosts_log_names_where_a_finished_games_record_truly_is(
    tmp_path: Path, state_dir: Path, read_only: ReadOnly, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "party"
    folder.mkdir()
    table = bot_table(folder / "party.json", games=2)
    with caplog.at_level(logging.INFO, logger="threeup"):
        host = asyncio.create_task(_host_games(table, asyncio.Event()))
        table.start(None)
        with read_only(folder):
            play_out(table)
            with read_only(state_dir):
                table.start(None)
                play_out(table)
        assert await asyncio.wait_for(host, 5) == 0
    said = [r.getMessage().split("; ")[-1] for r in caplog.records if " over: " in r.getMessage()]
    assert said == [
        f"record in {state_dir / 'records-aside' / table.table_id / 'party-1.json'}",
        "record not on disk yet",
    ]


@pytest.fixture
def homeless(monkeypatch: pytest.MonkeyPatch) -> None:
    """No HOME, no XDG variables, and a user the password file does not know
    (a dedicated host in a container run as a bare uid): no state directory."""
    for name in ("HOME", "XDG_STATE_HOME", "THREEUP_STATE_DIR"):
        monkeypatch.delenv(name, raising=False)

    def unknown(uid: int) -> pwd.struct_passwd:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", unknown)


def test_a_host_with_no_home_keeps_its_records_and_says_why_none_went_aside(
    tmp_path: Path, homeless: None, read_only: ReadOnly, caplog: pytest.LogCaptureFixture
) -> None:
    """A dedicated host needs no home directory: looking for a record kept
    aside in the state directory must not end it at a game's end."""
    folder = tmp_path / "party"
    folder.mkdir()
    table = bot_table(folder / "party.json")
    table.start(None)
    play_out(table)
    assert table.kept_records == [folder / "party-1.json"]
    table.start(None)
    with read_only(folder), caplog.at_level(logging.ERROR, logger="threeup"):
        play_out(table)
    assert table.kept_records == [folder / "party-1.json"]
    assert "nor aside (no home directory to name the state directory by)" in caplog.text


def test_a_resumed_finished_game_is_logged_with_its_kept_record_not_the_table_file(
    tmp_path: Path, state_dir: Path
) -> None:
    """A host stopped at the end of a game, resumed: its log said "game 1
    over: ...; record in party.json.table", the table file, which holds no
    record.  It names the record kept: beside the journal, or the one kept
    aside by the run before (no second copy), which a later game's end moves
    beside the journal."""
    folder = tmp_path / "party"
    folder.mkdir()
    journal = folder / "party.json"
    table = bot_table(journal)
    table.start(None)
    first = play_out(table)
    (folder / "party-1.json").unlink()  # the host was stopped before it kept it
    resumed = Table.resume(journal)
    assert resumed.finished_games.get_nowait().record == folder / "party-1.json"
    assert json.loads((folder / "party-1.json").read_text()) == first

    # The same game, kept aside by a run that met a directory taking no file.
    aside = state_dir / "records-aside" / "party-1.json"
    aside.parent.mkdir()
    (folder / "party-1.json").rename(aside)
    again = Table.resume(journal)
    assert again.finished_games.get_nowait().record == aside
    assert again.kept_records == [aside]
    assert not (folder / "party-1.json").exists()
    assert sorted(p.name for p in aside.parent.iterdir()) == ["party-1.json"]
    again.start(None)
    second = play_out(again)
    beside = [folder / "party-1.json", folder / "party-2.json"]
    assert again.kept_records == beside
    assert [json.loads(path.read_text()) for path in beside] == [first, second]
    assert not aside.exists()


def test_the_apps_host_is_told_where_its_record_went(
    tmp_path: Path, state_dir: Path, read_only: ReadOnly
) -> None:
    """A table hosted from the app with --record: its log reaches nobody
    there, and party-1.json, which the host asked for, never came.  Its
    seat is told where the record is."""
    folder = tmp_path / "party"
    folder.mkdir()
    table = open_table(TableConfig(players=2, seed=5, journal=folder / "party.json"))
    table.seat_human("Hal", "h" * 32, host=True)
    table.add_bot(None, "greedy")
    told: list[str] = []
    table.subscribe("hal", 0, lambda event: told.append(getattr(event, "text", "")))
    table.start(0)
    with read_only(folder):
        play_out_as_bots(table)
    aside = state_dir / "records-aside" / table.table_id / "party-1.json"
    assert table.kept_records == [aside]
    assert [line for line in told if "record" in line] == [
        "Game 1's record could not be kept beside party.json (Read-only file system): "
        f"it is in {aside}"
    ]


async def test_a_host_stopped_in_a_game_it_could_not_keep_does_not_promise_a_resume(
    tmp_path: Path, read_only: ReadOnly, caplog: pytest.LogCaptureFixture
) -> None:
    """Stopped during a game whose journal could not be written (a full
    disk), the host said "`threeup host --headless --resume party.json`
    brings it back"; the resume brought back the lobby its files held,
    and dealt a new game 1 to the players told to wait for this one."""
    folder = tmp_path / "party"
    folder.mkdir()
    table = bot_table(folder / "party.json")
    stop = asyncio.Event()
    with caplog.at_level(logging.INFO, logger="threeup"):
        host = asyncio.create_task(_host_games(table, stop))
        with read_only(folder):
            table.start(None)
            for _ in range(20):
                table.step_bot()
            stop.set()
            assert await asyncio.wait_for(host, 5) == 130
    (said,) = [r.getMessage() for r in caplog.records if "stopped during" in r.getMessage()]
    assert said == (
        f"stopped during game 1, which could not be kept on disk: `threeup host --headless "
        f"--resume {folder / 'party.json'}` brings back only what its files held before that"
    )


def test_a_headless_host_says_as_it_stops_where_each_record_not_beside_the_journal_stays(
    small_disk: Any, tmp_path: Path
) -> None:
    """The whole host, its bot over loopback: the journal's disk full from
    before the game, the record kept aside in the host's state directory,
    and the last line about it says so as the host closes the table."""
    journal = small_disk.path / "party.json"
    host = start_host_process(tmp_path, players=2, bots=1, seed=21, record=journal, games=1)
    small_disk.fill()
    bot = start_bot_process(tmp_path, host.port, "netbot", tmp_path / "state-bot")
    try:
        assert host.wait(60) == 0, host.stderr()
        assert bot.wait(30) == 0, bot.stderr()
    finally:
        for proc in (host, bot):
            proc.kill()
    (aside,) = (tmp_path / "host-state" / "records-aside").glob("*/party-1.json")  # by table id
    said = host.stderr()
    assert f"; record in {aside}\n" in said
    assert (
        f"game 1's record stays in {aside}: {small_disk.path} cannot take it "
        "(No space left on device)\n" in said
    )
    verdict = verify_cli(aside)
    assert verdict["ok"] is True and verdict["finished"] is True, verdict


def test_a_resumed_table_claims_every_record_its_earlier_run_kept_aside(
    tmp_path: Path, state_dir: Path, read_only: ReadOnly, caplog: pytest.LogCaptureFixture
) -> None:
    """Game 1's record went aside (the journal's directory read-only), and
    the host was stopped during game 2 and resumed.  The resumed table
    looked aside only for the game it resumed at (the files named no
    table: party-1.json is every table's first game), and game 1's record
    stayed in records-aside/ for ever.  Aside, a table's records are in a
    folder of its id: the resumed table moves them beside its journal as
    its next game ends; another table's, aside too, stays where it is."""
    folder = tmp_path / "party"
    folder.mkdir()
    journal = folder / "party.json"
    table = bot_table(journal)
    other = bot_table(tmp_path / "other.json")  # another table, its own party-1.json aside
    table.start(None)
    with read_only(folder):
        first = play_out(table)
    aside = state_dir / "records-aside" / table.table_id / "party-1.json"
    assert table.kept_records == [aside]
    theirs = state_dir / "records-aside" / other.table_id / "party-1.json"
    theirs.parent.mkdir()
    theirs.write_text(aside.read_text())
    table.start(None)
    for _ in range(10):
        table.step_bot()  # game 2 under way: the host stops (nothing said, nothing moved)
    resumed = Table.resume(journal)
    assert resumed.table_id == table.table_id
    with caplog.at_level(logging.INFO, logger="threeup"):
        second = play_out(resumed)
    beside = [folder / "party-1.json", folder / "party-2.json"]
    assert resumed.kept_records == beside
    assert [json.loads(path.read_text()) for path in beside] == [first, second]
    assert not aside.exists()
    assert theirs.exists()  # another table's: not claimed
    assert f"game 1's record is beside the journal now: {beside[0]}" in caplog.text


def test_a_table_resumed_with_its_journal_moved_claims_the_records_kept_aside(
    tmp_path: Path, state_dir: Path, read_only: ReadOnly, caplog: pytest.LogCaptureFixture
) -> None:
    """Game 1's record went aside, its journal's directory read-only, and
    the log promised it would be "moved beside the journal when its
    directory takes files again".  The host stopped in game 2 and resumed
    with ``--record`` moving the journal elsewhere (what one does with a
    directory that takes no file): the resumed table claimed only records
    named by its new journal (party2-1.json), so game 1's party-1.json
    stayed aside for ever, and no line said so.  It is the table's, by the
    folder of its id: it goes beside the new journal, by the new name."""
    folder = tmp_path / "party"
    folder.mkdir()
    journal = folder / "party.json"
    table = bot_table(journal)
    table.start(None)
    with read_only(folder):
        first = play_out(table)
    aside = state_dir / "records-aside" / table.table_id / "party-1.json"
    assert table.kept_records == [aside]
    table.start(None)
    for _ in range(10):
        table.step_bot()  # game 2 under way: the host stops
    moved = tmp_path / "elsewhere" / "party2.json"
    moved.parent.mkdir()
    resumed = Table.resume(journal, overrides={"journal": moved})
    with caplog.at_level(logging.INFO, logger="threeup"):
        second = play_out(resumed)
    beside = [moved.parent / "party2-1.json", moved.parent / "party2-2.json"]
    assert_both_beside(resumed, beside, [first, second], aside, caplog.text)
