"""Is a change to the expert stronger?  The expert as shipped (A) against a
variant of it (B), each game played by both on the same deal.

    python benchmarks/expert_ab.py --set KEY=VALUE [--set KEY=VALUE ...]
                                   [--games N] [--players P] [--seed S]
                                   [--iterations N | --think-ms MS]
                                   [--jobs J] [--json]

The variant is the shipped search with some of its settings changed
(bots/ismcts.py: SearchConfig; ``--set lookahead=false``,
``--set pick_z_many=2``, ``--set mode=ismcts``).  One expert sits at seat 0,
greedy at the others, as in the issue's four-player target.  Game g is dealt
from the seed ``threeup simulate --seed S`` gives it, and every bot gets the
seed it would get there, so A's games are simulate's games.  Then the same
game is played again with B at seat 0.

A fixed ``--iterations`` budget makes the figures independent of the
machine's speed and load: run it again and it prints the same numbers.  The
default, 2,000 rollouts a decision, is the earlier lab's budget; 250 ms buys
about three times as many on these machines, and strength is nearly flat
past 3,000 (benchmarks/bots.py).

While it plays, a line on stderr every 50 games gives the wins so far.
What it prints: A's and B's wins with 95% Wilson intervals; the games only B
won (+) and only A won (-); z = (+ - -) / sqrt(+ + -), the paired test (most
games go the same way under both, and those say nothing of the change);
each side's decision times.  A |z| under 2 is noise.  Few games tell: with
``--set pick_z_many=2`` at four players, 61 of 1,000 went differently, so a
1-point difference would need about 2,500 games to reach z = 2.

Measured (2026-12-04, 2-core VM, --jobs 2, 2,000 rollouts, about 30 min per
1,000 games): pick_z_many=2 against the shipped 3, at four players.
Seed 22000: A 331 (33.1%), B 344 (34.4%), won by B only 37, by A only 24,
z = +1.66.  Seed 22001: A 337, B 345, +33 / -25, z = +1.05.  Both: A 668 of
2,000 (33.4%), B 689 (34.5%), +70 / -49, z = +1.93: about one point, not
yet clear of the noise, and not adopted.  Then a fresh run to confirm it,
its rule fixed beforehand (adopt if it alone reaches z = 1.64, one-sided,
the direction set by the first): seed 22002, A 351, B 354, +32 / -29;
seed 22003, A 327, B 334, +38 / -31; together +70 / -60, z = +0.88, so not
adopted.  All 4,000 games: A 1,346 (33.7%), B 1,377 (34.4%), +140 / -109,
z = +1.96: if there is a gain, it is under a point.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import time
from dataclasses import dataclass
from typing import Any

from threeup_tui.bots import Bot, ExpertBot, make_bot
from threeup_tui.bots.ismcts import SEARCH_MODES, SearchConfig
from threeup_tui.simulate import (
    Budget,
    bot_seed,
    decision_summary,
    game_seed,
    in_processes,
    play_bot_game,
    wilson_interval,
)


def _parse_bool(text: str) -> bool:
    words = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
    try:
        return words[text.lower()]
    except KeyError:
        raise ValueError(f"{text!r} is not true or false") from None


# A setting's text read by the type its field declares (SearchConfig's
# policy is a function: not settable from here).
_PARSERS: dict[str, Any] = {"bool": _parse_bool, "int": int, "float": float, "str": str}


def parse_settings(pairs: list[str]) -> dict[str, Any]:
    """``["lookahead=false", "pick_z_many=2"]`` as SearchConfig overrides;
    ValueError naming the settable keys for an unknown or unparsable one."""
    fields = {f.name: str(f.type) for f in dataclasses.fields(SearchConfig)}
    settable = sorted(name for name, kind in fields.items() if kind in _PARSERS)
    overrides: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or key not in settable:
            raise ValueError(f"--set {pair!r}: give KEY=VALUE, KEY one of {', '.join(settable)}")
        kind = fields[key]
        try:
            overrides[key] = _PARSERS[kind](text)
        except ValueError as err:
            raise ValueError(f"--set {pair!r}: {err}") from None
        if key == "mode" and text not in SEARCH_MODES:
            raise ValueError(f"--set {pair!r}: the modes are {', '.join(SEARCH_MODES)}")
    if not overrides:
        raise ValueError("give at least one --set KEY=VALUE: the variant to measure")
    return overrides


@dataclass(frozen=True, slots=True)
class _Pair:
    seed: int
    players: int
    budget: Budget
    overrides: dict[str, Any]


def _play_both(pair: _Pair) -> tuple[list[int | None], list[list[float]]]:
    """The game played with A then B at seat 0: the winners and seat 0's decision times."""
    winners: list[int | None] = []
    times: list[list[float]] = []
    levels = ("expert",) + ("greedy",) * (pair.players - 1)
    budget = pair.budget
    for config in (SearchConfig(), dataclasses.replace(SearchConfig(), **pair.overrides)):
        bots: list[Bot] = [
            ExpertBot(bot_seed(pair.seed, 0), budget.think_ms, budget.iterations, config)
        ]
        bots += [make_bot("greedy", bot_seed(pair.seed, s)) for s in range(1, pair.players)]
        seat_times: list[list[float]] = [[] for _ in levels]
        state = play_bot_game(levels, pair.seed, budget=budget, times=seat_times, bots=bots)
        winners.append(state.winner)
        times.append(seat_times[0])
    return winners, times


