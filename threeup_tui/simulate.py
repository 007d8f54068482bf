"""Bot-against-bot games: ``threeup simulate``."""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, overload

from .bots import Bot, make_bot
from .bots.pool import end_with_parent
from .recordfile import save_record
from .rules import GameState, Options, Phase, record_of, seat_view

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Budget:
    """A search bot's budget per decision: ``think_ms`` (None: the level's
    default) or a fixed number of ``iterations``.  Other bots ignore it."""

    think_ms: int | None = None
    iterations: int | None = None


@dataclass
class SimulationResult:
    players: int
    levels: tuple[str, ...]
    games: int = 0
    wins: list[int] = field(default_factory=list)
    stalemates: int = 0
    moves: int = 0
    seconds: float = 0.0
    jobs: int = 1
    # Every decision's wall-clock time per seat, in seconds (set-up included):
    # packed doubles, 8 bytes a decision however long the run.
    decision_times: list[array[float]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "players": self.players,
            "seats": [
                {
                    "seat": s,
                    "bot": self.levels[s],
                    "wins": w,
                    "win_rate": w / self.games if self.games else 0.0,
                    "ci95": list(wilson_interval(w, self.games)),
                    "decision_ms": decision_summary(self._times(s)),
                }
                for s, w in enumerate(self.wins)
            ],
            "stalemates": self.stalemates,
            "stalemate_rate": self.stalemates / self.games if self.games else 0.0,
            "mean_moves": self.moves / self.games if self.games else 0.0,
            "games_per_s": self.games / self.seconds if self.seconds else 0.0,
            "moves_per_s": self.moves / self.seconds if self.seconds else 0.0,
            "jobs": self.jobs,
        }

    def _times(self, seat: int) -> Sequence[float]:
        return self.decision_times[seat] if seat < len(self.decision_times) else []

    def text(self) -> str:
        data = self.to_json()
        lines = [f"{self.games} games, {self.players} players"]
        lines.append(f"{'seat':>4}  {'bot':<8} {'wins':>6} {'rate':>7}  95% CI")
        for s in data["seats"]:
            lo, hi = s["ci95"]
            lines.append(  # seats counted from 1 for people; the JSON keeps 0-based
                f"{s['seat'] + 1:>4}  {s['bot']:<8} {s['wins']:>6} {s['win_rate']:>7.1%}"
                f"  [{lo:.1%}, {hi:.1%}]"
            )
        lines.append(f"stalemates: {self.stalemates} ({data['stalemate_rate']:.1%})")
        lines.append(f"mean moves per game: {data['mean_moves']:.1f}")
        lines.append(
            f"speed: {data['games_per_s']:.1f} games/s, {data['moves_per_s']:,.0f} moves/s"
            + (f" ({self.jobs} jobs)" if self.jobs > 1 else "")
        )
        lines.append("decision time (ms):  p50     p95     max  decisions")
        for s in data["seats"]:
            t = s["decision_ms"]
            lines.append(  # each number under its heading, its right edge on the heading's
                f"{s['seat'] + 1:>4}  {s['bot']:<8}{t['p50']:>10.2f}{t['p95']:>8.2f}"
                f"{t['max']:>8.2f}  {t['decisions']:>9}"
            )
        return "\n".join(lines)


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of sorted values, by linear interpolation."""
    if not sorted_values:
        return 0.0
    pos = (len(sorted_values) - 1) * q
    low = math.floor(pos)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (pos - low)


def decision_summary(times: Sequence[float]) -> dict[str, float | int]:
    """p50, p95 and max of decision times (seconds in, milliseconds out)."""
    ordered = sorted(times)
    return {
        "decisions": len(ordered),
        "p50": percentile(ordered, 0.5) * 1000,
        "p95": percentile(ordered, 0.95) * 1000,
        "max": (ordered[-1] if ordered else 0.0) * 1000,
    }


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (sound near 0 and 1)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def parse_levels(levels: tuple[str, ...], players: int) -> tuple[str, ...]:
    """One level for every seat, or one per seat (each a known level,
    checked as ``--bots`` is read)."""
    if len(levels) == 1:
        levels = levels * players
    if len(levels) != players:
        raise ValueError(
            f"--bots names {len(levels)} levels for {players} players: give one, or one per seat"
        )
    return levels


def game_seed(seed: int, game: int) -> int:
    """The deal of game number ``game`` (from 0) of ``simulate(seed=seed)``."""
    return seed * 1_000_003 + game


def bot_seed(deal: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the game dealt from seed ``deal``."""
    return deal * 31 + seat


