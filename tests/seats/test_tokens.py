"""The client's seat tokens: per table id and name, never per terminal, and
never sent to an address that merely claims a table's id."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from threeup_tui.netplay.tokens import TokenStore

HOST = "10.0.0.5:47823"
OTHER = "10.0.0.9:47823"


def test_a_token_is_found_by_address_then_table_id_and_name(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "seats.json")
    assert store.token_for(HOST, "Tia") is None  # first contact: a new token
    store.remember(HOST, "Tia", "table-aaaa", "t" * 32)
    again = TokenStore(tmp_path / "seats.json")  # another process, another terminal
    assert again.token_for(HOST, "Tia") == "t" * 32
    assert again.token_for(HOST, "tia ") == "t" * 32  # the name as the table seats it
    assert again.token_for(HOST, "Bob") is None
    data = json.loads((tmp_path / "seats.json").read_text())
    assert data["tables"]["table-aaaa"] == {
        "address": HOST, "names": {"tia": "t" * 32}, "shown": {"tia": "Tia"},
    }  # fmt: skip
    assert data["addresses"] == {HOST: "table-aaaa"}
    assert "tty" not in json.dumps(data) and "THREEUP_TERMINAL_ID" not in os.environ
    assert stat.S_IMODE((tmp_path / "seats.json").stat().st_mode) == 0o600


def test_names_sat_under_are_told_as_they_were_given(tmp_path: Path) -> None:
    """The words "you sat at this table as Anne" use the name as given; a
    file from before names were kept so gives them case-folded."""
    store = TokenStore(tmp_path / "seats.json")
    store.remember(HOST, "Anne", "table-aaaa", "t" * 32)
    store.remember(HOST, " 山田 ", "table-aaaa", "u" * 32)
    assert store.names_at(HOST) == ["Anne", "山田"]
    data = json.loads((tmp_path / "seats.json").read_text())
    del data["tables"]["table-aaaa"]["shown"]
    (tmp_path / "seats.json").write_text(json.dumps(data))
    assert store.names_at(HOST) == ["anne", "山田"]


def test_a_table_id_claimed_from_another_address_gets_no_kept_token(tmp_path: Path) -> None:
    """Anyone can claim a table id in an ACCEPT: the kept token only ever
    goes to the address the table was first reached at."""
    store = TokenStore(tmp_path / "seats.json")
    store.remember(HOST, "Tia", "table-aaaa", "t" * 32)
    assert store.token_for(OTHER, "Tia") is None
    store.remember(OTHER, "Tia", "table-aaaa", "u" * 32)  # the impostor's ACCEPT
    assert store.token_for(OTHER, "Tia") == "u" * 32
    assert store.token_for(HOST, "Tia") == "t" * 32  # the real table's token is untouched


def test_a_new_table_at_the_same_address_is_another_table(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "seats.json")
    store.remember(HOST, "Tia", "table-aaaa", "t" * 32)
    store.remember(HOST, "Tia", "table-bbbb", "v" * 32)
    data = json.loads((tmp_path / "seats.json").read_text())
    assert data["addresses"][HOST] == "table-bbbb"
    assert store.token_for(HOST, "Tia") == "v" * 32


@pytest.mark.parametrize(
    "content",
    [
        "",
        "not json",
        "[]",
        '{"host:1|Tia|/dev/pts/3": "x"}',
        pytest.param("[" * 100_000 + "]" * 100_000, id="nested-too-deeply"),
        pytest.param('{"format": ' + "7" * 5000 + "}", id="a-number-too-long"),
    ],
)
def test_a_damaged_or_old_file_starts_afresh_and_is_kept_aside(
    tmp_path: Path, content: str
) -> None:
    """Whatever tokens a damaged file may still hold are not written over:
    the file is kept as seats.json.bad, for the player to mend.  (Nested too
    deeply, json raised RecursionError, and `threeup join` ended in a traceback.)"""
    path = tmp_path / "seats.json"
    path.write_text(content)
    store = TokenStore(path)
    assert store.token_for(HOST, "Tia") is None
    assert path.read_text() == content  # looking up writes nothing
    told = store.remember(HOST, "Tia", "table-aaaa", "t" * 32)
    assert store.token_for(HOST, "Tia") == "t" * 32
    assert (tmp_path / "seats.json.bad").read_text() == content
    # The player is told, in one line, where the file went.
    assert told is not None and "\n" not in told
    assert f"{path} could not be read; it is kept as seats.json.bad" in told
    told = store.remember(HOST, "Bob", "table-aaaa", "b" * 32)  # a good file: rewritten
    assert told is None
    assert (tmp_path / "seats.json.bad").read_text() == content
    assert store.token_for(HOST, "Tia") == "t" * 32


def test_a_second_damaged_seats_file_is_kept_beside_the_first(tmp_path: Path) -> None:
    path = tmp_path / "seats.json"
    path.write_text("first damage")
    TokenStore(path).remember(HOST, "Tia", "table-aaaa", "t" * 32)
    path.write_text("second damage")
    TokenStore(path).remember(HOST, "Tia", "table-aaaa", "u" * 32)
    assert (tmp_path / "seats.json.bad").read_text() == "first damage"
    assert (tmp_path / "seats.json.bad-2").read_text() == "second damage"


def test_a_seats_file_that_is_no_file_is_not_waited_on(tmp_path: Path) -> None:
    """A FIFO in its place would block a join forever on reading it."""
    path = tmp_path / "seats.json"
    os.mkfifo(path)
    store = TokenStore(path)
    assert store.token_for(HOST, "Tia") is None
    store.remember(HOST, "Tia", "table-aaaa", "t" * 32)
    assert stat.S_ISFIFO((tmp_path / "seats.json.bad").stat().st_mode)
    assert TokenStore(path).token_for(HOST, "Tia") == "t" * 32


def test_a_confined_guest_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("THREEUP_GUEST", "1")
    store = TokenStore(tmp_path / "seats.json")
    store.remember(HOST, "Tia", "table-aaaa", "t" * 32)
    assert not (tmp_path / "seats.json").exists()


def test_a_file_that_maps_an_address_to_a_table_seen_elsewhere_gives_nothing(
    tmp_path: Path,
) -> None:
    """Whatever the file says (an old version, a hand edit), a token goes
    only to the address its table was reached at."""
    path = tmp_path / "seats.json"
    data = {
        "format": "threeup-seats/1",
        "tables": {"table-aaaa": {"address": HOST, "names": {"tia": "t" * 32}}},
        "addresses": {OTHER: "table-aaaa"},
    }
    path.write_text(json.dumps(data))
    assert TokenStore(path).token_for(OTHER, "Tia") is None
    assert TokenStore(path).token_for(HOST, "Tia") is None  # not mapped: a new token
