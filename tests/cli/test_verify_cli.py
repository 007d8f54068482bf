"""``threeup verify FILE [--json]``: the contract of record.md, via a subprocess."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import samples
from clihelp import assert_no_traceback, assert_usage_error, run, write


def _verify_json(path: Path) -> tuple[int, dict]:
    proc = run("verify", str(path), "--json")
    assert_no_traceback(proc)
    assert proc.stderr == "", proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout
    return proc.returncode, json.loads(lines[0])


@pytest.fixture(scope="module")
def records() -> dict[str, dict]:
    return {
        "finished": samples.finished(),
        "unfinished": samples.unfinished(),
        "stalemate": samples.stalemate(),
        "places": samples.places(),
        "places_so_far": samples.places_so_far(),
        "short": samples.short(),
    }


# ------------------------------------------------------------- legal records
def test_legal_finished_game(tmp_path: Path, records) -> None:
    record = records["finished"]
    code, out = _verify_json(write(tmp_path / "g.json", record))
    assert code == 0
    assert out == {
        "ok": True,
        "moves": len(record["moves"]),
        "finished": True,
        "winner": record["result"]["winner"],
    }


def test_legal_finished_game_without_result(tmp_path: Path, records) -> None:
    record = copy.deepcopy(records["finished"])
    winner = record.pop("result")["winner"]
    code, out = _verify_json(write(tmp_path / "g.json", record))
    assert code == 0 and out["finished"] is True and out["winner"] == winner


def test_unfinished_game(tmp_path: Path, records) -> None:
    code, out = _verify_json(write(tmp_path / "g.json", records["unfinished"]))
    assert code == 0
    assert out == {"ok": True, "moves": 10, "finished": False, "winner": None}


def test_record_with_no_moves(tmp_path: Path, records) -> None:
    record = copy.deepcopy(records["short"])
    record["moves"] = []
    code, out = _verify_json(write(tmp_path / "g.json", record))
    assert code == 0
    assert out == {"ok": True, "moves": 0, "finished": False, "winner": None}


def test_stalemate(tmp_path: Path, records) -> None:
    code, out = _verify_json(write(tmp_path / "g.json", records["stalemate"]))
    assert code == 0
    assert out == {"ok": True, "moves": 1000, "finished": True, "winner": None}


def test_places(tmp_path: Path, records) -> None:
    record = records["places"]
    code, out = _verify_json(write(tmp_path / "g.json", record))
    assert code == 0
    assert out == {
        "ok": True,
        "moves": len(record["moves"]),
        "finished": True,
        "winner": record["result"]["places"][0],
        "places": record["result"]["places"],
    }
    code, out = _verify_json(write(tmp_path / "h.json", records["places_so_far"]))
    assert code == 0
    assert out["finished"] is False and out["winner"] is None and out["places"] == [0]


def test_the_threeup_script_gives_the_same_verdict(tmp_path: Path, records) -> None:
    script = Path(sys.executable).with_name("threeup")
    if not script.exists():
        script = Path(shutil.which("threeup") or "threeup")
    path = write(tmp_path / "g.json", records["unfinished"])
    proc = subprocess.run(
        [str(script), "verify", str(path), "--json"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == {"ok": True, "moves": 10, "finished": False, "winner": None}


# ------------------------------------------------------------- illegal moves
@pytest.mark.parametrize(
    ("move", "words"),
    [
        ({"seat": 1, "play": ["R2"]}, ["lower"]),
        ({"seat": 1, "flip": 3}, ["slot"]),
        ({"seat": 1, "flip": -1}, ["slot"]),
        ({"seat": 1, "play": []}, ["card"]),
        ({"seat": 7, "play": ["G9"]}, ['"seat": 7', "no seat"]),
        ({"seat": 1, "play": ["RC2"]}, ["RC2"]),
        ({"seat": 2, "play": ["G6"]}, ["turn"]),
        ({"seat": 1, "pickup": True}, ["pick up"]),
    ],
    ids=["lower", "flip-3", "flip--1", "empty-play", "seat-7", "RC2", "wrong-seat", "pickup"],
)
def test_illegal_move_exit_1_with_its_index(tmp_path: Path, records, move, words) -> None:
    record = samples.with_moves(records["short"], move)
    code, out = _verify_json(write(tmp_path / "g.json", record))
    assert code == 1
    assert set(out) == {"ok", "move", "error"}
    assert out["ok"] is False and out["move"] == 1
    assert isinstance(out["error"], str) and len(out["error"]) > 10
    for word in words:
        assert word.lower() in out["error"].lower(), (word, out["error"])


def test_the_first_illegal_move_is_named(tmp_path: Path, records) -> None:
    record = samples.with_moves(
        records["short"],
        {"seat": 1, "play": ["G9"]},
        {"seat": 2, "play": ["R3"]},
        {"seat": 0, "play": ["R1"]},
        {"seat": 9, "flip": 7},
    )
    code, out = _verify_json(write(tmp_path / "g.json", record))
    assert code == 1 and out["move"] == 2 and "lower" in out["error"]


def test_a_move_after_the_end(tmp_path: Path, records) -> None:
    record = copy.deepcopy(records["finished"])
    del record["result"]
    n = len(record["moves"])
    record["moves"].append(copy.deepcopy(record["moves"][-1]))
    code, out = _verify_json(write(tmp_path / "g.json", record))
    assert code == 1 and out["move"] == n and "over" in out["error"]
    stale = copy.deepcopy(records["stalemate"])
    stale["moves"].append({"seat": 0, "pickup": True})
    del stale["result"]
    code, out = _verify_json(write(tmp_path / "s.json", stale))
    assert code == 1 and out["move"] == 1000


# ------------------------------------------------------------- set-up errors
def _setup_error_records(short: dict) -> list[tuple[str, dict]]:
    cases = []

    def edit(name, fn):
        record = copy.deepcopy(short)
        fn(record)
        cases.append((name, record))

    def wrong_card(r):
        # Seat 1 lays face up a card from seat 0's hand (record.md: not in that hand).
        r["setup"][1][0] = "R5"

    def rc2_deck(r):
        r["deck"][r["deck"].index("GC2")] = "RC2"

    def dup_deck(r):
        r["deck"][r["deck"].index("R2")] = "R1"  # three R1, one R2

    edit("face-up-not-in-hand", wrong_card)
    edit("face-up-RC2", lambda r: r["setup"][0].__setitem__(0, "RC2"))
    edit("deck-RC2", rc2_deck)
    edit("deck-73", lambda r: r["deck"].pop())
    edit("deck-75", lambda r: r["deck"].append("R1"))
    edit("deck-duplicate", dup_deck)
    edit("first-mismatch", lambda r: r.update(first=0, options={"first": 1}))
    edit("first-not-a-seat", lambda r: r.update(first=3))
    edit("first-negative", lambda r: r.update(first=-1))
    edit("option-first-not-a-seat", lambda r: (r.pop("first"), r.update(options={"first": 4})))
    edit("setup-count", lambda r: r["setup"].pop())
    return cases


_SETUP_NAMES = [name for name, _ in _setup_error_records(samples.short())]


@pytest.mark.parametrize("name", _SETUP_NAMES)
def test_setup_errors_have_move_null(tmp_path: Path, records, name: str) -> None:
    record = dict(_setup_error_records(records["short"]))[name]
    code, out = _verify_json(write(tmp_path / "g.json", record))
    assert code == 1, name
    assert out["ok"] is False and out["move"] is None, (name, out)
    assert out["error"], name


@pytest.mark.parametrize(
    ("first", "options", "words"),
    [
        (-1, {}, '"first": -1 names no seat'),
        (3, {}, '"first": 3 names no seat'),
        (None, {"first": 4}, '"first": 4 in the options names no seat'),
    ],
    ids=["-1", "3", "option-4"],
)
def test_a_first_that_is_no_seat_is_an_illegal_set_up(
    tmp_path: Path, records, first, options, words
) -> None:
    # record.md: "a `first` that is not a seat" is a set-up error: exit 1 with
    # "move": null, as a wrong deck is, not "not a record" (exit 2). The text
    # said "illegal: 'first' must be a seat field ...", which read as a move.
    record = copy.deepcopy(records["short"])
    record.update(options=options)
    if first is None:
        del record["first"]
    else:
        record["first"] = first
    path = write(tmp_path / "g.json", record)
    code, out = _verify_json(path)
    why = f"{words} (a record of 3 players has seats 0 to 2)"
    assert (code, out) == (1, {"ok": False, "move": None, "error": why})
    proc = run("verify", str(path))
    assert (proc.returncode, proc.stderr) == (1, "")
    assert proc.stdout == f"illegal set-up: {why}\n"


def test_the_text_tells_a_set_up_a_move_and_a_result_apart(tmp_path: Path, records) -> None:
    setup = copy.deepcopy(records["short"])
    setup["setup"][1][0] = "R5"  # not in that seat's hand
    proc = run("verify", str(write(tmp_path / "s.json", setup)))
    assert proc.returncode == 1 and proc.stdout.startswith("illegal set-up: R5 "), proc.stdout
    move = samples.with_moves(records["short"], {"seat": 1, "play": ["R2"]})
    proc = run("verify", str(write(tmp_path / "m.json", move)))
    assert proc.returncode == 1 and proc.stdout.startswith("illegal move 2 of 2: R2 ")
    result = copy.deepcopy(records["unfinished"])
    result["result"] = {"winner": 0}
    proc = run("verify", str(write(tmp_path / "r.json", result)))
    assert proc.returncode == 1
    assert proc.stdout == (
        "wrong result: the record has a result but its moves stop before the game ends\n"
    )


def test_the_help_tells_what_each_exit_status_means() -> None:
    proc = run("verify", "--help")
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert "0 a legal record; 1 an illegal move, an illegal set-up" in text
    assert "2 not a record at all" in text


@pytest.mark.parametrize("change", ["winner", "unfinished", "places", "stalemate"])
def test_result_that_disagrees_has_move_null(tmp_path: Path, records, change: str) -> None:
    if change == "winner":
        record = copy.deepcopy(records["finished"])
        record["result"]["winner"] = (record["result"]["winner"] + 1) % 3
    elif change == "unfinished":
        record = copy.deepcopy(records["unfinished"])
        record["result"] = {"winner": None}
    elif change == "places":
        record = copy.deepcopy(records["places"])
        record["result"]["places"] = record["result"]["places"][::-1]
    else:
        record = copy.deepcopy(records["stalemate"])
        record["result"] = {"winner": 0}
    code, out = _verify_json(write(tmp_path / "g.json", record))
    assert code == 1
    assert out == {"ok": False, "move": None, "error": out["error"]} and out["error"]


@pytest.mark.parametrize("winner", ["another seat", 7, -1])
def test_a_wrong_winner_is_named_as_people_count_seats(
    tmp_path: Path, records, winner: object
) -> None:
    """Seats are counted from 1 everywhere else in verify's text ("winner:
    seat 2 (Bo)"); a wrong result once said "names winner 0 ... gives 1"."""
    record = copy.deepcopy(records["finished"])
    names, real = record["players"], record["result"]["winner"]
    if winner == "another seat":
        winner = (real + 1) % len(names)
        named = f"seat {winner + 1} ({names[winner]})"
    else:
        named = str(winner)  # names no seat: the value as it is
    record["result"]["winner"] = winner
    proc = run("verify", str(write(tmp_path / "g.json", record)))
    assert proc.returncode == 1
    assert proc.stdout == (
        f"wrong result: the result names as winner {named} but the replay gives "
        f"seat {real + 1} ({names[real]})\n"
    )