def play_bot_game(
    levels: tuple[str, ...],
    seed: int,
    names: list[str] | None = None,
    options: Options | None = None,
    budget: Budget = Budget(),
    times: list[list[float]] | None = None,
    bots: list[Bot] | None = None,
) -> GameState:
    """One whole game between bots, each seeing only its own view.

    With ``times`` (one list per seat), every decision's time is appended.
    With ``bots`` (one per seat; a bot with search settings of its own, say:
    benchmarks/expert_ab.py), they play instead of new bots of ``levels``,
    which then only name the seats."""
    names = names or [f"{level}-{s + 1}" for s, level in enumerate(levels)]  # greedy-1: seat 1
    state = GameState.new(names, options, seed=seed)
    if bots is None:
        bots = [
            make_bot(level, bot_seed(seed, s), budget.think_ms, budget.iterations)
            for s, level in enumerate(levels)
        ]
    clock = time.perf_counter
    for s, bot in enumerate(bots):
        view = seat_view(state, s, log_length=bot.log_length)
        start = clock()
        choice = bot.choose_face_up(view)
        if times is not None:
            times[s].append(clock() - start)
        state.choose_face_up_codes(s, choice)
    while state.phase == Phase.PLAY:
        s = state.seat
        view = seat_view(state, s, log_length=bots[s].log_length)
        start = clock()
        move = bots[s].choose_move(view)
        if times is not None:
            times[s].append(clock() - start)
        state.apply_move(move)
    return state


class _Plan(Sequence["_Game"]):
    """The games of a run, made as they are asked for: a run of ten million
    games holds no ten million of them."""

    def __init__(
        self, games: int, seed: int, levels: tuple[str, ...], budget: Budget, records: Path | None
    ) -> None:
        self.games, self.seed, self.levels, self.budget, self.records = (
            games, seed, levels, budget, records,
        )  # fmt: skip

    def __len__(self) -> int:
        return self.games

    @overload
    def __getitem__(self, index: int) -> _Game: ...
    @overload
    def __getitem__(self, index: slice) -> list[_Game]: ...
    def __getitem__(self, index: int | slice) -> _Game | list[_Game]:
        if isinstance(index, slice):
            return [self[g] for g in range(*index.indices(self.games))]
        if not 0 <= index < self.games:
            raise IndexError(index)
        return _Game(index, game_seed(self.seed, index), self.levels, self.budget, self.records)


@dataclass(frozen=True, slots=True)
class _Game:
    """What a worker needs to play one game, and what it sends back."""

    index: int
    seed: int
    levels: tuple[str, ...]
    budget: Budget
    records: Path | None


@dataclass(frozen=True, slots=True)
class _Outcome:
    winner: int | None
    stalemate: bool
    moves: int
    times: list[list[float]]


class RecordNotWritten(Exception):
    """``simulate --records`` could not write a game's record (the text names
    the file and why): the run stops, and the records already written stay."""


def record_path_of_game(folder: Path, index: int) -> Path:
    """Where ``simulate --records`` keeps game ``index`` (0-based)."""
    return folder / f"game-{index:05d}.json"


