"""Thinking bots for the tests of off-loop thinking (bots/pool.py).

Importable by module name from these tests and from the pool's worker
processes (spawn gives them the test process's ``sys.path``), since the
pool pickles a bot by its class's module and name.

``GatedBot`` thinks like a search, in pure Python that holds the GIL, until
the test opens a gate for that very decision: so a test can check what
happens *while* a bot thinks by the order of events, not by durations.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path
from typing import ClassVar

from threeup_tui.bots.busy import BusyBot, burn
from threeup_tui.bots.expert import ExpertBot
from threeup_tui.rules import Move, View

GATE_MAX_SECONDS = 6.0  # a gate never opened (a failing test) lets the bot go on after this


def decision_key(seat: int | None, moves: int | None = None) -> str:
    """The gate's name for seat ``seat``'s decision after ``moves`` moves (None: set-up)."""
    return f"{seat}-setup" if moves is None else f"{seat}-{moves}"


def key_of(view: View) -> str:
    return decision_key(view.seat, None if view.phase == "setup" else view.moves_played)


class Gate:
    """A directory through which a test and thinking bots in other
    processes signal each other: ``thinking-KEY`` (a bot began the decision
    KEY), ``open-KEY`` (the test lets it finish), ``decided-KEY``."""

    def __init__(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self.path = path

    def thinking(self, key: str) -> bool:
        return (self.path / f"thinking-{key}").exists()

    def decided(self, key: str) -> bool:
        return (self.path / f"decided-{key}").exists()

    def open(self, key: str) -> None:
        (self.path / f"open-{key}").touch()

    def pid(self, key: str) -> int:
        """The worker process that thinks (or thought) about ``key``."""
        return int((self.path / f"thinking-{key}").read_text())

    async def until_thinking(self, key: str, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while not self.thinking(key):
            if time.monotonic() > deadline:
                raise AssertionError(f"no bot began thinking about {key}")
            await asyncio.sleep(0.005)


class GatedBot(BusyBot):
    """Greedy's decisions, each made only once the test opens its gate."""

    level = "gated"
    gate_dir: ClassVar[Path | None] = None  # set by the test before the table makes bots

    def __init__(
        self, seed: int | None = None, think_ms: int | None = None, iterations: int | None = None
    ) -> None:
        super().__init__(seed, think_ms, iterations)
        self.gate = GatedBot.gate_dir
        self.made_in = os.getpid()  # the process whose event loop must not wait for it

    def think(self, view: View) -> None:
        if self.gate is None:
            super().think(view)
            return
        key = key_of(view)
        mark = self.gate / f".thinking-{key}"
        mark.write_text(str(os.getpid()))
        mark.rename(self.gate / f"thinking-{key}")  # whole, for the test to read at once
        if os.getpid() == self.made_in:
            # Thinking on the event loop's own thread: waiting for the test
            # would only stall it.  Decide at once, so a test that expects
            # the thinking elsewhere fails at once.
            (self.gate / f"decided-{key}").touch()
            return
        deadline = time.monotonic() + GATE_MAX_SECONDS
        while not (self.gate / f"open-{key}").exists() and time.monotonic() < deadline:
            burn(0.002)
        (self.gate / f"decided-{key}").touch()


class CountedExpertBot(ExpertBot):
    """The expert on a fixed number of iterations, not a time budget: the
    same view always gets the same decision, however busy the machine."""

    level = "counted"
    ITERATIONS = 100

    def __init__(
        self, seed: int | None = None, think_ms: int | None = None, iterations: int | None = None
    ) -> None:
        super().__init__(seed, think_ms, self.ITERATIONS)


class FailingBot(BusyBot):
    """A thinking bot with a bug: it raises instead of deciding."""

    level = "failing"

    def choose_move(self, view: View) -> Move:
        raise RuntimeError("the failing bot fails")

    def choose_face_up(self, view: View) -> tuple[str, str, str]:
        raise RuntimeError("the failing bot fails")


class InterruptedBot(BusyBot):
    """A thinking bot stopped by a KeyboardInterrupt inside its worker."""

    level = "interrupted"

    def choose_move(self, view: View) -> Move:
        raise KeyboardInterrupt


def started_blocked_slowly() -> tuple[int, bool | None]:
    """Run in a worker, slowly enough that two calls take two workers:
    (pid, whether SIGINT was blocked when it started)."""
    from threeup_tui.bots.pool import _worker_started_blocked

    time.sleep(0.3)
    return _worker_started_blocked()


def loaded_modules() -> list[str]:
    """Run in a worker: the top-level packages it has imported."""
    return sorted({name.partition(".")[0] for name in sys.modules})


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "State:\tZ" not in status
