"""The end of a game: places (D15, D18) and the 1000-turn stalemate (D16)."""

from __future__ import annotations

import pytest
from dealing import bot_game, deal, drain_turns, drained, verdict_of

from threeup_tui.rules import Move, Options, Phase, record_of
from threeup_tui.rules.state import E_OUT

LIMIT = 1000


def _chain_out(game, seat: int = 0) -> None:
    """Seat ``seat`` (hand GC2 R5 G5, face up GC2 R6 G6) empties everything
    in one turn, flipping its face-down slots 0, 1, 2 last."""
    game.play(seat, "GC2").play(seat, "R5", "G5").play(seat, "GC2").play(seat, "R6", "G6")
    for slot in range(3):
        game.flip(seat, slot)


_CHAIN = {"hand": {0: ["GC2", "R5", "G5"]}, "up": {0: ["GC2", "R6", "G6"]}}


# ------------------------------------------------------------- D16
def test_d16_stalemate_at_1000_turns() -> None:
    game = deal(2, options={"voluntary_pickup": True})
    for _ in range(LIMIT - 1):
        game.pickup(game.seat)
    assert not game.over and game.state.turns == LIMIT - 1
    assert game.state.legal_actions()
    game.pickup(game.seat)
    assert game.over and game.state.turns == LIMIT
    assert game.state.winner is None and game.state.stalemate
    assert game.state.legal_actions() == []
    verdict = game.verdict()
    assert verdict.ok and verdict.finished and verdict.winner is None
    assert verdict.moves == LIMIT
    # A move after the end is illegal, and the verdict names it.
    game.illegal(Move.pickup(game.seat), "over")
    # The record with its result.
    record = record_of(game.state).to_json()
    assert record["result"] == {"winner": None}
    assert verdict_of(record).ok


def test_d16_turns_count_passes_not_discards() -> None:
    game = deal(3, hand={0: ["RC1", "R5", "R6"], 1: ["GC2", "B7", "B8"]})
    game.play(0, "RC1").play(0, "R5")
    assert game.state.turns == 1
    game.play(1, "GC2").play(1, "B7").play(1, "B8")
    assert game.state.turns == 2


@pytest.mark.parametrize("finish", ["first_out", "places"])
def test_d16_a_win_during_the_1000th_turn_counts(finish: str) -> None:
    pickups = LIMIT - 1 - drain_turns(4)
    game = drained(
        4,
        to_act=(0 - pickups) % 4,
        down={0: ["RC1", "GC1", "R9"]},
        options={"voluntary_pickup": True, "finish": finish},
        **_CHAIN,
    )
    for _ in range(pickups):
        game.pickup(game.seat)
    assert game.seat == 0 and game.state.turns == LIMIT - 1 and not game.over
    _chain_out(game)
    assert game.over and game.state.winner == 0
    verdict = game.verdict()
    assert verdict.ok and verdict.finished and verdict.winner == 0
    if finish == "places":
        assert game.state.places == [0] and verdict.places == (0,)


def test_d16_the_1000th_turn_ending_without_a_winner_is_a_stalemate() -> None:
    pickups = LIMIT - 1 - drain_turns(4)
    game = drained(
        4,
        to_act=(0 - pickups) % 4,
        down={0: ["RC1", "GC1", "R9"]},
        options={"voluntary_pickup": True},
        **_CHAIN,
    )
    for _ in range(pickups):
        game.pickup(game.seat)
    game.play(0, "R5", "G5")
    assert game.over and game.state.winner is None and game.state.turns == LIMIT
    verdict = game.verdict()
    assert verdict.ok and verdict.finished and verdict.winner is None


def test_d16_with_places_the_cap_after_someone_finished_ends_the_game() -> None:
    game = drained(
        4,
        to_act=0,
        down={0: ["RC1", "GC1", "R9"]},
        options={"voluntary_pickup": True, "finish": "places"},
        **_CHAIN,
    )
    _chain_out(game)
    assert game.state.places == [0] and not game.over
    while not game.over:
        assert game.seat != 0  # out: skipped
        game.pickup(game.seat)
    assert game.state.turns == LIMIT
    assert game.state.winner == 0 and game.state.places == [0]
    verdict = game.verdict()
    assert verdict.ok and verdict.finished
    assert verdict.winner == 0 and verdict.places == (0,)
    record = record_of(game.state).to_json()
    assert record["result"] == {"winner": 0, "places": [0]}
    assert verdict_of(record).ok


# ------------------------------------------------------------- D15
@pytest.mark.parametrize(("n", "seed"), [(3, 1), (4, 2), (5, 3), (6, 4), (2, 5)])
def test_d15_places_every_player_gets_a_place(n: int, seed: int) -> None:
    state = bot_game(n, seed, Options(finish="places"))
    assert state.phase == Phase.OVER
    outs = [i for i, entry in enumerate(state.history) if entry[3] & E_OUT]
    if state.turns >= LIMIT:
        pytest.fail("seeded bot game hit the turn limit; pick another seed")
    # n - 1 players went out; the last one holding cards is last.
    assert len(outs) == n - 1
    assert outs[-1] == len(state.history) - 1  # the game ended right there
    assert sorted(state.places) == list(range(n))
    assert state.winner == state.places[0]
    assert state.places[:-1] == [state.history[i][0] for i in outs]
    last = state.places[-1]
    assert state.hand_size[last] + state.up_size[last] + state.down_size[last] > 0
    record = record_of(state).to_json()
    assert record["result"] == {"winner": state.places[0], "places": state.places}
    verdict = verdict_of(record)
    assert verdict.ok and verdict.finished and verdict.places == tuple(state.places)


@pytest.mark.parametrize(("n", "seed"), [(2, 1), (3, 2), (6, 3)])
def test_d15_first_out_default_one_winner(n: int, seed: int) -> None:
    state = bot_game(n, seed)
    assert state.phase == Phase.OVER and state.winner is not None
    w = state.winner
    assert state.hand_size[w] + state.up_size[w] + state.down_size[w] == 0
    others = [s for s in range(n) if s != w]
    assert all(state.hand_size[s] + state.up_size[s] + state.down_size[s] for s in others)
    assert state.places == []
    assert record_of(state).to_json()["result"] == {"winner": w}
