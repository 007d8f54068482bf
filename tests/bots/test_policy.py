"""The policies on action ids (bots/policy.py) against the rules they stand for."""

from __future__ import annotations

import random

from positions import set_up

from threeup_tui.bots import GreedyBot
from threeup_tui.bots.policy import (
    greedy_choice,
    greedy_face_up,
    play_out,
    setup_value,
    thrifty_face_up,
)
from threeup_tui.rules import DRAW, FLIP, PICKUP, GameState, Phase, seat_view
from threeup_tui.rules.actions import is_play, play_count, play_rank
from threeup_tui.rules.cards import CLEAR, CLEAR1, CLEAR2, CODES, RANK_OF, parse_code


def _greedy_by_the_words(
    legal: list[int], hand_size: int, thrifty: bool = False, drawing: bool = False
) -> int:
    """Greedy's rule as its docstring says it, without the id order (the
    thrifty rule: the plain Clear first, always; and while the draw pile
    lasts, a 9 or a 10 one copy at a time)."""
    if DRAW in legal:
        return DRAW
    numbers = [a for a in legal if is_play(a) and play_rank(a) < CLEAR]
    if numbers:
        lowest = min(play_rank(a) for a in numbers)
        if thrifty and drawing and lowest >= 9:
            return min((a for a in numbers if play_rank(a) == lowest), key=play_count)
        return max((a for a in numbers if play_rank(a) == lowest), key=play_count)
    clears = {play_rank(a): a for a in legal if is_play(a)}
    order = (CLEAR1, CLEAR2, CLEAR) if hand_size > 1 and not thrifty else (CLEAR, CLEAR1, CLEAR2)
    for rank in order:
        if rank in clears:
            return clears[rank]
    flips = [a for a in legal if FLIP <= a < PICKUP]
    return flips[0] if flips else PICKUP


def test_greedy_choice_follows_greedys_rule_in_every_position_of_many_games() -> None:
    checked = split = 0
    for seed in range(60):
        state = set_up(2 + seed % 5, seed)
        rng = random.Random(seed)
        while state.phase == Phase.PLAY:
            legal = state.legal_actions()
            hand = state.hand_size[state.seat]
            assert greedy_choice(legal, hand) == _greedy_by_the_words(legal, hand)
            drawing = state.draw_size() > 0
            thrifty = greedy_choice(legal, hand, thrifty=True, drawing=drawing)
            assert thrifty == _greedy_by_the_words(legal, hand, thrifty=True, drawing=drawing)
            split += thrifty != greedy_choice(legal, hand, thrifty=True)
            checked += 1
            state.apply(rng.choice(legal))
    assert checked > 5000
    assert split > 50  # positions where the thrifty rule keeps a 9 or 10 back


def test_greedy_bot_plays_greedy_choice_from_its_view() -> None:
    """Set-up: the three strongest cards (Clear +2, +1, Clear, then high numbers)."""
    state = GameState.new(["a", "b", "c"], seed=2)
    bot = GreedyBot(0)
    for s in range(3):
        view = seat_view(state, s)
        chosen = bot.choose_face_up(view)
        value = {CLEAR2: 16, CLEAR1: 15, CLEAR: 14}
        ranks = sorted((value.get(_rank(c), _rank(c)) for c in view.hand), reverse=True)
        assert sorted((value.get(_rank(c), _rank(c)) for c in chosen), reverse=True) == ranks[:3]
        state.choose_face_up_codes(s, chosen)
    while state.phase == Phase.PLAY:
        view = seat_view(state, state.seat)
        assert bot.choose_action(view) == greedy_choice(view.legal, len(view.hand))
        state.apply(bot.choose_action(view))


def _rank(code: str) -> int:
    return RANK_OF[parse_code(code)]


