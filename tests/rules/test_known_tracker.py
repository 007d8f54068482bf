"""Known cards, checked against a tracker written from the rules alone.

The tracker below follows a game the way a spectator at the table would:
it sees the deal as counts, every discard (its cards, and whether it came
from the hand or the face-up cards), every face-down card turned over, every
pick-up, every draw as a count, and nothing else.  From ``docs/rules.md``
("Everyone saw what you picked up ... known") and the rules' decisions it
keeps, per seat, the multiset of cards everyone can be certain that hand
holds: a card goes in when everyone sees it enter the hand (a picked-up
pile; a face-down card that could not be played, with the pile, D14), and
each play of k copies of a kind from the hand takes k of that kind out
(never below zero).  It also keeps the hand sizes, the draw pile's size,
the pile and the turn (extra discards D7-D9, the end-of-turn draw D14,
the finish D15/D18) by itself, so that a slip in either the engine or the
tracker shows as a difference.

It shares no code with the engine's bookkeeping: it reads only the moves
(as records write them) and the face-up cards the views show, and ranks
are parsed from the codes here.  At every step every viewer's view (every
seat and a spectator) must show exactly the tracker's known cards, for every
seat: soundness (nothing marked known that not everyone can be sure of) and
completeness (nothing everyone can be sure of left unmarked) at once.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from threeup_tui.rules import GameState, Move, Options, Phase, seat_view
from threeup_tui.rules.actions import is_play, play_count, play_rank
from threeup_tui.rules.cards import CODES
from threeup_tui.rules.views import View

DECK = 74
HAND_TARGET = 3


def rank(code: str) -> int:
    """1-10 for numbers; 11, 12, 13 for Clear, Clear +1, Clear +2 (from the code)."""
    face = code[1:]
    return {"C": 11, "C1": 12, "C2": 13}.get(face) or int(face)


class PublicTracker:
    """What a spectator can be sure of, from public events alone."""

    def __init__(self, players: int, places: bool) -> None:
        self.n = players
        self.places = places
        self.known: list[Counter[str]] = [Counter() for _ in range(players)]
        self.hand_size = [6] * players  # during set-up: the six cards to choose from
        self.draw_size = DECK - 9 * players
        self.pile: list[str] = []
        self.out = [False] * players
        self.owed = 1  # discard actions the seat to act still owes this turn
        self.turns = 0
        self.over = False

    def set_up(self) -> None:
        self.hand_size = [3] * self.n  # three of the six went face up (D2)

    def left_after(self, seat: int, view: View) -> int:
        """Cards the seat holds after a move (face-up and face-down as the view shows)."""
        info = view.seats[seat]
        return self.hand_size[seat] + len(info.face_up) + info.face_down_count

    def move(self, move: Move, after: View) -> None:
        """Follow one move.  ``after``: a spectator's view after it, read only
        for what the table shows everyone (the face-up and face-down cards
        laid out, the card a flip turned over)."""
        seat = move.seat
        if move.kind == "draw":
            self._refill(seat)
            return
        if move.kind == "pickup":
            self._take_pile(seat)
            self._end_turn(seat)
            return
        if move.kind == "flip":
            turned = after.log[-1].cards[0]  # everyone sees the card turned over
            if rank(turned) <= 10 and self.pile and rank(turned) < rank(self.pile[-1]):
                self.pile.append(turned)  # it goes up with the pile
                self._take_pile(seat)
                self._end_turn(seat)
                return
            self._discard(seat, [turned], after)
            return
        if self.hand_size[seat]:  # the hand plays while it holds cards
            self.hand_size[seat] -= len(move.cards)
            for code, copies in Counter(move.cards).items():
                self.known[seat][code] = max(0, self.known[seat][code] - copies)
            self.known[seat] += Counter()  # drop zero counts
        self._discard(seat, list(move.cards), after)

    def _discard(self, seat: int, cards: list[str], after: View) -> None:
        self.pile.extend(cards)
        top = rank(cards[0])
        if top >= 11:
            self.owed += top - 11  # Clear +1: one extra, Clear +2: two (D7, D9)
            self.pile = []
        elif len(self.pile) >= 3 and all(rank(c) == top for c in self.pile[-3:]):
            self.pile = []  # three of a kind, by one player or several
        self.owed -= 1
        if self.left_after(seat, after) == 0:
            self._go_out(seat)
        elif self.owed == 0:
            self._end_turn(seat)

    def _take_pile(self, seat: int) -> None:
        self.known[seat] += Counter(self.pile)  # everyone saw these go into the hand
        self.hand_size[seat] += len(self.pile)
        self.pile = []

    def _refill(self, seat: int) -> None:
        drawn = max(0, min(HAND_TARGET - self.hand_size[seat], self.draw_size))
        self.hand_size[seat] += drawn
        self.draw_size -= drawn

    def _end_turn(self, seat: int) -> None:
        self._refill(seat)  # D14: after a pick-up too
        self._pass()

    def _pass(self) -> None:
        self.owed = 1
        self.turns += 1
        self.over = self.over or self.turns >= 1000  # D16

    def _go_out(self, seat: int) -> None:
        self.out[seat] = True
        holding = [s for s in range(self.n) if not self.out[s]]
        if not self.places or len(holding) == 1:
            self.over = True  # D15
            return
        self._pass()  # D18: the pile stays, the next seat holding cards plays


def check_view(tracker: PublicTracker, view: View, truth: GameState) -> None:
    for s, info in enumerate(view.seats):
        assert Counter(info.known) == tracker.known[s], (
            f"seat {s}'s known cards as seat {view.seat} sees them: {sorted(info.known)}; "
            f"the public events give {sorted(tracker.known[s].elements())}"
        )
        # The tracker is sound by itself: what it calls known is really there.
        held = Counter(CODES[k] for k in truth.hand_kinds(s))
        assert not tracker.known[s] - held, f"the tracker's own slip at seat {s}"
        if view.phase != "setup":
            assert info.hand_size == tracker.hand_size[s]
    assert view.draw_size == tracker.draw_size
    assert list(view.pile) == tracker.pile
    assert (view.phase == "over") == tracker.over
    assert view.turn == tracker.turns


def random_move(state: GameState, rng: random.Random) -> Move:
    """Make a random legal move and return it as a record writes it.  Half
    the plays name random copies of the rank (seen and unseen copies both
    get played); the other half go through the engine's own action ids,
    which pick the copies themselves."""
    seat = state.seat
    legal = state.legal_actions()
    plays = [a for a in legal if is_play(a)]
    action = rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(legal)
    if is_play(action) and rng.random() < 0.5:
        source = state.hand_kinds(seat) if state.hand_size[seat] else state.up_kinds(seat)
        copies = [CODES[k] for k in source if rank(CODES[k]) == play_rank(action)]
        state.apply_move(Move.play(seat, tuple(rng.sample(copies, play_count(action)))))
    else:
        state.apply(action)
    return state.moves(state.moves_played - 1)[0]


def play_and_track(state: GameState, rng: random.Random, moves: int) -> None:
    """Set up and play ``moves`` random moves, checking every view at every step."""
    tracker = PublicTracker(state.n, state.options.finish == "places")
    viewers: list[int | None] = [None, *range(state.n)]
    for s in rng.sample(range(state.n), state.n):
        state.choose_face_up(s, rng.sample(state.setup_hand(s), 3))
        if state.phase == Phase.PLAY:
            tracker.set_up()  # the last choice starts the game
        for viewer in viewers:
            check_view(tracker, seat_view(state, viewer), state)  # nothing known yet
    for _ in range(moves):
        if state.phase != Phase.PLAY:
            break
        move = random_move(state, rng)
        tracker.move(move, seat_view(state, None))
        for viewer in viewers:
            check_view(tracker, seat_view(state, viewer), state)
        if not tracker.over:
            assert seat_view(state, None).to_act is not None


@settings(
    deadline=None,
    max_examples=150,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(2, 4),
    finish=st.sampled_from(["first_out", "places"]),
    voluntary=st.booleans(),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 600),
)
def test_known_cards_are_exactly_what_public_events_show(
    players: int, finish: str, voluntary: bool, seed: int, moves: int
) -> None:
    options = Options(finish=finish, voluntary_pickup=voluntary)
    state = GameState.new([f"p{s}" for s in range(players)], options, seed=seed)
    play_and_track(state, random.Random(seed), moves)


def test_the_tracker_follows_whole_games_to_their_end() -> None:
    """Whole games of every size and finish: the tracker reaches the end with the engine."""
    ended = 0
    for seed in range(24):
        players = 2 + seed % 3
        finish = ("first_out", "places")[seed % 2]
        state = GameState.new([f"p{s}" for s in range(players)], Options(finish=finish), seed)
        play_and_track(state, random.Random(seed), 3000)
        ended += state.phase == Phase.OVER
    assert ended == 24