def test_a_number_of_thousands_of_digits_is_told_in_a_line(tmp_path: Path, records) -> None:
    move = samples.with_moves(records["short"], {"seat": 1, "play": ["R2"]})
    text = json.dumps(move).replace(
        '"seat": 1, "play": ["R2"]', '"seat": ' + "1" * 4000 + ', "play": ["R2"]'
    )
    path = tmp_path / "big.json"
    path.write_text(text)
    proc = run("verify", str(path))
    assert proc.returncode == 1
    assert proc.stdout.startswith("illegal move 2 of 2: ")
    assert "11111111111111111111… (4000 digits)" in proc.stdout and len(proc.stdout) < 200


def test_a_name_of_a_hundred_thousand_characters_is_cut_in_the_verdict(
    tmp_path: Path, records
) -> None:
    # The engine's message named the seat with its whole name: the verdict
    # was one line of 700 KB, ESC and all, on the terminal.
    record = samples.with_moves(records["short"], {"seat": 0, "pickup": True})
    record["players"][0] = "\x1b[31mred" * 100_000
    proc = run("verify", str(write(tmp_path / "n.json", record)))
    assert proc.returncode == 1
    assert proc.stdout.startswith("illegal move 2 of 2: "), proc.stdout[:200]
    assert "(" + "[31mred" * 3 + ")" in proc.stdout  # 24 characters, ESC and all
    assert "\x1b" not in proc.stdout and len(proc.stdout) < 200, proc.stdout[:200]
    code, out = _verify_json(tmp_path / "n.json")
    assert code == 1 and out["move"] == 1 and len(out["error"]) < 200, out["error"][:200]


