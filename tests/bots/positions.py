"""Positions for the bots' tests: real games played part-way by greedy."""

from __future__ import annotations

import random

from threeup_tui.bots.policy import greedy_choice, greedy_face_up
from threeup_tui.rules import GameState, Options, Phase


def set_up(n: int, seed: int, options: Options | None = None) -> GameState:
    state = GameState.new([f"p{s}" for s in range(n)], options, seed=seed)
    for s in range(n):
        state.choose_face_up(s, greedy_face_up(state.setup_hand(s)))
    return state


def choices(n: int, count: int, seed: int = 0, max_moves: int = 150) -> list[GameState]:
    """``count`` positions where the seat to act has two or more different
    actions (not only face-down flips), after a random number of greedy
    moves."""
    rng = random.Random(seed)
    out: list[GameState] = []
    game = 0
    while len(out) < count:
        game += 1
        state = set_up(n, seed * 1000 + game)
        for _ in range(rng.randrange(max_moves)):
            if state.phase != Phase.PLAY:
                break
            state.apply(greedy_choice(state.legal_actions(), state.hand_size[state.seat]))
        if state.phase != Phase.PLAY:
            continue
        legal = state.legal_actions()
        if len(legal) > 1 and legal[0] < 112:
            out.append(state)
    return out
