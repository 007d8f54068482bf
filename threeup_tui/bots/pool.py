"""Bots' thinking, off the event loop.

A search bot (``bot.thinks``) spends a quarter of a second or more of pure
Python on each decision.  In the event loop's thread that would freeze
everything the loop serves: the app's repaints and keys, the host's acks,
heartbeats and other seats' views.  :class:`ThinkPool` runs those decisions
in worker processes instead, and cheap bots (random, greedy: microseconds a
decision) in the caller, where a round trip to a worker would cost more
than the decision itself.

The workers are fresh interpreters (``spawn``, never ``fork``: forking a
process that runs an event loop and threads copies their locks in whatever
state they are in).  They import the bots and the rules, never Textual or
the network.  Each one:

- ignores SIGINT: Ctrl-C in a terminal reaches the whole process group, and
  what it means (leave the table, stop the host) is the parent's to decide;
  the parent blocks SIGINT while it starts a worker, so not even a worker's
  first instant can die of it with a traceback;
- runs at a lower priority (``nice``), so that on a busy machine the loop
  that serves people always gets the CPU first; a search bot's budget is
  wall-clock time, so it still answers on time, having searched less;
- writes nothing to the terminal: a line on the app's screen would corrupt
  it.  Whatever a bot raises comes back to the caller with the decision.

A thinking bot is pickled with each request, so its decision must be a pure
function of what it carries (its seed and budget) and the view: the bots
contract.  One process-wide pool (:func:`shared_pool`) serves every table,
seat and hint of a process; the entry points close it on the way out
(:func:`close_shared_pool`).
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Literal, TypeVar

from ..process import output_to_nowhere
from ..rules import Move, View
from .base import Bot
from .greedy import GreedyBot

log = logging.getLogger("threeup.thinking")

Decision = tuple[str, str, str] | Move
Mode = Literal["process", "thread", "inline"]
MODES: tuple[Mode, ...] = ("process", "thread", "inline")

WORKER_NICE = 5
DEFAULT_WORKERS = 2  # one decision at a time per table; two for set-up, hints, a second table
ASSUMED_THINK_MS = 250  # for the time-out of a thinking bot that states no budget
GIVEN_UP_RESTART_AFTER = 2.0  # s: a thought given up with more left ends its worker
_T = TypeVar("_T")


class ThinkingError(Exception):
    """A decision that never came: its worker died or overran its time-out."""


def time_budget(bot: Bot) -> float:
    """Seconds ``bot`` may think per decision (a budget of iterations states
    none: it is taken for ASSUMED_THINK_MS)."""
    return (getattr(bot, "think_ms", None) or ASSUMED_THINK_MS) / 1000


def thinks(bot: Bot) -> bool:
    """Whether ``bot`` searches (and so must think off the event loop)."""
    return bool(getattr(bot, "thinks", False))


def decide(bot: Bot, view: View) -> Decision:
    """What ``bot`` does on ``view``: three face-up cards during set-up, else a move."""
    if view.phase == "setup":
        return bot.choose_face_up(view)
    return bot.choose_move(view)


def fallback_decision(view: View) -> Decision:
    """A sensible answer at once, when a bot failed to give one (greedy's)."""
    return decide(GreedyBot(0), view)


_sigint_blocked_at_start: bool | None = None  # in a worker: was it born safe from Ctrl-C?


def _worker_init() -> None:
    global _sigint_blocked_at_start
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        blocked = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        _sigint_blocked_at_start = signal.SIGINT in blocked
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICE)
    output_to_nowhere()
    end_with_parent()


def end_with_parent() -> None:
    """In a worker process (this pool's, simulate's): end it as soon as its
    parent has ended, however the parent ended."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), daemon=True).start()


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    """End this worker when its parent has ended, however it ended.

    A parent that is killed outright never sends the pool's "stop", and the
    worker would wait for work for ever: it holds both ends of its own work
    queue's pipe, so it never sees the end of it.  A worker busy with work
    would finish it first, for nothing, and then die with a traceback on
    the broken pipe back.
    """
    parent.join()  # the parent's sentinel: readable once the parent is gone
    os._exit(0)


def _decide_in_worker(bot: Bot, view: View) -> Decision:
    try:
        return decide(bot, view)
    except Exception:
        raise
    except BaseException as err:  # never a KeyboardInterrupt raised in the caller's loop
        raise ThinkingError(f"the bot was stopped ({type(err).__name__})") from None


def _worker_pid() -> int:
    return os.getpid()


def _worker_started_blocked() -> tuple[int, bool | None]:
    """(pid, whether SIGINT was blocked when this worker started): for tests."""
    return os.getpid(), _sigint_blocked_at_start


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Block SIGINT in this thread, so that a process started now inherits
    it blocked (the mask survives fork and exec); a Ctrl-C meanwhile waits
    and is then delivered here as usual."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with a real standard error.

    The tracker hands ``sys.stderr``'s descriptor to its process; inside a
    Textual app ``sys.stderr`` is a capture whose ``fileno()`` is -1, and
    starting any worker would fail ("bad value(s) in fds_to_keep").
    """
    if os.name != "posix":
        return
    from multiprocessing import resource_tracker

    stderr = sys.stderr
    try:
        usable = stderr is not None and stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if usable or sys.__stderr__ is None:
        resource_tracker.ensure_running()
        return
    sys.stderr = sys.__stderr__
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = stderr


