"""A turn from the hand: sources, equal-or-higher, multiples, clears and
extra discards (rules.md "A turn", D4-D9)."""

from __future__ import annotations

from dealing import deal, rank

from threeup_tui.rules import DRAW, FLIP, PICKUP, Move, play_action
from threeup_tui.rules.cards import CLEAR, CLEAR1, CLEAR2


def _plays(game) -> set[tuple[int, int]]:
    return {(a >> 3, a & 7) for a in game.state.legal_actions() if a < FLIP}


# ------------------------------------------------------------- sources
def test_hand_first_face_up_waits_while_the_hand_holds_cards() -> None:
    game = deal(3, up={0: ["R9", "G9", "B9"]}, hand={0: ["R2", "G3", "B4"]})
    assert _plays(game) == {(2, 1), (3, 1), (4, 1)}
    assert PICKUP not in game.state.legal_actions()
    game.illegal(Move.play(0, ["R9"]), "R9", "face up", "hand", "draw pile")
    game.illegal(Move.play(0, ["R9", "G9"]), "face up")
    game.illegal(Move.flip(0, 0), "face-down", "hand")
    game.illegal(Move.play(0, ["B7"]), "B7", "not in", "hand")
    game.play(0, "R2")
    assert game.seat == 1


def test_d4_hand_and_face_up_never_mixed() -> None:
    game = deal(3, up={0: ["R9", "G4", "B9"]}, hand={0: ["R4", "G3", "B2"]})
    # The hand holds R4 and the face-up G4 is the same number: still no.
    game.illegal(Move.play(0, ["R4", "G4"]), "G4", "face up")
    game.illegal(Move.play(0, ["G4", "R4"]), "G4", "face up")
    game.play(0, "R4")
    assert game.up(0) == ["B9", "G4", "R9"]


# ------------------------------------------------------------- equal or higher
def test_equal_or_higher_than_the_top_number() -> None:
    game = deal(
        3,
        hand={0: ["R5", "G2", "B2"], 1: ["R4", "G5", "B8"], 2: ["R3", "G6", "B1"]},
    )
    game.play(0, "R5")
    assert _plays(game) == {(5, 1), (8, 1)}
    message = game.illegal(Move.play(1, ["R4"]), "R4", "lower", "5")
    assert "pile" in message
    game.play(1, "G5")  # equal is allowed
    assert game.pile() == ["R5", "G5"]
    game.illegal(Move.play(2, ["R3"]), "lower than the 5")
    game.illegal(Move.play(2, ["B1"]), "lower")
    assert _plays(game) == {(6, 1)}
    game.play(2, "G6")
    assert game.pile() == ["R5", "G5", "G6"]
    assert game.state.top == 6


def test_empty_pile_takes_any_card() -> None:
    game = deal(3, hand={0: ["R1", "G10", "BC"], 1: ["G1", "B2", "B3"], 2: ["R7", "R8", "R9"]})
    assert _plays(game) == {(1, 1), (10, 1), (CLEAR, 1)}
    game.play(0, "G10")
    assert _plays(game) == set()  # seat 1 holds nothing as high as 10
    assert game.state.legal_actions() == [PICKUP]


def test_after_a_clear_the_next_player_starts_with_any_card() -> None:
    game = deal(3, hand={0: ["R9", "G2", "B2"], 1: ["RC", "G3", "B3"], 2: ["R1", "R2", "B4"]})
    game.play(0, "R9").play(1, "RC")
    assert game.pile() == [] and game.cleared() == ["R9", "RC"]
    assert game.seat == 2
    assert _plays(game) == {(1, 1), (2, 1), (4, 1)}
    game.play(2, "R1")


# ------------------------------------------------------------- multiples (D5)
def test_d5_a_multiple_shares_one_number() -> None:
    game = deal(3, hand={0: ["R5", "G5", "B7"], 1: ["R6", "G6", "B6"]})
    assert _plays(game) == {(5, 1), (5, 2), (7, 1)}
    game.illegal(Move.play(0, ["R5", "B7"]), "share one number", "R5", "B7")
    game.illegal(Move.play(0, ["R5", "R5"]), "R5", "not in")  # only one R5
    game.illegal(Move.play(0, []), "at least one card")
    game.play(0, "R5", "G5")
    assert game.pile() == ["R5", "G5"] and game.hand(0) != []
    assert game.seat == 1
    # The pile's run counts the multiple: one more 5 would make three of a kind.
    assert game.state.run == 2


