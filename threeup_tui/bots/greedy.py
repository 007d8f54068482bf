"""A sensible heuristic bot.

- Set-up: lay the strongest cards face up (Clear cards, then high numbers):
  face-up cards are played late, when a low card would most likely be stuck.
- Play: get rid of the lowest legal number, all copies at once; keep Clear
  cards for when no number can go, and then prefer the Clear that leaves the
  most useful follow-up (a Clear +1/+2 when there are cards to dump after it).
- Take the optional draw when it is open (more cards, more choice for the
  extra discard); flip face-down cards left to right; pick up only when
  nothing else is allowed.
"""

from __future__ import annotations

from ..rules import DRAW, FLIP, PICKUP, Move, View, concrete_move
from ..rules.actions import is_play, play_count, play_rank
from ..rules.cards import CLEAR, CLEAR1, CLEAR2, parse_code, rank_of
from .base import Bot

_SETUP_VALUE = {CLEAR2: 16, CLEAR1: 15, CLEAR: 14}


def _setup_value(code: str) -> int:
    rank = rank_of(parse_code(code))
    return _SETUP_VALUE.get(rank, rank)


class GreedyBot(Bot):
    level = "greedy"

    def choose_face_up(self, view: View) -> tuple[str, str, str]:
        best = sorted(view.hand, key=_setup_value, reverse=True)[:3]
        return (best[0], best[1], best[2])

    def choose_move(self, view: View) -> Move:
        return concrete_move(view, self.choose_action(view))

    def choose_action(self, view: View) -> int:
        legal = view.legal
        if DRAW in legal:
            return DRAW
        plays = [a for a in legal if is_play(a)]
        numbers = [a for a in plays if play_rank(a) < CLEAR]
        if numbers:
            lowest = min(play_rank(a) for a in numbers)
            return max((a for a in numbers if play_rank(a) == lowest), key=play_count)
        clears = {play_rank(a): a for a in plays}
        if clears:
            hand_after = len(view.hand) - 1
            order = (CLEAR1, CLEAR2, CLEAR) if hand_after > 0 else (CLEAR, CLEAR1, CLEAR2)
            for rank in order:
                if rank in clears:
                    return clears[rank]
        flips = [a for a in legal if FLIP <= a < PICKUP]
        if flips:
            return flips[0]
        return PICKUP
