"""Search support: ``GameState.clone`` and the determinizer (rules/search.py).

Positions come from whole random games (Hypothesis): some seats have chosen
their face-up cards (set-up), or the game is played on for a while, or to
its end.  A sample dealt from a seat's view must show that seat exactly the
same view, hold all 74 cards, and play on; over many samples every unseen
card must land in every unseen zone at the rate the zone's size gives (a
chi-square test).
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from dealing import FULL, recount
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from threeup_tui.rules import GameState, Options, Phase, record_of, seat_view
from threeup_tui.rules.errors import SetupError
from threeup_tui.rules.search import DOWN, DRAW_PILE, HAND, UP, Determinizer, ViewMismatch
from threeup_tui.rules.state import E_OUT, E_TURN_END
from threeup_tui.rules.views import View

SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)


def _position(n: int, seed: int, ready: int, moves: int, options: Options) -> GameState:
    """A game after ``ready`` seats chose face-up cards and, once all have,
    ``moves`` random actions (fewer if the game ends first)."""
    rng = random.Random(seed)
    state = GameState.new([f"p{s}" for s in range(n)], options, seed=seed)
    for s in rng.sample(range(n), min(ready, n)):
        state.choose_face_up(s, rng.sample(state.setup_hand(s), 3))
    for _ in range(moves):
        if state.phase != Phase.PLAY:
            break
        legal = state.legal_actions()
        plays = [a for a in legal if a < 112]
        state.apply(rng.choice(plays if plays and rng.random() < 0.8 else legal))
    return state


@st.composite
def positions(draw: st.DrawFn) -> GameState:
    n = draw(st.integers(2, 6), label="players")
    options = Options(
        voluntary_pickup=draw(st.booleans(), label="voluntary_pickup"),
        finish=draw(st.sampled_from(["first_out", "places"]), label="finish"),
    )
    ready = draw(st.one_of(st.integers(0, n - 1), st.just(n)), label="ready")
    moves = draw(st.sampled_from([0, 1, 5, 30, 120, 5000]), label="moves")
    return _position(n, draw(st.integers(0, 2**32 - 1), label="seed"), ready, moves, options)


def _history_says_started(state: GameState) -> bool:
    """What ``turn_started`` was derived from before it became a flag."""
    if not state.history:
        return False
    seat, _mtype, _arg, effects, _detail = state.history[-1]
    return seat == state.seat and not effects & (E_TURN_END | E_OUT)


# ------------------------------------------------------------------ clone
@settings(SETTINGS, max_examples=30)
@given(positions(), st.integers(0, 2**32 - 1))
def test_a_clone_plays_on_exactly_like_its_original(state: GameState, seed: int) -> None:
    before = state.snapshot()
    copy = state.clone()
    assert copy.history == [] and copy.moves_played == state.moves_played
    assert copy.turn_started() == state.turn_started()
    same = {k: v for k, v in before.items() if k != "history"}
    assert {k: v for k, v in copy.snapshot().items() if k != "history"} == same
    rng = random.Random(seed)
    twin = state.clone()
    while copy.phase == Phase.PLAY and copy.moves_played < state.moves_played + 300:
        action = rng.choice(copy.legal_actions())
        copy.apply(action)
        if state.phase == Phase.PLAY:
            state.apply(action)
        assert copy.count_cards() == 74 and recount(copy) == FULL
    # The original followed the same moves and ends in the same state...
    mine, theirs = copy.snapshot(), state.snapshot()
    assert mine.pop("history") == theirs.pop("history")[len(before["history"]) :]
    assert mine == theirs
    # ...and a clone shares no list with it: the twin has not moved.
    assert {k: v for k, v in twin.snapshot().items() if k != "history"} == same


@settings(SETTINGS, max_examples=30)
@given(positions())
def test_the_turn_started_flag_agrees_with_the_history(state: GameState) -> None:
    rng = random.Random(len(state.history))
    while state.phase == Phase.PLAY:
        assert state.turn_started() == _history_says_started(state)
        state.apply(rng.choice(state.legal_actions()))
    assert state.turn_started() == _history_says_started(state)


def test_a_clone_writes_no_record() -> None:
    state = _position(3, 4, 3, 20, Options())
    record_of(state)
    with pytest.raises(SetupError, match="clone"):
        record_of(state.clone())


# ---------------------------------------------------------- determinizer
def _views(state: GameState) -> list[tuple[int, int, View]]:
    return [
        (seat, length, seat_view(state, seat, log_length=length))
        for seat in range(state.n)
        for length in (0, 3, 12)
    ]


def _shown_cards(state: GameState, seat: int) -> Counter[int]:
    """What the seat sees in full: its hand and face-up cards, every shown
    face-up card, the pile and the cleared cards, everyone's known cards."""
    cards: Counter[int] = Counter(state.hand_kinds(seat))
    for s in range(state.n):
        if state.phase != Phase.SETUP or s == seat:
            cards.update(state.up_kinds(s))
        if s != seat:
            cards.update(state.known_kinds(s))
    cards.update(state.pile)
    cards.update(state.cleared)
    return cards


