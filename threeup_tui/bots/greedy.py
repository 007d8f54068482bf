"""A sensible heuristic bot.

- Set-up: lay the strongest cards face up (Clear cards, then high numbers):
  face-up cards are played late, when a low card would most likely be stuck.
- Play: get rid of the lowest legal number, all copies at once; keep Clear
  cards for when no number can go, and then prefer the Clear that leaves the
  most useful follow-up (a Clear +1/+2 when there are cards to dump after it).
- Take the optional draw when it is open (more cards, more choice for the
  extra discard); flip face-down cards left to right; pick up only when
  nothing else is allowed.

The rules themselves live in bots/policy.py, on action ids, where the
expert's rollouts use them too.
"""

from __future__ import annotations

from ..rules import Move, View, concrete_move
from ..rules.cards import CODES, parse_code
from .base import Bot
from .policy import greedy_choice, greedy_face_up


class GreedyBot(Bot):
    level = "greedy"

    def choose_face_up(self, view: View) -> tuple[str, str, str]:
        a, b, c = greedy_face_up([parse_code(code) for code in view.hand])
        return (CODES[a], CODES[b], CODES[c])

    def choose_move(self, view: View) -> Move:
        return concrete_move(view, self.choose_action(view))

    def choose_action(self, view: View) -> int:
        return greedy_choice(view.legal, len(view.hand))
