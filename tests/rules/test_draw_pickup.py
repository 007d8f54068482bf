"""The optional draw (D10), the empty hand (D11), picking up (D12, D13) and
the end-of-turn draw (D14)."""

from __future__ import annotations

from dealing import deal, drained

from threeup_tui.rules import DRAW, FLIP, PICKUP, Move


# ------------------------------------------------------------- D10
def test_d10_no_draw_at_the_start_of_a_turn() -> None:
    game = deal(3, hand={0: ["R2", "R3", "R4"]})
    assert DRAW not in game.state.legal_actions()
    game.illegal(Move.draw(0), "right after", "Clear +1")


def test_d10_draw_right_after_clear_plus_1_is_the_refill_taken_early() -> None:
    game = deal(3, hand={0: ["RC1", "R5", "R6"]}, draw=["G1", "G2", "G3"])
    before = game.state.draw_size()
    game.play(0, "RC1")
    assert DRAW in game.state.legal_actions()
    game.draw(0)
    assert game.hand(0) == ["G1", "R5", "R6"]  # up to 3 cards, no more
    assert game.state.draw_size() == before - 1
    assert game.seat == 0 and game.state.extra_discards() == 1
    assert DRAW not in game.state.legal_actions()
    game.illegal(Move.draw(0), "right after")
    game.play(0, "R5")
    # D10: the end-of-turn draw still happens after an early draw.
    assert game.seat == 1
    assert game.hand(0) == ["G1", "G2", "R6"]
    assert game.state.draw_size() == before - 2


def test_d10_the_draw_is_optional() -> None:
    game = deal(3, hand={0: ["RC1", "R5", "R6"]}, draw=["G1", "G2"])
    game.play(0, "RC1")
    game.play(0, "R5")
    assert game.seat == 1
    assert game.hand(0) == ["G1", "G2", "R6"]  # the end-of-turn draw only


def test_d10_draw_after_clear_plus_2_but_not_before_its_second_extra() -> None:
    game = deal(3, hand={0: ["GC2", "R5", "R6"]}, draw=["G1", "G2", "G3"])
    game.play(0, "GC2")
    assert DRAW in game.state.legal_actions()
    game.play(0, "R5")  # first extra, without drawing
    assert len(game.hand(0)) == 1 and game.state.draw_size() > 0
    assert DRAW not in game.state.legal_actions()
    game.illegal(Move.draw(0), "right after")
    game.play(0, "R6")
    assert game.seat == 1 and game.hand(0) == ["G1", "G2", "G3"]


def test_d10_draw_opens_again_after_a_clear_plus_played_as_an_extra() -> None:
    game = deal(3, hand={0: ["GC2", "R5", "BC1"]}, draw=["G1", "G2", "G3", "G4"])
    game.play(0, "GC2").draw(0)
    assert game.hand(0) == ["BC1", "G1", "R5"]
    game.play(0, "BC1")  # an extra discard that is a Clear +1
    assert DRAW in game.state.legal_actions()
    game.draw(0)
    assert game.hand(0) == ["G1", "G2", "R5"]
    assert game.state.extra_discards() == 2
    game.play(0, "G1").play(0, "G2")
    assert game.seat == 1 and game.hand(0) == ["G3", "G4", "R5"]


def test_d10_no_draw_with_three_or_more_cards_in_hand() -> None:
    game = deal(
        2,
        hand={0: ["R8", "R9", "R10"], 1: ["RC1", "R2", "R3"]},
        options={"voluntary_pickup": True},
    )
    game.play(0, "R8")
    game.pickup(1)
    assert len(game.hand(1)) == 4
    game.play(0, "R9")
    game.play(1, "RC1")
    assert len(game.hand(1)) == 3
    assert DRAW not in game.state.legal_actions()
    game.illegal(Move.draw(1), "fewer than 3")


def test_d10_no_draw_when_the_draw_pile_is_empty() -> None:
    game = drained(4, to_act=0, hand={0: ["RC1", "R5", "R6"]})
    game.play(0, "RC1")
    assert len(game.hand(0)) == 2
    assert DRAW not in game.state.legal_actions()
    game.illegal(Move.draw(0), "draw pile is empty")


# ------------------------------------------------------------- D11, D12
def test_d11_empty_hand_with_a_draw_pile_and_no_draw_must_pick_up() -> None:
    game = deal(3, up={0: ["B9", "G9", "R9"]}, hand={0: ["GC2", "R5", "G5"]}, draw=["G1", "G2"])
    game.play(0, "GC2").play(0, "R5", "G5")
    assert game.hand(0) == [] and game.state.extra_discards() == 1
    assert game.state.legal_actions() == [PICKUP]
    game.illegal(Move.play(0, ["R9"]), "draw pile", "pick up")
    game.illegal(Move.flip(0, 0), "face-down")
    game.illegal(Move.draw(0), "right after")
    game.pickup(0)
    assert game.seat == 1
    assert game.hand(0) == ["G1", "G5", "R5"]  # the pile, then the draw (D14)
    assert game.up(0) == ["B9", "G9", "R9"]