def test_d5_clear_cards_go_one_at_a_time() -> None:
    game = deal(3, hand={0: ["RC", "GC", "RC1"], 1: ["BC1", "GC1", "GC2"]})
    assert _plays(game) == {(CLEAR, 1), (CLEAR1, 1)}
    game.illegal(Move.play(0, ["RC", "GC"]), "one at a time")
    game.illegal(Move.play(0, ["RC", "RC1"]), "share one number")
    game.play(0, "RC")
    game.illegal(Move.play(1, ["BC1", "GC1"]), "one at a time", "not 2 Clear +1 cards at once")
    assert (CLEAR1, 2) not in _plays(game)


# ------------------------------------------------------------- D6 and clears
def test_d6_every_clear_kind_goes_on_anything() -> None:
    for clear in ("RC", "BC1", "GC2"):
        game = deal(2, hand={0: ["R10", "G2", "B2"], 1: [clear, "R3", "R4"]})
        game.play(0, "R10")
        assert (rank(clear), 1) in _plays(game)
        game.play(1, clear)
        assert game.pile() == [] and game.cleared() == ["R10", clear]


def test_three_of_a_kind_across_players_clears_the_pile() -> None:
    game = deal(3, hand={0: ["R7", "G2", "G3"], 1: ["G7", "B2", "B3"], 2: ["B7", "R2", "R3"]})
    game.play(0, "R7").play(1, "G7")
    assert game.pile() == ["R7", "G7"]
    game.play(2, "B7")
    assert game.pile() == []
    assert sorted(game.cleared()) == ["B7", "G7", "R7"]
    assert game.seat == 0 and game.state.turns == 3  # D7: no extra discard
    assert game.state.count_cards() == 74


def test_three_of_a_kind_clears_the_whole_pile_below_too() -> None:
    game = deal(3, hand={0: ["R6", "G2", "G3"], 1: ["R7", "B2", "B3"], 2: ["G7", "B7", "R3"]})
    game.play(0, "R6").play(1, "R7").play(2, "G7", "B7")
    assert game.pile() == []
    assert sorted(game.cleared()) == ["B7", "G7", "R6", "R7"]


def test_three_of_a_kind_at_once_and_four_of_a_kind() -> None:
    game = deal(3, hand={0: ["R8", "G8", "B8"], 1: ["R9", "B9", "G2"], 2: ["G9", "R3", "G3"]})
    game.play(0, "R8", "G8", "B8")
    assert game.pile() == [] and game.seat == 1
    game.play(1, "R9", "B9")
    assert game.pile() == ["R9", "B9"]
    game.play(2, "G9")
    assert game.pile() == []


def test_different_numbers_in_a_row_do_not_clear() -> None:
    game = deal(3, hand={0: ["R4", "G4", "G3"], 1: ["R5", "B2", "B3"], 2: ["G5", "B5", "R3"]})
    game.play(0, "R4", "G4").play(1, "R5")
    assert game.pile() == ["R4", "G4", "R5"]
    game.play(2, "G5", "B5")  # 5, 5, 5 on top now
    assert game.pile() == []


def test_plain_clear_clears_and_the_turn_passes() -> None:
    game = deal(3, hand={0: ["R9", "G2", "G3"], 1: ["RC", "B2", "B3"]}, draw=["R1", "R2"])
    game.play(0, "R9")
    game.play(1, "RC")
    assert game.cleared() == ["R9", "RC"]
    assert game.seat == 2 and game.state.extra_discards() == 0
    assert sorted(game.hand(1)) == ["B2", "B3", "R2"]  # drew one at the end of the turn


def test_clear_plus_1_gives_exactly_one_extra_discard() -> None:
    game = deal(3, hand={0: ["R9", "G2", "G3"], 1: ["RC1", "B2", "B8"], 2: ["R1", "G1", "B1"]})
    game.play(0, "R9")
    turns = game.state.turns
    game.play(1, "RC1")
    assert game.pile() == [] and game.cleared() == ["R9", "RC1"]
    assert game.seat == 1 and game.state.extra_discards() == 1
    assert game.state.turns == turns
    game.play(1, "B2")  # the extra discard lands on an empty pile
    assert game.seat == 2 and game.pile() == ["B2"]
    assert game.state.turns == turns + 1  # one turn, two discards


def test_clear_plus_2_gives_exactly_two_extra_discards() -> None:
    game = deal(3, hand={0: ["R9", "G2", "G3"], 1: ["GC2", "B3", "B8"], 2: ["R1", "G1", "B1"]})
    game.play(0, "R9").play(1, "GC2")
    assert game.seat == 1 and game.state.extra_discards() == 2
    game.play(1, "B3")
    assert game.seat == 1 and game.state.extra_discards() == 1
    game.play(1, "B8")
    assert game.seat == 2 and game.pile() == ["B3", "B8"]
    assert len(game.hand(1)) == 3


