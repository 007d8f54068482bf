"""Inference from public events (bots/inference.py).

The certain beliefs (forced pick-ups) must never rule out the real hand; the
likely ones (greedy's way of playing) must not either when the others do
play greedy's way; samples still show the seat exactly its view.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from positions import set_up

from threeup_tui.bots.inference import InformedDealer, erratic, replay_beliefs
from threeup_tui.bots.policy import greedy_choice
from threeup_tui.rules import GameState, Move, Options, Phase, seat_view
from threeup_tui.rules.cards import CODES, RANK_OF, parse_code


def _unseen_hand(state: GameState, seat: int) -> list[int]:
    held = Counter(state.hand_kinds(seat))
    held.subtract(Counter(state.known_kinds(seat)))
    return list((+held).elements())


def _fits(cards: list[int], masks: tuple[int, ...]) -> bool:
    """Whether the cards can be given one to each mask (a bipartite matching)."""
    if len(cards) != len(masks):
        return False
    owner: dict[int, int] = {}

    def place(i: int, tried: set[int]) -> bool:
        for j, mask in enumerate(masks):
            if mask >> RANK_OF[cards[i]] & 1 and j not in tried:
                tried.add(j)
                if j not in owner or place(owner[j], tried):
                    owner[j] = i
                    return True
        return False

    return all(place(i, set()) for i in range(len(cards)))


def _games(players: int, count: int, random_seats: tuple[int, ...], options: Options | None):
    """Positions (every seventh move) of games where ``random_seats`` play at
    random and the others greedy's way."""
    for seed in range(count):
        state = set_up(players, 300 + seed, options)
        rng = random.Random(seed)
        while state.phase == Phase.PLAY:
            if state.moves_played % 7 == 3:
                yield state
            legal = state.legal_actions()
            if state.seat in random_seats:
                state.apply(rng.choice(legal))
            else:
                state.apply(greedy_choice(legal, state.hand_size[state.seat]))


def test_beliefs_never_rule_out_the_real_hands() -> None:
    checked = {"certain": 0, "likely": 0}
    for players, random_seats, options in (
        (2, (), None),
        (4, (), None),
        (3, (1,), None),
        (2, (0, 1), Options(voluntary_pickup=True)),
    ):
        for state in _games(players, 12, random_seats, options):
            viewer = state.seat
            beliefs = replay_beliefs(seat_view(state, viewer, log_length=None))
            assert beliefs is not None
            for seat, certain in beliefs.certain.items():
                cards = _unseen_hand(state, seat)
                assert _fits(cards, certain), (seat, cards, certain)
                checked["certain"] += 1
                if seat not in random_seats:  # greedy's way of playing: the model holds
                    both = tuple(
                        c & lk for c, lk in zip(certain, beliefs.likely[seat], strict=True)
                    )
                    assert _fits(cards, both), (seat, cards, both)
                    checked["likely"] += 1
    assert min(checked.values()) > 300, checked


def test_greedy_seats_are_trusted_and_random_ones_less() -> None:
    """Trust (the chance a sample applies the likely ranks) and the erratic
    share (how often rollouts play a seat at random) follow how the seat's
    plays agreed with greedy's rule."""
    trust: dict[str, list[float]] = {"greedy": [], "random": []}
    wild: dict[str, list[float]] = {"greedy": [], "random": []}
    for state in _games(2, 20, (1,), None):
        if state.moves_played < 40:
            continue
        for viewer, other, name in ((0, 1, "random"), (1, 0, "greedy")):
            beliefs = replay_beliefs(seat_view(state, viewer, log_length=None))
            assert beliefs is not None
            trust[name].append(beliefs.trust[other])
            wild[name].append(erratic(*beliefs.evidence[other]))
    mean = {k: sum(v) / len(v) for k, v in trust.items()}
    assert mean["greedy"] > 0.9 > mean["greedy"] - 0.3 > mean["random"], mean
    assert max(wild["greedy"]) == 0.0
    assert sum(wild["random"]) / len(wild["random"]) > 0.3


def test_informed_samples_show_the_same_view_and_follow_the_beliefs() -> None:
    rng = random.Random(3)
    for state in _games(3, 6, (), None):
        viewer = (state.seat + 1) % state.n
        view = seat_view(state, viewer, log_length=None)
        dealer = InformedDealer(view)
        assert dealer.beliefs is not None
        for _ in range(3):
            sample = dealer.sample(rng)
            assert seat_view(sample, viewer, log_length=None) == view
            assert sample.count_cards() == 74
            for seat, certain in dealer.beliefs.certain.items():
                assert _fits(_unseen_hand(sample, seat), certain)


def _forced_pickup(voluntary: bool) -> GameState:
    """Seat 0 plays its highest card; seat 1 picks up (forced, unless voluntary)."""
    for seed in range(200):
        state = set_up(2, seed, Options(voluntary_pickup=voluntary, first=0))
        high = max(
            (k for k in state.hand_kinds(0) if RANK_OF[k] <= 10),
            key=lambda k: RANK_OF[k],
            default=None,
        )
        if high is None or RANK_OF[high] < 6:
            continue
        state.apply_move(Move.play(0, [CODES[high]]))
        if state.legal_actions() == [120] or voluntary:
            state.apply_move(Move.pickup(1))
            return state
    raise AssertionError("no deal found")


def test_a_forced_pickup_is_certain_and_a_voluntary_one_says_nothing() -> None:
    forced = _forced_pickup(False)
    top = RANK_OF[parse_code(seat_view(forced, 0, None).log[0].cards[0])]
    beliefs = replay_beliefs(seat_view(forced, 0, log_length=None))
    assert beliefs is not None
    below = sum(1 << r for r in range(1, top))
    assert beliefs.certain[1] and all(mask == below for mask in beliefs.certain[1])
    free = replay_beliefs(seat_view(_forced_pickup(True), 0, log_length=None))
    assert free is not None and all(mask == 0b11111111111110 for mask in free.certain[1])


def test_a_short_or_inconsistent_log_gives_no_beliefs() -> None:
    state = next(s for s in _games(2, 1, (), None) if s.moves_played > 20)
    assert replay_beliefs(seat_view(state, 0, log_length=12)) is None
    view = seat_view(state, 0, log_length=None)
    moved = view.log[:5] + view.log[6:] + view.log[5:6]  # one move out of its place
    assert moved != view.log and replay_beliefs(replace(view, log=moved)) is None
    dealer = InformedDealer(seat_view(state, 0, log_length=12))
    assert dealer.beliefs is None
    assert seat_view(dealer.sample(random.Random(1)), 0, 12) == seat_view(state, 0, 12)
