"""Fast policies on action ids: greedy's rule, and the search's rollouts.

The legal actions come from :meth:`GameState.legal_actions` (or a view's
``legal``, which is the same list): plays by rank, then by count, both
ascending; then DRAW; then PICKUP; or the face-down flips.  The policies
read that order instead of sorting.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from ..rules.actions import DRAW, FLIP, play_action
from ..rules.cards import CLEAR, CLEAR1, CLEAR2, RANK_OF
from ..rules.state import GameState, Phase

PLAY_CLEAR: Final = play_action(CLEAR, 1)
PLAY_CLEAR1: Final = play_action(CLEAR1, 1)
PLAY_CLEAR2: Final = play_action(CLEAR2, 1)
FIRST_CLEAR_ACTION: Final = play_action(CLEAR, 0)  # every id below plays numbers

# Which Clear greedy plays when no number can go, by rank: one with extra
# discards while there are cards to dump after it, the plain Clear otherwise.
# (bots/rollout.py and bots/inference.py read greedy's rule from these too.)
# The *thrifty* rule (the expert's own, in its rollouts) plays the plain
# Clear first always and keeps Clear +1 and +2 for later (and holds back
# high copies: SPLIT_FROM below).  Measured on ranks over 20,000 deals it
# wins 54.2% heads-up against greedy, 27.0% as one of four
# (benchmarks/bots.py: rollout_policies; with the plain Clear first alone,
# 54.3% and 26.6%).
CLEARS_WITH_CARDS_LEFT: Final = (CLEAR1, CLEAR2, CLEAR)
CLEARS_OTHERWISE: Final = (CLEAR, CLEAR1, CLEAR2)
# The thrifty rule keeps back the other copies of a 9 or 10 while the draw
# pile lasts: a high card held is a card that can go on a high pile later.
# Measured on ranks, one seat against greedy's, the same 100,000 deals each
# way: 27.6% as one of four against 27.1% playing every copy, heads-up 54.8%
# against 54.2%.  (Over 40,000 other deals as one of four: from 8 the same,
# from 10 less, and kept up after the draw pile is out it loses.)
SPLIT_FROM: Final = 9
_PLAY_CLEARS_WITH_CARDS_LEFT: Final = tuple(play_action(r, 1) for r in CLEARS_WITH_CARDS_LEFT)
_PLAY_CLEARS_OTHERWISE: Final = tuple(play_action(r, 1) for r in CLEARS_OTHERWISE)

_SETUP_RANK: Final = {CLEAR2: 16, CLEAR1: 15, CLEAR: 14}


def setup_value(rank: int) -> int:
    """How strong greedy holds a rank at set-up: numbers by number, then
    Clear, Clear +1, Clear +2."""
    return _SETUP_RANK.get(rank, rank)


_SETUP_VALUE: Final = tuple(setup_value(rank) for rank in RANK_OF)


def greedy_choice(
    legal: Sequence[int], hand_size: int, thrifty: bool = False, drawing: bool = False
) -> int:
    """Greedy's action: draw when the draw is open; else the lowest number,
    every copy at once; else a Clear (see above); else the first face-down
    card; else pick up.  The ``thrifty`` rule differs twice: the plain Clear
    first, and while the draw pile lasts (``drawing``) a 9 or a 10 one copy
    at a time (see SPLIT_FROM)."""
    first = legal[0]
    if first < FIRST_CLEAR_ACTION:
        if DRAW in legal:
            return DRAW
        rank = first >> 3
        if thrifty and drawing and rank >= SPLIT_FROM:
            return first  # one copy: the actions of a rank go by count
        best = first
        for action in legal:
            if action >> 3 != rank:
                break
            best = action
        return best
    if DRAW in legal:
        return DRAW
    if first < FLIP:
        keen = hand_size > 1 and not thrifty
        for action in _PLAY_CLEARS_WITH_CARDS_LEFT if keen else _PLAY_CLEARS_OTHERWISE:
            if action in legal:
                return action
    return first  # a flip (any slot: all are unseen) or the pick-up


def greedy_face_up(kinds: Sequence[int]) -> tuple[int, int, int]:
    """Greedy's set-up: the three strongest cards face up (Clears, then high numbers)."""
    best = sorted(kinds, key=lambda k: _SETUP_VALUE[k], reverse=True)[:3]
    return (best[0], best[1], best[2])


