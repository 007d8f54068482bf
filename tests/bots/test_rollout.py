"""The rank-only greedy playout (bots/rollout.py) plays exactly the engine's game.

The search trusts its winners blindly, so the check is broad: positions from
every table size, reached by a mix of greedy and random moves (pick-ups,
failed flips, Clear +2 chains and draw windows all come up), with the
options that change the flow, from the set-up and from the middle of a turn.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st
from positions import choices

from threeup_tui.bots import ExpertBot
from threeup_tui.bots.inference import InformedDealer
from threeup_tui.bots.ismcts import SearchConfig, canonical, rollout
from threeup_tui.bots.paired import paired_search
from threeup_tui.bots.policy import greedy_choice, greedy_face_up, play_out, thrifty_policy
from threeup_tui.bots.rollout import (
    greedy_winner,
    laid_ranks,
    lookahead_winner,
    play_ranks,
    plays_on_ranks,
    rank_actions,
    ranks_of,
)
from threeup_tui.rules import FLIP, PICKUP, GameState, Options, Phase, seat_view


def _position(n: int, seed: int, moves: int, randomness: float, voluntary: bool) -> GameState:
    """A game at set-up (``moves`` < 0) or after ``moves`` moves, each greedy's
    or, with probability ``randomness``, a random legal one."""
    rng = random.Random(seed)
    options = Options(voluntary_pickup=voluntary)
    state = GameState.new([f"p{s}" for s in range(n)], options, seed=seed)
    if moves < 0:
        for s in range(0, n, 2):  # some seats have chosen, the others have not
            state.choose_face_up(s, rng.sample(state.setup_hand(s), 3))
        return state
    for s in range(n):
        hand = state.setup_hand(s)
        laid = rng.sample(hand, 3) if rng.random() < randomness else greedy_face_up(hand)
        state.choose_face_up(s, laid)
    for _ in range(moves):
        if state.phase != Phase.PLAY:
            break
        legal = state.legal_actions()
        if rng.random() < randomness:
            state.apply(rng.choice(legal))
        else:
            state.apply(greedy_choice(legal, state.hand_size[state.seat]))
    return state


def _engine_winner(state: GameState, thrifty: int | None = None) -> int | None:
    """The winner by the engine: greedy's rule, the thrifty one at ``thrifty``."""
    copy = state.clone()
    if thrifty is None:
        play_out(copy, random.Random(0))
    else:
        play_out(copy, random.Random(0), thrifty_policy(thrifty))
    assert copy.phase == Phase.OVER
    return copy.winner


@settings(max_examples=400, deadline=None)
@given(
    n=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    moves=st.integers(-1, 400),
    randomness=st.sampled_from([0.0, 0.3, 1.0]),
    voluntary=st.booleans(),
    thrifty=st.one_of(st.none(), st.integers(0, 5)),
)
def test_the_rank_only_playout_has_the_engines_winner(
    n: int, seed: int, moves: int, randomness: float, voluntary: bool, thrifty: int | None
) -> None:
    state = _position(n, seed, moves, randomness, voluntary)
    before = state.snapshot()
    seat = None if thrifty is None else thrifty % n
    assert greedy_winner(state, seat) == _engine_winner(state, seat)
    assert state.snapshot() == before  # the position itself is untouched


