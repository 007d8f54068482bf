"""The record format ``threeup-record/1`` and ``verify`` in-process (record.md)."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest
import samples
from dealing import FULL_CODES, verdict_of

from threeup_tui.rules import (
    GameState,
    MalformedRecord,
    Options,
    SetupError,
    parse_record,
    record_of,
    replay,
    verify,
)
from threeup_tui.rules.errors import seat_words
from threeup_tui.rules.record import FORMAT


# ------------------------------------------------------------- building records
def test_record_of_holds_every_field() -> None:
    record = samples.finished()
    assert record["format"] == FORMAT == "threeup-record/1"
    assert len(record["players"]) == 3
    assert Counter(record["deck"]) == Counter(FULL_CODES)
    assert record["first"] in (0, 1, 2)
    assert len(record["setup"]) == 3 and all(len(c) == 3 for c in record["setup"])
    assert record["moves"] and all("seat" in m for m in record["moves"])
    for move in record["moves"]:
        kinds = set(move) - {"seat"}
        assert len(kinds) == 1
        kind = kinds.pop()
        if kind in ("pickup", "draw"):
            assert move[kind] is True
    assert set(record["result"]) == {"winner"}


def test_options_written_are_the_non_default_ones() -> None:
    assert Options().to_json() == {}
    opts = Options(first=2, voluntary_pickup=True, finish="places")
    assert Options.from_json(opts.to_json()) == opts
    assert Options.from_json({}) == Options()
    assert Options.from_json({"first": "random"}) == Options()


def test_missing_options_and_first_take_their_defaults() -> None:
    record = samples.short()
    del record["options"]
    del record["first"]
    parsed = parse_record(record)
    assert parsed.options == Options() and parsed.first == 0
    assert verify(record).ok


def test_a_legal_finished_game_verifies() -> None:
    record = samples.finished()
    verdict = verdict_of(record)
    assert verdict.ok and verdict.finished
    assert verdict.winner == record["result"]["winner"]
    assert verdict.moves == len(record["moves"])
    assert verdict.to_json() == {
        "ok": True,
        "moves": len(record["moves"]),
        "finished": True,
        "winner": record["result"]["winner"],
    }


def test_an_unfinished_game_verifies_with_no_winner() -> None:
    verdict = verdict_of(samples.unfinished())
    assert verdict.ok and not verdict.finished and verdict.winner is None
    assert verdict.to_json() == {"ok": True, "moves": 10, "finished": False, "winner": None}


def test_a_stalemate_verifies_with_no_winner() -> None:
    verdict = verdict_of(samples.stalemate())
    assert verdict.to_json() == {"ok": True, "moves": 1000, "finished": True, "winner": None}


def test_places_are_reported() -> None:
    record = samples.places()
    verdict = verdict_of(record)
    assert verdict.ok and verdict.finished
    assert verdict.to_json()["places"] == record["result"]["places"]
    assert verdict.winner == record["result"]["places"][0]
    so_far = verdict_of(samples.places_so_far())
    assert so_far.to_json() == {
        "ok": True,
        "moves": len(samples.places_so_far()["moves"]),
        "finished": False,
        "winner": None,
        "places": [0],
    }


# ------------------------------------------------------------- illegal moves
@pytest.mark.parametrize(
    ("move", "words"),
    [
        ({"seat": 1, "play": ["R2"]}, ["R2", "lower", "5"]),
        ({"seat": 1, "play": ["RC2"]}, ["RC2", "not in"]),
        ({"seat": 1, "play": ["R9"]}, ["R9", "not in"]),
        ({"seat": 1, "play": []}, ["at least one card"]),
        ({"seat": 1, "play": ["G9", "BC1"]}, ["share one number"]),
        ({"seat": 1, "flip": 3}, ["slot", "3"]),
        ({"seat": 1, "flip": -1}, ["slot"]),
        ({"seat": 1, "flip": 0}, ["face-down"]),
        ({"seat": 7, "pickup": True}, ['"seat": 7', "no seat", "0 to 2"]),
        ({"seat": -1, "pickup": True}, ["no seat"]),
        # Texts count seats from 1 (the record's fields from 0).
        ({"seat": 2, "play": ["G6"]}, ["the turn of seat 2 (", "not of seat 3 ("]),
        ({"seat": 0, "play": ["G5"]}, ["turn"]),
        ({"seat": 1, "pickup": True}, ["legal discard"]),
        ({"seat": 1, "draw": True}, ["right after"]),
    ],
)
def test_illegal_moves_name_the_rule(move: dict, words: list[str]) -> None:
    record = samples.with_moves(samples.short(), move)
    verdict = verdict_of(record)
    assert not verdict.ok
    assert verdict.move == 1
    for word in words:
        assert word.lower() in verdict.error.lower(), (word, verdict.error)
    assert set(verdict.to_json()) == {"ok", "move", "error"}


def test_the_first_illegal_move_is_reported() -> None:
    record = samples.with_moves(
        samples.short(),
        {"seat": 1, "play": ["G9"]},
        {"seat": 2, "play": ["R3"]},  # lower than 9: the first illegal move
        {"seat": 2, "flip": 9},
        {"seat": 5, "pickup": True},
    )
    verdict = verdict_of(record)
    assert verdict.move == 2 and "lower" in verdict.error


def test_a_move_after_the_end_is_illegal() -> None:
    record = samples.finished()
    n = len(record["moves"])
    record["moves"].append({"seat": 0, "pickup": True})
    del record["result"]
    verdict = verdict_of(record)
    assert not verdict.ok and verdict.move == n and "over" in verdict.error


def test_replay_stops_at_the_first_illegal_move() -> None:
    record = samples.with_moves(samples.short(), {"seat": 1, "play": ["R2"]})
    state, verdict = replay(parse_record(record))
    assert verdict.move == 1
    assert len(state.history) == 1  # the state as it was before the bad move


# ------------------------------------------------------------- results
def test_result_that_agrees_verifies() -> None:
    assert verdict_of(samples.places()).ok
    record = samples.stalemate()
    assert verdict_of(record).ok


@pytest.mark.parametrize(
    "change",
    ["other-winner", "null-winner", "result-unfinished", "places-wrong", "stalemate-winner"],
)
def test_result_that_disagrees_is_reported_with_move_null(change: str) -> None:
    if change == "other-winner":
        record = samples.finished()
        record["result"]["winner"] = (record["result"]["winner"] + 1) % 3
    elif change == "null-winner":
        record = samples.finished()
        record["result"]["winner"] = None
    elif change == "result-unfinished":
        record = samples.unfinished()
        record["result"] = {"winner": 0}
    elif change == "places-wrong":
        record = samples.places()
        record["result"]["places"] = list(reversed(record["result"]["places"]))
    else:
        record = samples.stalemate()
        record["result"] = {"winner": 1}
    verdict = verdict_of(record)
    assert not verdict.ok
    assert verdict.move is None and verdict.error
    assert verdict.to_json() == {"ok": False, "move": None, "error": verdict.error}


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        ({"first": -1}, '"first": -1 names no seat (a record of 3 players has seats 0 to 2)'),
        ({"first": 3}, '"first": 3 names no seat'),
        ({"first": None, "options": {"first": 5}}, '"first": 5 in the options names no seat'),
        ({"first": 0, "options": {"first": 1}}, "the option 'first' is 1"),
    ],
    ids=["first--1", "first-3", "option-5", "mismatch"],
)
def test_a_first_that_is_no_seat_is_a_set_up_error(edit: dict, words: str) -> None:
    # record.md: a set-up error ("move": null, exit 1), not a malformed file.
    record = samples.short()
    record.update(edit)
    if record["first"] is None:
        del record["first"]
    verdict = verdict_of(record)
    assert not verdict.ok and verdict.move is None and verdict.wrong == "setup"
    assert words in (verdict.error or ""), verdict.error
    assert verdict.to_json() == {"ok": False, "move": None, "error": verdict.error}


def test_a_verdict_says_what_is_wrong() -> None:
    assert verdict_of(samples.finished()).wrong is None
    bad_move = verdict_of(samples.with_moves(samples.short(), {"seat": 1, "play": ["R2"]}))
    assert (bad_move.move, bad_move.wrong) == (1, "move")
    record = samples.unfinished()
    record["result"] = {"winner": 0}
    assert (verdict_of(record).move, verdict_of(record).wrong) == (None, "result")
    record = samples.short()
    record["deck"].pop()
    assert (verdict_of(record).move, verdict_of(record).wrong) == (None, "setup")


# ------------------------------------------------------------- malformed
def _malformed_cases() -> list[tuple[str, object]]:
    base = samples.short()

    def edit(fn):
        record = copy.deepcopy(base)
        fn(record)
        return record

    def set_move(value):
        return edit(lambda r: r["moves"].append(value))

    return [
        ("list", [base]),
        ("string", "threeup-record/1"),
        ("no-format", edit(lambda r: r.pop("format"))),
        ("wrong-format", edit(lambda r: r.update(format="threeup-record/2"))),
        ("no-players", edit(lambda r: r.pop("players"))),
        ("players-not-list", edit(lambda r: r.update(players="abc"))),
        ("players-7", edit(lambda r: r.update(players=[f"p{i}" for i in range(7)]))),
        ("players-1", edit(lambda r: r.update(players=["solo"]))),
        ("player-not-string", edit(lambda r: r["players"].__setitem__(0, 5))),
        ("no-deck", edit(lambda r: r.pop("deck"))),
        ("deck-X9", edit(lambda r: r["deck"].__setitem__(3, "X9"))),
        ("deck-number", edit(lambda r: r["deck"].__setitem__(3, 7))),
        ("no-setup", edit(lambda r: r.pop("setup"))),
        ("setup-X9", edit(lambda r: r["setup"][0].__setitem__(0, "X9"))),
        ("no-moves", edit(lambda r: r.pop("moves"))),
        ("moves-not-list", edit(lambda r: r.update(moves={}))),
        ("unknown-option", edit(lambda r: r.update(options={"turbo": True}))),
        ("bad-finish", edit(lambda r: r.update(options={"finish": "last"}))),
        ("bad-voluntary", edit(lambda r: r.update(options={"voluntary_pickup": "yes"}))),
        ("options-not-object", edit(lambda r: r.update(options=[]))),
        ("first-string", edit(lambda r: r.update(first="one"))),
        ("play-X9", set_move({"seat": 1, "play": ["X9"]})),
        ("play-not-list", set_move({"seat": 1, "play": "G9"})),
        ("pickup-false", set_move({"seat": 1, "pickup": False})),
        ("draw-false", set_move({"seat": 1, "draw": False})),
        ("two-kinds", set_move({"seat": 1, "play": ["G9"], "pickup": True})),
        ("no-kind", set_move({"seat": 1})),
        ("no-seat", set_move({"play": ["G9"]})),
        ("seat-string", set_move({"seat": "1", "play": ["G9"]})),
        ("seat-bool", set_move({"seat": True, "play": ["G9"]})),
        ("flip-string", set_move({"seat": 1, "flip": "0"})),
        ("move-not-object", set_move(["seat", 1])),
        ("unknown-move-field", set_move({"seat": 1, "play": ["G9"], "note": "x"})),
        ("result-bad", edit(lambda r: r.update(result={"winner": "0"}))),
        ("result-no-winner", edit(lambda r: r.update(result={}))),
    ]


_MALFORMED = dict(_malformed_cases())


@pytest.mark.parametrize("name", list(_MALFORMED))
def test_malformed_records_raise_with_one_line(name: str) -> None:
    record = _MALFORMED[name]
    with pytest.raises(MalformedRecord) as info:
        verify(json.loads(json.dumps(record)))
    message = str(info.value)
    assert message and "\n" not in message


def test_a_malformed_move_is_counted_from_1_like_an_illegal_one() -> None:
    # verify names an illegal move "move 1 of 3" for people; a malformed one is
    # named the same way (it said "move 0"), only the JSON keeps the 0-based index.
    record = copy.deepcopy(samples.short())
    record["moves"] = [{"seat": 0, "play": "G3"}, {"seat": 1, "pickup": True}, {"seat": 2}]
    with pytest.raises(MalformedRecord) as info:
        parse_record(record)
    assert str(info.value) == "move 1 of 3: 'play' must be a list of card codes"
    record["moves"][0] = {"seat": 0, "play": ["G3"]}
    with pytest.raises(MalformedRecord, match=r"^move 3 of 3: "):
        parse_record(record)


def test_the_whole_file_is_checked_before_any_move_is_replayed() -> None:
    record = samples.with_moves(
        samples.short(),
        {"seat": 1, "play": ["R2"]},  # illegal...
        {"seat": 2, "pickup": False},  # ...but this makes the file malformed
    )
    with pytest.raises(MalformedRecord):
        verify(record)


def test_record_of_names_a_seat_without_a_possessive_or_you_has() -> None:
    # "you (seat 2) has not chosen" read badly; every engine message names a
    # seat as "seat 2 (you)", whatever the name.
    state = GameState.new(["Ann", "you", "Zoë 李"], seed=1)
    state.choose_face_up(0, state.hand_kinds(0)[:3])
    with pytest.raises(SetupError) as info:
        record_of(state)
    assert str(info.value) == "seat 2 (you) has not chosen its face-up cards yet"
    assert seat_words(2, "Zoë 李") == "seat 3 (Zoë 李)" and seat_words(0, "") == "seat 1"


@pytest.mark.parametrize("name", ["you", "Zoë 李", "Chris", ""])
def test_reasons_name_a_seat_whatever_its_name(name: str) -> None:
    # "B3 (blue 3) is not in you's hand": a possessive of an arbitrary name
    # reads badly (in a verdict and in the app's "Not allowed: ..." alike).
    who = f"seat 2 ({name})" if name else "seat 2"
    record = samples.short()  # seat 1's turn, after seat 0's R5
    record["players"][1] = name
    for move, reason in [
        ({"seat": 1, "play": ["R9"]}, f"R9 (red 9) is not in the hand of {who}"),
        ({"seat": 2, "play": ["G6"]}, f"it is the turn of {who}, not of seat 3 (P2)"),
    ]:
        verdict = verdict_of(samples.with_moves(record, move))
        assert (verdict.move, verdict.error) == (1, reason)
    record = samples.short()
    record["players"][1] = name
    record["setup"][1][0] = "R5"  # a card of seat 0's hand
    assert verdict_of(record).error == f"R5 is not among the six cards of {who}"


def test_record_of_a_game_so_far_has_no_result() -> None:
    record = samples.short()
    assert "result" not in record
    state, verdict = replay(parse_record(record))
    assert verdict.ok and not verdict.finished
    assert record_of(state).to_json().get("result") is None
