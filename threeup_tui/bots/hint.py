"""The hint key's advice: what the strongest bot would do, after a short think.

The search runs in the thinking pool's workers (bots/pool.py), so the app
goes on repainting and answering keys while it does.
"""

from __future__ import annotations

import logging

from ..rules import Move, View
from . import BOT_LEVELS, make_bot
from .pool import ThinkPool, decide, shared_pool

log = logging.getLogger("threeup.hint")

HINT_THINK_MS = 150  # a hint should come quicker than a bot's move
HINT_LEVELS = ("expert", "greedy")  # the first one known gives the hint


def hint_level() -> str:
    return next(level for level in (*HINT_LEVELS, *BOT_LEVELS) if level in BOT_LEVELS)


async def hint_move(view: View, pool: ThinkPool | None = None) -> Move:
    """The move to suggest on ``view`` (the seat's own turn).

    The same view gives the same hint.  If the search fails, greedy's move.
    """
    bot = make_bot(hint_level(), seed=view.moves_played, think_ms=HINT_THINK_MS)
    try:
        move = await (pool or shared_pool()).decide(bot, view)
    except Exception as err:
        log.error("no hint from the %s bot: %r", hint_level(), err)
        move = decide(make_bot("greedy", 0), view)
    assert isinstance(move, Move)
    return move
