"""D1 (the 74-card deck), card codes, and dealing order (record.md)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from dealing import FULL_CODES, build_deck, deal, make_record, verdict_of

from threeup_tui.rules import GameState, Options, SetupError
from threeup_tui.rules.cards import DECK_SIZE, FULL_DECK, is_code, parse_code


def test_deck_is_the_74_listed_cards() -> None:
    counts = Counter(FULL_CODES)
    assert len(FULL_CODES) == DECK_SIZE == 74
    for colour in "RGB":
        for number in range(1, 11):
            assert counts[f"{colour}{number}"] == 2
        assert counts[f"{colour}C"] == 2
        assert counts[f"{colour}C1"] == 2
    assert counts["GC2"] == 2
    assert counts["RC2"] == 0 and counts["BC2"] == 0
    assert sum(counts.values()) == 74
    assert len(counts) == 3 * 12 + 1


@pytest.mark.parametrize("code", ["R1", "G10", "BC", "RC1", "GC2", "RC2", "BC2", "B7"])
def test_codes_in_the_grammar(code: str) -> None:
    assert is_code(code)
    parse_code(code)


@pytest.mark.parametrize(
    "text", ["X9", "R0", "R11", "r5", "G 5", "GC3", "", "R01", "C1", "RC1 ", 7, None]
)
def test_strings_outside_the_grammar(text: object) -> None:
    assert not is_code(text)
    if isinstance(text, str):
        with pytest.raises(ValueError):
            parse_code(text)


@pytest.mark.parametrize("seed", range(5))
def test_shuffled_deck_is_a_permutation_of_the_deck(seed: int) -> None:
    state = GameState.new(["a", "b", "c"], seed=seed)
    assert sorted(state.deck) == sorted(FULL_DECK)
    assert state.count_cards() == 74


def test_same_seed_same_deal_other_seed_other_deal() -> None:
    a = GameState.new(["a", "b"], seed=11)
    b = GameState.new(["a", "b"], seed=11)
    c = GameState.new(["a", "b"], seed=12)
    assert a.deck == b.deck and a.first == b.first
    assert a.deck != c.deck


@pytest.mark.parametrize("n", range(2, 7))
def test_dealing_order_follows_record_md(n: int) -> None:
    deck = list(FULL_CODES)
    random.Random(n).shuffle(deck)
    kinds = [parse_code(c) for c in deck]
    state = GameState.deal([f"p{s}" for s in range(n)], kinds, first=0)
    for s in range(n):
        assert state.down[s] == [kinds[s], kinds[n + s], kinds[2 * n + s]]
        six = sorted(kinds[3 * n + k * n + s] for k in range(6))
        assert sorted(state.setup_hand(s)) == six
    assert state.draw_size() == 74 - 9 * n
    assert state.count_cards() == 74


def test_draw_pile_is_drawn_from_deck_9n_on() -> None:
    # Seat 0 plays one card; the end-of-turn draw takes deck[9n] (record.md).
    game = deal(3, hand={0: ["R2", "G4", "B6"]}, draw=["G9", "B8", "R7"])
    assert game.state.deck[27] == parse_code("G9")
    game.play(0, "R2")
    assert sorted(game.hand(0)) == ["B6", "G4", "G9"]
    assert game.state.draw_size() == 74 - 27 - 1
    assert game.seat == 1


def test_build_deck_places_every_named_card() -> None:
    deck = build_deck(
        2,
        down={0: ["R1", "R2", "R3"], 1: ["G1"]},
        hands={1: ["B5", "B5", "BC", "GC2", "R10", "G10"]},
        draw=["GC2", "RC"],
    )
    assert deck[0] == "R1" and deck[2] == "R2" and deck[4] == "R3"
    assert deck[1] == "G1"
    assert [deck[6 + 2 * k + 1] for k in range(6)] == ["B5", "B5", "BC", "GC2", "R10", "G10"]
    assert deck[18:20] == ["GC2", "RC"]
    assert Counter(deck) == Counter(FULL_CODES)


def _swap(deck: list[str], old: str, new: str) -> list[str]:
    out = list(deck)
    out[out.index(old)] = new
    return out


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: _swap(d, "GC2", "RC2"), ["RC2", "74"]),
        (lambda d: _swap(d, "GC2", "BC2"), ["BC2", "74"]),
        (lambda d: _swap(d, "R5", "R6"), ["R5"]),
        (lambda d: d[:-1], ["74"]),
        (lambda d: [*d, "R5"], ["R5"]),
        (lambda d: d + d[:10], ["74"]),
    ],
    ids=["RC2", "BC2", "duplicate", "73-cards", "75-cards", "84-cards"],
)
def test_a_wrong_deck_is_a_setup_error(change, words: list[str]) -> None:
    deck = change(list(FULL_CODES))
    with pytest.raises(SetupError) as info:
        GameState.deal(["a", "b"], [parse_code(c) for c in deck], first=0)
    for word in words:
        assert word in str(info.value)
    # And the same deck in a record: a set-up error, move null.
    setup = [[deck[6 + 2 * k + s] for k in range(3)] for s in range(2)]
    verdict = verdict_of(make_record(2, deck, setup))
    assert not verdict.ok and verdict.move is None and verdict.error


def test_player_counts() -> None:
    for n in (2, 6):
        GameState.new([f"p{s}" for s in range(n)], seed=1)
    for n in (0, 1, 7):
        with pytest.raises(SetupError, match="2 to 6"):
            GameState.new([f"p{s}" for s in range(n)], Options(first=0), seed=1)
