"""A bot that picks uniformly among the legal actions."""

from __future__ import annotations

from ..rules import Move, View, concrete_move
from .base import Bot


class RandomBot(Bot):
    level = "random"

    def choose_face_up(self, view: View) -> tuple[str, str, str]:
        a, b, c = self.rng.sample(list(view.hand), 3)
        return (a, b, c)

    def choose_move(self, view: View) -> Move:
        return concrete_move(view, self.rng.choice(view.legal))