# ------------------------------------------------------------- malformed files
_QUOTED = "'" + "X" * 38 + "…"  # 40 characters of the value's repr (textclean.SHOWN_VALUE)


@pytest.mark.parametrize(
    ("where", "told"),
    [
        ("deck", f"unknown card code {_QUOTED} in 'deck'"),
        ("setup", f"unknown card code {_QUOTED} in 'setup'"),
        ("field", f"unknown field {_QUOTED}"),
        ("option", f"unknown option {_QUOTED}"),
        ("format", f"'format' must be 'threeup-record/1', not {_QUOTED}"),
    ],
)
def test_a_value_of_a_megabyte_is_quoted_in_a_short_line(
    tmp_path: Path, records, where: str, told: str
) -> None:
    # The value was quoted whole: "not a record" was a line of a megabyte.
    record = copy.deepcopy(records["short"])
    value = "X" * 1_000_000
    if where == "deck":
        record["deck"][40] = value
    elif where == "setup":
        record["setup"][2][1] = value
    elif where == "field":
        record[value] = 1
    elif where == "option":
        record["options"] = {value: True}
    else:
        record["format"] = value
    path = write(tmp_path / "big.json", record)
    err = assert_usage_error(run("verify", str(path)))
    assert err == f"threeup verify: not a record: {path}: {told}"


