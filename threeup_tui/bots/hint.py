"""The hint key's advice: what the strongest bot would do, after a short think.

The search runs in the thinking pool's workers (bots/pool.py), so the app
goes on repainting and answering keys while it does.
"""

from __future__ import annotations

import logging

from ..rules import Move, View
from . import BOT_LEVELS, make_bot
from .pool import Decision, ThinkPool, decide, shared_pool

log = logging.getLogger("threeup.hint")

HINT_THINK_MS = 150  # a hint should come quicker than a bot's move
HINT_LEVELS = ("expert", "greedy")  # the first one known gives the hint


def hint_level() -> str:
    return next(level for level in (*HINT_LEVELS, *BOT_LEVELS) if level in BOT_LEVELS)


async def hint_move(view: View, pool: ThinkPool | None = None) -> Move:
    """The move to suggest on ``view`` (the seat's own turn).

    The same view gives the same hint.  If the search fails, greedy's move.
    """
    move = await _advice(view, pool)
    assert isinstance(move, Move)
    return move


async def hint_face_up(view: View, pool: ThinkPool | None = None) -> tuple[str, str, str]:
    """The three cards to suggest laying face up, on a set-up ``view``."""
    choice = await _advice(view, pool)
    assert isinstance(choice, tuple)
    return choice


async def _advice(view: View, pool: ThinkPool | None) -> Decision:
    bot = make_bot(hint_level(), seed=view.moves_played, think_ms=HINT_THINK_MS)
    try:
        return await (pool or shared_pool()).decide(bot, view)
    except Exception as err:
        log.error("no hint from the %s bot: %r", hint_level(), err)
        return decide(make_bot("greedy", 0), view)
