"""The ``expert`` bot: information-set search from its seat's view.

Every decision deals many full games that agree with what the seat can see
(rules/search.py: the unseen cards, its own face-down cards included, go
into the unseen places; bots/inference.py weighs the others' hands by what
their public plays suggest) and searches them.  The default search
(``mode="paired"``, bots/paired.py) plays every legal action out on the
same deals, drops the clearly worse as it goes and plays the best; with
three or more seats it keeps its default unless the search's lead is
clear.  In the rollouts the others play greedy's rule and the seat itself
the thrifty rule (bots/policy.py: greedy's, but the plain Clear first and,
while the draw pile lasts, a 9 or 10 one copy at a time; it beats greedy's),
and the thrifty choice is the default too.  Once the draw
pile is out, each rollout tries the seat's own next decision every way on
its deal (bots/rollout.py: lookahead_winner): the endgame is where one card
decides a game.  The rollouts are played on ranks alone (bots/rollout.py),
about four times as fast as through the engine, and so is the action each
one tries (no copy of the engine's state per action).
``mode="ismcts"`` is SO-ISMCTS over the seat's own decisions
(bots/ismcts.py); measured heads-up it was no stronger (74-75% against
greedy at 500-1500 iterations, against 77% for the paired search at 1000).

- Set-up: the face-up choice is searched too: every distinct choice of three
  of the six cards (colours aside) is tried on the same deals, played out
  (bots/paired.py), the clearly worse dropped as the search goes.  Its
  default is the seat's own set-up rule, a pair face up (bots/policy.py:
  thrifty_face_up), which a set-up search of 20,000 rollouts (all choices
  together) nearly always picks where there is a pair; with three or more
  seats another choice must lead it clearly, as in play.
- Trivial decisions are answered at once: a single legal action, or only
  face-down flips (the slots are all unseen, so alike).
- Purity: a decision is a function of the bot's seed, its budget and the
  view alone.  Its random numbers come from (seed, seat, phase,
  moves played), and the bot keeps nothing between decisions, so a copy
  pickled into another process decides the same.  With an iteration budget
  the same seed and view always give the same decision; with a time budget
  the number of iterations depends on the machine's speed and load, so the
  decision is the same only as far as the searches that fit in the time agree
  (which they mostly do: the most visited action rarely changes late).
"""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import replace
from itertools import combinations
from typing import Final

from ..rules import FLIP, PICKUP, Move, View, concrete_move
from ..rules.cards import CODES, RANK_OF, parse_code
from ..rules.search import Determinizer
from ..rules.state import GameState
from .base import Bot
from .inference import InformedDealer, erratic
from .ismcts import Dealer, SearchConfig, canonical, search
from .paired import paired_search
from .policy import erratic_policy, greedy_choice, thrifty_face_up
from .rollout import Ranks, laid_ranks

DEFAULT_THINK_MS: Final = 250


def decision_seed(seed: int, view: View) -> int:
    """The seed of one decision: from the bot's seed, the seat, the phase
    and the moves played, so each decision has its own stream."""
    text = f"threeup-expert:{seed}:{view.seat}:{view.phase}:{view.moves_played}"
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


class ExpertBot(Bot):
    level = "expert"
    thinks = True
    log_length = None  # the whole log: its inference replays it from the first move

    def __init__(
        self,
        seed: int | None = None,
        think_ms: int | None = None,
        iterations: int | None = None,
        config: SearchConfig | None = None,
    ) -> None:
        super().__init__(seed, DEFAULT_THINK_MS if think_ms is None else think_ms, iterations)
        # A bot without a seed draws one now, so that copies decide alike.
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1 << 62)
        self.config = config or SearchConfig()
        self.last_iterations = 0  # how many the last decision ran (for benchmarks)

    def _dealer(self, view: View) -> Dealer:
        return InformedDealer(view) if self.config.inference else Determinizer(view)

    def _budget(self) -> tuple[int | None, float | None]:
        if self.iterations is not None:
            return self.iterations, None
        return None, time.perf_counter() + (self.think_ms or DEFAULT_THINK_MS) / 1000

    # ---------------------------------------------------------------- set-up
    def choose_face_up(self, view: View) -> tuple[str, str, str]:
        kinds = [parse_code(c) for c in view.hand]
        candidates = _distinct_choices(kinds)
        if len(candidates) == 1:
            a, b, c = candidates[0]
            self.last_iterations = 0
            return (CODES[a], CODES[b], CODES[c])
        iterations, deadline = self._budget()
        rng = random.Random(decision_seed(self.seed, view))
        seat = view.seat if view.seat is not None else 0

        def lay(state: GameState, i: int) -> None:
            state.choose_face_up(seat, candidates[i])

        # The same on a deal's ranks (bots/rollout.py: a deal in set-up is
        # turned into ranks with greedy's face-up cards; these replace them).
        layouts = [laid_ranks(kinds, trio) for trio in candidates]

        def lay_ranks(r: Ranks, i: int) -> None:
            hand, up = layouts[i]
            r.hand[seat] = hand[:]
            r.up[seat] = up[:]

        # The search keeps the seat's own set-up rule (a pair face up) unless
        # another choice is clearly better (pick_z, as in play).
        rule = sorted(RANK_OF[k] for k in thrifty_face_up(kinds))
        default = next(
            i for i, trio in enumerate(candidates) if sorted(RANK_OF[k] for k in trio) == rule
        )
        result = paired_search(
            Determinizer(view),
            range(len(candidates)),
            rng,
            iterations,
            deadline,
            self.config,
            lay,
            lay_ranks,
            default=default,
            pick_z=self.config.pick_z if len(view.names) == 2 else self.config.pick_z_many,
        )
        self.last_iterations = result.iterations
        a, b, c = candidates[result.action]
        return (CODES[a], CODES[b], CODES[c])

    # ------------------------------------------------------------------ play
    def choose_move(self, view: View) -> Move:
        return concrete_move(view, self.choose_action(view))

    def choose_action(self, view: View) -> int:
        legal = view.legal
        if len(legal) == 1 or all(FLIP <= a < PICKUP for a in legal):
            self.last_iterations = 0
            return legal[0]
        iterations, deadline = self._budget()
        rng = random.Random(decision_seed(self.seed, view))
        dealer = self._dealer(view)
        config = self.config
        if (
            isinstance(dealer, InformedDealer)
            and dealer.beliefs is not None
            and config.model_others
        ):
            chance = [0.0] * len(view.names)
            for seat, (agreed, checked) in dealer.beliefs.evidence.items():
                chance[seat] = erratic(agreed, checked)
            if any(chance):
                thrifty = config.thrifty_seat(view.seat)
                config = replace(config, policy=erratic_policy(chance, thrifty))
        if config.mode == "paired":
            actions = canonical(list(legal))
            default = greedy_choice(actions, len(view.hand), config.thrifty, view.draw_size > 0)
            pick_z = config.pick_z if len(view.names) == 2 else config.pick_z_many
            result = paired_search(
                dealer, actions, rng, iterations, deadline, config, default=default, pick_z=pick_z
            )
        else:
            result = search(dealer, rng, iterations, deadline, config)
        self.last_iterations = result.iterations
        return result.action


def _distinct_choices(kinds: list[int]) -> list[tuple[int, int, int]]:
    """Every choice of three of the six cards, one per multiset of ranks
    (colours never matter to play)."""
    seen: dict[tuple[int, ...], tuple[int, int, int]] = {}
    for trio in combinations(sorted(kinds), 3):
        key = tuple(sorted(RANK_OF[k] for k in trio))
        seen.setdefault(key, trio)
    return list(seen.values())
