"""Views on the wire: ``view_to_wire`` and a session's ``ViewDecoder``.

The host converts the public part of a move's views once and shares it; a
client's decoder reuses every part of a snapshot that did not change since
the previous one.  Both shortcuts must be invisible: whatever order the
snapshots come in (latest-wins drops some, a reconnect starts over), the
decoded view is the view the host built, with the log cut to ``WIRE_LOG``.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import SOAK, examples

from threeup_tui.netplay.wire import (
    WIRE_LOG,
    ViewDecoder,
    WireError,
    view_from_wire,
    view_to_wire,
)
from threeup_tui.rules import GameState, Phase, View, seat_view

# Each example plays two whole games through seven decoders.  A decoder
# that reuses a seat or the cleared cards it should have rebuilt fails
# within the first five examples; CI runs 20 (100 before), a soak 200.
SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=not SOAK,
    max_examples=examples(ci=20, soak=200),
)


def on_the_wire(view: View) -> Any:
    """What a client gets: the host's wire form through msgpack and back."""
    return msgpack.unpackb(msgpack.packb(view_to_wire(view)))


def as_sent(view: View) -> View:
    return dataclasses.replace(view, log=view.log[-WIRE_LOG:])


@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 6),
    policy=st.integers(0, 2**32 - 1),
    skip=st.integers(1, 4),
)
def test_decoders_fed_whole_games_give_the_hosts_views(
    seed: int, players: int, policy: int, skip: int
) -> None:
    """Two games in a row (a rematch: the move numbers start again) through
    the same decoders, one per seat and one spectator."""
    rng = random.Random(policy)
    viewers: list[int | None] = [*range(players), None]
    decoders = {seat: ViewDecoder() for seat in viewers}
    for game in range(2):
        state = GameState.new([f"p{i}" for i in range(players)], seed=seed + game)
        for s in rng.sample(range(players), players):
            state.choose_face_up(s, rng.sample(state.setup_hand(s), 3))
        moves = 0
        while state.phase != Phase.OVER and moves < 300:
            if moves % skip == 0:  # latest-wins: a client may miss snapshots
                for seat in rng.sample(viewers, len(viewers)):
                    view = seat_view(state, seat)
                    wire = on_the_wire(view)
                    decoded = decoders[seat].decode(wire)
                    assert decoded == as_sent(view) == view_from_wire(wire)
            state.apply(rng.choice(state.legal_actions()))
            moves += 1
        for seat in viewers:
            view = seat_view(state, seat)
            assert decoders[seat].decode(on_the_wire(view)) == as_sent(view)


def a_view_in_play() -> View:
    rng = random.Random(7)
    state = GameState.new(["ann", "bo", "cy"], seed=7)
    for s in range(3):
        state.choose_face_up(s, rng.sample(state.setup_hand(s), 3))
    for _ in range(20):
        state.apply(rng.choice(state.legal_actions()))
    return seat_view(state, 1)


BAD_PARTS: list[tuple[str, Any]] = [
    ("seats", [[1, [], [1, 1, 1], [], True]]),  # a seat entry too short
    ("seats", "nope"),
    ("names", None),
    ("hand", [999]),
    ("hand", [-1]),
    ("hand", ["RC2"]),
    ("pile", 3),
    ("cleared", [True, None]),
    ("log", [[0, "play", [1000], False, 0, 0, False, False]]),
    ("log", {"a": 1}),
    ("legal", ["x"]),
    ("moves", "12"),
    ("to_act", 1.5),
    # Seat numbers out of range: the app indexed the names with them, and a
    # hostile host's to_act of 7 at a table of two ended the app (IndexError).
    ("to_act", 7),
    ("to_act", -1),
    ("seat", 6),
    ("winner", 9),
    ("places", [0, 5]),
    ("log", [[4, "draw", [], False, 0, 1, False, False]]),
    ("options", {"finish": "never"}),
    ("draw", None),
]


@pytest.mark.parametrize(("key", "value"), BAD_PARTS)
def test_a_malformed_snapshot_is_refused_and_the_next_good_one_still_decodes(
    key: str, value: Any
) -> None:
    view = a_view_in_play()
    decoder = ViewDecoder()
    good = on_the_wire(view)
    assert decoder.decode(good) == as_sent(view)
    bad = dict(good, **{key: value})
    with pytest.raises(WireError):
        decoder.decode(bad)
    assert decoder.decode(on_the_wire(view)) == as_sent(view)


@pytest.mark.parametrize("data", [None, [], "view", 3, {"seat": 1}])
def test_what_is_not_a_view_map_is_refused(data: Any) -> None:
    with pytest.raises(WireError):
        ViewDecoder().decode(data)


def test_unchanged_parts_are_reused_and_changed_ones_rebuilt() -> None:
    view = a_view_in_play()
    decoder = ViewDecoder()
    first = decoder.decode(on_the_wire(view))
    again = decoder.decode(on_the_wire(view))
    assert again.names is first.names
    assert all(a is b for a, b in zip(again.seats, first.seats, strict=True))
    renamed = dataclasses.replace(
        view,
        names=("ann", "BO", "cy"),
        seats=tuple(dataclasses.replace(s, name=("ann", "BO", "cy")[s.seat]) for s in view.seats),
    )
    third = decoder.decode(on_the_wire(renamed))
    assert third == as_sent(renamed)
    assert third.seats[1].name == "BO"


def test_two_games_at_the_same_move_count_never_share_log_entries() -> None:
    """The log is matched by move number and checked by content: a decoder
    that goes from one game to another (a host restarted with a new game)
    at the same move count shows the new game's moves."""
    rng = random.Random(3)
    states = [GameState.new(["a", "b", "c", "d"], seed=seed) for seed in (11, 12)]
    for state in states:
        for s in range(4):
            state.choose_face_up(s, rng.sample(state.setup_hand(s), 3))
    decoder = ViewDecoder()
    for _ in range(30):
        for state in states:
            if state.phase == Phase.PLAY:
                state.apply(rng.choice(state.legal_actions()))
        for state in states:
            view = seat_view(state, 0)
            assert decoder.decode(on_the_wire(view)) == as_sent(view)