def test_d12_empty_hand_with_the_draw_open_draws_then_discards() -> None:
    game = deal(
        3,
        up={0: ["B9", "G9", "R9"]},
        hand={0: ["RC1", "GC1", "GC2"]},
        draw=["G1", "G2", "G3", "G4"],
    )
    game.play(0, "RC1").play(0, "GC1").play(0, "GC2")
    assert game.hand(0) == [] and game.state.extra_discards() == 2
    assert game.state.legal_actions() == [DRAW]
    game.illegal(Move.pickup(0), "draw")
    game.illegal(Move.play(0, ["R9"]), "must draw")
    game.draw(0)
    assert game.hand(0) == ["G1", "G2", "G3"]
    assert PICKUP not in game.state.legal_actions()


def test_d12_no_pickup_while_a_discard_is_legal() -> None:
    game = deal(3, hand={0: ["R2", "R3", "R4"], 1: ["R5", "B1", "B2"]})
    game.illegal(Move.pickup(0), "legal discard")
    game.play(0, "R4")
    game.illegal(Move.pickup(1), "legal discard")
    assert PICKUP not in game.state.legal_actions()


def test_d12_pickup_when_nothing_is_legal() -> None:
    game = deal(3, hand={0: ["R9", "R3", "R4"], 1: ["R5", "B1", "B2"]}, draw=["G7"])
    game.play(0, "R9")
    assert game.state.legal_actions() == [PICKUP]
    game.pickup(1)
    assert game.hand(1) == ["B1", "B2", "R5", "R9"]  # 4 cards: no draw
    assert game.pile() == [] and game.seat == 2


def test_d12_voluntary_pickup_allows_it_any_time() -> None:
    game = deal(
        3,
        hand={0: ["R9", "R3", "R4"], 1: ["R10", "B1", "B2"]},
        options={"voluntary_pickup": True},
    )
    assert PICKUP in game.state.legal_actions()
    game.play(0, "R9")
    assert PICKUP in game.state.legal_actions()
    assert any(a < FLIP for a in game.state.legal_actions())
    game.pickup(1)
    assert game.hand(1) == ["B1", "B2", "R10", "R9"]
    assert game.seat == 2


def test_d12_voluntary_pickup_during_extras_loses_them() -> None:
    game = deal(2, hand={0: ["GC2", "R3", "R4"]}, options={"voluntary_pickup": True})
    game.play(0, "GC2")
    assert {DRAW, PICKUP} <= set(game.state.legal_actions())
    game.pickup(0)
    assert game.seat == 1 and game.state.extra_discards() == 0


def test_d12_a_blind_flip_is_always_legal() -> None:
    game = drained(
        4,
        to_act=0,
        hand={
            0: ["GC2", "R5", "G5"],
            1: ["R10", "G3", "G4"],
            2: ["R2", "G2", "B2"],
            3: ["G10", "B3"],
        },
        up={0: ["R6", "G6", "B6"]},
        down={0: ["R1", "G1", "B1"]},
    )
    # Seat 0 empties its hand and its face-up cards in one turn.
    game.play(0, "GC2").play(0, "R5", "G5").play(0, "R6", "G6", "B6")
    assert game.seat == 1 and game.hand(0) == [] and game.up(0) == []
    game.play(1, "R10")
    assert game.state.legal_actions() == [PICKUP]
    game.pickup(2)
    game.play(3, "G10")
    # Seat 0 holds only face-down cards, all lower than the 10 on the pile:
    # it flips anyway, and may not pick up.
    assert sorted(game.state.legal_actions()) == [FLIP, FLIP + 1, FLIP + 2]
    game.illegal(Move.pickup(0), "legal discard")
    game.illegal(Move.play(0, ["R1"]), "flip")


# ------------------------------------------------------------- D13, D14
def test_d13_pickup_of_no_pile_takes_nothing_and_ends_the_turn() -> None:
    game = deal(2, hand={0: ["R2", "R3", "R4"]}, options={"voluntary_pickup": True})
    before = game.state.draw_size()
    game.pickup(0)
    assert game.seat == 1 and game.state.turns == 1
    assert game.hand(0) == ["R2", "R3", "R4"]
    assert game.state.draw_size() == before  # 3 cards in hand: no draw


def test_d13_forced_pickup_of_no_pile_then_d14_refill() -> None:
    game = deal(3, hand={0: ["GC2", "RC1", "RC"]}, draw=["G1", "G2", "G3"])
    game.play(0, "GC2").play(0, "RC1").play(0, "RC")
    assert game.pile() == [] and game.hand(0) == []
    assert game.state.extra_discards() == 1
    assert game.state.legal_actions() == [PICKUP]
    game.pickup(0)
    assert game.seat == 1 and game.state.turns == 1
    assert game.hand(0) == ["G1", "G2", "G3"]


def test_d14_refill_after_a_pickup_tops_up_to_three() -> None:
    game = deal(3, hand={0: ["R9", "R8", "R7"], 1: ["GC2", "R2", "B1"]}, draw=["G4", "G5"])
    game.play(0, "R9")
    game.play(1, "GC2")
    game.play(1, "R2")
    game.illegal(Move.play(1, ["B1"]), "lower than the 2")
    game.pickup(1)
    # The pile (R2) went back into the hand: B1, R2, and one card drawn.
    assert game.hand(1) == ["B1", "G5", "R2"]
