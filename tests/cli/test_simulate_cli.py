"""``threeup simulate``: statistics, and records that verify."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from clihelp import assert_no_traceback, assert_usage_error, run

import threeup_tui.simulate as simulate_module
from threeup_tui.bots import Bot, ExpertBot, GreedyBot, RandomBot
from threeup_tui.bots.ismcts import SearchConfig
from threeup_tui.recordfile import load_record, read_json
from threeup_tui.rules import Move, View, record_of, replay, verify
from threeup_tui.simulate import (
    Budget,
    RecordNotWritten,
    bot_seed,
    first_record_taken,
    game_seed,
    play_bot_game,
    simulate,
)


def test_simulate_json_fields_and_records(tmp_path: Path) -> None:
    out_dir = tmp_path / "records"
    proc = run(
        "simulate",
        "--games",
        "5",
        "--players",
        "3",
        "--bots",
        "greedy",
        "--records",
        str(out_dir),
        "--json",
    )
    assert_no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["games"] == 5 and data["players"] == 3
    for key in ("stalemates", "stalemate_rate", "mean_moves", "games_per_s", "moves_per_s"):
        assert isinstance(data[key], int | float), key
    seats = data["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    for s in seats:
        assert s["bot"] == "greedy"
        assert 0 <= s["wins"] <= 5
        assert abs(s["win_rate"] - s["wins"] / 5) < 1e-9
        lo, hi = s["ci95"]
        assert 0.0 <= lo <= s["win_rate"] <= hi <= 1.0
    assert sum(s["wins"] for s in seats) + data["stalemates"] == 5
    assert abs(data["stalemate_rate"] - data["stalemates"] / 5) < 1e-9
    assert data["mean_moves"] > 0

    files = sorted(out_dir.glob("*.json"))
    assert len(files) == 5
    wins = [0, 0, 0]
    total_moves = 0
    for path in files:
        record = load_record(path)
        assert len(record.players) == 3
        _state, verdict = replay(record)
        assert verdict.ok and verdict.finished, (path, verdict)
        raw = read_json(path)
        assert verify(raw) == verdict
        assert raw["result"]["winner"] == verdict.winner
        if verdict.winner is not None:
            wins[verdict.winner] += 1
        total_moves += verdict.moves
    assert wins == [s["wins"] for s in seats]
    assert abs(data["mean_moves"] - total_moves / 5) < 1e-9

    # And one of them through the command itself.
    proc = run("verify", str(files[0]), "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["ok"] is True


def test_simulate_is_deterministic_for_a_seed(tmp_path: Path) -> None:
    args = (
        "simulate",
        "--games",
        "3",
        "--players",
        "4",
        "--bots",
        "greedy,random,greedy,random",
        "--seed",
        "9",
        "--json",
    )
    first, second = run(*args), run(*args)
    assert first.returncode == second.returncode == 0
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert [s["wins"] for s in a["seats"]] == [s["wins"] for s in b["seats"]]
    assert a["mean_moves"] == b["mean_moves"]
    assert [s["bot"] for s in a["seats"]] == ["greedy", "random", "greedy", "random"]


def test_simulate_text_output() -> None:
    proc = run("simulate", "--games", "2", "--players", "2", "--bots", "random")
    assert_no_traceback(proc)
    assert proc.returncode == 0 and proc.stderr == ""
    assert "2 games, 2 players" in proc.stdout
    assert "stalemates" in proc.stdout and "random" in proc.stdout


def _summary(data: dict) -> tuple:
    return ([s["wins"] for s in data["seats"]], data["stalemates"], data["mean_moves"])


def test_simulate_jobs_play_the_same_games() -> None:
    """--jobs 2 plays the same games as --jobs 1, expert seats (on an
    iteration budget) included; the JSON gives every seat's decision times."""
    for bots, players, games, extra in (
        ("greedy,random,greedy,random", "4", "6", []),
        ("expert,greedy", "2", "3", ["--iterations", "25"]),
    ):
        args = ["simulate", "--games", games, "--players", players, "--bots", bots]
        args += ["--seed", "4", "--json", *extra]
        one, two = run(*args, "--jobs", "1"), run(*args, "--jobs", "2")
        assert one.returncode == two.returncode == 0, (one.stderr, two.stderr)
        a, b = json.loads(one.stdout), json.loads(two.stdout)
        assert _summary(a) == _summary(b)
        assert (a["jobs"], b["jobs"]) == (1, 2)
        for seat in b["seats"]:
            times = seat["decision_ms"]
            assert times["decisions"] > 0
            assert 0 <= times["p50"] <= times["p95"] <= times["max"]