def measure(
    overrides: dict[str, Any],
    games: int,
    players: int,
    seed: int,
    budget: Budget,
    jobs: int,
    progress: bool = False,
) -> dict[str, Any]:
    """Play the games both ways; with ``progress``, a line on stderr every 50 games."""
    pairs = [_Pair(game_seed(seed, g), players, budget, overrides) for g in range(games)]
    start = time.perf_counter()
    wins = [0, 0]
    only = [0, 0]  # games only A won, only B won
    times: list[list[float]] = [[], []]
    results = in_processes(_play_both, pairs, jobs)
    for done, (winners, pair_times) in enumerate(results, start=1):
        won = [w == 0 for w in winners]
        for side in (0, 1):
            wins[side] += won[side]
            times[side].extend(pair_times[side])
        if won[0] != won[1]:
            only[won[1]] += 1
        if progress and (done % 50 == 0 or done == games):
            elapsed = time.perf_counter() - start
            line = f"{done} games: A {wins[0]}, B {wins[1]} ({elapsed:.0f} s)"
            print(line, file=sys.stderr, flush=True)
    seconds = time.perf_counter() - start
    plus, minus = only[1], only[0]
    z = (plus - minus) / math.sqrt(plus + minus) if plus + minus else 0.0
    return {
        "variant": overrides,
        "games": games,
        "players": players,
        "seeds": [pairs[0].seed, pairs[-1].seed] if pairs else [],
        "budget": dataclasses.asdict(budget),
        "sides": [
            {
                "name": name,
                "wins": wins[side],
                "win_rate": wins[side] / games if games else 0.0,
                "ci95": list(wilson_interval(wins[side], games)),
                "decision_ms": decision_summary(times[side]),
            }
            for side, name in enumerate(("A: as shipped", "B: variant"))
        ],
        "only_b": plus,
        "only_a": minus,
        "z": z,
        "seconds": seconds,
        "jobs": jobs,
    }


def _text(result: dict[str, Any]) -> str:
    variant = ", ".join(f"{k}={v}" for k, v in result["variant"].items())
    budget = result["budget"]
    per = (
        f"{budget['iterations']:,} rollouts a decision"
        if budget["iterations"] is not None
        else f"{budget['think_ms']} ms a decision"
    )
    lines = [
        f"the expert as shipped (A) against B ({variant}), at seat 0 of {result['players']}"
        f" against greedy; {result['games']} games on the same deals"
        f" (seeds {result['seeds'][0]}..{result['seeds'][-1]}), {per}",
    ]
    for side in result["sides"]:
        low, high = side["ci95"]
        ms = side["decision_ms"]
        lines.append(
            f"  {side['name']:14} {side['wins']:5} wins  {side['win_rate']:6.1%}"
            f"  [{low:.1%}, {high:.1%}]   decisions p50 {ms['p50']:.1f} ms,"
            f" p95 {ms['p95']:.1f} ms, max {ms['max']:.1f} ms"
        )
    lines.append(
        f"  won by B only {result['only_b']}, by A only {result['only_a']}:"
        f" z = {result['z']:+.2f} (|z| < 2 is noise)"
    )
    lines.append(f"  {result['seconds']:.0f} s in {result['jobs']} processes")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0, help="as threeup simulate's (default 0)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, default=None, help="default 2000")
    budget.add_argument("--think-ms", type=int, default=None)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        overrides = parse_settings(args.set)
    except ValueError as err:
        parser.error(str(err))
    if not 2 <= args.players <= 6 or args.games < 1 or args.jobs < 1:
        parser.error("--players is 2 to 6; --games and --jobs at least 1")
    if args.think_ms is not None:
        chosen = Budget(think_ms=args.think_ms)
    else:
        chosen = Budget(iterations=args.iterations or 2000)
    result = measure(
        overrides, args.games, args.players, args.seed, chosen, args.jobs, progress=True
    )
    print(json.dumps(result, indent=2) if args.json else _text(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