def test_the_rank_only_playout_agrees_from_thousands_of_positions() -> None:
    """A fixed sweep beside the property test, so every run covers the same
    ground: 3,000 positions, every move count from the first to the end."""
    checked = 0
    for seed in range(600):
        n = 2 + seed % 5
        for moves in (0, 7, 25, 60, 140):
            state = _position(n, seed, moves, (0.0, 0.3, 1.0)[seed % 3], seed % 4 == 0)
            thrifty = None if seed % 2 else (seed // 2) % n  # or one seat thrifty
            assert greedy_winner(state, thrifty) == _engine_winner(state, thrifty), (n, seed, moves)
            checked += 1
    assert checked == 3000


def test_every_action_played_on_ranks_has_the_engines_winner() -> None:
    """The paired search plays each action on the deal's ranks
    (play_ranks with an action, rank_actions to list them): from positions
    of every table size, each legal action, applied on ranks, must lead to
    the winner the engine reaches by applying it and playing on; and the
    actions listed on ranks are the engine's, in its order."""
    checked = 0
    for seed in range(240):
        n = 2 + seed % 5
        for moves in (0, 20, 70, 150):
            state = _position(n, seed, moves, (0.0, 0.3, 1.0)[seed % 3], seed % 4 == 0)
            if state.phase != Phase.PLAY:
                continue
            base = ranks_of(state)
            assert rank_actions(base) == state.legal_actions(), (n, seed, moves)
            thrifty = None if seed % 2 else state.seat
            for action in state.legal_actions():
                engine = _engine_winner(_applied(state, action), thrifty)
                assert play_ranks(base.copy(), thrifty, action) == engine, (n, seed, moves, action)
                checked += 1
    assert checked >= 2000


def test_every_face_up_choice_laid_on_ranks_has_the_engines_winner() -> None:
    """The set-up search lays each face-up choice it tries on the deal's
    ranks (laid_ranks, in place of the greedy choice ranks_of lays): for
    every choice of three of a seat's six cards, at every table size, the
    playout on ranks must reach the winner the engine reaches by laying it."""
    checked = 0
    for seed in range(60):
        n = 2 + seed % 5
        state = GameState.new([f"p{s}" for s in range(n)], seed=seed)
        seat = seed % n
        kinds = state.setup_hand(seat)
        thrifty = None if seed % 2 else seat
        base = ranks_of(state)
        for trio in {tuple(sorted(t)) for t in combinations(kinds, 3)}:
            laid = state.clone()
            laid.choose_face_up(seat, trio)
            on_ranks = base.copy()
            on_ranks.hand[seat], on_ranks.up[seat] = laid_ranks(kinds, trio)
            assert play_ranks(on_ranks, thrifty) == _engine_winner(laid, thrifty), (seed, trio)
            checked += 1
    assert checked >= 600


def test_a_stalemate_is_no_winner_and_a_finished_game_keeps_its_own() -> None:
    state = _position(3, 5, 30, 0.0, False)
    state.turns = 999  # the next turn's end reaches the cap (D16)
    assert greedy_winner(state) is None
    assert _engine_winner(state) is None
    done = _position(2, 3, 1000, 0.0, False)
    assert done.phase == Phase.OVER
    assert greedy_winner(done) == done.winner


def test_places_games_are_played_by_the_engine() -> None:
    """With ``finish: places`` the others' order matters: the search's
    rollout leaves it to play_out and rewards every place."""
    state = GameState.new(["a", "b", "c"], Options(finish="places"), seed=4)
    assert not plays_on_ranks(state)
    result = rollout(state, random.Random(0), SearchConfig())
    assert sorted(result) == [0.0, 0.5, 1.0]
    assert plays_on_ranks(GameState.new(["a", "b"], seed=4))


def test_the_search_weighs_every_action_alike_on_ranks_and_by_the_engine() -> None:
    """The paired search takes the rank-only playout for greedy's rollouts:
    on the same deals it must find the very same results as through the
    engine (the set-up search and the ismcts tree too).  The searching seat
    plays the thrifty rule in both, the others greedy's.  (The endgame's
    lookahead is played on ranks only: off here, tested below.)"""
    for state in [*choices(2, 6, seed=3), *choices(4, 6, seed=4)]:
        view = seat_view(state, state.seat)
        engine = thrifty_policy(state.seat)  # not greedy_policy: played by the engine
        plain = SearchConfig(lookahead=False)
        for config in (plain, replace(plain, mode="ismcts")):
            fast_bot = ExpertBot(seed=9, iterations=200, config=config)
            slow_bot = ExpertBot(seed=9, iterations=200, config=replace(config, policy=engine))
            assert fast_bot.choose_action(view) == slow_bot.choose_action(view)
    setup = GameState.new(["a", "b", "c"], seed=12)
    view = seat_view(setup, 1)
    fast_bot, slow_bot = (
        ExpertBot(seed=2, iterations=400),
        ExpertBot(seed=2, iterations=400, config=SearchConfig(policy=thrifty_policy(1))),
    )
    assert fast_bot.choose_face_up(view) == slow_bot.choose_face_up(view)


def _engine_lookahead(state: GameState, seat: int) -> bool:
    """Whether ``seat`` wins by looking one decision ahead, through the
    engine: the rules up to its next real choice, then every action of it
    played out by the engine (the thrifty rule at ``seat``)."""
    copy = state.clone()
    policy = thrifty_policy(seat)
    rng = random.Random(0)
    while copy.phase == Phase.PLAY:
        legal = copy.legal_actions()
        flips_only = all(FLIP <= a < PICKUP for a in legal)
        if copy.seat == seat and len(legal) > 1 and not flips_only:
            break
        copy.apply(policy(copy, legal, rng) if len(legal) > 1 else legal[0])
    else:
        return copy.winner == seat
    return any(_engine_winner(_applied(copy, a), seat) == seat for a in legal)


def _applied(state: GameState, action: int) -> GameState:
    copy = state.clone()
    copy.apply(action)
    return copy


def test_the_lookahead_finds_the_engines_wins_and_never_fewer_than_the_rule() -> None:
    """bots/rollout.py: lookahead_winner, from endgames of every table size
    (the draw pile out, as the paired search uses it): the seat wins exactly
    when one of its next choices wins through the engine; it wins wherever
    the thrifty rule alone wins (the rule's own choice is among those
    tried), and in some positions where the rule loses."""
    checked = gained = 0
    for seed in range(500):
        n = 2 + seed % 3
        state = _position(n, seed, 80 + seed % 60, (0.0, 0.3)[seed % 2], False)
        if state.phase != Phase.PLAY or state.draw_size():
            continue
        before = state.snapshot()
        for seat in range(n):
            deep = lookahead_winner(state, seat) == seat
            assert deep == _engine_lookahead(state, seat), (n, seed, seat)
            plain = greedy_winner(state, seat) == seat
            assert deep or not plain, (n, seed, seat)
            gained += deep and not plain
            checked += 1
        assert state.snapshot() == before
    assert checked >= 180
    assert gained >= 8


def test_the_paired_search_reads_the_lookahead_once_the_draw_pile_is_out() -> None:
    """On the same deals, the paired search's value of each action is the
    share of deals its rollouts win: by lookahead_winner in the endgame
    (SearchConfig.lookahead, the default), by greedy_winner before it and
    with the lookahead off."""
    seen_endgame = seen_before = 0
    for state in [*choices(2, 10, seed=21), *choices(3, 10, seed=22)]:
        seat = state.seat
        view = seat_view(state, seat)
        actions = canonical(list(view.legal))
        if len(actions) < 2:
            continue
        endgame = not state.draw_size()
        seen_endgame += endgame
        seen_before += not endgame
        for lookahead in (True, False):
            config = SearchConfig(lookahead=lookahead)
            rounds = 8  # below min_rounds: no action is dropped
            dealer = InformedDealer(view)
            result = paired_search(
                dealer, actions, random.Random(5), rounds * len(actions), None, config
            )
            rng = random.Random(5)
            wins = dict.fromkeys(actions, 0)
            for _ in range(rounds):
                deal = dealer.sample(rng)
                rng.getrandbits(62)
                for action in actions:
                    after = _applied(deal, action)
                    if lookahead and endgame:
                        winner = lookahead_winner(after, seat)
                    else:
                        winner = greedy_winner(after, seat)
                    wins[action] += winner == seat
            assert result.values == {a: wins[a] / rounds for a in actions}
    assert seen_endgame >= 3 and seen_before >= 3
