"""Face-up and face-down cards: when they may be played (source rules, D4),
blind flips (D12, D14) and the immediate win (rules.md "The end", D15)."""

from __future__ import annotations

from pathlib import Path

from dealing import drained

from threeup_tui.rules import FLIP, PICKUP, Move, seat_view


def _plays(game) -> set[tuple[int, int]]:
    return {(a >> 3, a & 7) for a in game.state.legal_actions() if a < FLIP}


def test_face_up_waits_for_the_hand_even_with_no_draw_pile() -> None:
    game = drained(4, to_act=0, hand={0: ["R2", "R3", "R4"]}, up={0: ["R9", "G9", "B9"]})
    assert game.state.draw_size() == 0
    assert _plays(game) == {(2, 1), (3, 1), (4, 1)}
    game.illegal(Move.play(0, ["R9"]), "R9", "face up")
    game.illegal(Move.flip(0, 1), "face-down")


def test_face_up_once_hand_and_draw_pile_are_empty_then_face_down() -> None:
    game = drained(
        4,
        to_act=0,
        hand={0: ["GC2", "R5", "G5"]},
        up={0: ["R7", "G7", "B10"]},
        down={0: ["R1", "G1", "B1"]},
    )
    game.play(0, "GC2").play(0, "R5", "G5")
    assert game.hand(0) == [] and game.seat == 0
    # The second extra discard comes from the face-up cards.
    assert _plays(game) == {(7, 1), (7, 2), (10, 1)}
    assert not any(FLIP <= a < PICKUP for a in game.state.legal_actions())
    game.illegal(Move.flip(0, 0), "face-up cards are gone")
    game.illegal(Move.play(0, ["R7", "B10"]), "share one number")
    game.illegal(Move.play(0, ["R5"]), "R5", "not in")
    game.play(0, "R7", "G7")
    assert game.up(0) == ["B10"] and game.seat == 1
    assert game.pile() == ["R5", "G5", "R7", "G7"]


def test_d4_hand_card_with_face_up_card_after_the_draw_pile_ran_out() -> None:
    game = drained(4, to_act=0, hand={0: ["R7", "R2", "R3"]}, up={0: ["G7", "B7", "B9"]})
    game.illegal(Move.play(0, ["R7", "G7"]), "G7", "face up")
    game.illegal(Move.play(0, ["R7", "G7", "B7"]), "face up")


def _face_down_only(down: list[str], hands=None, bystanders=None):
    """Seat 0 holds only ``down`` (it emptied hand and face-up cards in its
    first turn); then seats 1-3 make ``bystanders`` moves."""
    hands = hands or {1: ["R10", "G3", "G4"], 2: ["R2", "G2", "B2"], 3: ["G10", "B3"]}
    game = drained(
        4,
        to_act=0,
        hand={0: ["GC2", "R5", "G5"], **hands},
        up={0: ["R6", "G6", "B6"]},
        down={0: down},
    )
    game.play(0, "GC2").play(0, "R5", "G5").play(0, "R6", "G6", "B6")
    assert game.hand(0) == [] and game.up(0) == [] and game.seat == 1
    for seat, cards in bystanders or [(1, ["R10"]), (2, None), (3, ["G10"])]:
        if cards is None:
            game.pickup(seat)
        else:
            game.play(seat, *cards)
    assert game.seat == 0
    return game


def test_flip_that_can_be_played_is_played() -> None:
    game = _face_down_only(["B10", "R1", "G1"])
    assert game.pile() == ["G10"]
    game.flip(0, 0)
    assert game.pile() == ["G10", "B10"]
    assert game.down(0)[0] == -1 and game.state.down_size[0] == 2
    assert game.seat == 1 and game.hand(0) == []
    assert seat_view(game.state, 2).log[-1].cards == ("B10",)


def test_flip_that_makes_three_of_a_kind_clears() -> None:
    game = _face_down_only(
        ["B10", "R1", "G1"],
        hands={1: ["R9", "RC", "BC"], 2: ["G10", "GC", "BC1"], 3: ["R10", "RC1"]},
        bystanders=[(1, ["R9"]), (2, ["G10"]), (3, ["R10"])],
    )
    game.flip(0, 0)
    assert game.pile() == []
    assert sorted(game.cleared()[-4:]) == ["B10", "G10", "R10", "R9"]
    assert game.seat == 1  # no extra discard after three of a kind (D7)