def test_simulate_text_shows_decision_times_and_think_ms_reaches_the_expert() -> None:
    proc = run(
        "simulate", "--games", "1", "--players", "2", "--bots", "expert,random", "--think-ms", "5"
    )
    assert_no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    assert "decision time (ms)" in proc.stdout and "expert" in proc.stdout
    lines = [x.split() for x in proc.stdout.splitlines()]
    timing = lines[next(i for i, x in enumerate(lines) if x[:2] == ["decision", "time"]) + 1]
    assert timing[:2] == ["1", "expert"]  # seats counted from 1, as in the wins table above it
    p50, p95, worst = (float(x) for x in timing[2:5])
    assert p50 <= p95 <= worst
    assert p95 < 200  # a 5 ms budget, not the default 250 ms


def test_simulate_text_puts_each_decision_time_under_its_heading() -> None:
    # The numbers stood two columns left of "p50", "p95" and "max", and the
    # count of decisions left of "decisions".
    proc = run(
        "simulate", "--games", "2", "--players", "2", "--bots", "expert,random",
        "--iterations", "20",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("decision time (ms):"))
    heading = lines[at]
    ends = [heading.index(name) + len(name) for name in ("p50", "p95", "max", "decisions")]
    for row in lines[at + 1 : at + 3]:
        tokens = [m.end() for m in re.finditer(r"\S+", row)]
        assert tokens[2:] == ends, (heading, row)  # after the seat and the bot


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--jobs", "0"], ["--jobs", "0"]),
        (["--jobs", "many"], ["--jobs"]),
        (["--think-ms", "0"], ["--think-ms"]),
        (["--think-ms", "fast"], ["--think-ms"]),
        (["--iterations", "-3"], ["--iterations"]),
        # Days a game, nothing printed: refused as --think-ms past a minute is.
        (["--iterations", "99999999999"], ["--iterations", "at most 1000000"]),
        (["--think-ms", "50", "--iterations", "10"], ["--think-ms", "--iterations"]),
    ],
)
def test_simulate_refuses_bad_budgets_and_jobs(extra: list[str], words: list[str]) -> None:
    proc = run("simulate", "--games", "1", "--players", "2", "--bots", "expert", *extra, timeout=30)
    assert_usage_error(proc, *words)


def test_simulate_plays_in_as_many_processes_as_asked_up_to_a_limit() -> None:
    """--jobs N plays in N processes (issue 11), but --jobs 1000 started a
    thousand interpreters on a 2-core machine: past 8 a CPU it is cut, and
    says so in a line on stderr."""
    cpus = simulate_module.usable_cpus()
    limit = simulate_module.JOBS_PER_CPU * cpus
    asked = limit + 998
    proc = run("simulate", "--games", str(limit + 1), "--players", "2", "--bots", "random",
               "--jobs", str(asked), "--json")  # fmt: skip
    assert_no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["jobs"] == limit
    assert proc.stderr.splitlines() == [
        f"threeup simulate: --jobs {asked}: at most {simulate_module.JOBS_PER_CPU} processes "
        f"a CPU, {cpus} CPU{'s' if cpus > 1 else ''} here, so {limit} processes"
    ]
    # As many as asked up to the limit, more than the CPUs too: no word.
    assert simulate_module.jobs_to_run(cpus + 1, limit) == cpus + 1
    assert simulate_module.jobs_to_run(limit, limit) == limit


@pytest.mark.parametrize("games", [1, 2])
def test_simulate_says_the_processes_it_starts_no_more_than_the_games(games: int) -> None:
    """--jobs 100 --games 2 said "so 16 processes" and its speed line "(16
    jobs)" on two cores, where two were started: a process plays one game at
    a time, and one game is played in the command's own process."""
    proc = run("simulate", "--games", str(games), "--players", "2", "--bots", "random",
               "--jobs", "100")  # fmt: skip
    assert_no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    started = "1 process" if games == 1 else f"{games} processes"
    assert proc.stderr.splitlines() == [
        f"threeup simulate: --jobs 100: no more processes than games, so {started}"
    ]
    speed = next(line for line in proc.stdout.splitlines() if line.startswith("speed:"))
    assert speed.endswith(" (2 jobs)" if games == 2 else "moves/s"), speed
    as_json = run("simulate", "--games", str(games), "--players", "2", "--bots", "random",
                  "--jobs", "100", "--json")  # fmt: skip
    assert json.loads(as_json.stdout)["jobs"] == games


