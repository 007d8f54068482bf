"""``read_json``: a file threeup cannot read is told in one line of its own words."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from threeup_tui.recordfile import MAX_NUMBER_DIGITS, read_json
from threeup_tui.rules import MalformedRecord


@pytest.fixture
def python_limit() -> Iterator[None]:
    saved = sys.get_int_max_str_digits()
    yield
    sys.set_int_max_str_digits(saved)


def _refusal(path: Path) -> str:
    with pytest.raises(MalformedRecord) as info:
        read_json(path)
    return str(info.value)


@pytest.mark.parametrize("sign", ["", "-"])
def test_a_number_too_long_is_told_in_threeups_words(tmp_path: Path, sign: str) -> None:
    # json.loads raised Python's ValueError, whose words ("... use
    # sys.set_int_max_str_digits() to increase the limit") reached the player.
    path = tmp_path / "r.json"
    path.write_text('{"format": "threeup-record/1", "first": ' + sign + "1" * 5001 + "}")
    assert MAX_NUMBER_DIGITS == 4300
    assert _refusal(path) == f"{path}: a number with more than 4300 digits"


def test_a_number_of_as_many_digits_as_allowed_is_read(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text("[-" + "9" * MAX_NUMBER_DIGITS + "]")
    assert read_json(path) == [-int("9" * MAX_NUMBER_DIGITS)]


def test_the_interpreters_lower_limit_is_the_one_told(tmp_path: Path, python_limit) -> None:
    sys.set_int_max_str_digits(640)  # as PYTHONINTMAXSTRDIGITS=640 sets it
    path = tmp_path / "r.json"
    path.write_text("[" + "7" * 641 + "]")
    assert _refusal(path) == f"{path}: a number with more than 640 digits"


def test_json_nested_too_deeply_is_one_plain_line(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text("[" * 100_000)
    assert _refusal(path) == f"{path}: nested too deeply"


@pytest.mark.parametrize(
    ("content", "told"),
    [
        (b"", "empty, no JSON in it"),
        (b" \n\t\n", "empty, no JSON in it"),
        (
            b'\xef\xbb\xbf{"format": "threeup-record/1"}',
            "starts with a byte order mark, which JSON may not: save it as UTF-8 without one",
        ),
    ],
)
def test_an_empty_file_and_a_byte_order_mark_are_told_in_threeups_words(
    tmp_path: Path, content: bytes, told: str
) -> None:
    """An empty file read "not JSON (Expecting value at line 1 column 1)",
    and a record an editor saved with a byte order mark "not JSON
    (Unexpected UTF-8 BOM (decode using utf-8-sig) ...)": Python's advice,
    not a player's."""
    path = tmp_path / "r.json"
    path.write_bytes(content)
    assert _refusal(path) == f"{path}: {told}"
    assert path.read_bytes() == content