def test_failed_flip_picks_up_pile_and_card_and_ends_the_turn() -> None:
    game = _face_down_only(["R1", "B10", "G1"])
    turns = game.state.turns
    game.flip(0, 0)
    assert game.pile() == []
    assert game.hand(0) == ["G10", "R1"]
    assert game.down(0)[0] == -1 and game.state.down_size[0] == 2
    assert game.seat == 1 and game.state.turns == turns + 1
    assert game.state.count_cards() == 74
    # Everyone saw both cards go into the hand.
    assert sorted(game.state.known_kinds(0)) == sorted(game.state.hand_kinds(0))
    assert sorted(seat_view(game.state, 2).seats[0].known) == ["G10", "R1"]
    entry = seat_view(game.state, 1).log[-1]
    assert entry.kind == "flip" and entry.flip_failed and entry.picked_up == 2
    assert entry.cards == ("R1",)
    # Back to the hand: the face-down cards wait until it is empty again.
    game.play(1, "G3").play(2, "R10")
    assert game.state.legal_actions() == [PICKUP]
    game.pickup(3)
    assert game.seat == 0
    assert _plays(game) == {(1, 1), (10, 1)}
    game.illegal(Move.flip(0, 1), "face-down")
    game.play(0, "R1")
    assert game.seat == 1


def test_flip_of_a_clear_plus_gives_an_extra_flip() -> None:
    game = _face_down_only(["BC1", "R1", "G1"])
    game.flip(0, 0)
    assert game.pile() == [] and game.seat == 0
    assert game.state.extra_discards() == 1
    assert sorted(game.state.legal_actions()) == [FLIP + 1, FLIP + 2]
    game.illegal(Move.flip(0, 0), "already played")
    game.flip(0, 2)
    assert game.pile() == ["G1"] and game.seat == 1


def test_flip_slots_outside_0_to_2_are_illegal() -> None:
    game = _face_down_only(["R1", "B10", "G1"])
    game.illegal(Move.flip(0, 3), "slot", "3")
    game.illegal(Move.flip(0, -1), "slot")


def test_seeds_special_rule_clear_plus_2_from_face_up_then_a_lower_card() -> None:
    game = drained(
        4,
        to_act=0,
        hand={0: ["R5", "G5", "B5"], 1: ["G2", "G3", "G4"], 2: ["R2", "R3", "R4"], 3: ["B3", "B4"]},
        up={0: ["GC2", "R8", "R3"]},
    )
    game.play(0, "R5", "G5", "B5")
    assert game.hand(0) == [] and game.seat == 1
    game.play(1, "G2").play(2, "R2").play(3, "B3")
    game.play(0, "GC2").play(0, "R8")
    game.illegal(Move.play(0, ["R3"]), "lower than the 8")
    assert game.state.legal_actions() == [PICKUP]
    game.pickup(0)
    assert game.hand(0) == ["R8"] and game.up(0) == ["R3"]
    assert game.seat == 1


# ------------------------------------------------------------- the win
_CHAIN = {
    "hand": {0: ["GC2", "R5", "G5"]},
    "up": {0: ["GC2", "R6", "G6"]},
}


def _chain(game) -> None:
    """Seat 0 empties hand, face-up and face-down cards in one turn."""
    game.play(0, "GC2").play(0, "R5", "G5").play(0, "GC2").play(0, "R6", "G6")
    for slot in range(3):
        game.flip(0, slot)


def test_immediate_win_in_the_middle_of_a_turn_with_extras_owed() -> None:
    game = drained(4, to_act=0, down={0: ["RC1", "GC1", "BC1"]}, **_CHAIN)
    game.play(0, "GC2").play(0, "R5", "G5").play(0, "GC2").play(0, "R6", "G6")
    game.flip(0, 0).flip(0, 1)
    assert game.state.extra_discards() == 1 and not game.over
    game.flip(0, 2)  # the last card, a Clear +1: one extra discard is still owed
    assert game.over
    assert game.state.winner == 0
    assert game.state.legal_actions() == []
    assert game.state.stalemate is False
    for seat in range(4):
        game.illegal(Move.pickup(seat), "over")
    game.illegal(Move.play(1, game.hand(1)[:1]), "over")
    verdict = game.verdict()
    assert verdict.ok and verdict.finished and verdict.winner == 0
    assert verdict.places is None


