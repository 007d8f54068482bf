"""The expert bot: legal, quick when there is nothing to think about, pure,
and honest (it decides from its seat's view alone).

Strength is not tested here: it is a benchmark (benchmarks/bots.py).
"""

from __future__ import annotations

import multiprocessing
import pickle
import random
import time

import pytest
from positions import choices, set_up

from threeup_tui.bots import BOT_LEVELS, ExpertBot, make_bot
from threeup_tui.bots.ismcts import SearchConfig, search
from threeup_tui.bots.policy import (
    FIRST_CLEAR_ACTION,
    PLAY_CLEAR,
    PLAY_CLEAR1,
    greedy_choice,
    greedy_face_up,
    thrifty_face_up,
)
from threeup_tui.rules import DRAW, FLIP, GameState, Phase, seat_view
from threeup_tui.rules.actions import PICKUP
from threeup_tui.rules.cards import RANK_OF, parse_code
from threeup_tui.rules.search import Determinizer

ITERATIONS = 150  # enough to make real choices, few enough to keep the tests short


def test_the_contract_of_make_bot() -> None:
    assert list(BOT_LEVELS) == ["random", "greedy", "expert"]
    expert = make_bot("expert", 3)
    assert isinstance(expert, ExpertBot) and expert.thinks
    assert expert.think_ms == 250 and expert.iterations is None
    assert make_bot("expert", 3, think_ms=40).think_ms == 40
    assert make_bot("expert", 3, iterations=10).iterations == 10
    for level in ("random", "greedy"):
        bot = make_bot(level, 1, think_ms=40, iterations=5)
        assert bot.thinks is False
    with pytest.raises(ValueError, match="expert"):
        make_bot("grandmaster")


def test_every_answer_is_legal_through_a_whole_game() -> None:
    state = GameState.new(["e", "g"], seed=5)
    expert = make_bot("expert", 5, iterations=40)
    greedy = make_bot("greedy", 5)
    for s, bot in enumerate((expert, greedy)):
        chosen = bot.choose_face_up(seat_view(state, s))
        assert sorted(chosen) != [] and all(c in seat_view(state, s).hand for c in chosen)
        state.choose_face_up_codes(s, chosen)
    while state.phase == Phase.PLAY:
        s = state.seat
        state.apply_move((expert, greedy)[s].choose_move(seat_view(state, s)))
    assert state.phase == Phase.OVER


def test_a_forced_or_indifferent_decision_is_answered_at_once() -> None:
    """One legal action, or only face-down flips (all unseen, so alike)."""
    expert = ExpertBot(1, think_ms=10_000)
    found = {"forced": False, "flips": False}
    for state in _forced_or_flips():
        view = seat_view(state, state.seat)
        start = time.perf_counter()
        action = expert.choose_action(view)
        assert time.perf_counter() - start < 0.5
        assert expert.last_iterations == 0 and action == view.legal[0]
        found["forced" if len(view.legal) == 1 else "flips"] = True
    assert all(found.values()), found


def _forced_or_flips() -> list[GameState]:
    """Six positions with one legal action, six with only flips (of two or three)."""
    forced: list[GameState] = []
    flips: list[GameState] = []
    for seed in range(200):
        state = set_up(2, seed)
        rng = random.Random(seed)
        while state.phase == Phase.PLAY:
            legal = state.legal_actions()
            if len(legal) == 1 and len(forced) < 6:
                forced.append(state.clone())
            elif len(legal) > 1 and all(FLIP <= a < PICKUP for a in legal) and len(flips) < 6:
                flips.append(state.clone())
            state.apply(rng.choice(legal))
        if len(forced) == len(flips) == 6:
            break
    return forced + flips


def test_the_face_up_choice_is_searched_among_distinct_choices() -> None:
    state = GameState.new(["a", "b", "c"], seed=12)
    view = seat_view(state, 1)
    expert = ExpertBot(4, iterations=60)
    chosen = expert.choose_face_up(view)
    assert 0 < expert.last_iterations <= 60
    hand = list(view.hand)
    for card in chosen:
        hand.remove(card)  # raises if the bot named a card it does not hold
    assert expert.choose_face_up(view) == chosen


def test_the_set_up_search_keeps_the_pair_rule_unless_clearly_beaten() -> None:
    """At four seats, with one deal to search, no choice can lead clearly:
    the expert lays its own rule's cards (a pair face up), not greedy's."""
    differ = 0
    for seed in range(60):
        state = GameState.new(["a", "b", "c", "d"], seed=seed)
        view = seat_view(state, 2)
        kinds = [parse_code(c) for c in view.hand]
        chosen = ExpertBot(seed=seed, iterations=1).choose_face_up(view)
        ranks = sorted(RANK_OF[parse_code(c)] for c in chosen)
        assert ranks == sorted(RANK_OF[k] for k in thrifty_face_up(kinds))
        differ += ranks != sorted(RANK_OF[k] for k in greedy_face_up(kinds))
    assert differ >= 20  # the rule is not greedy's