@settings(SETTINGS, max_examples=60)
@given(positions(), st.integers(0, 2**32 - 1))
def test_a_sample_shows_its_seat_the_same_view(state: GameState, seed: int) -> None:
    """Every field of the view is the same (the log too: it is rebuilt from
    the view's own log), and the sample holds the 74 cards."""
    rng = random.Random(seed)
    for seat, length, view in _views(state):
        dealer = Determinizer(view)
        assert Counter(dealer.unseen) == FULL - _shown_cards(state, seat)
        for _ in range(2):
            sample = dealer.sample(rng)
            assert seat_view(sample, seat, log_length=length) == view
            assert sample.count_cards() == 74 and recount(sample) == FULL
            assert Counter(sample.deck) == FULL
            assert sample.moves_played == state.moves_played
            assert sample.turn_started() == state.turn_started()
            if state.phase == Phase.PLAY:
                assert sample.legal_actions() == state.legal_actions() or sample.seat != seat


def test_a_draw_opened_but_not_takeable_is_dealt_as_the_seat_was_told() -> None:
    """After a Clear +1 or +2 with a full hand or an empty draw pile, the
    draw is open but cannot be taken: the seat to act is told why not, and
    a sample must tell it the same."""
    found = 0
    for seed in range(400):
        state = _position(2 + seed % 3, seed, 6, 0, Options())
        rng = random.Random(seed)
        while state.phase == Phase.PLAY and found < 25:
            if state.draw_open and not state.can_draw():
                view = seat_view(state, state.seat)
                assert view.draw_reason and not view.draw_open
                sample = Determinizer(view).sample(rng)
                assert seat_view(sample, state.seat) == view
                found += 1
            state.apply(rng.choice(state.legal_actions()))
    assert found == 25


@settings(SETTINGS, max_examples=30)
@given(positions(), st.integers(0, 2**32 - 1))
def test_a_sample_plays_on_to_the_end(state: GameState, seed: int) -> None:
    rng = random.Random(seed)
    view = seat_view(state, rng.randrange(state.n))
    sample = Determinizer(view).sample(rng)
    for s in range(sample.n):
        if sample.phase == Phase.SETUP and sample.setup[s] is None:
            sample.choose_face_up(s, rng.sample(sample.setup_hand(s), 3))
    while sample.phase == Phase.PLAY:
        legal = sample.legal_actions()
        assert legal
        sample.apply(rng.choice(legal))
        assert sample.count_cards() == 74
    assert recount(sample) == FULL and sample.phase == Phase.OVER


@settings(SETTINGS, max_examples=20)
@given(positions(), st.integers(0, 2**32 - 1))
def test_samples_depend_on_the_view_alone(state: GameState, seed: int) -> None:
    """Two states with the same view (the second dealt from the first's
    view) give the same samples for the same generator: no hidden card of
    the real state can reach a sample."""
    seat = seed % state.n
    view = seat_view(state, seat)
    other = Determinizer(view).sample(random.Random(seed + 1))
    assert seat_view(other, seat) == view
    a = Determinizer(view).sample(random.Random(seed))
    b = Determinizer(seat_view(other, seat)).sample(random.Random(seed))
    assert a.snapshot() == b.snapshot() and a.deck == b.deck