def first_record_taken(folder: Path, games: int) -> Path | None:
    """The first of the ``games`` records' paths in ``folder`` that something
    is at already (simulate writes over no file), or None.  The folder is
    read once, so a billion games do not stat a billion names first."""
    taken = []
    for name in os.listdir(folder):
        digits = name.removeprefix("game-").removesuffix(".json")
        index = int(digits) if digits.isascii() and digits.isdigit() else games
        if index < games and folder / name == record_path_of_game(folder, index):  # its name
            taken.append(index)
    return record_path_of_game(folder, min(taken)) if taken else None


def _play(game: _Game) -> _Outcome:
    times: list[list[float]] = [[] for _ in game.levels]
    state = play_bot_game(game.levels, game.seed, budget=game.budget, times=times)
    if game.records is not None:
        path = record_path_of_game(game.records, game.index)
        try:
            save_record(path, record_of(state), new=True)
        except OSError as err:
            raise RecordNotWritten(f"{path}: {err.strerror or err}") from None
    return _Outcome(state.winner, state.stalemate, len(state.history), times)


def _worker_init() -> None:
    # Ctrl-C reaches the whole process group; stopping is the parent's call.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A parent killed outright (SIGKILL, SIGTERM) stops nothing itself.
    end_with_parent()


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system
    tells it: a container or `taskset` gives fewer than the machine has)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


# Processes a CPU that ``simulate --jobs`` starts at most.  The games are
# all CPU, so past one a CPU none plays faster (and an expert's time budget
# is shared), but N processes are what --jobs N asks for: only an absurd
# N is cut, where each process, a fresh interpreter of some tens of MB,
# costs memory for nothing (--jobs 1000 started a thousand on two cores).
JOBS_PER_CPU = 8


def jobs_limit() -> int:
    return JOBS_PER_CPU * usable_cpus()


def jobs_to_run(asked: int, games: int) -> int:
    """The processes ``simulate --jobs asked`` plays ``games`` games in: as
    many as asked, up to :func:`jobs_limit`, and no more than the games (a
    process plays one game at a time: --jobs 100 --games 2 starts two)."""
    return max(1, min(asked, games, jobs_limit()))


BATCH_PER_JOB = 64  # games handed to the pool at a time, per process


def in_processes(work: Callable[[T], R], items: Sequence[T], jobs: int) -> Iterator[R]:
    """``work`` done on every item, in ``jobs`` processes, the results in the
    items' order (the games of simulate, and of benchmarks/expert_ab.py)."""
    if jobs <= 1 or len(items) <= 1:
        yield from map(work, items)
        return
    # Fresh interpreters (spawn): nothing of this process's state is copied.
    pool = multiprocessing.get_context("spawn").Pool(min(jobs, len(items)), _worker_init)
    # The pool queues all it is given at once: a batch at a time, so that a
    # long run holds a batch of games in memory, not all of them.
    batch = jobs * BATCH_PER_JOB
    try:
        for start in range(0, len(items), batch):
            yield from pool.imap(work, items[start : start + batch], chunksize=1)  # in order
    except BaseException:
        pool.terminate()  # Ctrl-C: stop the work being done now too
        raise
    pool.close()
    pool.join()


def simulate(
    games: int,
    players: int,
    levels: tuple[str, ...],
    seed: int = 0,
    records: Path | None = None,
    jobs: int = 1,
    budget: Budget = Budget(),
) -> SimulationResult:
    """Play ``games`` games, in ``jobs`` processes: the games, their seeds
    and (for bots with an iteration budget or none) their results are the
    same for any number of jobs; only the times differ."""
    result = SimulationResult(
        players, levels, wins=[0] * players, jobs=jobs, decision_times=[array("d") for _ in levels]
    )
    plan = _Plan(games, seed, levels, budget, records)
    start = time.perf_counter()
    for outcome in in_processes(_play, plan, jobs):
        result.games += 1
        result.moves += outcome.moves
        if outcome.stalemate:
            result.stalemates += 1
        if outcome.winner is not None:
            result.wins[outcome.winner] += 1
        for s, times in enumerate(outcome.times):
            result.decision_times[s].extend(times)
    result.seconds = time.perf_counter() - start
    return result