class ThinkPool:
    """Runs thinking bots' decisions away from the event loop.

    ``mode`` is ``process`` (worker processes: the real thing), ``thread``
    (a worker thread: still holds the GIL in 5 ms slices, kept for the
    benchmarks to compare) or ``inline`` (in the caller: the freeze the pool
    exists to prevent, for the benchmarks and for tests that must fail).
    Workers start on the first decision that needs one, or at :meth:`warm`.
    """

    def __init__(self, workers: int = DEFAULT_WORKERS, mode: Mode = "process") -> None:
        if mode not in MODES:
            raise ValueError(f"unknown thinking mode {mode!r}: choose from {', '.join(MODES)}")
        self.mode: Mode = mode
        self.workers = max(1, workers)
        self._executor: concurrent.futures.Executor | None = None
        self._lock = threading.Lock()
        self._outstanding = 0  # decisions asked for and not yet come back
        self.decisions = 0  # decisions made off the loop, for tests and benchmarks

    # ------------------------------------------------------------ executor
    def _make_executor(self) -> concurrent.futures.Executor:
        if self.mode == "thread":
            return concurrent.futures.ThreadPoolExecutor(
                self.workers, thread_name_prefix="threeup-think"
            )
        _start_resource_tracker()  # before the executor makes its locks, which start it
        return concurrent.futures.ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_init,
        )

    def _current_executor(self) -> concurrent.futures.Executor:
        """The executor in use, made now if there is none."""
        with self._lock:
            if self._executor is None:
                with _sigint_blocked():  # it starts multiprocessing's resource tracker
                    self._executor = self._make_executor()
            return self._executor

    def _submit(self, fn: Callable[..., _T], *args: Any) -> concurrent.futures.Future[_T]:
        return self._submit_anew(fn, *args)[1]

    def _submit_anew(
        self, fn: Callable[..., _T], *args: Any
    ) -> tuple[concurrent.futures.Executor, concurrent.futures.Future[_T]]:
        """Submit to the executor in use, or to a fresh one if it refuses:
        a worker that died between decisions (the OOM killer, a `kill`)
        leaves it broken, and it would refuse every call from then on.
        Nothing had been asked of it, so nothing is lost.  The executor
        the call went to, and the call's future."""
        executor = self._current_executor()
        try:
            return executor, self._submit_to(executor, fn, *args)
        except BrokenProcessPool:
            log.warning("a thinking worker had stopped: starting afresh")
            self._restart(executor)
        executor = self._current_executor()
        return executor, self._submit_to(executor, fn, *args)

    def _submit_to(
        self, executor: concurrent.futures.Executor, fn: Callable[..., _T], *args: Any
    ) -> concurrent.futures.Future[_T]:
        # Blocked afresh: starting the tracker unblocks SIGINT in this thread
        # on its way out (resource_tracker.ensure_running), and submit() may
        # start a worker.
        with _sigint_blocked():
            return executor.submit(fn, *args)

    def warm(self) -> None:
        """Start a worker now, so that the first decision does not wait for
        a new interpreter to start."""
        if self.mode == "process":
            self._submit(_worker_pid)

    # ------------------------------------------------------------ thinking
    async def decide(self, bot: Bot, view: View, timeout: float | None = None) -> Decision:
        """``bot``'s decision on ``view``, made off the event loop if it thinks.

        Raises what the bot raised, or ThinkingError when the worker died or
        the decision overran ``timeout`` (default: far beyond the bot's
        budget), the pool then starting afresh, or when such a fresh start
        dropped this decision while it waited for a worker.
        """
        if self.mode == "inline" or not thinks(bot):
            return decide(bot, view)
        budget = time_budget(bot)
        if timeout is None:
            timeout = max(10.0, 20 * budget)
        executor, future = self._submit_anew(_decide_in_worker, bot, view)
        self._outstanding += 1
        try:
            decision = await self._outcome(executor, future, timeout, budget)
        finally:
            self._outstanding -= 1
        self.decisions += 1
        return decision

    async def _outcome(
        self,
        executor: concurrent.futures.Executor,
        future: concurrent.futures.Future[Decision],
        timeout: float,
        budget: float,
    ) -> Decision:
        """What the decision submitted as ``future`` comes to (see decide)."""
        loop = asyncio.get_running_loop()
        ends_by = loop.time() + budget  # at the earliest: it may have queued
        try:
            async with asyncio.timeout(timeout):
                return await asyncio.wrap_future(future)
        except TimeoutError:
            self._restart(executor)
            raise ThinkingError(f"no decision within {timeout:g} s") from None
        except BrokenProcessPool:
            self._restart(executor)
            raise ThinkingError("the thinking worker stopped") from None
        except asyncio.CancelledError:
            if _caller_cancelled():
                self._given_up(executor, future, ends_by - loop.time())
                raise
            # Nobody cancelled the caller: a restart (another decision's
            # time-out) cancelled this one while it waited for a worker.
            # Passed on as a cancellation it would end the caller's task for
            # good (a table's runner, a bot seat) instead of its fallback.
            raise ThinkingError("the thinking pool restarted") from None

    def _given_up(
        self,
        executor: concurrent.futures.Executor,
        future: concurrent.futures.Future[Decision],
        left: float,
    ) -> None:
        """The caller gave up a decision (its game was left, its seat's view
        moved on).  A worker already on it would think on for the rest of
        the budget, ``left`` seconds or more: a core busy for nothing, and a
        worker fewer for the next decision.  When that is longer than a new
        worker takes to start, and nothing else is being decided, the
        workers go (new ones start with the next decision)."""
        if future.running() and left > GIVEN_UP_RESTART_AFTER and self._outstanding == 1:
            log.debug("ending a thought given up with %.1f s of it left", left)
            self._restart(executor)

    def _restart(self, failed: concurrent.futures.Executor) -> None:
        """End the workers of ``failed`` (a decision failed or was given up
        there) and start afresh, unless the pool already has: the decisions
        queued on the old workers fail one by one as they go, and a late one
        must not end the new workers (and the decisions they are making) too."""
        with self._lock:
            if self._executor is not failed:
                return
            self._executor = None
        threading.Thread(target=_shut_down, args=(failed, 0.0), daemon=True).start()

    # ------------------------------------------------------------ lifetime
    def worker_pids(self) -> list[int]:
        """The worker processes alive now (none in thread or inline mode)."""
        executor = self._executor
        processes = getattr(executor, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.is_alive() and p.pid is not None]

    def close(self, grace: float = 0.5) -> None:
        """Stop the workers: a decision under way gets ``grace`` seconds,
        then its worker is terminated.  The pool may be used again after."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            _shut_down(executor, grace)

    async def aclose(self, grace: float = 0.5) -> None:
        """:meth:`close` without blocking the event loop."""
        await asyncio.to_thread(self.close, grace)


def _caller_cancelled() -> bool:
    """Whether the task running now is being cancelled (by its owner)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _shut_down(executor: concurrent.futures.Executor, grace: float) -> None:
    if not isinstance(executor, concurrent.futures.ProcessPoolExecutor):
        executor.shutdown(wait=False, cancel_futures=True)
        return
    # Python 3.11 has no public way to stop a busy worker (3.14 adds
    # terminate_workers): take the processes and the manager thread before
    # shutdown() forgets them.
    processes = list((getattr(executor, "_processes", None) or {}).values())
    manager = getattr(executor, "_executor_manager_thread", None)
    executor.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            log.debug("terminating thinking worker %s", process.pid)
            process.terminate()
            process.join(1.0)
            if process.is_alive():
                process.kill()
                process.join()
    if manager is not None:
        manager.join(5.0)


_shared: ThinkPool | None = None
_shared_lock = threading.Lock()


def shared_pool() -> ThinkPool:
    """The process's pool, made on first use (closed again at exit)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = ThinkPool()
        return _shared


def set_shared_pool(pool: ThinkPool | None) -> ThinkPool | None:
    """Use ``pool`` as the process's pool (None: a new one on next use); the old one.

    For benchmarks that compare modes, and tests that want their own."""
    global _shared
    with _shared_lock:
        old, _shared = _shared, pool
    return old


def close_shared_pool() -> None:
    """Stop the shared pool's workers, if it has any."""
    pool = _shared
    if pool is not None:
        pool.close()


# The entry points close the pool themselves; this is for any other program.
atexit.register(close_shared_pool)