# ------------------------------------------------------------------ purity
def test_the_same_seed_and_view_give_the_same_decision() -> None:
    for state in choices(3, 4, seed=1):
        view = seat_view(state, state.seat, log_length=None)
        first = ExpertBot(9, iterations=ITERATIONS).choose_move(view)
        again = ExpertBot(9, iterations=ITERATIONS)
        other = choices(2, 1, seed=2)[0]
        again.choose_move(seat_view(other, other.seat, log_length=None))  # another decision first
        assert again.choose_move(view) == first


def _decide_in_another_process(blob: bytes, view_blob: bytes) -> object:
    return pickle.loads(blob).choose_move(pickle.loads(view_blob))


def test_a_pickled_copy_in_another_process_decides_the_same() -> None:
    states = choices(2, 3, seed=3)
    bot = ExpertBot(None, iterations=ITERATIONS)  # no seed given: it draws one and keeps it
    views = [seat_view(s, s.seat, log_length=None) for s in states]
    here = [bot.choose_move(v) for v in views]
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        there = pool.starmap(
            _decide_in_another_process, [(pickle.dumps(bot), pickle.dumps(v)) for v in views]
        )
    assert there == here


# ----------------------------------------------------------------- honesty
class _Peek:
    """A cheat's "determinizer": the real state itself, hidden cards and all."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.seat = state.seat

    def sample(self, rng: random.Random) -> GameState:
        return self.state.clone()


def test_states_that_differ_only_in_unseen_cards_get_the_same_decision() -> None:
    """The expert's seat sees the same view of two states whose hidden cards
    differ (the second is the first with every unseen card dealt afresh);
    with the same seed it makes the same decision.  A search that read the
    real hidden cards (the cheat below) decides differently on some pairs,
    so the pairs do tell an honest bot from a peeking one."""
    cheat_differs = 0
    pairs = 0
    for i, state in enumerate(choices(2, 8, seed=4) + choices(4, 4, seed=5)):
        seat = state.seat
        view = seat_view(state, seat, log_length=None)  # the whole log, as the expert reads
        twin = Determinizer(view).sample(random.Random(i))
        assert seat_view(twin, seat, log_length=None) == view
        assert _hidden(twin, seat) != _hidden(state, seat), "the twin must hide other cards"
        bot = ExpertBot(11, iterations=ITERATIONS)
        assert bot.choose_move(seat_view(state, seat, log_length=None)) == bot.choose_move(
            seat_view(twin, seat, log_length=None)
        )
        pairs += 1
        peeks = [
            search(_Peek(s), random.Random(i), ITERATIONS, None).action  # type: ignore[arg-type]
            for s in (state, twin)
        ]
        cheat_differs += peeks[0] != peeks[1]
    assert pairs == 12 and cheat_differs >= 1


def _hidden(state: GameState, seat: int) -> tuple[object, ...]:
    others = tuple(tuple(state.hand[s]) for s in range(state.n) if s != seat)
    downs = tuple(tuple(d) for d in state.down)
    return others, downs, state.deck[state.draw_pos :]


def _clears_only(n: int) -> GameState:
    """A position where the seat to act holds Clear and Clear +1 (and more)
    but no number it can play: greedy's rule and the thrifty one part."""
    rng = random.Random(n)
    for seed in range(2000):
        state = set_up(n, seed)
        while state.phase == Phase.PLAY:
            legal = state.legal_actions()
            no_number = legal[0] >= FIRST_CLEAR_ACTION and DRAW not in legal
            both = PLAY_CLEAR in legal and PLAY_CLEAR1 in legal
            if no_number and both and state.hand_size[state.seat] > 1:
                return state
            state.apply(legal[0] if rng.random() < 0.3 else rng.choice(legal))
    raise AssertionError("no such position")


def test_the_experts_default_is_the_thrifty_rule() -> None:
    """At four seats a lead within the noise keeps the rollout rule's own
    choice: with one deal to search, the expert plays the plain Clear where
    greedy would play Clear +1."""
    state = _clears_only(4)
    view = seat_view(state, state.seat)
    assert greedy_choice(view.legal, len(view.hand)) == PLAY_CLEAR1
    assert ExpertBot(seed=1, iterations=1).choose_action(view) == PLAY_CLEAR
    greedy_minded = ExpertBot(seed=1, iterations=1, config=SearchConfig(thrifty=False))
    assert greedy_minded.choose_action(view) == PLAY_CLEAR1
