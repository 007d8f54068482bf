"""Build decks, records and games for rules scenarios.

Everything goes through the public record format (record.md), so a
scenario is at the same time a test vector for ``verify``:

- :func:`build_deck` lays out the 74 cards in dealing order;
- :func:`deal` gives a fresh game with chosen face-down, face-up, hand and
  draw-pile cards;
- :func:`drained` gives a game whose draw pile is already exhausted (every
  seat has played three of a kind from its hand until the draw pile ran
  out), with chosen tableaux and hands and a chosen seat to act.

A :class:`Game` applies concrete moves to the engine and keeps the record
in step, so any scenario can also be verified as a record.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from threeup_tui.rules import GameState, IllegalMove, Move, Options, Phase
from threeup_tui.rules.cards import CODES, DECK_SIZE, FULL_DECK, N_KINDS, RANK_OF, parse_code
from threeup_tui.rules.record import FORMAT, Verdict, parse_record, replay, verify

FULL_CODES: tuple[str, ...] = tuple(CODES[k] for k in FULL_DECK)
assert len(FULL_CODES) == 74


def recount(state: GameState) -> Counter[int]:
    """Every card, from the per-seat arrays, the piles and the draw pile."""
    cards: Counter[int] = Counter()
    for s in range(state.n):
        for k in range(N_KINDS):
            cards[k] += state.hand[s][k] + state.up[s][k]
        assert state.hand_size[s] == sum(state.hand[s])
        assert state.up_size[s] == sum(state.up[s])
        for r in range(1, 14):
            assert state.hand_rank[s][r] == sum(
                state.hand[s][k] for k in range(N_KINDS) if RANK_OF[k] == r
            )
            assert bool(state.hand_mask[s] >> r & 1) == bool(state.hand_rank[s][r])
        alive = [k for k in state.down[s] if k >= 0]
        assert state.down_size[s] == len(alive)
        cards.update(alive)
        assert all(0 <= state.known[s][k] <= state.hand[s][k] for k in range(N_KINDS))
    cards.update(state.pile)
    cards.update(state.cleared)
    cards.update(state.deck[state.draw_pos :])
    return cards


FULL = Counter(FULL_DECK)


def rank(code: str) -> int:
    return RANK_OF[parse_code(code)]


def _take(pool: Counter[str], codes: Iterable[str], what: str) -> None:
    for c in codes:
        if pool[c] <= 0:
            raise ValueError(f"scenario uses more {c} than the deck holds ({what})")
        pool[c] -= 1


def _filler(pool: Counter[str], seed: int) -> list[str]:
    rest = sorted(pool.elements())
    random.Random(seed).shuffle(rest)
    return rest


def _as_seats(n: int, spec: Mapping[int, Sequence[str]] | Sequence[Sequence[str]] | None):
    if spec is None:
        return {s: [] for s in range(n)}
    if isinstance(spec, Mapping):
        return {s: list(spec.get(s, ())) for s in range(n)}
    if len(spec) != n:
        raise ValueError("give one list per seat")
    return {s: list(spec[s]) for s in range(n)}


def build_deck(
    n: int,
    down: Mapping[int, Sequence[str]] | Sequence[Sequence[str]] | None = None,
    hands: Mapping[int, Sequence[str]] | Sequence[Sequence[str]] | None = None,
    draw: Sequence[str] = (),
    seed: int = 0,
) -> list[str]:
    """The 74 codes in dealing order (record.md).

    ``down[s]`` are seat ``s``'s face-down slots 0, 1, 2; ``hands[s]`` its six
    dealt cards; ``draw`` the first cards of the draw pile (``draw[0]`` is
    drawn first).  Lists may be short or missing: the rest of the deck fills
    them (a fixed shuffle of the cards not named)."""
    downs = _as_seats(n, down)
    hand6 = _as_seats(n, hands)
    pool = Counter(FULL_CODES)
    for s in range(n):
        if len(downs[s]) > 3 or len(hand6[s]) > 6:
            raise ValueError("3 face-down cards and 6 hand cards per seat")
        _take(pool, downs[s], f"face-down of seat {s}")
        _take(pool, hand6[s], f"hand of seat {s}")
    _take(pool, draw, "draw pile")
    rest = _filler(pool, seed)
    for s in range(n):
        while len(downs[s]) < 3:
            downs[s].append(rest.pop())
        while len(hand6[s]) < 6:
            hand6[s].append(rest.pop())
    deck: list[str] = [""] * (9 * n)
    for s in range(n):
        for k in range(3):
            deck[k * n + s] = downs[s][k]
        for k in range(6):
            deck[3 * n + k * n + s] = hand6[s][k]
    deck.extend(draw)
    deck.extend(rest)
    assert len(deck) == DECK_SIZE and Counter(deck) == Counter(FULL_CODES)
    return deck


def make_record(
    n: int | Sequence[str],
    deck: Sequence[str],
    setup: Sequence[Sequence[str]],
    moves: Sequence[Mapping[str, Any]] = (),
    first: int | None = 0,
    options: Mapping[str, Any] | None = None,
    result: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A ``threeup-record/1`` dict (``first`` None: the field is left out)."""
    players = [f"P{s}" for s in range(n)] if isinstance(n, int) else list(n)
    record: dict[str, Any] = {
        "format": FORMAT,
        "players": players,
        "options": dict(options or {}),
        "deck": list(deck),
        "setup": [list(c) for c in setup],
        "moves": [dict(m) for m in moves],
    }
    if first is not None:
        record["first"] = first
    if result is not None:
        record["result"] = dict(result)
    return record