@pytest.mark.parametrize("command", ["verify", "replay"])
def test_a_file_name_with_an_escape_and_a_line_break_is_told_in_one_clean_line(
    tmp_path: Path, records, command: str
) -> None:
    # The message names the file: an escape sequence in its name reached the
    # terminal, and a line break made the one-line message two.  They are
    # told as their escapes (they were left out: "a[2Jb c.json", not its name).
    record = copy.deepcopy(records["short"])
    record["first"] = True
    path = write(tmp_path / "a\x1b[2Jb\nc.json", record)
    err = assert_usage_error(run(command, str(path)))
    assert err == (
        f"threeup {command}: not a record: {tmp_path}/a\\x1b[2Jb\\nc.json: "
        "'first' must be a seat number"
    )


def test_a_record_of_another_format_version_says_which(tmp_path: Path, records) -> None:
    record = copy.deepcopy(records["short"])
    record["format"] = "threeup-record/2"
    path = write(tmp_path / "v2.json", record)
    err = assert_usage_error(run("verify", str(path)))
    assert err == (
        f"threeup verify: not a record: {path}: "
        "'format' must be 'threeup-record/1', not 'threeup-record/2'"
    )


def _malformed(short: dict) -> list[tuple[str, object]]:
    def edit(fn):
        record = copy.deepcopy(short)
        fn(record)
        return record

    def move(value):
        return edit(lambda r: r["moves"].append(value))

    return [
        ("no-format", edit(lambda r: r.pop("format"))),
        ("wrong-format", edit(lambda r: r.update(format="threeup-record/0"))),
        ("no-players", edit(lambda r: r.pop("players"))),
        ("players-7", edit(lambda r: r.update(players=[f"p{i}" for i in range(7)]))),
        ("players-1", edit(lambda r: r.update(players=["solo"]))),
        ("no-deck", edit(lambda r: r.pop("deck"))),
        ("deck-X9", edit(lambda r: r["deck"].__setitem__(40, "X9"))),
        ("no-setup", edit(lambda r: r.pop("setup"))),
        ("setup-X9", edit(lambda r: r["setup"][2].__setitem__(1, "X9"))),
        ("no-moves", edit(lambda r: r.pop("moves"))),
        ("unknown-option", edit(lambda r: r.update(options={"jokers": True}))),
        ("bad-option-value", edit(lambda r: r.update(options={"finish": "never"}))),
        ("play-X9", move({"seat": 1, "play": ["X9"]})),
        ("pickup-false", move({"seat": 1, "pickup": False})),
        ("two-kinds", move({"seat": 1, "play": ["G9"], "draw": True})),
        ("no-seat", move({"play": ["G9"]})),
        ("flip-not-int", move({"seat": 1, "flip": "1"})),
        ("move-not-object", move("pickup")),
        ("top-level-list", [short]),
    ]