def thrifty_face_up(kinds: Sequence[int]) -> tuple[int, int, int]:
    """The expert's own set-up rule, the set-up search's default: a pair of
    numbers face up (the highest pair held), and as the third card a
    Clear +2 or +1 if held, else the pair's third copy, else the highest
    number left (the plain Clear stays in the hand, where the thrifty rule
    plays it first); with no pair, greedy's three strongest cards.

    A pair face up goes in one discard, in the endgame where every discard
    counts (and three alike clear the pile).  A set-up search of 20,000
    rollouts (all choices together) at four seats chose a pair face up in
    177 of the 184 deals (of 300) that held one, and this rule's three cards
    in 144.
    Measured on ranks, one seat by the thrifty rule against greedy's, the
    same 100,000 deals each way: 29.8% as one of four against 27.4% with
    greedy's set-up, heads-up 56.2% against 54.8%."""
    by_rank: dict[int, list[int]] = {}
    for kind in kinds:
        by_rank.setdefault(RANK_OF[kind], []).append(kind)
    pairs = [rank for rank, held in by_rank.items() if rank < CLEAR and len(held) >= 2]
    if not pairs:
        return greedy_face_up(kinds)
    pair = by_rank[max(pairs)]
    rest = list(kinds)
    for kind in pair[:2]:
        rest.remove(kind)  # one copy each: two cards may be of one kind
    boosts = [kind for kind in rest if RANK_OF[kind] > CLEAR]
    if boosts:
        third = max(boosts, key=RANK_OF.__getitem__)
    elif len(pair) >= 3:
        third = pair[2]
    else:
        numbers = [kind for kind in rest if RANK_OF[kind] < CLEAR]
        third = max(numbers or rest, key=RANK_OF.__getitem__)
    return (pair[0], pair[1], third)


Policy = Callable[[GameState, list[int], random.Random], int]


def greedy_policy(state: GameState, legal: list[int], rng: random.Random) -> int:
    return greedy_choice(legal, state.hand_size[state.seat])


def _rule_choice(state: GameState, legal: list[int], thrifty: int | None) -> int:
    """Greedy's rule for the seat to act, the thrifty one if it is ``thrifty``."""
    mine = state.seat == thrifty
    drawing = mine and state.draw_size() > 0  # it matters to the thrifty rule only
    return greedy_choice(legal, state.hand_size[state.seat], mine, drawing)


def thrifty_policy(seat: int) -> Policy:
    """Greedy's rule at every seat, the thrifty one at ``seat``."""

    def policy(state: GameState, legal: list[int], rng: random.Random) -> int:
        return _rule_choice(state, legal, seat)

    return policy


def erratic_policy(chance: Sequence[float], thrifty: int | None = None) -> Policy:
    """Greedy's rule, except that seat ``s`` plays a random legal action
    with probability ``chance[s]`` (a model of players who do not play
    greedy's way), and seat ``thrifty`` plays the thrifty rule."""

    def policy(state: GameState, legal: list[int], rng: random.Random) -> int:
        p = chance[state.seat]
        if p and rng.random() < p:
            return legal[int(rng.random() * len(legal))]
        return _rule_choice(state, legal, thrifty)

    return policy


def play_out(state: GameState, rng: random.Random, policy: Policy = greedy_policy) -> None:
    """Play ``state`` to its end: every seat by ``policy``, set-up too."""
    if state.phase == Phase.SETUP:
        for seat in range(state.n):
            if state.setup[seat] is None:
                state.choose_face_up(seat, greedy_face_up(state.setup_hand(seat)))
    legal_actions = state.legal_actions
    apply = state.apply
    playing = Phase.PLAY
    if policy is greedy_policy:
        # The common case, with greedy's rule inlined: rollouts are most of
        # a search's time, and two calls a move are a good part of theirs.
        hand_size = state.hand_size
        while state.phase is playing:
            legal = legal_actions()
            first = legal[0]
            if len(legal) == 1:
                apply(first)
            elif first < FIRST_CLEAR_ACTION and legal[-1] < DRAW and legal[-2] < DRAW:
                rank = first >> 3
                best = first
                for action in legal:
                    if action >> 3 != rank:
                        break
                    best = action
                apply(best)
            else:
                apply(greedy_choice(legal, hand_size[state.seat]))
        return
    while state.phase is playing:
        legal = legal_actions()
        apply(policy(state, legal, rng) if len(legal) > 1 else legal[0])
