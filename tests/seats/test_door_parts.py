"""The SSH door's small parts: the failure slow-down, seat words, and the
tokens it derives for identities."""

from __future__ import annotations

import logging
import os
import re
import struct
from pathlib import Path

import pytest

from threeup_tui.sshdoor import (
    MAX_LOGGING_IN,
    MAX_LOGGING_IN_PER_ADDRESS,
    FailureGuard,
    RefusalLog,
    SshDoor,
    seat_word,
)
from threeup_tui.table import Hosting, Table, TableConfig


def test_each_failure_from_an_address_makes_the_next_answer_wait_longer() -> None:
    guard = FailureGuard(window=600.0, cap=30.0)
    waits = [guard.failed("10.0.0.5", now=100.0 + i) for i in range(8)]
    assert waits == [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    assert guard.delay("10.0.0.6", now=110.0) == 0.0  # another address: no wait
    assert guard.delay("10.0.0.5", now=706.5) == 0.5  # only the last one is recent
    assert guard.delay("10.0.0.5", now=10_000.0) == 0.0


def test_failures_count_by_address_group_and_slow_everyone_past_a_bound() -> None:
    """One guesser may send from every address of its /64 (or of
    127.0.0.0/8): those count as one.  A guesser with many /64s (a /48 has
    65,536) meets the bound on the door's failures from anywhere, past which
    every wrong answer waits."""
    guard = FailureGuard(window=600.0, cap=30.0, table_free=30)
    assert guard.failed("2001:db8:7:1::1", now=100.0) == 0.5
    assert guard.failed("2001:db8:7:1::2", now=100.0) == 1.0  # the same /64
    assert guard.failed("127.0.0.2", now=100.0) == 0.5
    assert guard.failed("127.0.0.3", now=100.0) == 1.0  # this machine, again
    assert guard.delay("2001:db8:7:2::1", now=100.0) == 0.0  # the next /64: someone else
    waits = [guard.failed(f"2001:db8:8:{i:x}::1", now=101.0) for i in range(30)]
    assert waits[:26] == [0.5] * 26  # 4 + 26 = 30 in all: free of the table's wait
    assert waits[26:] == [0.5, 1.0, 2.0, 4.0]  # then each wrong answer waits longer
    assert guard.delay("2001:db8:9::1", now=102.0) == 4.0  # a newcomer meets it too
    assert guard.delay("2001:db8:9::1", now=702.0) == 0.0  # ten minutes on, forgotten


def test_refused_connections_are_logged_once_a_minute_with_a_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    refusals = RefusalLog(every=60.0)
    with caplog.at_level(logging.WARNING, logger="threeup.ssh"):
        for i in range(100):  # one a second
            refusals.refused("10.0.0.5", "more than 5 connections in 10 s", now=100.0 + i)
        refusals.refused("10.0.0.6", "64 connections are open", now=150.0)
    assert [r.getMessage() for r in caplog.records] == [
        "refusing an SSH connection from 10.0.0.5 (more than 5 connections in 10 s)",
        "refusing an SSH connection from 10.0.0.5 (more than 5 connections in 10 s;"
        " 59 more refused in the last 60 s)",
        "refusing an SSH connection from 10.0.0.6 (64 connections are open)",
    ]


def test_seat_words_are_easy_to_type_back() -> None:
    words = {seat_word() for _ in range(200)}
    assert all(re.fullmatch(r"[a-z]+-[1-9]\d\d", w) for w in words)
    assert len(words) > 150  # not a handful of words over and over


def test_a_door_token_is_the_identity_under_the_tables_secret() -> None:
    table = Table(TableConfig(players=2))
    door = SshDoor(47823, table)
    key = door.token_for("key SHA256:abc")
    assert key == SshDoor(47823, table).token_for("key SHA256:abc")  # stable
    assert key != door.token_for("key SHA256:abd") != door.token_for("word otter-427")
    other = Table(TableConfig(players=2))  # another table, another secret
    assert SshDoor(47823, other).token_for("key SHA256:abc") != key
    assert 16 <= len(key) <= 128  # a valid hello token


def test_the_guests_reach_the_table_where_it_listens() -> None:
    table = Table(TableConfig(players=2))
    door = SshDoor(5000, table)
    for bind, address in [
        ("0.0.0.0", "127.0.0.1:5000"),
        # Every address, IPv6 and IPv4 on one socket, or IPv4 alone where the
        # system has no IPv6: 127.0.0.1 reaches it either way, ::1 not.
        ("::", "127.0.0.1:5000"),
        ("::1", "[::1]:5000"),
        ("192.168.1.20", "192.168.1.20:5000"),
        ("fd00::7", "[fd00::7]:5000"),
    ]:
        table.hosting = Hosting(bind=bind)
        assert door.game_address == address


def test_only_a_few_connections_may_be_logging_in_at_once() -> None:
    """Per address, then in all: people logging in from other addresses
    still get in while one address holds its four places."""
    door = SshDoor(47823, Table(TableConfig(players=2)))
    for _ in range(MAX_LOGGING_IN_PER_ADDRESS):
        assert door.logging_in_refusal("10.0.0.5") is None
        door.logging_in[object()] = "10.0.0.5"  # type: ignore[index]
    assert "from this address" in (door.logging_in_refusal("10.0.0.5") or "")
    n = 0
    while door.logging_in_refusal(f"10.0.1.{n}") is None:
        door.logging_in[object()] = f"10.0.1.{n}"  # type: ignore[index]
        n += 1
    assert len(door.logging_in) == MAX_LOGGING_IN
    assert f"{MAX_LOGGING_IN} connections are logging in" == door.logging_in_refusal("10.0.2.1")


class _SessionThatCannotStart:
    """A session whose terminal size the pseudo-terminal cannot take."""

    env: dict[str, str] = {}

    def get_terminal_size(self) -> tuple[int, int, int, int]:
        return 70000, 70000, 0, 0  # past the pty's 16-bit size: struct.error


async def test_a_session_that_cannot_start_leaves_nothing_open_on_the_host() -> None:
    """Each session's app gets a pseudo-terminal and a pipe for its seat's
    secrets; one that failed before its app started kept both open, and
    session after session could run the host out of them."""
    door = SshDoor(47823, Table(TableConfig(players=2)))
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(3):
        with pytest.raises(struct.error):
            session = _SessionThatCannotStart()
            await door._run_app(session, None, "xterm", "ann", "t" * 32)  # type: ignore[arg-type]
    assert len(os.listdir("/proc/self/fd")) == before


class _SessionThatFails:
    """An SSH session (its process's side) whose seating fails in a way the
    door did not foresee: here, reading who it is raises."""

    command = None
    subsystem = None

    def __init__(self) -> None:
        self.told = bytearray()
        self.exit_code: int | None = None
        self.stderr = self

    def write(self, data: bytes) -> None:
        self.told += data

    def get_terminal_type(self) -> str:
        return "xterm"

    def get_extra_info(self, name: str) -> object:
        raise RuntimeError("a secret detail of the host")

    def exit(self, code: int) -> None:
        self.exit_code = code

    async def wait_closed(self) -> None:
        return None


async def test_a_session_that_fails_tells_its_player_in_a_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A session that failed for a reason nobody foresaw (a NUL in TERM
    once did) left the player reading nothing at all, and only the host's
    log knew; the player is now told, in a line, and the detail stays in
    the log."""
    door = SshDoor(47823, Table(TableConfig(players=2)))
    session = _SessionThatFails()
    await door._one_session(session)  # type: ignore[arg-type]
    told = session.told.decode()
    assert "threeup: something went wrong here" in told and "try again" in told
    assert "secret detail" not in told
    assert session.exit_code == 1
    assert "a secret detail of the host" in caplog.text


def test_a_new_seat_word_is_never_one_a_watcher_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A keyless watcher's word is not kept once the kept words' bound has
    let it go, and a new word was checked only against those kept and the seats: two
    watchers could get one word, one identity, and whichever sat down
    second (s, when a seat opened) took the first one's seat over."""
    from threeup_tui import sshdoor

    door = SshDoor(47823, Table(TableConfig(players=2)))
    door._apps[door.token_for("word otter-100")] += 1  # a watcher's app runs under it
    drawn = iter(["otter-100", "otter-101"])
    monkeypatch.setattr(sshdoor, "seat_word", lambda: next(drawn))
    assert door._new_word() == "otter-101"


def test_a_resumed_tables_door_honours_the_seat_words_its_door_gave(tmp_path: Path) -> None:
    """The words a door gave were kept in its memory only: after a stop or a
    crash and ``--resume``, a word whose seat had opened again (a drop in the
    lobby; every lobby seat but the host's opens on a resume) was told "No
    seat has that seat word".  They are kept in the table file, as a mark
    that is not the word, and a new table's door knows none of them."""
    from threeup_tui.tablefile import table_file_path

    journal = tmp_path / "game.json"
    table = Table(TableConfig(players=3, journal=journal))
    table.save_table_file()
    word = SshDoor(47823, table)._new_word()
    SshDoor(47823, table)._keep_word(word)
    kept = table_file_path(journal).read_text()
    assert word not in kept
    resumed = SshDoor(47823, Table.resume(journal))
    assert resumed._word_seats(word)
    assert not resumed._word_seats("otter-1000")  # never given
    another = Table(TableConfig(players=3, journal=tmp_path / "another.json"))
    assert not SshDoor(47823, another)._word_seats(word)


def test_the_door_says_a_game_is_under_way_only_while_one_is() -> None:
    """A keyless guest who came between two games (the last one's result
    showing, every seat taken) read "A game is under way at this table";
    none was.  The words follow the table: under way, between games, and
    under way again once the next game is dealt."""
    table = Table(TableConfig(players=2, seed=3))
    table.add_bot(None, "greedy")
    table.add_bot(None, "greedy")
    door = SshDoor(47823, table)
    table.start(None)
    assert door._watch_words().startswith("A game is under way at this table")
    assert door._no_seat_words().startswith("a game is under way")
    while table.bot_turn() is not None:
        table.step_bot()
    assert table.state is not None and not table.game_under_way  # the result shows
    assert door._watch_words() == (
        "Every seat at this table is taken: your seat word takes you back to yours."
    )
    assert door._no_seat_words() == "every seat at this table is taken and none is yours"
    table.rematch(None)
    assert table.game_under_way
    assert door._watch_words().startswith("A game is under way at this table")
