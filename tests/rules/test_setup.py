"""Set-up: the face-up choice (D2) and the first seat (D3)."""

from __future__ import annotations

from collections import Counter

import pytest
from dealing import FULL_CODES, build_deck, deal, make_record, verdict_of

from threeup_tui.rules import (
    GameState,
    IllegalMove,
    Move,
    Options,
    Phase,
    SetupError,
    seat_view,
    view_to_json,
)
from threeup_tui.rules.cards import CODES, parse_code
from threeup_tui.rules.record import parse_record, start_state


def _fresh(n: int = 3, first: int = 0) -> tuple[GameState, list[list[str]]]:
    hands = {
        0: ["R1", "R2", "R3", "G7", "G8", "G9"],
        1: ["B1", "B2", "B3", "BC", "BC1", "B10"],
        2: ["R4", "R5", "R6", "RC", "RC1", "R10"],
    }
    deck = build_deck(n, hands={s: hands[s] for s in range(n)})
    state = GameState.deal([f"P{s}" for s in range(n)], [parse_code(c) for c in deck], first)
    return state, [hands[s] for s in range(n)]


def _kinds(codes: list[str]) -> list[int]:
    return [parse_code(c) for c in codes]


def _all_codes(view_json: object) -> Counter[str]:
    """Every card code anywhere in a JSON value."""
    found: Counter[str] = Counter()

    def walk(v: object) -> None:
        if isinstance(v, str) and v in set(FULL_CODES):
            found[v] += 1
        elif isinstance(v, list | tuple):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)

    walk(view_json)
    return found


def test_setup_phase_until_every_seat_has_chosen() -> None:
    state, _ = _fresh()
    assert state.phase == Phase.SETUP
    assert state.legal_actions() == []
    with pytest.raises(IllegalMove, match="not started"):
        state.apply_move(Move.play(0, ["R1"]))
    state.choose_face_up(2, _kinds(["R4", "R5", "R6"]))
    state.choose_face_up(0, _kinds(["G7", "G8", "G9"]))
    assert state.phase == Phase.SETUP
    assert state.legal_actions() == []
    state.choose_face_up(1, _kinds(["B1", "B2", "B3"]))
    assert state.phase == Phase.PLAY
    assert state.legal_actions()
    assert sorted(CODES[k] for k in state.up_kinds(0)) == ["G7", "G8", "G9"]
    assert sorted(CODES[k] for k in state.hand_kinds(0)) == ["R1", "R2", "R3"]
    assert state.count_cards() == 74


def test_a_pair_named_three_times_says_how_many_are_held() -> None:
    deck = build_deck(2, hands={0: ["R1", "R1", "R3", "G7", "G8", "G9"]})
    state = GameState.deal(["ill", "P1"], [parse_code(c) for c in deck], 0)
    with pytest.raises(SetupError) as err:
        state.choose_face_up(0, _kinds(["R1", "R1", "R1"]))
    assert str(err.value) == (
        "R1 is named 3 times, but the six cards of seat 1 (ill) hold 2 copies of it"
    )
    state.choose_face_up(0, _kinds(["R1", "R1", "R3"]))  # the pair itself is fine


def test_face_up_choice_errors() -> None:
    state, _ = _fresh()
    with pytest.raises(SetupError, match="not among"):
        state.choose_face_up(0, _kinds(["R1", "R2", "B10"]))
    # Naming a held card too often says so, rather than that it is not held.
    name = state.names[0]
    with pytest.raises(SetupError) as too_often:
        state.choose_face_up(0, _kinds(["R1", "R1", "R2"]))  # only one R1
    assert str(too_often.value) == (
        f"R1 is named 2 times, but the six cards of seat 1 ({name}) hold one copy of it"
    )
    with pytest.raises(SetupError, match="R1 is named 3 times"):
        state.choose_face_up(0, _kinds(["R1", "R1", "R1"]))
    with pytest.raises(SetupError, match="exactly 3"):
        state.choose_face_up(0, _kinds(["R1", "R2"]))
    with pytest.raises(SetupError, match="exactly 3"):
        state.choose_face_up(0, _kinds(["R1", "R2", "R3", "G7"]))
    with pytest.raises(SetupError, match="no seat"):
        state.choose_face_up(3, _kinds(["R1", "R2", "R3"]))
    with pytest.raises(SetupError):
        state.choose_face_up_codes(0, ["R1", "R2", "X9"])
    # Nothing was laid by the failed attempts.
    assert sorted(state.setup_hand(0)) == sorted(_kinds(["R1", "R2", "R3", "G7", "G8", "G9"]))
    state.choose_face_up(0, _kinds(["R1", "R2", "R3"]))
    with pytest.raises(SetupError, match="already"):
        state.choose_face_up(0, _kinds(["G7", "G8", "G9"]))
    state.choose_face_up(1, _kinds(["B1", "B2", "B3"]))
    state.choose_face_up(2, _kinds(["R4", "R5", "R6"]))
    with pytest.raises(SetupError, match="only before"):
        state.choose_face_up(0, _kinds(["G7", "G8", "G9"]))


