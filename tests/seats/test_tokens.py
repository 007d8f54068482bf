"""The client's seat tokens: per table id and name, never per terminal, and
never sent to an address that merely claims a table's id."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from threeup_tui.names import distinct_name, seated_as
from threeup_tui.netplay.tokens import KeptSeat, TokenStore

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


def test_the_seat_the_host_gave_is_kept_beside_the_name(tmp_path: Path) -> None:
    """The host tells a name already seated apart ("Ann (2)"): the seat
    number it gave the token is kept with the name, so the seat offered
    back is the token's, not another Ann's.  A token kept with no number
    (the host player's seat, kept by ``host --resume``) forgets any number
    an older token of that name had."""
    path = tmp_path / "seats.json"
    store = TokenStore(path)
    store.remember(HOST, "Ann", "table-aaaa", "t" * 32, seat=1)
    store.remember(HOST, "Bob", "table-aaaa", "b" * 32, seat=0)
    assert store.seats_kept(HOST, "table-aaaa") == [KeptSeat("Ann", 1), KeptSeat("Bob", 0)]
    data = json.loads(path.read_text())
    assert data["tables"]["table-aaaa"]["seats"] == {"ann": 1, "bob": 0}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not list(tmp_path.glob(".seats.json.*"))  # written whole, by a rename
    store.remember(HOST, "Ann", "table-aaaa", "u" * 32)
    assert store.seats_kept(HOST, "table-aaaa") == [KeptSeat("Ann", None), KeptSeat("Bob", 0)]
    assert store.seats_kept(HOST, "table-bbbb") == []  # another table there: no seat


# A seats file as threeup wrote it before it kept seat numbers (a real one,
# from `threeup join 127.0.0.1:49100 --name Ann`), and one older still, from
# before it kept the names as given.
OLD_FILE = """{
 "format": "threeup-seats/1",
 "tables": {
  "CXZD36O4vVzdoHc6": {
   "address": "127.0.0.1:49100",
   "names": {
    "ann": "799dee8d9db040ab9990d3e8851bbee6"
   },
   "shown": {
    "ann": "Ann"
   }
  }
 },
 "addresses": {
  "127.0.0.1:49100": "CXZD36O4vVzdoHc6"
 }
}
"""
OLDER_FILE = (
    '{"format": "threeup-seats/1", "tables": {"CXZD36O4vVzdoHc6": {"address": '
    '"127.0.0.1:49100", "names": {"ann": "799dee8d9db040ab9990d3e8851bbee6"}}}, '
    '"addresses": {"127.0.0.1:49100": "CXZD36O4vVzdoHc6"}}'
)


@pytest.mark.parametrize("content", [OLD_FILE, OLDER_FILE], ids=["no-seats", "no-shown"])
def test_a_file_from_before_seat_numbers_is_read_and_kept(tmp_path: Path, content: str) -> None:
    """Its tokens still give the seats back; its names have no seat number
    (the seat is then found by name, as before); the next seat taken adds
    one, and nothing is set aside or lost."""
    path = tmp_path / "seats.json"
    path.write_text(content)
    store = TokenStore(path)
    where, table = "127.0.0.1:49100", "CXZD36O4vVzdoHc6"
    assert store.token_for(where, "Ann") == "799dee8d9db040ab9990d3e8851bbee6"
    assert [kept.seat for kept in store.seats_kept(where, table)] == [None]
    assert store.remember(where, "Bob", table, "b" * 32, seat=2) is None  # nothing to tell
    assert not (tmp_path / "seats.json.bad").exists()
    assert store.token_for(where, "Ann") == "799dee8d9db040ab9990d3e8851bbee6"
    assert [(k.name.casefold(), k.seat) for k in store.seats_kept(where, table)] == [
        ("ann", None),
        ("bob", 2),
    ]


@pytest.mark.parametrize(
    "seats",
    ['[1]', '"1"', '{"ann": true}', '{"ann": -1}', '{"ann": "1"}', '{"ann": 1.0}',
     '{"ann": null}', '{"ann": {"seat": 1}}', '{"ann": ' + "9" * 4000 + "}"],
)  # fmt: skip
def test_a_seat_number_that_is_none_points_at_no_seat(tmp_path: Path, seats: str) -> None:
    """A hand-edited or hostile number is no seat number (the host goes by
    the token in any case): no traceback, nothing set aside, the token still
    given, and the next seat taken writes the file whole again."""
    path = tmp_path / "seats.json"
    entry = {"address": HOST, "names": {"ann": "t" * 32}, "seats": "SEATS"}
    data = {"format": "threeup-seats/1", "tables": {"table-aaaa": entry}}
    data["addresses"] = {HOST: "table-aaaa"}
    path.write_text(json.dumps(data).replace('"SEATS"', seats))  # as written, not as Python's
    store = TokenStore(path)
    kept = store.seats_kept(HOST, "table-aaaa")
    assert [k.name for k in kept] == ["ann"]
    assert kept[0].seat is None or kept[0].seat > 10**100  # a number, but of no seat
    assert store.token_for(HOST, "Ann") == "t" * 32
    assert store.remember(HOST, "Ann", "table-aaaa", "t" * 32, seat=3) is None
    assert not (tmp_path / "seats.json.bad").exists()
    assert store.seats_kept(HOST, "table-aaaa") == [KeptSeat("Ann", 3)]


@pytest.mark.parametrize(
    ("seated", "asked", "same"),
    [
        ("Ann", "Ann", True),
        ("ann", "Ann ", True),
        ("Ann (2)", "Ann", True),
        ("ann (3)", "Ann", True),
        ("Ann (2)", "Bob", False),
        ("Annabel (2)", "Ann", False),
        ("Ann (2) (2)", "Ann", False),
        ("Ann (1)", "Ann", False),  # the host counts from 2
        ("Bob", "Ann (2)", False),
    ],
)
def test_a_seat_name_is_told_as_the_hosts_name_for_the_name_asked(
    seated: str, asked: str, same: bool
) -> None:
    assert seated_as(seated, asked) is same


def test_a_long_name_told_apart_is_cut_as_the_host_cuts_it() -> None:
    name = "Maximiliane Wunderbaum-Ü"  # 24 cells: " (2)" needs four of them
    seated = distinct_name(name, [name])
    assert seated == "Maximiliane Wunderba (2)"
    assert seated_as(seated, name) and not seated_as(seated, "Maximiliane")
    wide = "山田" * 6  # 24 cells of wide characters: cut to 20
    assert distinct_name(wide, [wide]) == "山田山田山田山田山田 (2)"
    assert seated_as("山田山田山田山田山田 (2)", wide)
