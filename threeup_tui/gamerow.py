"""A finished game as one seat's history keeps it: the row "Your games" shows.

The app makes one from the game-over view as a game ends, and a start makes
one from a journal whose game ended as its app was killed (:mod:`.leftgame`);
both give the same row for the same game, names cleaned the same way.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from .client.events import GameResult
from .history import FinishedGame, SeatEntry
from .names import cut_cells
from .textclean import clean_text

YOU = "you"  # what the app calls its own player; another seat's name may read so too
NAME_CELLS = 24  # as every label shows a name


def shown_names(raw_names: tuple[str, ...], me: int | None) -> tuple[str, ...]:
    """A game's names as every label shows them (cleaned; seat ``me`` is this app's)."""
    names = []
    for i, raw in enumerate(raw_names):
        name = cut_cells(clean_text(raw, NAME_CELLS), NAME_CELLS).rstrip() or f"seat {i + 1}"
        if i != me and name.casefold() == YOU:
            # Another player who chose the name "you" must not read as
            # this one: "Waiting for you…", "you wins".
            name = f"{name} (seat {i + 1})"
        names.append(name)
    return tuple(names)


def history_row(
    game: GameResult,
    me: int,
    venue: str,
    record: str | None = None,
    identity: tuple[str, int] | None = None,
    finished_at: datetime | None = None,
) -> FinishedGame:
    """Game ``game`` as seat ``me`` keeps it, played at ``venue`` ("bots",
    "host", "join"), its record at ``record``, a network game's ``identity``
    (its table's id, its number there)."""
    seats = []
    for i, name in enumerate(shown_names(game.names, me)):
        kind, level = game.kinds[i] if i < len(game.kinds) else ("human", None)
        # A person's seat a bot finished for its player keeps the bot's
        # level: "Dan: human" read as if Dan had played it all himself.
        seats.append(SeatEntry(name, YOU if i == me else kind, level))
    if game.winner == me:
        place: int | None = 1
    else:
        place = game.places.index(me) + 1 if me in game.places else None
    row = FinishedGame(
        seats=tuple(seats),
        my_seat=me,
        place=place,
        won=game.winner == me,
        stalemate=game.stalemate,
        moves=game.moves,
        turns=game.turns,
        finish=game.finish,
        venue=venue,
        record=record,
        table_id=None if identity is None else identity[0],
        game_number=None if identity is None else identity[1],
    )
    return row if finished_at is None else replace(row, finished_at=finished_at)