_MALFORMED_NAMES = [name for name, _ in _malformed(samples.short())]


@pytest.mark.parametrize("name", _MALFORMED_NAMES)
@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
def test_malformed_record_exit_2_one_line(tmp_path: Path, records, name: str, as_json) -> None:
    record = dict(_malformed(records["short"]))[name]
    path = write(tmp_path / "bad.json", record)
    proc = run("verify", str(path), *(["--json"] if as_json else []))
    err = assert_usage_error(proc)
    assert len(err.splitlines()) == 1, err


def test_a_malformed_and_an_illegal_first_move_have_one_number(tmp_path: Path, records) -> None:
    # The same first move was "move 0" when malformed and "move 1 of 2" when
    # illegal; people count moves from 1 (only the JSON keeps the 0-based index).
    record = copy.deepcopy(records["short"])
    record["moves"][0]["play"] = record["moves"][0]["play"][0]  # a code, not a list
    path = write(tmp_path / "playstr.json", record)
    err = assert_usage_error(run("verify", str(path)))
    why = "'play' must be a list of card codes"
    assert err == f"threeup verify: not a record: {path}: move 1 of 1: {why}"
    record = copy.deepcopy(records["short"])
    record["moves"][0]["seat"] = 99
    proc = run("verify", str(write(tmp_path / "seat99.json", record)))
    assert proc.returncode == 1 and proc.stdout.startswith('illegal move 1 of 1: "seat": 99 ')


def test_malformed_is_reported_even_after_an_illegal_move(tmp_path: Path, records) -> None:
    record = samples.with_moves(
        records["short"], {"seat": 1, "play": ["R2"]}, {"seat": 2, "pickup": False}
    )
    err = assert_usage_error(run("verify", str(write(tmp_path / "g.json", record)), "--json"))
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"",
        b"\xff\xfe\x00garbage\x80",
        b"[" * 100000,
        b"null",
        b"42",
        b'"x"',
        b'{"format": ' + b"1" * 5000 + b"}",  # JSON, but Python refuses such an int
    ],
    ids=["not-json", "empty", "binary", "deep", "null", "number", "string", "huge-int"],
)
def test_files_that_are_not_records(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    err = assert_usage_error(run("verify", str(path), "--json"))
    assert len(err.splitlines()) == 1, err


def test_a_file_that_is_not_utf8_is_told_in_plain_words(tmp_path: Path) -> None:
    """Python's own words ("'utf-8' codec can't decode byte 0xff in position
    7: invalid start byte") reached the player."""
    path = tmp_path / "latin1.json"
    path.write_bytes('{"players": ["Zoë"]}'.encode("latin-1"))
    for command in ("verify", "replay"):
        err = assert_usage_error(run(command, str(path)), "not UTF-8 text (byte 0xeb at offset")
        assert "codec" not in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
def test_a_number_too_long_is_told_in_plain_words(tmp_path: Path, records, as_json) -> None:
    # Python's own words ("... use sys.set_int_max_str_digits() to increase
    # the limit") reached the player.
    text = json.dumps(records["short"]).replace('"first": 0', '"first": ' + "9" * 5001)
    assert "9" * 5001 in text
    path = tmp_path / "huge.json"
    path.write_text(text)
    err = assert_usage_error(run("verify", str(path), *(["--json"] if as_json else [])))
    assert err == f"threeup verify: not a record: {path}: a number with more than 4300 digits"


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ('{"format": "thr', "Unterminated string starting at line 1 column 12"),
        ('{"a": "\x01"}', "Invalid control character at line 1 column 8"),
    ],
    ids=["unterminated", "control"],
)
def test_json_cut_short_is_told_without_a_doubled_word(
    tmp_path: Path, content: str, why: str
) -> None:
    # Python's message for these ends in "at", and ours went on " at line":
    # "Unterminated string starting at at line 18 column 4".
    path = tmp_path / "cut.json"
    path.write_text(content)
    err = assert_usage_error(run("verify", str(path)))
    assert err == f"threeup verify: not a record: {path}: not JSON ({why})"


