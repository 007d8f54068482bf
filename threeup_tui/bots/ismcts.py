"""Information-set Monte Carlo tree search (Cowling, Powley, Whitehouse 2012).

SO-ISMCTS: one tree over the searching seat's information set.  Each
iteration deals a fresh determinization from the seat's view (never from the
real state: the search is handed a :class:`Dealer`, e.g. a ``Determinizer``), walks the tree
with the legal actions of that deal, adds one node, plays the deal out with a
fast policy and credits every node on the path with the result for the seat
that chose it.  A node's children are chosen by UCB1 over the children legal
in this deal, with *availability* counts in place of the parent's visits.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

from ..rules.actions import FLIP, PICKUP
from ..rules.state import GameState, Phase
from .policy import Policy, greedy_policy, play_out, thrifty_policy
from .rollout import greedy_winner, plays_on_ranks


class Dealer(Protocol):
    """Deals full states for one seat, from its view only (rules/search.py)."""

    seat: int

    def sample(self, rng: random.Random) -> GameState: ...


class Node:
    """Statistics of one action in the tree, for the seat that takes it."""

    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed over visits, for the seat that took the action
        self.avail = 1  # iterations in which the action was legal here


SEARCH_MODES: Final = ("paired", "ismcts")  # SearchConfig.mode


@dataclass(frozen=True, slots=True)
class SearchConfig:
    exploration: float = 0.7  # UCB1's constant
    policy: Policy = greedy_policy
    # The others' moves: in the tree (SO-ISMCTS, each chooses by UCB for
    # itself) or played by the policy, the tree keeping the seat's own
    # decisions only (its children keyed by the seat's actions).
    others_in_tree: bool = False
    # Deal the others' hands as public events suggest (bots/inference.py),
    # rather than uniformly.
    inference: bool = True
    # "ismcts" (this module) or "paired" (bots/paired.py: every action on
    # the same deals, the clearly worse dropped as it goes): SEARCH_MODES.
    mode: str = "paired"
    drop_z: float = 3.0  # paired: how clearly worse an action must be to go
    min_rounds: int = 16  # paired: deals before any action is dropped
    # paired: how clearly the best must beat the rollout policy's own choice
    # to be played instead (0: always the best), heads-up and at more seats.
    # Measured: heads-up the search's small leads are worth following; with
    # three others, whose hands it knows less of, they more often mislead.
    pick_z: float = 0.0
    pick_z_many: float = 3.0
    shaping: float = 0.0  # see rewards()
    # Model in the rollouts, as partly random, the seats whose plays do not
    # agree with greedy's rule (bots/inference.py: erratic).
    model_others: bool = True
    # The searching seat's own later moves in the rollouts, and the paired
    # search's default: the thrifty rule (bots/policy.py), which beats
    # greedy's, rather than greedy's.  (It changes greedy's policy and the
    # erratic model; any other policy plays as given.)
    thrifty: bool = True
    # paired, greedy's rollouts on ranks: once the draw pile is out, the
    # seat's own next decision in each rollout is searched one ply on the
    # deal (bots/rollout.py: lookahead_winner) rather than played by the
    # thrifty rule.  The endgame is where one card decides a game, and its
    # rollouts are short enough to afford it.
    lookahead: bool = True

    def thrifty_seat(self, seat: int | None) -> int | None:
        """The seat that plays the thrifty rule in the rollouts, if any."""
        return seat if self.thrifty else None


@dataclass(slots=True)
class SearchResult:
    action: int
    iterations: int
    visits: dict[int, int]
    values: dict[int, float]


def rewards(state: GameState, shaping: float = 0.0) -> list[float]:
    """Each seat's result in [0, 1]: the winner 1 (or places in order, for
    ``finish: places``), a stalemate 0 for all.  With ``shaping`` the others
    get up to that much by how few cards they were left with, which tells
    a close loss from a rout (a smoother signal at many seats)."""
    n = state.n
    out = [0.0] * n
    if state.options.finish == "places" and state.places:
        for place, seat in enumerate(state.places):
            out[seat] = (n - 1 - place) / (n - 1)
        return out
    if state.winner is not None:
        out[state.winner] = 1.0
    if shaping:
        others = [s for s in range(n) if s != state.winner]
        if len(others) > 1:
            left = [state.hand_size[s] + state.up_size[s] + state.down_size[s] for s in range(n)]
            others.sort(key=left.__getitem__)
            for place, seat in enumerate(others):
                out[seat] = shaping * (len(others) - 1 - place) / (len(others) - 1)
    return out


def on_ranks(state: GameState, config: SearchConfig) -> bool:
    """Whether the config's rollouts of this game can go by bots/rollout.py
    (greedy's rule everywhere, plain rewards, ``finish: first_out``)."""
    return config.policy is greedy_policy and not config.shaping and plays_on_ranks(state)


def rollout(
    state: GameState, rng: random.Random, config: SearchConfig, me: int | None = None
) -> list[float]:
    """Play ``state`` to its end by the config's policy (the searching seat
    ``me`` by the thrifty rule, if the config says so); each seat's reward
    (:func:`rewards`).  Greedy's plain game goes by bots/rollout.py, on
    ranks alone and without changing ``state``; any other, by play_out."""
    thrifty = config.thrifty_seat(me)
    if on_ranks(state, config):
        out = [0.0] * state.n
        winner = greedy_winner(state, thrifty)
        if winner is not None:
            out[winner] = 1.0
        return out
    policy = config.policy
    if policy is greedy_policy and thrifty is not None:
        policy = thrifty_policy(thrifty)
    play_out(state, rng, policy)
    return rewards(state, config.shaping)


def canonical(legal: list[int]) -> list[int]:
    """Face-down flips are all alike to everyone (unseen cards): keep one."""
    first = legal[0]
    if FLIP <= first < PICKUP:
        return legal[:1]
    return legal


def search(
    dealer: Dealer,
    rng: random.Random,
    iterations: int | None,
    deadline: float | None,
    config: SearchConfig = SearchConfig(),
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult:
    """Search the seat's best action; stop after ``iterations`` or at ``deadline``."""
    root = Node()
    c = config.exploration
    policy = config.policy
    log = math.log
    sqrt = math.sqrt
    done = 0
    limit = iterations if iterations is not None else 1 << 62
    me = dealer.seat
    others_in_tree = config.others_in_tree
    while done < limit:
        if deadline is not None and done and clock() >= deadline:
            break
        state = dealer.sample(rng)
        node = root
        path: list[tuple[Node, int]] = []
        while state.phase is Phase.PLAY:
            legal = canonical(state.legal_actions())
            seat = state.seat
            if seat != me and not others_in_tree:
                state.apply(policy(state, legal, rng) if len(legal) > 1 else legal[0])
                continue
            children = node.children
            if len(legal) == 1:
                # A forced move: no choice to learn, so it costs no expansion.
                action = legal[0]
                child = children.get(action)
                if child is None:
                    child = children[action] = Node()
            else:
                untried = [a for a in legal if a not in children]
                if untried:
                    for a in legal:
                        if a in children:
                            children[a].avail += 1
                    action = untried[int(rng.random() * len(untried))]
                    child = children[action] = Node()
                    state.apply(action)
                    path.append((child, seat))
                    break
                best = -1.0
                action = legal[0]
                child = children[action]
                for a in legal:
                    ch = children[a]
                    ch.avail += 1
                    score = ch.reward / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if score > best:
                        best = score
                        action = a
                        child = ch
            state.apply(action)
            path.append((child, seat))
            node = child
        result = rollout(state, rng, config, me)
        for child, seat in path:
            child.visits += 1
            child.reward += result[seat]
        done += 1
    visits = {a: ch.visits for a, ch in root.children.items()}
    values = {a: ch.reward / ch.visits for a, ch in root.children.items() if ch.visits}
    action = max(visits, key=lambda a: (visits[a], values.get(a, 0.0)))
    return SearchResult(action, done, visits, values)
