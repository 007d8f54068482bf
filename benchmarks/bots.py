"""Bot strength and speed: a round-robin of random, greedy and expert.

    python benchmarks/bots.py [--games N] [--jobs J] [--think-ms MS | --iterations N]
                              [--players 2,4] [--levels random,greedy,expert] [--json]

For 2 players every pair of levels plays N games; for 4 players every level
plays N games alone against three of each other level.  For each match-up
it prints the lone level's wins, win rate and 95% Wilson interval (against
a fair share of 1/players), then Elo ratings fitted to all games of that
player count (a Luce choice model: a seat's chance to win is its strength
over the table's total; Elo = 400 log10 strength, random = 0), and every
level's decision times (p50, p95, max).  Last, the search speed: rollouts
(search iterations) per second and per default decision, from positions of
real games.

It takes long: at the default 250 ms an expert decides ~40 times a game.
Run it under ``nice`` on a shared machine, and say how busy it was.

Last measured (2026-12-02, and 2026-12-04 where a row says so; 2-core VM,
``threeup simulate --jobs 2``, the default 250 ms, games in chunks of 50
with distinct seeds, summed), with the expert's own rollouts played by the
thrifty rule (bots/policy.py) and, once the draw pile is out, its next
decision in each rollout tried every way (bots/rollout.py:
lookahead_winner):

    match-up                      games   expert wins   95% interval    target
    2p expert vs greedy            1000   777 (77.7%)   [75.0%, 80.2%]  >= 75%, low >= 72%
    4p expert vs 3 greedy          4000  1421 (35.5%)   [34.1%, 37.0%]  >= 40%
      (fresh deals: seeds 17000-17019, 331 (33.1%) [30.3%, 36.1%], and
      18000-18019, 351 (35.1%) [32.2%, 38.1%], measured 2026-12-02;
      19000-19019, 366 (36.6%) [33.7%, 39.6%], and 20000-20019, 373
      (37.3%) [34.4%, 40.3%], measured 2026-12-04 (p95 <= 250.8 ms, max
      254.9 ms; 0 stalemates), all on the same bot code; with the
      set-up rule below as the set-up search's default; the version
      before it on the seeds 17000-17019:
      341, 34.1% [31.2%, 37.1%]; that version on seeds 15000-15019: 353,
      35.3% [32.4%, 38.3%]; on seeds 12000-12019, which every earlier
      version was measured on: 399, 39.9% [36.9%, 43.0%])
    2p expert vs random            1000   973 (97.3%)   [96.1%, 98.1%]  >= 95%
      (fresh deals, seeds 16000-16019, 0 stalemates; before the thrifty
      rule and the lookahead, on other seeds: 976, 97.6% [96.5%, 98.4%])
    expert decision time, the three rows: p50 11-250 ms, p95 <= 250.7 ms (every chunk),
      max 282.6 ms
    the thrifty rule alone, one seat against greedy's at the others, on ranks:
      54.2% [53.5, 54.9] heads-up, 27.0% [26.3, 27.6] as one of four (20,000 deals each);
      with the expert's set-up rule at that seat (bots/policy.py: thrifty_face_up,
      a pair face up), the same deals: 55.6% [55.0, 56.3] and 29.1% [28.5, 29.7]

The first 4p row's decision times: p50 54-119 ms, p95 <= 250.5 ms, max
282.6 ms.  Heads-up the set-up search plays its best choice whatever its
default, so the set-up rule changes no heads-up decision (300 of 300
set-ups the same at 1,000 rollouts): the 2p rows hold for this code.

The other 4p figures (in brackets) are the code whose thrifty rule keeps
back the other copies of a 9 or 10 while the draw pile lasts (bots/policy.py:
SPLIT_FROM), whose set-up search lays each choice on the deal's ranks, and
which plays each searched action on the deal's ranks (bots/paired.py: the
same decisions at the same number of rollouts, 1.44x the rollouts in a
4-player decision, 1.2x heads-up).  Its decision times: p50 45-95 ms,
p95 <= 250.4 ms, max 278.4 ms.  So is the first 2p row (seeds 13000-13019;
6 stalemates; decision times p50 11-250 ms, p95 <= 250.5 ms, max 280.6 ms); before all
three the same seeds gave 767 (76.7%) [74.0%, 79.2%].  And so is the 2p row
against random (decision times p50 250.1-250.2 ms in every chunk: against
random the search seldom ends early; p95 <= 250.7 ms, max 268.5 ms).
The history below is on the same seeds each time (12000-12019 at 4
players): fair between versions, but at 4 players high in level (the
versions kept were the ones that were measured there).
The same seeds before the thrifty rule's held-back copies: 376/1000
(37.6%) at 4 players; before the actions on ranks 366/1000 (36.6%); before the
lookahead 744/1000 (74.4%) heads-up and 364/1000 (36.4%) at 4 players;
before the thrifty rule: 739/1000 (73.9%) and 347/1000 (34.7%).  Before
the rank-only rollouts: 717/1000 (71.7%) heads-up, 349/1050 (33.2%) at 4
players.  Search speed (this code, 2026-12-02, idle, 40 positions each,
the default 250 ms): 28,900 rollouts/s heads-up and 29,400 at 4 players,
6,196 and 5,572 iterations per decision p50; greedy playouts 10,800-12,700/s
by the engine, 33,600-37,200/s on ranks.  (Before the thrifty rule and the
actions on ranks: 16,700-18,600 rollouts/s heads-up.)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import time
from itertools import combinations
from typing import Any

from threeup_tui.bots import BOT_LEVELS, ExpertBot
from threeup_tui.bots.policy import greedy_choice, greedy_face_up, play_out, thrifty_face_up
from threeup_tui.bots.rollout import greedy_winner
from threeup_tui.rules import GameState, Phase, seat_view
from threeup_tui.simulate import Budget, decision_summary, simulate, wilson_interval


def match_ups(levels: list[str], players: int) -> list[tuple[str, ...]]:
    """Seat levels of each match-up: the first seat is the one reported."""
    if players == 2:
        return [(b, a) for a, b in combinations(levels, 2)]  # the stronger first
    return [(a,) + (b,) * (players - 1) for a in levels for b in levels if a != b]


def luce_elo(games: list[tuple[tuple[str, ...], int]], levels: list[str]) -> dict[str, float]:
    """Elo ratings (random, or the first level, at 0) fitted by Hunter's MM
    algorithm to (seat levels, winning seat) results."""
    strength = dict.fromkeys(levels, 1.0)
    wins = dict.fromkeys(levels, 0)
    for seats, winner in games:
        wins[seats[winner]] += 1
    for _ in range(2000):
        denom = dict.fromkeys(levels, 0.0)
        for seats, _winner in games:
            total = sum(strength[x] for x in seats)
            for x in seats:
                denom[x] += 1 / total
        new = {x: max(wins[x], 0.5) / denom[x] if denom[x] else strength[x] for x in levels}
        anchor = new[levels[0]]
        new = {x: v / anchor for x, v in new.items()}
        change = max(abs(math.log(new[x] / strength[x])) for x in levels)
        strength = new
        if change < 1e-9:
            break
    return {x: 400 * math.log10(strength[x]) for x in levels}


def _positions(players: int, count: int, seed: int) -> list[GameState]:
    """Positions of greedy games where the seat to act has a real choice."""
    rng = random.Random(seed)
    out: list[GameState] = []
    game = 0
    while len(out) < count:
        game += 1
        state = GameState.new([f"p{s}" for s in range(players)], seed=seed + game)
        for s in range(players):
            state.choose_face_up(s, greedy_face_up(state.setup_hand(s)))
        for _ in range(rng.randrange(120)):
            if state.phase != Phase.PLAY:
                break
            state.apply(greedy_choice(state.legal_actions(), state.hand_size[state.seat]))
        if state.phase == Phase.PLAY and len(state.legal_actions()) > 1:
            out.append(state)
    return out


def search_speed(players: int, think_ms: int, positions: int) -> dict[str, float]:
    """Iterations (one rollout each) per decision and per second at ``think_ms``."""
    iterations = []
    seconds = 0.0
    for i, state in enumerate(_positions(players, positions, 1000 * players)):
        bot = ExpertBot(i, think_ms=think_ms)
        view = seat_view(state, state.seat, log_length=0)
        start = time.perf_counter()
        bot.choose_action(view)
        seconds += time.perf_counter() - start
        if bot.last_iterations:
            iterations.append(bot.last_iterations)
    iterations.sort()
    rollouts = []
    on_ranks = []
    for i, state in enumerate(_positions(players, positions, 7 + players)):
        copy = state.clone()
        start = time.perf_counter()
        play_out(copy, random.Random(i))
        rollouts.append(time.perf_counter() - start)
        start = time.perf_counter()
        greedy_winner(state)  # what the search runs: bots/rollout.py
        on_ranks.append(time.perf_counter() - start)
    return {
        "players": players,
        "think_ms": think_ms,
        "decisions": len(iterations),
        "iterations_p50": iterations[len(iterations) // 2] if iterations else 0,
        "iterations_min": iterations[0] if iterations else 0,
        "rollouts_per_s": sum(iterations) / seconds if seconds else 0.0,
        "greedy_playouts_per_s": len(rollouts) / sum(rollouts) if rollouts else 0.0,
        "rank_only_playouts_per_s": len(on_ranks) / sum(on_ranks) if on_ranks else 0.0,
    }


def rollout_policies(players: int, games: int, seed: int) -> dict[str, Any]:
    """The thrifty rule (bots/policy.py) at one seat against greedy's at the
    others, every game from the deal to the end on ranks (bots/rollout.py),
    the thrifty seat going round the table: the rule the expert's rollouts
    play for its own later moves.  Each deal is played twice: with greedy's
    set-up at the thrifty seat, and with the expert's own set-up rule
    (bots/policy.py: thrifty_face_up, a pair face up), the search's default."""
    wins = stalemates = laid_wins = 0
    start = time.perf_counter()
    for game in range(games):
        state = GameState.new([f"p{s}" for s in range(players)], seed=seed + game)
        seat = game % players
        winner = greedy_winner(state, thrifty=seat)
        wins += winner == seat
        stalemates += winner is None
        state.choose_face_up(seat, thrifty_face_up(state.setup_hand(seat)))
        laid_wins += greedy_winner(state, thrifty=seat) == seat
    lo, hi = wilson_interval(wins, games)
    return {
        "players": players,
        "games": games,
        "thrifty_wins": wins,
        "win_rate": wins / games,
        "ci95": [lo, hi],
        "stalemates": stalemates,
        "with_set_up_rule": {
            "thrifty_wins": laid_wins,
            "win_rate": laid_wins / games,
            "ci95": list(wilson_interval(laid_wins, games)),
        },
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per match-up")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--think-ms", type=int, default=None)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--levels", default=",".join(BOT_LEVELS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed-positions", type=int, default=40)
    parser.add_argument("--policy-games", type=int, default=20000, help="thrifty vs greedy")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    levels = [x.strip() for x in args.levels.split(",")]
    budget = Budget(args.think_ms, args.iterations)
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_before": os.getloadavg(),
        "games_per_match_up": args.games,
        "jobs": args.jobs,
        "budget": {"think_ms": args.think_ms, "iterations": args.iterations},
        "tables": [],
    }
    for players in (int(p) for p in args.players.split(",")):
        table: dict[str, Any] = {"players": players, "match_ups": []}
        results: list[tuple[tuple[str, ...], int]] = []
        times: dict[str, list[float]] = {x: [] for x in levels}
        for seats in match_ups(levels, players):
            start = time.perf_counter()
            result = simulate(args.games, players, seats, args.seed, None, args.jobs, budget)
            lone = result.wins[0]
            lo, hi = wilson_interval(lone, result.games)
            table["match_ups"].append(
                {
                    "seats": list(seats),
                    "games": result.games,
                    "wins": lone,
                    "win_rate": lone / result.games,
                    "ci95": [lo, hi],
                    "stalemates": result.stalemates,
                    "seconds": time.perf_counter() - start,
                    "load": os.getloadavg()[0],
                }
            )
            for s, level in enumerate(seats):
                times[level].extend(result.decision_times[s])
            # Results per game are not kept by simulate: rebuild the win
            # counts as games for the fit (the fit needs only the counts).
            for s, w in enumerate(result.wins):
                results.extend([(seats, s)] * w)
            if not args.json:
                print(_match_line(table["match_ups"][-1], players), flush=True)
        table["elo"] = luce_elo(results, levels)
        table["decision_ms"] = {x: decision_summary(t) for x, t in times.items() if t}
        report["tables"].append(table)
        if not args.json:
            print(_table_footer(table), flush=True)
    report["policies"] = [rollout_policies(p, args.policy_games, args.seed) for p in (2, 4)]
    if "expert" in levels:
        think = args.think_ms or 250
        report["speed"] = [search_speed(p, think, args.speed_positions) for p in (2, 4)]
    report["load_after"] = os.getloadavg()
    if args.json:
        print(json.dumps(report))
        return
    for r in report["policies"]:
        lo, hi = r["ci95"]
        print(
            f"rollout rule, {r['players']} players: thrifty at one seat, greedy at the others: "
            f"{r['thrifty_wins']}/{r['games']} {r['win_rate']:.1%} [{lo:.1%}, {hi:.1%}], "
            f"fair {1 / r['players']:.0%}, {r['stalemates']} stalemates ({r['seconds']:.0f} s)"
        )
        laid = r["with_set_up_rule"]
        lo, hi = laid["ci95"]
        print(
            f"  the same deals with the expert's set-up rule at that seat: "
            f"{laid['thrifty_wins']}/{r['games']} {laid['win_rate']:.1%} [{lo:.1%}, {hi:.1%}]"
        )
    for s in report.get("speed", []):
        print(
            f"search speed, {s['players']} players, {s['think_ms']} ms: "
            f"{s['rollouts_per_s']:,.0f} rollouts/s, {s['iterations_p50']} iterations "
            f"per decision (p50; min {s['iterations_min']}), "
            f"greedy playouts alone {s['greedy_playouts_per_s']:,.0f}/s by the engine, "
            f"{s['rank_only_playouts_per_s']:,.0f}/s on ranks (bots/rollout.py)"
        )
    print(f"load average before {report['load_before']}, after {report['load_after']}")


def _match_line(m: dict[str, Any], players: int) -> str:
    seats = m["seats"]
    if players == 2:
        who = f"{seats[0]} vs {seats[1]}"
    else:
        who = f"1 {seats[0]} vs {players - 1} {seats[1]}"
    lo, hi = m["ci95"]
    return (
        f"{players}p  {who:<24} {m['wins']:>5}/{m['games']:<5} {m['win_rate']:6.1%} "
        f"[{lo:.1%}, {hi:.1%}]  fair {1 / players:.0%}  "
        f"({m['seconds']:.0f} s, load {m['load']:.1f})"
    )


def _table_footer(table: dict[str, Any]) -> str:
    lines = ["    Elo: " + ", ".join(f"{x} {v:+.0f}" for x, v in table["elo"].items())]
    for level, t in table["decision_ms"].items():
        lines.append(
            f"    {level:<7} decisions {t['decisions']:>7}: p50 {t['p50']:.2f} ms, "
            f"p95 {t['p95']:.2f} ms, max {t['max']:.2f} ms"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