def test_a_spectator_or_a_corrupted_view_is_refused() -> None:
    state = _position(3, 8, 3, 30, Options())
    with pytest.raises(ValueError, match="spectator"):
        Determinizer(seat_view(state, None))
    view = seat_view(state, 0)
    me = view.seats[0]
    doubled = view.pile + view.hand + view.hand + ("G7",) * 3
    with pytest.raises(ViewMismatch, match="more copies"):
        Determinizer(View(**{**_fields(view), "pile": doubled}))
    short = _fields(view) | {"hand": view.hand[:-1]} if view.hand else None
    if short is not None:
        with pytest.raises(ViewMismatch, match="hand size"):
            Determinizer(View(**short))
    bigger = _fields(view) | {"draw_size": view.draw_size + 1}
    with pytest.raises(ViewMismatch, match="places"):
        Determinizer(View(**bigger))
    assert me.hand_size == len(view.hand)


def _fields(view: View) -> dict[str, object]:
    return {name: getattr(view, name) for name in view.__dataclass_fields__}


# ------------------------------------------------------------ chi-square
def _chi2_sf(x: float, dof: int) -> float:
    """P(chi-square with ``dof`` degrees > x), by the Wilson-Hilferty cube
    root (good to a few per cent of the tail probability for dof >= 3)."""
    if x <= 0:
        return 1.0
    h = 2.0 / (9.0 * dof)
    z = ((x / dof) ** (1.0 / 3.0) - (1.0 - h)) / math.sqrt(h)
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def _zone_contents(sample: GameState, dealer: Determinizer) -> list[Counter[int]]:
    """The unseen cards in each of the dealer's zones, read from a sample."""
    out = []
    for zone, s, _size in dealer.zones():
        if zone == HAND:
            c = Counter(sample.hand_kinds(s))
            c.subtract(Counter(sample.known_kinds(s)))
            out.append(+c)
        elif zone == UP:
            out.append(Counter(sample.up_kinds(s)))
        elif zone == DOWN:
            out.append(Counter(k for k in sample.down[s] if k >= 0))
        else:
            assert zone == DRAW_PILE
            out.append(Counter(sample.deck[sample.draw_pos :]))
    return out


CHI_POSITIONS = [
    pytest.param(4, 11, 4, 40, id="4 players, mid-game"),
    pytest.param(2, 5, 2, 60, id="heads-up, after pick-ups"),
    pytest.param(3, 2, 2, 0, id="set-up, two seats chose"),
    pytest.param(5, 3, 5, 400, id="5 players, late"),
]


@pytest.mark.parametrize(("n", "seed", "ready", "moves"), CHI_POSITIONS)
def test_unseen_cards_land_in_each_zone_at_the_expected_rate(
    n: int, seed: int, ready: int, moves: int
) -> None:
    """For each unseen card kind, how many copies fall in each zone over
    2,000 samples, against copies x zone size / places: chi-square, with
    p > 1e-4 per kind (a uniform dealer fails a kind about once in 10,000)."""
    state = _position(n, seed, ready, moves, Options())
    seat = 0
    dealer = Determinizer(seat_view(state, seat))
    zones = dealer.zones()
    sizes = [size for _zone, _s, size in zones]
    places = sum(sizes)
    assert places == len(dealer.unseen)
    assert len([z for z in zones if z[2]]) >= 3, "too few zones to test"
    rng = random.Random(seed)
    samples = 2000
    tally = [Counter[int]() for _ in zones]
    for _ in range(samples):
        for total, found in zip(tally, _zone_contents(dealer.sample(rng), dealer), strict=True):
            total.update(found)
    copies = Counter(dealer.unseen)
    zone_names = {z[0] for z in zones}
    assert DOWN in zone_names and DRAW_PILE in zone_names
    if state.phase == Phase.SETUP:
        assert UP in zone_names
    worst = 1.0
    for kind, count in copies.items():
        chi2 = 0.0
        dof = -1
        for total, size in zip(tally, sizes, strict=True):
            if not size:
                continue
            expected = samples * count * size / places
            chi2 += (total[kind] - expected) ** 2 / expected
            dof += 1
        worst = min(worst, _chi2_sf(chi2, dof))
    assert worst > 1e-4, f"a card kind lands unevenly (p = {worst:.2g})"