def _thrifty_set_up_by_the_words(ranks: list[int]) -> list[int]:
    """The expert's set-up rule as its docstring says it, on ranks: the
    highest pair of numbers face up, with a Clear +2 or +1, else the pair's
    third copy, else the highest number left; with no pair, greedy's."""
    pairs = [r for r in set(ranks) if r < CLEAR and ranks.count(r) >= 2]
    if not pairs:
        return sorted(sorted(ranks, key=setup_value)[-3:])  # greedy's: the strongest three
    pair = max(pairs)
    rest = list(ranks)
    rest.remove(pair)
    rest.remove(pair)
    if CLEAR2 in rest or CLEAR1 in rest:
        third = CLEAR2 if CLEAR2 in rest else CLEAR1
    elif pair in rest:
        third = pair
    else:
        third = max((r for r in rest if r < CLEAR), default=CLEAR)
    return sorted([pair, pair, third])


def test_the_thrifty_set_up_lays_a_pair_face_up() -> None:
    """bots/policy.py: thrifty_face_up, on chosen hands and on every seat's
    six cards of many deals: the cards it names are among the six, and
    their ranks are the rule's."""
    code = {CLEAR: "C", CLEAR1: "C1", CLEAR2: "C2"}

    def up(*ranks: int) -> list[int]:
        kinds = [parse_code(("G" if r == CLEAR2 else "R") + code.get(r, str(r))) for r in ranks]
        return sorted(RANK_OF[k] for k in thrifty_face_up(kinds))

    assert up(1, 3, 6, 6, 7, CLEAR1) == [6, 6, CLEAR1]  # the pair and the boost
    assert up(2, 2, 4, 4, 5, CLEAR1) == [4, 4, CLEAR1]  # the higher pair
    assert up(3, 8, 8, 8, 9, 10) == [8, 8, 8]  # three alike clear the pile
    assert up(5, 7, 7, 7, 9, CLEAR2) == [7, 7, CLEAR2]
    assert up(2, 4, 8, 8, 10, CLEAR) == [8, 8, 10]  # the plain Clear stays in hand
    assert up(1, 1, CLEAR, CLEAR, CLEAR, CLEAR) == [1, 1, CLEAR]
    assert up(2, 7, 8, CLEAR, CLEAR2, CLEAR2) == [CLEAR, CLEAR2, CLEAR2]  # no pair: greedy's
    laid_pairs = 0
    for seed in range(400):
        state = GameState.new([f"p{s}" for s in range(2 + seed % 5)], seed=seed)
        for seat in range(state.n):
            six = list(state.setup_hand(seat))
            chosen = thrifty_face_up(six)
            for kind in chosen:
                six.remove(kind)  # raises if it names a card not held (or twice)
            ranks = [RANK_OF[k] for k in state.setup_hand(seat)]
            assert sorted(RANK_OF[k] for k in chosen) == _thrifty_set_up_by_the_words(ranks), [
                CODES[k] for k in state.setup_hand(seat)
            ]
            laid_pairs += len({RANK_OF[k] for k in chosen}) < 3
    assert laid_pairs > 300


def test_play_out_finishes_a_game_from_set_up() -> None:
    """Seats that have not chosen face-up cards choose greedy's, then all play."""
    state = GameState.new(["a", "b", "c", "d"], seed=8)
    state.choose_face_up(2, state.setup_hand(2)[:3])
    expected = [greedy_face_up(state.setup_hand(s)) for s in range(4)]
    play_out(state, random.Random(1))
    assert state.phase == Phase.OVER and state.count_cards() == 74
    assert [state.setup[s] for s in (0, 1, 3)] == [expected[s] for s in (0, 1, 3)]


def test_the_inlined_greedy_play_out_plays_greedy_choice() -> None:
    """play_out inlines greedy's rule for speed; any other policy takes the
    plain loop: both must play the same games."""
    for seed in range(150):
        state = GameState.new([f"p{s}" for s in range(2 + seed % 4)], seed=seed)
        fast, plain = state.clone(), state.clone()
        play_out(fast, random.Random(0))
        play_out(
            plain,
            random.Random(0),
            lambda st, legal, rng: greedy_choice(legal, st.hand_size[st.seat]),
        )
        assert fast.snapshot() == plain.snapshot()