def test_bots_handed_in_play_and_seeded_as_simulate_seeds_them_play_its_game() -> None:
    """benchmarks/expert_ab.py hands play_bot_game bots of its own (an
    expert with other search settings), seeded as simulate seeds its bots:
    those bots play, and with the same settings the game is simulate's."""
    levels = ("expert", "random", "greedy")  # a random bot's play is its seed's
    deal = game_seed(7, 3)
    budget = Budget(iterations=60)
    asked: list[int] = []

    class CountingGreedy(GreedyBot):
        def choose_move(self, view: View) -> Move:
            asked.append(view.moves_played)
            return super().choose_move(view)

    bots: list[Bot] = [ExpertBot(bot_seed(deal, 0), None, 60, SearchConfig())]
    bots += [RandomBot(bot_seed(deal, 1)), CountingGreedy(bot_seed(deal, 2))]
    handed = play_bot_game(levels, deal, budget=budget, bots=bots)
    assert asked  # the bots handed in are the ones that played
    assert record_of(handed) == record_of(play_bot_game(levels, deal, budget=budget))


def test_a_record_that_appears_during_a_run_is_not_written_over(tmp_path: Path) -> None:
    """The command line refuses a directory that holds the run's records;
    a file made after that look (another run, at once) is still kept."""
    theirs = tmp_path / "game-00001.json"
    theirs.write_text("another run's record")
    with pytest.raises(RecordNotWritten, match=r"game-00001\.json: File exists"):
        simulate(3, 2, ("greedy", "greedy"), records=tmp_path)
    assert theirs.read_text() == "another run's record"
    assert verify(read_json(tmp_path / "game-00000.json")).ok


def test_the_records_folder_is_looked_at_once_and_may_hold_other_files(tmp_path: Path) -> None:
    """Only a record the run would write is in its way: other files are left
    be (the help once said "a new or empty" folder, and the command took any
    folder).  The folder is read once: a billion games stat no billion names."""
    for name in ("notes.txt", "game-2.json", "game-00007.json", "game-00003.json.bak"):
        (tmp_path / name).write_text("the player's")
    assert first_record_taken(tmp_path, 7) is None
    assert first_record_taken(tmp_path, 10**9) == tmp_path / "game-00007.json"
    (tmp_path / "game-00002.json").write_text("an earlier run's")
    assert first_record_taken(tmp_path, 10**9) == tmp_path / "game-00002.json"
    simulate(2, 2, ("greedy", "greedy"), records=tmp_path / "fresh")
    assert first_record_taken(tmp_path / "fresh", 2) == tmp_path / "fresh" / "game-00000.json"


def test_a_long_run_is_planned_as_it_goes_and_fed_to_the_pool_in_batches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """simulate --games 1000000000 made a billion games' plan before the first
    game (and handed the pool all of it): memory, not games, ran out."""
    plan = simulate_module._Plan(10**9, 7, ("greedy", "greedy"), Budget(), None)
    assert len(plan) == 10**9
    assert plan[123_456_789].seed == game_seed(7, 123_456_789)
    assert [g.index for g in plan[10:13]] == [10, 11, 12]
    monkeypatch.setattr(simulate_module, "BATCH_PER_JOB", 1)  # batches of two games
    assert list(simulate_module.in_processes(abs, [-1, -2, -3, -4, -5], 2)) == [1, 2, 3, 4, 5]


def test_simulate_makes_each_game_only_when_it_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[int] = []
    real_game, real_play = simulate_module._Game, simulate_module._play

    def counting_game(index: int, *args: Any) -> Any:
        made.append(index)
        return real_game(index, *args)

    def play(game: Any) -> Any:
        if game.index == 2:
            raise KeyboardInterrupt  # the player stops the run
        return real_play(game)

    monkeypatch.setattr(simulate_module, "_Game", counting_game)
    monkeypatch.setattr(simulate_module, "_play", play)
    with pytest.raises(KeyboardInterrupt):
        simulate(10**6, 2, ("random", "random"))
    assert made == [0, 1, 2]