def test_missing_file_and_directory(tmp_path: Path) -> None:
    err = assert_usage_error(run("verify", str(tmp_path / "nope.json"), "--json"))
    assert len(err.splitlines()) == 1
    err = assert_usage_error(run("verify", str(tmp_path)))
    assert len(err.splitlines()) == 1


# ------------------------------------------------------------- human output
def test_human_output(tmp_path: Path, records) -> None:
    finished = records["finished"]
    winner = finished["result"]["winner"]
    proc = run("verify", str(write(tmp_path / "a.json", finished)))
    assert proc.returncode == 0 and proc.stderr == ""
    out = proc.stdout.strip()
    assert out.startswith("ok") and str(len(finished["moves"])) in out
    # Seats and moves counted from 1 for people (the JSON keeps record.md's 0-based).
    assert f"winner: seat {winner + 1} ({finished['players'][winner]})" in out
    proc = run("verify", str(write(tmp_path / "b.json", records["unfinished"])))
    assert proc.returncode == 0 and "unfinished" in proc.stdout
    proc = run("verify", str(write(tmp_path / "c.json", records["stalemate"])))
    assert proc.returncode == 0 and "stalemate" in proc.stdout and "1000" in proc.stdout
    proc = run("verify", str(write(tmp_path / "d.json", records["places"])))
    assert proc.returncode == 0 and "places" in proc.stdout
    bad = samples.with_moves(records["short"], {"seat": 1, "play": ["R2"]})
    proc = run("verify", str(write(tmp_path / "e.json", bad)))
    assert proc.returncode == 1 and proc.stderr == ""
    assert proc.stdout.startswith("illegal move 2 of 2: ") and "lower" in proc.stdout
    setup = copy.deepcopy(records["short"])
    setup["deck"][setup["deck"].index("GC2")] = "RC2"
    proc = run("verify", str(write(tmp_path / "f.json", setup)))
    assert proc.returncode == 1 and "illegal" in proc.stdout and "RC2" in proc.stdout
    assert_no_traceback(proc)


def test_human_output_with_unusual_player_names(tmp_path: Path, records) -> None:
    record = copy.deepcopy(records["finished"])
    winner = record["result"]["winner"]
    record["players"][winner] = "Zoë 李"
    proc = run("verify", str(write(tmp_path / "a.json", record)))
    assert proc.returncode == 0 and "Zoë 李" in proc.stdout


def test_a_name_that_cannot_be_printed_gives_no_traceback(tmp_path: Path, records) -> None:
    # JSON can hold a lone surrogate ("\ud800"); no terminal can print it.
    # The record is legal: verify must not crash (and must not exit 1).
    record = copy.deepcopy(records["finished"])
    record["players"][record["result"]["winner"]] = "Zo\ud800"
    for args in ([], ["--json"]):
        proc = run("verify", str(write(tmp_path / "b.json", record)), *args)
        assert_no_traceback(proc)
        assert proc.returncode in (0, 2), (proc.returncode, proc.stdout, proc.stderr)


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("a\nb.json", "a\\nb.json"),
        ("a\x1b[31mb.json", "a\\x1b[31mb.json"),
        ("\u202eevil.json", "\\u202eevil.json"),
        ("\udcffx.json", "\\xffx.json"),  # the byte 0xff, not UTF-8, in the name
        ("café 山.json", "café 山.json"),
    ],
    ids=["line break", "escape", "bidi override", "byte 0xff", "letters"],
)
@pytest.mark.parametrize("command", ["verify", "replay"])
def test_a_file_name_is_told_as_given_in_one_line(
    tmp_path: Path, command: str, name: str, shown: str
) -> None:
    """Found giving verify files named with a line break, an escape, a bidi
    override and a byte that is not UTF-8: the error left those characters
    out ("a b.json", "evil.json", "x.json: no such file"), naming a file
    that was not the one given, maybe one that is there."""
    proc = run(command, str(tmp_path / name), timeout=30)
    err = assert_usage_error(proc, f"{shown}: no such file")
    assert len(err.splitlines()) == 1 and "\x1b" not in err and "\u202e" not in err