# ------------------------------------------------------------- D7
def test_d7_plain_clear_during_extras_cancels_nothing() -> None:
    game = deal(3, hand={0: ["GC2", "RC", "R3"]})
    game.play(0, "GC2").play(0, "RC")
    assert game.pile() == [] and game.seat == 0
    assert game.state.extra_discards() == 1
    game.play(0, "R3")
    assert game.seat == 1 and game.pile() == ["R3"]


def test_d7_three_of_a_kind_during_extras_cancels_nothing() -> None:
    game = deal(
        2,
        hand={0: ["R5", "B5", "R9"], 1: ["GC2", "G5", "R2"]},
        options={"voluntary_pickup": True},
    )
    game.play(0, "R5", "B5")
    game.pickup(1)  # voluntary: seat 1 now holds GC2, G5, R2, R5, B5
    assert sorted(game.hand(1)) == ["B5", "G5", "GC2", "R2", "R5"]
    game.play(0, "R9")
    game.play(1, "GC2")
    game.play(1, "G5", "R5", "B5")
    assert game.pile() == [] and game.seat == 1
    assert game.state.extra_discards() == 1
    game.play(1, "R2")
    assert game.seat == 0 and game.pile() == ["R2"]


def test_d7_no_extra_after_three_of_a_kind_outside_extras() -> None:
    game = deal(2, hand={0: ["R6", "G6", "B6"], 1: ["R1", "R2", "R3"]})
    game.play(0, "R6", "G6", "B6")
    assert game.pile() == [] and game.seat == 1


# ------------------------------------------------------------- D8
def test_d8_extra_discards_follow_the_normal_rules_and_are_compulsory() -> None:
    game = deal(3, hand={0: ["GC2", "R8", "R3"], 1: ["B1", "B2", "B4"]}, draw=["G1", "G2"])
    game.play(0, "GC2")
    # The early draw is open, and a legal discard exists: no pick-up.
    game.illegal(Move.pickup(0), "draw")
    game.play(0, "R8")
    game.illegal(Move.play(0, ["R3"]), "lower than the 8")
    game.illegal(Move.draw(0), "right after")
    # The second extra discard cannot be made: pick up, ending the turn.
    assert game.state.legal_actions() == [PICKUP]
    game.pickup(0)
    assert game.seat == 1 and game.pile() == []
    assert sorted(game.hand(0)) == ["G1", "R3", "R8"]  # pile, then the draw (D14)
    assert game.state.extra_discards() == 0


def test_d8_no_pickup_during_extras_while_a_discard_is_legal() -> None:
    game = deal(3, hand={0: ["RC1", "R5", "R6"]}, draw=["G1"])
    game.play(0, "RC1")
    game.draw(0)
    assert game.hand(0) == ["G1", "R5", "R6"]
    game.illegal(Move.pickup(0), "legal discard")
    assert PICKUP not in game.state.legal_actions()


# ------------------------------------------------------------- D9
def test_d9_clear_plus_during_extras_adds_its_extras() -> None:
    game = deal(3, hand={0: ["GC2", "RC1", "R3"], 1: ["GC2", "BC1", "B3"]})
    game.play(0, "GC2")
    assert game.state.extra_discards() == 2
    game.play(0, "RC1")
    assert game.state.extra_discards() == 2  # one used, one added
    game.play(0, "R3")
    assert game.state.extra_discards() == 1 and game.seat == 0


def test_d9_clear_plus_1_then_clear_plus_2() -> None:
    game = deal(3, hand={0: ["BC1", "GC2", "R3"]})
    game.play(0, "BC1")
    assert game.state.extra_discards() == 1
    game.play(0, "GC2")
    assert game.state.extra_discards() == 2
    game.play(0, "R3")
    assert game.state.extra_discards() == 1 and game.seat == 0


def test_d9_two_clear_plus_2() -> None:
    game = deal(3, hand={0: ["GC2", "GC2", "R3"]})
    game.play(0, "GC2").play(0, "GC2")
    assert game.state.extra_discards() == 3
    game.play(0, "R3")
    assert game.state.extra_discards() == 2


# ------------------------------------------------------------- legal action ids
def test_legal_action_ids_match_the_hand() -> None:
    game = deal(3, hand={0: ["R4", "G4", "GC2"]})
    legal = set(game.state.legal_actions())
    assert legal == {play_action(4, 1), play_action(4, 2), play_action(CLEAR2, 1)}
    assert DRAW not in legal and PICKUP not in legal
