"""Paired root search: every candidate action tried on the same deals.

Each round deals one determinization (rules/search.py, through the dealer)
and plays every action still in the running on a copy of it, to the end,
by the rollout policy.  Since greedy's rule is deterministic, two actions
tried on the same deal differ only by what the actions themselves do: the
luck of the deal, by far the largest part of a result's spread, cancels out
of their difference (common random numbers).  An action whose paired
difference from the leader is clearly negative is dropped, so the rollouts
go to the actions that are still close; the search ends when the budget is
spent or one action is left.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from ..rules.state import GameState
from .ismcts import Dealer, SearchConfig, SearchResult, rewards
from .policy import play_out


def paired_search(
    dealer: Dealer,
    actions: Sequence[int] | range,
    rng: random.Random,
    iterations: int | None,
    deadline: float | None,
    config: SearchConfig = SearchConfig(),  # noqa: B008 (frozen)
    apply: Callable[[GameState, int], None] = GameState.apply,
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult:
    """The best of ``actions`` (applied by ``apply``) for the dealer's seat,
    within ``iterations`` rollouts or until ``deadline``."""
    seat = dealer.seat
    alive = list(actions)
    results: dict[int, list[float]] = {a: [] for a in alive}
    done = 0
    limit = iterations if iterations is not None else 1 << 62
    z = config.drop_z
    while len(alive) > 1 and done + len(alive) <= max(limit, len(alive)):
        if deadline is not None and done and clock() >= deadline:
            break
        deal = dealer.sample(rng)
        for action in alive:
            state = deal.clone()
            apply(state, action)
            play_out(state, rng, config.policy)
            results[action].append(rewards(state)[seat])
        done += len(alive)
        rounds = len(results[alive[0]])
        if rounds >= config.min_rounds and rounds % 4 == 0:
            alive = _survivors(alive, results, z)
    means = {a: sum(r) / len(r) for a, r in results.items() if r}
    best = max(alive, key=lambda a: (means.get(a, 0.0), -actions.index(a)))
    return SearchResult(best, done, {a: len(r) for a, r in results.items()}, means)


def _survivors(alive: list[int], results: dict[int, list[float]], z: float) -> list[int]:
    """The actions whose paired difference from the leader is not clearly below zero."""
    leader = max(alive, key=lambda a: sum(results[a]))
    lead = results[leader]
    keep = []
    for action in alive:
        if action == leader:
            keep.append(action)
            continue
        n = len(lead)
        diffs = [x - y for x, y in zip(lead, results[action], strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean <= 0 or (var > 0 and mean / math.sqrt(var / n) < z):
            keep.append(action)
    return keep