def test_d15_first_out_ends_the_game_while_others_hold_cards() -> None:
    game = drained(4, to_act=0, down={0: ["RC1", "GC1", "R9"]}, **_CHAIN)
    _chain(game)
    assert game.over and game.state.winner == 0
    assert all(len(game.hand(s)) + len(game.up(s)) > 0 for s in (1, 2, 3))
    assert game.pile() == ["R9"]
    view = seat_view(game.state, 1)
    assert view.winner == 0 and view.to_act is None and not view.legal


def test_d15_d18_places_the_pile_stays_and_out_players_are_skipped() -> None:
    game = drained(
        4,
        to_act=0,
        down={0: ["RC1", "GC1", "R9"]},
        options={"finish": "places"},
        hand={
            0: ["GC2", "R5", "G5"],
            1: ["R2", "R3", "R4"],
            2: ["R10", "G2", "G3"],
            3: ["B10", "B2"],
        },
        up={0: ["GC2", "R6", "G6"]},
    )
    turns = game.state.turns
    _chain(game)
    assert not game.over
    assert game.state.places == [0] and game.state.winner == 0
    assert game.state.out[0]
    # D18: the pile stays as it is, and play passes on (a turn).
    assert game.pile() == ["R9"]
    assert game.seat == 1 and game.state.turns == turns + 1
    assert game.state.legal_actions() == [PICKUP]
    game.illegal(Move.pickup(0), "turn")
    game.pickup(1)
    assert game.hand(1) == ["R2", "R3", "R4", "R9"]
    game.play(2, "R10").play(3, "B10")
    # Seat 0 is out: skipped.
    assert game.seat == 1 and game.state.turns == turns + 4
    verdict = game.verdict()
    assert verdict.ok and not verdict.finished
    assert verdict.winner is None and verdict.places == (0,)
    view = seat_view(game.state, None)
    assert view.seats[0].out and view.places == (0,)


# The printed rules single out one case: "if a Clear +2 is played from the
# face-up or face-down cards and the third discard is lower than the second,
# that player picks up the discard pile".  rules.md reads it as the general
# rules at work; these play it through the engine, and the rules page says so.
def _clear_two_from_the_table(up: list[str], down: list[str]):
    """Seat 0 empties its hand (three 5s clear), seats 1-3 play on, and seat
    0's turn comes back with only ``up`` and ``down`` left and no draw pile."""
    game = drained(
        4,
        to_act=0,
        hand={0: ["R5", "G5", "B5"], 1: ["R10", "G3", "G4"], 2: ["R2", "G2", "B2"], 3: ["G10"]},
        up={0: up},
        down={0: down},
    )
    game.play(0, "R5", "G5", "B5").play(1, "R10").pickup(2).play(3, "G10")
    assert game.seat == 0 and game.hand(0) == [] and game.pile() == ["G10"]
    game.play(0, "GC2")  # from the face-up cards: the pile goes, two extra discards
    assert game.pile() == [] and game.state.extra_discards() == 2
    return game


def test_clear_two_from_face_up_then_a_lower_third_discard_picks_up() -> None:
    game = _clear_two_from_the_table(["GC2", "R8", "R4"], ["R1", "G1", "B1"])
    game.play(0, "R8")  # the second discard, on the empty pile
    # The third: R4 is lower than R8, and no face-down card may go while a
    # face-up one is left: the pile is picked up.
    assert game.state.legal_actions() == [PICKUP]
    game.illegal(Move.play(0, ["R4"]), "lower than the 8")
    game.pickup(0)
    assert game.hand(0) == ["R8"] and game.up(0) == ["R4"] and game.seat == 1


def test_clear_two_from_face_up_then_a_lower_face_down_card_is_picked_up_with_the_pile() -> None:
    game = _clear_two_from_the_table(["GC2", "R8", "G8"], ["R3", "G1", "B1"])
    game.play(0, "R8", "G8")  # the second discard empties the face-up cards
    game.flip(0, 0)  # the third, blind: R3 is lower than the 8s
    assert sorted(game.hand(0)) == ["G8", "R3", "R8"] and game.pile() == []
    assert game.seat == 1


def test_the_rules_page_says_how_the_printed_clear_two_case_plays() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text("utf-8")
    text = " ".join(page.split())
    assert "third discard is lower than the second" in text
    assert "picked up with the pile" in text
