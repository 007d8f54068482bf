"""Sample records for the record and ``threeup verify`` tests."""

from __future__ import annotations

import copy
import json
from typing import Any

from dealing import bot_game, deal, drained

from threeup_tui.rules import Options, record_of


def _fresh(record: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(record))


def finished() -> dict[str, Any]:
    """A whole legal game (greedy bots, 3 players), with its result."""
    state = bot_game(3, 7)
    record = record_of(state).to_json()
    assert record["result"]["winner"] is not None
    return _fresh(record)


def unfinished(cut: int = 10) -> dict[str, Any]:
    record = finished()
    record["moves"] = record["moves"][:cut]
    del record["result"]
    return record


def stalemate() -> dict[str, Any]:
    game = deal(2, options={"voluntary_pickup": True})
    for _ in range(1000):
        game.pickup(game.seat)
    record = record_of(game.state).to_json()
    assert record["result"] == {"winner": None}
    return _fresh(record)


def places() -> dict[str, Any]:
    """A whole places game between greedy bots (4 players)."""
    state = bot_game(4, 2, Options(finish="places"))
    record = record_of(state).to_json()
    assert sorted(record["result"]["places"]) == [0, 1, 2, 3]
    return _fresh(record)


def places_so_far() -> dict[str, Any]:
    """Seat 0 has gone out of a places game that goes on."""
    game = drained(
        4,
        to_act=0,
        options={"finish": "places"},
        hand={0: ["GC2", "R5", "G5"]},
        up={0: ["GC2", "R6", "G6"]},
        down={0: ["RC1", "GC1", "R9"]},
    )
    game.play(0, "GC2").play(0, "R5", "G5").play(0, "GC2").play(0, "R6", "G6")
    game.flip(0, 0).flip(0, 1).flip(0, 2)
    assert game.state.places == [0] and not game.over
    return _fresh(game.record)


def short() -> dict[str, Any]:
    """One known move of a 3-player game: seat 0 (R5 G5 B7 in hand) played
    R5; seat 1 (R2 G9 BC1) is to act, then seat 2 (R3 G6 B8)."""
    game = deal(
        3,
        hand={0: ["R5", "G5", "B7"], 1: ["R2", "G9", "BC1"], 2: ["R3", "G6", "B8"]},
        up={0: ["R10", "G10", "B10"], 1: ["R8", "G8", "B9"]},
        draw=["R1", "G1", "B1", "R4", "G4", "B4"],
    )
    game.play(0, "R5")
    return _fresh(game.record)


def with_moves(record: dict[str, Any], *moves: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(record)
    out["moves"].extend(copy.deepcopy(list(moves)))
    return out
