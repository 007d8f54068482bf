"""Properties of whole random games (Hypothesis).

Games are driven by a seeded policy over ``legal_actions()`` that mostly
discards (so games end) and sometimes picks any legal action (so pick-ups,
draws and flips all happen).  Example counts are modest: the whole file runs
in a few seconds.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator

from dealing import FULL, FULL_CODES, clone, recount
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import SOAK, examples

from threeup_tui.rules import (
    FLIP,
    GameState,
    IllegalMove,
    Move,
    Options,
    Phase,
    parse_record,
    play_action,
    record_of,
    replay,
    seat_view,
    verify,
    view_from_json,
    view_to_json,
    views,
)
from threeup_tui.rules.cards import CODES, DECK_SIZE, N_KINDS, RANK_OF
from threeup_tui.rules.state import E_OUT, E_TURN_END, M_FLIP, M_PLAY
from threeup_tui.simulate import play_bot_game

CODE_SET = frozenset(FULL_CODES) | {"RC2", "BC2"}
ALL_IDS = range(0, 128)

SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=not SOAK,
)


@st.composite
def games(draw: st.DrawFn) -> tuple[GameState, random.Random]:
    n = draw(st.integers(2, 6), label="players")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    options = Options(
        first=draw(st.one_of(st.none(), st.integers(0, n - 1)), label="first"),
        voluntary_pickup=draw(st.booleans(), label="voluntary_pickup"),
        finish=draw(st.sampled_from(["first_out", "places"]), label="finish"),
    )
    state = GameState.new([f"p{s}" for s in range(n)], options, seed=seed)
    return state, random.Random(draw(st.integers(0, 2**32 - 1), label="policy"))


def choose_face_up(state: GameState, rng: random.Random) -> None:
    for s in rng.sample(range(state.n), state.n):
        state.choose_face_up(s, rng.sample(state.setup_hand(s), 3))


def policy(state: GameState, rng: random.Random) -> int:
    legal = state.legal_actions()
    plays = [a for a in legal if a < FLIP]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.choice(legal)


def steps(state: GameState, rng: random.Random, limit: int = 5000) -> Iterator[int]:
    """Play the game, yielding before each action (the action to be made)."""
    choose_face_up(state, rng)
    for _ in range(limit):
        if state.phase != Phase.PLAY:
            return
        action = policy(state, rng)
        yield action
        state.apply(action)


@settings(SETTINGS, max_examples=40)
@given(games())
def test_every_card_is_accounted_for_after_every_action(game) -> None:
    state, rng = game
    assert state.count_cards() == 74 and recount(state) == FULL
    for _action in steps(state, rng):
        assert state.legal_actions(), "no legal action while the game goes on"
        assert state.count_cards() == DECK_SIZE
        assert recount(state) == FULL
    # Once the loop ends, the game is over (no game runs past the turn cap).
    assert state.count_cards() == 74 and recount(state) == FULL
    assert state.phase == Phase.OVER
    assert state.legal_actions() == []
    assert state.turns <= 1000
    if state.winner is None:
        assert state.turns == 1000


@settings(SETTINGS, max_examples=40)
@given(games())
def test_turns_count_each_pass_and_the_draw_tops_up(game) -> None:
    state, rng = game
    choose_face_up(state, rng)
    while state.phase == Phase.PLAY:
        seat, turns = state.seat, state.turns
        state.apply(policy(state, rng))
        effects = state.history[-1][3]
        assert state.turns in (turns, turns + 1)
        passed = state.turns == turns + 1
        assert passed == bool(effects & E_TURN_END or (effects & E_OUT and state.turns > turns))
        if state.phase == Phase.PLAY:
            assert (state.seat != seat) == passed
            assert not state.out[state.seat]
        if passed:
            # D14: whoever ended a turn holds 3 cards, or the draw pile is empty.
            assert state.hand_size[seat] >= 3 or state.draw_size() == 0
            if state.phase == Phase.PLAY:
                assert state.extra_discards() == 0
    assert state.legal_actions() == []


@settings(SETTINGS, max_examples=15)
@given(games())
def test_legal_actions_apply_and_all_others_raise(game) -> None:
    state, rng = game
    for i, _action in enumerate(steps(state, rng, limit=300)):
        if i % 3:
            continue
        before = state.snapshot()
        legal = set(state.legal_actions())
        assert legal
        for action in ALL_IDS:
            if action in legal:
                continue
            try:
                state.apply(action)
            except IllegalMove as err:
                assert str(err)
            else:
                raise AssertionError(f"action {action} is not legal but was applied")
        assert state.snapshot() == before
        for action in legal:
            copied = clone(state)
            assert copied.snapshot() == before
            copied.apply(action)
            assert copied.count_cards() == 74
            assert recount(copied) == FULL
        assert state.snapshot() == before


def _concrete_plays(state: GameState, s: int) -> list[tuple[str, list[str]]]:
    """Plays of the seat's own cards: every rank and count, from the hand and
    from the face-up cards."""
    out = []
    for source, counts in (("hand", state.hand[s]), ("face-up", state.up[s])):
        cards = [k for k in range(N_KINDS) for _ in range(counts[k])]
        for rank in range(1, 14):
            same = [k for k in cards if RANK_OF[k] == rank]
            for c in range(1, len(same) + 1):
                out.append((source, [CODES[k] for k in same[:c]]))
    return out


def _source(state: GameState, s: int) -> str:
    if state.hand_size[s]:
        return "hand"
    if state.draw_size():
        return "none"
    return "face-up" if state.up_size[s] else "face-down"


@settings(SETTINGS, max_examples=20)
@given(games())
def test_apply_move_accepts_a_play_iff_its_action_is_legal(game) -> None:
    state, rng = game
    for i, _action in enumerate(steps(state, rng, limit=400)):
        if i % 2:
            continue
        s = state.seat
        legal = set(state.legal_actions())
        before = state.snapshot()
        current = _source(state, s)
        held = (
            Counter(
                CODES[k] for k in (state.hand_kinds(s) if current == "hand" else state.up_kinds(s))
            )
            if current in ("hand", "face-up")
            else Counter()
        )
        for _source_name, codes in _concrete_plays(state, s):
            rank = RANK_OF[CODES.index(codes[0])]
            expected = not Counter(codes) - held and play_action(rank, len(codes)) in legal
            target = clone(state) if expected else state
            try:
                target.apply_move(Move.play(s, codes))
            except IllegalMove as err:
                assert not expected, (codes, str(err))
                assert str(err)
            else:
                assert expected, (current, codes, sorted(legal))
                assert target.count_cards() == 74
                assert recount(target) == FULL
        # Plays that are never legal: another seat's turn, two numbers at
        # once, a card not held, a card that is not in the deck.
        other = (s + 1) % state.n
        hand = [CODES[k] for k in state.hand_kinds(s)]
        bad = [Move.play(other, hand[:1] or ["R1"]), Move.play(s, ["RC2"]), Move.play(s, [])]
        ranks_held = {RANK_OF[CODES.index(c)]: c for c in hand}
        if len(ranks_held) >= 2:
            bad.append(Move.play(s, list(ranks_held.values())[:2]))
        missing = [c for c in FULL_CODES if c not in hand and state.up[s][CODES.index(c)] == 0]
        bad.append(Move.play(s, missing[:1]))
        for move in bad:
            try:
                state.apply_move(move)
            except IllegalMove:
                pass
            else:
                raise AssertionError(f"{move} was accepted")
        assert state.snapshot() == before


@settings(SETTINGS, max_examples=30)
@given(games())
def test_a_record_replays_the_game_exactly(game) -> None:
    state, rng = game
    for _action in steps(state, rng):
        pass
    record = record_of(state)
    data = json.loads(json.dumps(record.to_json()))
    replayed, verdict = replay(parse_record(data))
    assert verdict.ok, verdict
    assert verdict.finished == (state.phase == Phase.OVER)
    assert verdict.winner == state.winner
    assert verdict.moves == len(state.history)
    assert replayed.snapshot() == state.snapshot()
    assert verify(data) == verdict


@settings(SETTINGS, max_examples=20)
@given(games(), st.integers(1, 400))
def test_a_record_cut_short_replays_the_game_so_far(game, cut: int) -> None:
    state, rng = game
    for i, _action in enumerate(steps(state, rng)):
        if i == cut:
            break
    data = json.loads(json.dumps(record_of(state, with_result=False).to_json()))
    replayed, verdict = replay(parse_record(data))
    assert verdict.ok and verdict.finished == (state.phase == Phase.OVER)
    if state.phase != Phase.OVER:
        assert verdict.winner is None
    assert replayed.snapshot() == state.snapshot()


def _codes_in(value: object) -> Counter[str]:
    found: Counter[str] = Counter()

    def walk(v: object) -> None:
        if isinstance(v, str):
            if v in CODE_SET:
                found[v] += 1
        elif isinstance(v, list | tuple):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for key, x in v.items():
                walk(key)
                walk(x)

    walk(value)
    return found


def _public(state: GameState, seat: int | None, log_length: int = 12) -> Counter[str]:
    """What ``seat`` may know, computed from the state itself."""
    cards: Counter[str] = Counter()
    if seat is not None:
        cards.update(CODES[k] for k in state.hand_kinds(seat))
    for s in range(state.n):
        if state.phase != Phase.SETUP or s == seat:
            cards.update(CODES[k] for k in state.up_kinds(s))
        cards.update(CODES[k] for k in state.known_kinds(s))
    cards.update(CODES[k] for k in state.pile)
    cards.update(CODES[k] for k in state.cleared)
    for _seat, mtype, arg, _effects, detail in state.history[-log_length:]:
        if mtype == M_PLAY:
            cards.update(CODES[k] for k in arg)  # type: ignore[union-attr]
        elif mtype == M_FLIP:
            cards[CODES[detail & 0xFF]] += 1
    return cards


def _check_views(state: GameState) -> None:
    for seat in [*range(state.n), None]:
        view = seat_view(state, seat)
        data = json.loads(json.dumps(view_to_json(view)))
        assert view_from_json(data) == view
        shown = _codes_in(data)
        allowed = _public(state, seat)
        assert not shown - allowed, (seat, shown - allowed)
        if seat is None:
            assert data["hand"] == []
        else:
            assert Counter(data["hand"]) == Counter(CODES[k] for k in state.hand_kinds(seat))
        for s, info in enumerate(data["seats"]):
            assert all(flag in (0, 1) for flag in info[2])
            assert sum(info[2]) == state.down_size[s]
            if s != seat:
                assert not Counter(info[3]) - Counter(CODES[k] for k in state.hand_kinds(s))
                if state.phase == Phase.SETUP:
                    assert info[1] == []
        if seat is None or state.seat != seat or state.phase != Phase.PLAY:
            assert data["legal"] == []


@settings(SETTINGS, max_examples=15)
@given(games())
def test_views_hold_no_hidden_card(game) -> None:
    state, rng = game
    n = state.n
    _check_views(state)
    order = rng.sample(range(n), n)
    for s in order:
        state.choose_face_up(s, rng.sample(state.setup_hand(s), 3))
        _check_views(state)
    for i in range(3000):
        if state.phase != Phase.PLAY:
            break
        if i % 4 == 0:
            _check_views(state)
        state.apply(policy(state, rng))
    _check_views(state)


@settings(SETTINGS, max_examples=10)
@given(
    st.lists(st.sampled_from(["greedy", "random"]), min_size=2, max_size=6),
    st.integers(0, 10**6),
)
def test_bot_games_produce_records_that_verify(levels: list[str], seed: int) -> None:
    state = play_bot_game(tuple(levels), seed)
    assert state.phase == Phase.OVER
    data = json.loads(json.dumps(record_of(state).to_json()))
    verdict = verify(data)
    assert verdict.ok and verdict.finished
    assert verdict.winner == state.winner
    assert verdict.moves == len(state.history)


def _fresh_view(state: GameState, seat: int | None, log_length: int) -> object:
    """A view built with the shared-part caches emptied first."""
    views._public_cache[:] = [None, -1, -1, None]
    views._log_cache[:] = [None, -1, -1, ()]
    return seat_view(state, seat, log_length)


# Each example asks for every viewer's view at every action of a whole game,
# each built afresh too.  A shared part kept after a move, or across log
# lengths, fails at the first example; CI runs 5 (15 before), a soak 60.
@settings(SETTINGS, max_examples=examples(ci=5, soak=60))
@given(games())
def test_views_sharing_one_public_part_equal_views_built_afresh(game) -> None:
    """After set-up the views of all seats share one public part, built once
    per move (and the recent log is shifted rather than rebuilt): asking in
    any order, with any log length, gives what a fresh build gives, and a
    change to the game is never missed."""
    state, rng = game
    viewers = [*range(state.n), None]
    for _ in steps(state, rng):
        asked = rng.sample(viewers, len(viewers))
        lengths = [rng.choice((0, 1, 6, 12, None)) for _ in asked]
        shared = [seat_view(state, s, n) for s, n in zip(asked, lengths, strict=True)]
        for s, n, view in zip(asked, lengths, shared, strict=True):
            assert view == _fresh_view(state, s, n)
        # The shared objects are the same for every viewer with one length.
        twelve = [seat_view(state, s, 12) for s in viewers]
        if state.phase != Phase.SETUP:
            assert all(v.seats is twelve[0].seats and v.log is twelve[0].log for v in twelve)