def test_d2_no_one_sees_another_choice_until_all_chose() -> None:
    state, hands = _fresh()
    state.choose_face_up(0, _kinds(["G7", "G8", "G9"]))
    for seat in (1, 2, None):
        view = seat_view(state, seat)
        info = view.seats[0]
        assert info.ready is True
        assert info.face_up == ()
        assert info.hand_size == 6  # the chosen cards still count as unseen cards
        codes = _all_codes(view_to_json(view))
        for c in ("G7", "G8", "G9"):
            assert codes[c] == 0, (seat, c)
    own = seat_view(state, 0)
    assert sorted(own.seats[0].face_up) == ["G7", "G8", "G9"]
    assert sorted(own.hand) == ["R1", "R2", "R3"]
    # Seat 1 sees its own six cards and nobody else's.
    mine = seat_view(state, 1)
    assert sorted(mine.hand) == sorted(hands[1])
    assert mine.seats[1].ready is False
    state.choose_face_up(1, _kinds(["B1", "B2", "B3"]))
    assert seat_view(state, 2).seats[1].face_up == ()
    state.choose_face_up(2, _kinds(["R4", "R5", "R6"]))
    for seat in (0, 1, 2, None):
        view = seat_view(state, seat)
        assert sorted(view.seats[0].face_up) == ["G7", "G8", "G9"]
        assert sorted(view.seats[1].face_up) == ["B1", "B2", "B3"]
        assert view.seats[0].hand_size == 3


# ---------------------------------------------------------------- D3
def test_d3_random_first_seat_depends_on_the_seed() -> None:
    firsts = {GameState.new(list("abcd"), seed=seed).first for seed in range(60)}
    assert firsts == {0, 1, 2, 3}
    assert GameState.new(list("abcd"), seed=5).first == GameState.new(list("abcd"), seed=5).first


def test_d3_first_option_names_the_seat() -> None:
    for seed in range(10):
        state = GameState.new(list("abcd"), Options(first=2), seed=seed)
        assert state.first == 2 and state.seat == 2


def test_d3_record_first_makes_the_first_discard() -> None:
    game = deal(3, first=2, hand={2: ["R5", "G6", "B7"]})
    assert game.seat == 2
    game.illegal(Move.play(0, game.hand(0)[:1]), "the turn of seat 3")
    game.play(2, "R5")
    assert game.seat == 0


_HANDS = {
    0: ["R1", "R2", "R3", "G7", "G8", "G9"],
    1: ["B1", "B2", "B3", "BC", "BC1", "B10"],
    2: ["R4", "R5", "R6", "RC", "RC1", "R10"],
}
_DECK = build_deck(3, hands=_HANDS)
_SETUP = [_HANDS[s][:3] for s in range(3)]


def _record(first: int | None, options: dict | None = None) -> dict:
    return make_record(3, _DECK, _SETUP, first=first, options=options)


@pytest.mark.parametrize(
    ("first", "options", "starts"),
    [
        (None, None, 0),
        (None, {"first": 1}, 1),
        (2, {"first": 2}, 2),
        (1, None, 1),
        (0, {"first": "random"}, 0),
        (2, {"first": "random"}, 2),
    ],
)
def test_d3_record_first_and_option(first, options, starts: int) -> None:
    record = _record(first, options)
    verdict = verdict_of(record)
    assert verdict.ok and not verdict.finished
    state = start_state(parse_record(record))
    assert state.seat == starts


@pytest.mark.parametrize(
    ("first", "options"),
    [
        (0, {"first": 1}),
        (2, {"first": 0}),
        (None, {"first": 5}),
        (3, None),
        (-1, None),
        (7, {"first": 7}),
    ],
    ids=["mismatch-0-1", "mismatch-2-0", "option-not-a-seat", "first-3-of-3", "first--1", "both-7"],
)
def test_d3_bad_first_is_a_setup_error(first, options) -> None:
    verdict = verdict_of(_record(first, options))
    assert not verdict.ok
    assert verdict.move is None
    assert "seat" in verdict.error


def test_setup_errors_in_records() -> None:
    assert verdict_of(make_record(3, _DECK, _SETUP)).ok
    for bad, words in (
        ([_SETUP[0], ["B1", "B2", "R1"], _SETUP[2]], ["R1", "not among"]),  # seat 0's card
        ([_SETUP[0], ["B1", "B1", "B2"], _SETUP[2]], ["B1"]),  # seat 1 holds one B1
        ([_SETUP[0], _SETUP[1]], ["setup"]),  # one choice missing
        ([*_SETUP, _SETUP[0]], ["setup"]),  # one too many
        ([_SETUP[0][:2], _SETUP[1], _SETUP[2]], ["3"]),  # two cards
        ([["RC2", *_SETUP[0][1:]], _SETUP[1], _SETUP[2]], ["RC2"]),  # no card of the deck
    ):
        verdict = verdict_of(make_record(3, _DECK, bad))
        assert not verdict.ok and verdict.move is None, bad
        for word in words:
            assert word in verdict.error, (word, verdict.error)