def verdict_of(record: Mapping[str, Any]) -> Verdict:
    """``verify`` on a JSON round trip of the record."""
    return verify(json.loads(json.dumps(record)))


def replay_record(record: Mapping[str, Any]) -> tuple[GameState, Verdict]:
    return replay(parse_record(json.loads(json.dumps(record))))


def codes_of(kinds: Iterable[int]) -> list[str]:
    return sorted(CODES[k] for k in kinds)


class Game:
    """A game under test: the engine state plus the record of its moves."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        state, verdict = replay_record(record)
        assert verdict.ok, verdict
        self.state = state

    # ------------------------------------------------------------ moves
    def move(self, move: Move) -> Game:
        self.state.apply_move(move)
        self.record["moves"].append(move.to_json())
        return self

    def play(self, seat: int, *codes: str) -> Game:
        return self.move(Move.play(seat, codes))

    def flip(self, seat: int, slot: int) -> Game:
        return self.move(Move.flip(seat, slot))

    def pickup(self, seat: int) -> Game:
        return self.move(Move.pickup(seat))

    def draw(self, seat: int) -> Game:
        return self.move(Move.draw(seat))

    def illegal(self, move: Move, *words: str) -> str:
        """Assert that ``move`` is refused with a message holding ``words``
        (case-insensitive), and that the refusal changed nothing."""
        before = self.state.snapshot()
        with pytest.raises(IllegalMove) as info:
            self.state.apply_move(move)
        message = str(info.value)
        for word in words:
            assert word.lower() in message.lower(), (word, message)
        assert self.state.snapshot() == before
        # And a record holding the move reports it as the first illegal move.
        bad = copy.deepcopy(self.record)
        bad["moves"].append(move.to_json())
        verdict = verdict_of(bad)
        assert not verdict.ok
        assert verdict.move == len(self.record["moves"])
        assert verdict.error == message
        return message

    # ------------------------------------------------------------ queries
    @property
    def seat(self) -> int:
        return self.state.seat

    def hand(self, seat: int) -> list[str]:
        return codes_of(self.state.hand_kinds(seat))

    def up(self, seat: int) -> list[str]:
        return codes_of(self.state.up_kinds(seat))

    def down(self, seat: int) -> list[int]:
        return list(self.state.down[seat])

    def pile(self) -> list[str]:
        return [CODES[k] for k in self.state.pile]

    def cleared(self) -> list[str]:
        return [CODES[k] for k in self.state.cleared]

    def verdict(self) -> Verdict:
        return verdict_of(self.record)

    @property
    def over(self) -> bool:
        return self.state.phase == Phase.OVER


def deal(
    n: int,
    *,
    down: Mapping[int, Sequence[str]] | None = None,
    up: Mapping[int, Sequence[str]] | None = None,
    hand: Mapping[int, Sequence[str]] | None = None,
    draw: Sequence[str] = (),
    first: int = 0,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> Game:
    """A fresh game, set up: seat ``s`` lays ``up[s]`` face up and keeps
    ``hand[s]`` (3 cards each); unnamed cards come from the rest of the deck."""
    ups = _as_seats(n, up)
    hands = _as_seats(n, hand)
    pool = Counter(FULL_CODES)
    for s in range(n):
        _take(pool, ups[s], "face-up")
        _take(pool, hands[s], "hand")
    downs = _as_seats(n, down)
    for s in range(n):
        _take(pool, downs[s], "face-down")
    _take(pool, draw, "draw pile")
    rest = _filler(pool, seed + 1)
    for s in range(n):
        while len(ups[s]) < 3:
            ups[s].append(rest.pop())
        while len(hands[s]) < 3:
            hands[s].append(rest.pop())
    deck = build_deck(n, downs, {s: ups[s] + hands[s] for s in range(n)}, draw, seed=seed)
    record = make_record(n, deck, [ups[s] for s in range(n)], first=first, options=options)
    return Game(record)


def drain_turns(n: int) -> int:
    """Turns of three of a kind it takes to empty the draw pile (3 cards a turn)."""
    return (DECK_SIZE - 9 * n + 2) // 3


def drained(
    n: int,
    *,
    to_act: int = 0,
    up: Mapping[int, Sequence[str]] | None = None,
    down: Mapping[int, Sequence[str]] | None = None,
    hand: Mapping[int, Sequence[str]] | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> Game:
    """A game whose draw pile is empty, with an empty discard pile and
    ``to_act`` to act.

    Every seat starts with three of a kind in hand; seats play them in turn
    (each clears the pile) and draw three new cards, until the draw pile runs
    out.  ``hand[s]`` is the hand a seat then holds: 3 cards, but 2 for the
    seat just before ``to_act`` (it drew the last two cards).  Tableaux are
    untouched: ``up[s]`` face up and ``down[s]`` face down (slots 0, 1, 2)."""
    turns = drain_turns(n)
    first = (to_act - turns) % n
    last = (to_act - 1) % n
    ups = _as_seats(n, up)
    downs = _as_seats(n, down)
    finals = _as_seats(n, hand)
    pool = Counter(FULL_CODES)
    for s in range(n):
        want = 2 if s == last else 3
        if len(finals[s]) > want:
            raise ValueError(f"seat {s} ends the drain with {want} cards in hand")
        _take(pool, ups[s], "face-up")
        _take(pool, downs[s], "face-down")
        _take(pool, finals[s], "hand")
    # Three of a kind for every drain turn, from the cards no one named.
    triples: list[list[str]] = []
    while len(triples) < turns:
        progress = False
        for r in range(1, 11):
            if len(triples) == turns:
                break
            codes = [c for c in sorted(pool.elements()) if rank(c) == r]
            if len(codes) >= 3:
                triple = [codes[0], codes[len(codes) // 2], codes[-1]]
                _take(pool, triple, "drain")
                triples.append(triple)
                progress = True
        if not progress:
            raise ValueError("the scenario leaves too few numbers to drain the draw pile")
    rest = _filler(pool, seed + 2)
    for s in range(n):
        while len(ups[s]) < 3:
            ups[s].append(rest.pop())
        while len(downs[s]) < 3:
            downs[s].append(rest.pop())
        while len(finals[s]) < (2 if s == last else 3):
            finals[s].append(rest.pop())
    assert not rest
    seat_of = [(first + t) % n for t in range(turns)]
    hand6 = {s: ups[s] + triples[(s - first) % n] for s in range(n)}
    draw: list[str] = []
    for t in range(turns):
        draw.extend(triples[t + n] if t + n < turns else finals[seat_of[t]])
    deck = build_deck(n, downs, hand6, draw)
    moves = [{"seat": seat_of[t], "play": triples[t]} for t in range(turns)]
    record = make_record(n, deck, [ups[s] for s in range(n)], moves, first, options)
    game = Game(record)
    st = game.state
    assert st.draw_size() == 0 and not st.pile and st.seat == to_act, "drain went wrong"
    for s in range(n):
        assert Counter(game.hand(s)) == Counter(finals[s])
    return game


def bot_game(
    n: int,
    seed: int,
    options: Options | None = None,
    level: str = "greedy",
) -> GameState:
    """A whole game between bots (each sees only its own view), with options."""
    from threeup_tui.simulate import play_bot_game

    return play_bot_game((level,) * n, seed, options=options)


def _copied(value: Any) -> Any:
    if isinstance(value, list):
        return [_copied(x) for x in value]
    return value  # ints, strings, tuples, enums, frozen options


def clone(state: GameState) -> GameState:
    """An independent copy of a state (cheaper than ``copy.deepcopy``)."""
    new = object.__new__(type(state))
    for name in type(state).__slots__:
        if hasattr(state, name):
            setattr(new, name, _copied(getattr(state, name)))
    return new
