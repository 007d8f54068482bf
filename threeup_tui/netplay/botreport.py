"""What a bot joined with ``threeup join HOST --bot LEVEL`` tells whoever
runs it: a line on stderr as it sits down, as each game begins and ends
(its seat, its result), and when the link to the host drops and comes
back.  Without them it played for hours in silence, and its operator
could not tell a bot at play from one stuck.

stdout stays empty, for scripts; the lines are few: two a game, and two
for each drop of the link.  Names come from the host: untrusted, cleaned
before they are printed.
"""

from __future__ import annotations

from collections.abc import Callable

from ..client.events import ConnectionChanged, Event, LobbyChanged, ViewChanged, Welcome
from ..outcome import won_words
from ..rules import View
from ..textclean import MAX_NAME, clean_text, ordinal


class BotReport:
    """Turns a bot's client events into lines for its operator (``say``)."""

    def __init__(self, address: str, say: Callable[[str], None]) -> None:
        self.address = address
        self.say = say
        self.seat: int | None = None
        self.game_number = 0  # the lobby's: games begun at the table (0: not told)
        self.games_seen = 0  # games this bot saw begin, for a host that does not number them
        self.playing = False  # a game began and has not ended
        self.lost = False  # the link dropped, and has not come back yet

    def on_event(self, event: Event) -> None:
        if isinstance(event, Welcome) and event.seat is not None and event.seat != self.seat:
            self.seat = event.seat
            self.say(f"seated at {self.address}: seat {event.seat + 1}")
        elif isinstance(event, LobbyChanged):
            self.game_number = event.lobby.game_number
        elif isinstance(event, ConnectionChanged):
            self._link(event.state)
        elif isinstance(event, ViewChanged):
            self._view(event.view)

    def _link(self, state: str) -> None:
        if state == "reconnecting" and not self.lost:
            self.lost = True
            self.say(f"lost the link to {self.address}: trying to reach it again")
        elif state == "connected" and self.lost:
            self.lost = False
            self.say(f"back at {self.address}")

    def _view(self, view: View) -> None:
        if view.seat is None:
            return
        if view.phase != "over" and not self.playing:
            self.playing = True
            self.games_seen += 1
            name = clean_text(view.names[view.seat], MAX_NAME)
            seats = len(view.names)
            self.say(f"{self._game()} begins: seat {view.seat + 1} of {seats}, as {name}")
        elif view.phase == "over" and self.playing:
            self.playing = False
            self.say(f"{self._game()} over: {result_words(view)}")

    def _game(self) -> str:
        return f"game {self.game_number or self.games_seen}"


def result_words(view: View) -> str:
    """A finished game from the bot's seat: "won", "2nd of 3", "lost", or a
    stalemate; then who won (and the places), and how many moves."""
    seat = view.seat
    names = [clean_text(name, MAX_NAME) or f"seat {i + 1}" for i, name in enumerate(view.names)]
    moves = f"{view.moves_played} moves"
    if view.winner is None:
        return f"stalemate, no winner; {moves}"
    if view.winner == seat:
        order = ", ".join(names[p] for p in view.places)
        return f"won{f' (places: {order})' if len(view.places) > 1 else ''}; {moves}"
    if seat in view.places:
        mine = f"{ordinal(view.places.index(seat) + 1)} of {len(names)}"
    else:
        mine = "lost"
    return f"{mine}; {won_words(names, view.winner, view.places)}; {moves}"


__all__ = ["BotReport", "result_words"]
