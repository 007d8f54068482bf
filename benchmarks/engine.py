"""Engine speed: random play, legal-action generation plus apply, one core.

    python benchmarks/engine.py [--games N] [--repeat R]

Prints games/s (deal, set-up and play) and moves/s (legal_actions() plus
apply() in the play loop, the random choice included) for 2, 4 and 6
players; the best of R repeats, as the least disturbed by other processes.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

from threeup_tui.rules import GameState, Phase
from threeup_tui.rules import state as state_module


def run(players: int, games: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
    moves = 0
    play_time = 0.0
    stalemates = 0
    start = time.perf_counter()
    for game in range(games):
        state = GameState.new(names, seed=seed * 100_003 + game)
        for seat in range(players):
            six = state.setup_hand(seat)
            rng.shuffle(six)
            state.choose_face_up(seat, six[:3])
        legal_actions = state.legal_actions
        apply = state.apply
        pick = rng.random
        t0 = time.perf_counter()
        while state.phase is Phase.PLAY:
            legal = legal_actions()
            apply(legal[int(pick() * len(legal))])
            moves += 1
        play_time += time.perf_counter() - t0
        stalemates += state.stalemate
    total = time.perf_counter() - start
    return {
        "players": players,
        "games": games,
        "moves": moves,
        "games_per_s": games / total,
        "moves_per_s": moves / play_time,
        "moves_per_s_with_deal": moves / total,
        "stalemate_rate": stalemates / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    compiled = not state_module.__file__.endswith(".py")
    results = []
    for players in (2, 4, 6):
        best = max(
            (run(players, args.games, seed) for seed in range(args.repeat)),
            key=lambda r: r["moves_per_s"],
        )
        results.append(best)
    if args.json:
        print(
            json.dumps(
                {"python": platform.python_version(), "compiled": compiled, "results": results}
            )
        )
        return
    print(
        f"engine benchmark, Python {platform.python_version()}, "
        f"{'mypyc-compiled' if compiled else 'pure Python'} engine, random play"
    )
    print(
        f"{'players':>7} {'games':>6} {'moves':>8} {'games/s':>9} {'moves/s':>10} "
        f"{'(w/ deal)':>10} {'stalemates':>10}"
    )
    for r in results:
        print(
            f"{r['players']:>7} {r['games']:>6} {r['moves']:>8} {r['games_per_s']:>9,.0f} "
            f"{r['moves_per_s']:>10,.0f} {r['moves_per_s_with_deal']:>10,.0f} "
            f"{r['stalemate_rate']:>10.1%}"
        )


if __name__ == "__main__":
    main()
