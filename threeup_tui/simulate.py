"""Bot-against-bot games: ``threeup simulate``."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bots import Bot, make_bot
from .recordfile import save_record
from .rules import GameState, Options, Phase, record_of, seat_view


@dataclass
class SimulationResult:
    players: int
    levels: tuple[str, ...]
    games: int = 0
    wins: list[int] = field(default_factory=list)
    stalemates: int = 0
    moves: int = 0
    seconds: float = 0.0

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
                }
                for s, w in enumerate(self.wins)
            ],
            "stalemates": self.stalemates,
            "stalemate_rate": self.stalemates / self.games if self.games else 0.0,
            "mean_moves": self.moves / self.games if self.games else 0.0,
            "games_per_s": self.games / self.seconds if self.seconds else 0.0,
            "moves_per_s": self.moves / self.seconds if self.seconds else 0.0,
        }

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
        )
        return "\n".join(lines)


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (sound near 0 and 1)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def parse_levels(text: str, players: int) -> tuple[str, ...]:
    """``greedy`` for every seat, or one level per seat, comma separated."""
    levels = tuple(part.strip() for part in text.split(","))
    if len(levels) == 1:
        levels = levels * players
    if len(levels) != players:
        raise ValueError(
            f"--bots names {len(levels)} levels for {players} players: give one, or one per seat"
        )
    for level in levels:
        make_bot(level)  # raises ValueError naming the known levels
    return levels


def play_bot_game(
    levels: tuple[str, ...],
    seed: int,
    names: list[str] | None = None,
    options: Options | None = None,
) -> GameState:
    """One whole game between bots, each seeing only its own view."""
    names = names or [f"{level}-{s + 1}" for s, level in enumerate(levels)]  # greedy-1: seat 1
    state = GameState.new(names, options, seed=seed)
    bots: list[Bot] = [make_bot(level, seed * 31 + s) for s, level in enumerate(levels)]
    for s, bot in enumerate(bots):
        state.choose_face_up_codes(s, bot.choose_face_up(seat_view(state, s, log_length=0)))
    while state.phase == Phase.PLAY:
        s = state.seat
        state.apply_move(bots[s].choose_move(seat_view(state, s, log_length=0)))
    return state


def simulate(
    games: int,
    players: int,
    levels: tuple[str, ...],
    seed: int = 0,
    records: Path | None = None,
) -> SimulationResult:
    result = SimulationResult(players, levels, wins=[0] * players)
    start = time.perf_counter()
    for game in range(games):
        state = play_bot_game(levels, seed * 1_000_003 + game)
        result.games += 1
        result.moves += len(state.history)
        if state.stalemate:
            result.stalemates += 1
        if state.winner is not None:
            result.wins[state.winner] += 1
        if records is not None:
            save_record(records / f"game-{game:05d}.json", record_of(state))
    result.seconds = time.perf_counter() - start
    return result
